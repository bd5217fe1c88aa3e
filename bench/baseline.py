#!/usr/bin/env python3
"""Reference (b) of the benchmark: the same job as libcarfit, written plainly in Python.

Load a visits API document into SQLite with ``json`` and ``sqlite3``, then build one day's
cards as JSON text with the fields of ``visits.list`` (distances by haversine). No tricks:
this is the program a host author would write first.

    python3 bench/baseline.py ingest VISITS.json DB.sqlite
    python3 bench/baseline.py query DB.sqlite 2020-09-10 [2020-09-11 ...]
    python3 bench/baseline.py rerender DB.sqlite 2020-09-10 [2020-09-11 ...]

Each command prints one JSON line of measurements (``bench/run.py`` reads it).
"""

from __future__ import annotations

import json
import math
import resource
import sqlite3
import statistics
import sys
import time
from datetime import date, datetime, time as clock_time, timedelta, timezone
from zoneinfo import ZoneInfo

ZONE = ZoneInfo("Europe/Copenhagen")

SCHEMA = """
CREATE TABLE IF NOT EXISTS visits (
    seq INTEGER PRIMARY KEY,
    visit_id TEXT,
    employee_id TEXT,
    start_ms INTEGER NOT NULL,
    name TEXT NOT NULL,
    state TEXT,
    expected_time TEXT,
    tasks TEXT NOT NULL,
    task_minutes INTEGER NOT NULL,
    address TEXT NOT NULL,
    phone TEXT,
    latitude REAL,
    longitude REAL
);
CREATE INDEX IF NOT EXISTS visits_by_start ON visits (start_ms, seq);
"""

STATES = {"todo": "Todo", "inprogress": "InProgress", "done": "Done", "rejected": "Rejected"}
COLORS = {"Todo": "#4E77D6", "InProgress": "#F5C709", "Done": "#25A87B", "Rejected": "#EF6565"}
OTHER_COLOR = "#8E8E93"


def join(*parts):
    """Trimmed non-empty parts joined with one space."""
    return " ".join(p.strip() for p in parts if isinstance(p, str) and p.strip())


def canonical_state(state):
    if state is None:
        return None
    letters = "".join(c for c in state.lower() if "a" <= c <= "z")
    return STATES.get(letters, state)


def parse_start(text):
    """ms since the epoch of an ISO 8601 instant; no zone means UTC."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return int(moment.timestamp() * 1000)


def row(seq, visit):
    tasks = visit.get("tasks") or []
    return (
        seq,
        visit.get("visitId"),
        visit.get("homeBobEmployeeId"),
        parse_start(visit["startTimeUtc"]),
        join(visit.get("houseOwnerFirstName"), visit.get("houseOwnerLastName")),
        canonical_state(visit.get("visitState")),
        visit.get("expectedTime"),
        ", ".join(t["title"].strip() for t in tasks if t.get("title") and t["title"].strip()),
        sum(t.get("timesInMinutes") or 0 for t in tasks),
        join(visit.get("houseOwnerAddress"), visit.get("houseOwnerZip"), visit.get("houseOwnerCity")),
        visit.get("houseOwnerMobilePhone"),
        visit.get("houseOwnerLatitude"),
        visit.get("houseOwnerLongitude"),
    )


def valid(visit):
    if not isinstance(visit, dict) or not isinstance(visit.get("startTimeUtc"), str):
        return False
    lat, lon = visit.get("houseOwnerLatitude"), visit.get("houseOwnerLongitude")
    return (lat is None or -90 <= lat <= 90) and (lon is None or -180 <= lon <= 180)


def ingest(path, db_path):
    """Replace the stored visits with the document's valid records; returns the count."""
    con = sqlite3.connect(db_path)
    con.executescript(SCHEMA)
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    visits = [v for v in document["data"] if valid(v)]
    with con:
        con.execute("DELETE FROM visits")
        con.executemany("INSERT INTO visits VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        (row(i, v) for i, v in enumerate(visits)))
    con.close()
    return len(visits)


def haversine(lat1, lon1, lat2, lon2):
    r = 6371008.8
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))


