"""A database written by libcarfit 1.2 (Tests/CarFitStoreTests/Fixtures/database-1.2.sqlite, made
by make-database-1.2.py there with the 1.2 library) opens with this library, which converts its
articles' tags and content and the push's last failure from JSON text to columns, and answers as
1.2 did (answers-1.2.json): the same articles with their tags and blocks, the same sync status,
the same day list. Then it goes on working: the pending change is still pushed, a new import
replaces the old articles."""
import json
import shutil
import sqlite3
from pathlib import Path

import carfit

FIXTURES = Path(__file__).resolve().parents[3] / "Tests/CarFitStoreTests/Fixtures"
NOW = "2020-09-10T07:00:00Z"


def opened(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copyfile(FIXTURES / "database-1.2.sqlite", path)
    return path, carfit.Core(database=str(path), now=NOW, timeZone="UTC",
                             sources={"visitUpdates": "http://127.0.0.1:1/updates"})


def test_a_1_2_database_answers_as_it_did(lib, tmp_path):
    expected = json.loads((FIXTURES / "answers-1.2.json").read_text())
    path, core = opened(tmp_path)
    try:
        assert core.call("articles.list") == expected["articles"]
        assert core.sync_status() == expected["sync"]
        # 1.3 adds two members to every card: whether the planner removed it, and its conflict;
        # 1.4 the states it may become (the contract's state machine).
        machine = json.loads((FIXTURES.parents[2] / "include/carfit.schema.json").read_text())["$defs"]["visitState"]
        for day in expected["visits"]["days"]:
            for card in day["visits"]:
                card.update(removed=False, conflict=None,
                            nextStates=machine["nextStates"].get(card["state"], []) if card["visitId"] else [])
        assert core.list_visits(["2020-09-10"]) == expected["visits"]
        tags = expected["articles"]["articles"][0]["tags"]
        assert tags == ["tyres", "winter", 3, 2.5, True, None, {"a": [1, "b"], "c": {}}, []]
        assert isinstance(tags[3], float) and isinstance(tags[2], int)
    finally:
        core.close()
    con = sqlite3.connect(str(path))
    try:
        columns = {table: [row[1] for row in con.execute(f"PRAGMA table_info({table})")]
                   for table in ("articles", "sync_state")}
        assert "tags" not in columns["articles"] and "content" not in columns["articles"]
        assert "last_error" not in columns["sync_state"]
        texts = [value for (value,) in con.execute("SELECT value FROM article_tags WHERE kind = 'text'")]
        assert texts == ["tyres", "winter", "b"]
    finally:
        con.close()


def test_a_1_2_database_goes_on_working(lib, tmp_path):
    path, core = opened(tmp_path)
    try:
        assert core.sync_status()["pending"] == 1
        core.import_articles({"status": "success", "content": [
            {"id": 1, "title": "New", "dateTime": "09.09.2020 10:00", "tags": [{"k": "v"}, "x"],
             "content": [{"type": "text", "subject": "s", "description": "d"}]}]})
        listed = core.call("articles.list")["articles"]
        assert [(a["id"], a["tags"], a["content"]) for a in listed] == [
            (1, [{"k": "v"}, "x"], [{"type": "text", "subject": "s", "description": "d"}])]
    finally:
        core.close()
    # Reopened: the same answers from the columns.
    core = carfit.Core(database=str(path), now=NOW, timeZone="UTC")
    try:
        assert core.call("articles.list")["articles"][0]["tags"] == [{"k": "v"}, "x"]
        assert core.sync_status()["lastError"]["reason"] == "refused"
    finally:
        core.close()
