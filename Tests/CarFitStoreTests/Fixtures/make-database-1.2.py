#!/usr/bin/env python3
"""Writes database-1.2.sqlite, a database as libcarfit 1.2 left it (articles whose tags and
content were kept as JSON text, a push's last failure as JSON text, visits and a pending change),
with the 1.2 library named by CARFIT_LIBRARY. The tests open it with the current library and
expect the answers of answers-1.2.json, recorded here with 1.2.

    CARFIT_LIBRARY=/path/to/1.2/libcarfit.so python3 make-database-1.2.py
"""
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "bindings/python"))
import carfit  # noqa: E402

DATABASE = HERE / "database-1.2.sqlite"
NOW = "2020-09-10T07:00:00Z"

ARTICLES = {"status": "success", "content": [
    {"id": 7, "title": "Winter tyres", "ingress": "Time to change", "image": "https://img.example/7.jpg",
     "dateTime": "10.09.2020 08:00", "tags": ["tyres", "winter", 3, 2.5, True, None, {"a": [1, "b"], "c": {}}, []],
     "content": [{"type": "text", "subject": "Q7", "description": "Grip \"on\" ice ✓"},
                 {"type": None, "subject": "", "description": None}, {}]},
    {"id": "x-1", "title": "Å new shop", "dateTime": "01.09.2020 12:30", "tags": None},
    {"id": 12, "title": "Empty", "dateTime": "01.09.2020 12:30", "tags": [], "content": []},
]}

VISITS = {"data": [
    {"visitId": "v1", "startTimeUtc": "2020-09-10T08:00:00Z", "visitState": "Todo", "houseOwnerFirstName": "Ann",
     "houseOwnerLastName": "Berg", "houseOwnerAddress": "Main 1", "houseOwnerZip": "1000", "houseOwnerCity": "Town"},
    {"visitId": "v2", "startTimeUtc": "2020-09-10T10:00:00Z", "visitState": "Todo"},
]}


def main():
    if DATABASE.exists():
        DATABASE.unlink()
    for suffix in ("-wal", "-shm"):
        Path(str(DATABASE) + suffix).unlink(missing_ok=True)
    core = carfit.Core(database=str(DATABASE), now=NOW, timeZone="UTC",
                       sources={"visitUpdates": "http://127.0.0.1:1/updates"})
    core.import_articles(ARTICLES)
    core.import_visits(VISITS)
    key = core.list_visits(["2020-09-10"])["days"][0]["visits"][0]["key"]
    core.set_visit_state(key, "InProgress")
    try:
        core.push()
    except carfit.UnavailableError:
        pass
    answers = {"articles": core.call("articles.list"), "sync": core.sync_status(),
               "visits": core.list_visits(["2020-09-10"])}
    core.close()
    con_checkpoint(DATABASE)
    (HERE / "answers-1.2.json").write_text(json.dumps(answers, indent=1, ensure_ascii=False, sort_keys=True) + "\n")


def con_checkpoint(path):
    """Folds the write-ahead log into the file and packs it into small pages, so the fixture is
    one small file (its tables and rows as 1.2 wrote them)."""
    import sqlite3
    con = sqlite3.connect(str(path))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode = DELETE")
    con.execute("PRAGMA page_size = 512")
    con.execute("VACUUM")
    con.close()
    Path(str(path) + "-sync.lock").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