def kilometres(meters):
    return ((meters + 50) // 100) / 10


def summary(cards):
    meters = sum(c["distanceMeters"] or 0 for c in cards)
    return {"visits": len(cards), "taskMinutes": sum(c["taskMinutes"] for c in cards),
            "distanceMeters": meters, "distanceKm": kilometres(meters)}


def day_cards(con, day):
    """The cards of one local day, in start order."""
    start = datetime.combine(day, clock_time(), tzinfo=ZONE)
    end = datetime.combine(day + timedelta(days=1), clock_time(), tzinfo=ZONE)
    rows = con.execute(
        "SELECT visit_id, employee_id, start_ms, name, state, expected_time, tasks, task_minutes,"
        " address, phone, latitude, longitude FROM visits"
        " WHERE start_ms >= ? AND start_ms < ? ORDER BY start_ms, seq",
        (int(start.timestamp() * 1000), int(end.timestamp() * 1000)))
    cards = []
    previous = None
    for (visit_id, employee_id, start_ms, name, state, expected, tasks, minutes,
         address, phone, lat, lon) in rows:
        meters = None
        if previous and None not in (previous[0], previous[1], lat, lon):
            meters = round(haversine(previous[0], previous[1], lat, lon))
        moment = datetime.fromtimestamp(start_ms / 1000, timezone.utc)
        cards.append({
            "visitId": visit_id,
            "name": name,
            "state": state,
            "stateColor": COLORS.get(state, OTHER_COLOR),
            "startTime": moment.astimezone(ZONE).strftime("%H:%M"),
            "startTimeUtc": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "expectedTime": expected,
            "tasks": tasks,
            "taskMinutes": minutes,
            "address": address,
            "phone": phone,
            "latitude": lat,
            "longitude": lon,
            "employeeId": employee_id,
            "distanceMeters": meters,
            "distanceKm": None if meters is None else kilometres(meters),
        })
        previous = (lat, lon)
    return cards


def list_visits(con, days):
    """The JSON text of the days' cards, shaped like visits.list."""
    sheets = []
    for day in days:
        cards = day_cards(con, day)
        sheets.append({"date": day.isoformat(), "visits": cards, "summary": summary(cards)})
    total = summary([c for s in sheets for c in s["visits"]])
    return json.dumps({"days": sheets, "summary": total}, ensure_ascii=False)


def rerender(con, days):
    """The day query right after one of that day's cards changed: for each day, its cards are
    built (as the host shows them), a Todo card of it is set to InProgress by an UPDATE,
    committed (not timed), and the day is built again (timed). Returns the times."""
    times = []
    for day in days:
        list_visits(con, [day])
        start = datetime.combine(day, clock_time(), tzinfo=ZONE)
        end = datetime.combine(day + timedelta(days=1), clock_time(), tzinfo=ZONE)
        todo = con.execute(
            "SELECT seq FROM visits WHERE start_ms >= ? AND start_ms < ? AND state = 'Todo'"
            " ORDER BY start_ms, seq LIMIT 1",
            (int(start.timestamp() * 1000), int(end.timestamp() * 1000))).fetchone()
        if todo is None:
            continue
        with con:
            con.execute("UPDATE visits SET state = 'InProgress' WHERE seq = ?", todo)
        started = time.perf_counter()
        list_visits(con, [day])
        times.append(time.perf_counter() - started)
    return times


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv):
    command, *args = argv
    if command == "ingest":
        path, db_path = args
        started = time.perf_counter()
        count = ingest(path, db_path)
        seconds = time.perf_counter() - started
        print(json.dumps({"visits": count, "seconds": seconds, "peakRssMiB": peak_rss_mib()}))
    elif command == "query":
        db_path, *texts = args
        days = [date.fromisoformat(t) for t in texts]
        con = sqlite3.connect(db_path)
        list_visits(con, days[:1])  # warm the statement cache and the page cache
        times, cards = [], 0
        for day in days:
            started = time.perf_counter()
            text = list_visits(con, [day])
            times.append(time.perf_counter() - started)
            cards += json.loads(text)["summary"]["visits"]
        print(json.dumps({"times": times, "cards": cards, "median": statistics.median(times)}))
    elif command == "rerender":
        db_path, *texts = args
        con = sqlite3.connect(db_path)
        list_visits(con, [date.fromisoformat(texts[0])])  # warm the statement cache and the page cache
        times = rerender(con, [date.fromisoformat(t) for t in texts])
        print(json.dumps({"times": times, "changes": len(times)}))
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
