#!/usr/bin/env python3
"""The washer's updates, measured: a state change on a database file, pushing a large outbox to
the loopback reference server, and an import while changes are pending.

    swift build -c release
    python3 bench/sync.py                    # 100k visits for the import (as bench/run.py's data)
    python3 bench/sync.py --visits 20000     # a smaller import

Prints a markdown table with the goals (PASS/FAIL) and exits 1 when one fails:

- `visits.set_state` median under 1 ms on a database file of 2,000 visits, 100 a day (500
  changes, each its own commit);
- pushing 10,000 pending changes (20 requests of 500) to the reference server under 2 s;
- an import of 100k visits with 1,000 changes pending no more than 10% slower than without
  (medians of 3 imports each, alternated).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "bindings" / "python"))
sys.path.insert(0, str(ROOT / "examples" / "servers"))

import carfit  # noqa: E402
from sync_server import SyncServer  # noqa: E402

CONFIG = {"now": "2020-09-10T07:00:00Z", "timeZone": "UTC", "hour24": True}


def synthetic(count: int, per_day: int = 100) -> dict:
    """`count` Todo visits with their own ids, `per_day` a day from 2020-09-10 on, spread over
    each day's hours."""
    def start(i: int) -> str:
        day = dt.date(2020, 9, 10) + dt.timedelta(days=i // per_day)
        n = i % per_day
        return f"{day.isoformat()}T{6 + n % 12:02d}:{(n // 12) % 60:02d}:{(n // 720) % 60:02d}Z"
    return {"data": [{"visitId": f"v{i:06d}", "startTimeUtc": start(i), "visitState": "Todo",
                      "houseOwnerFirstName": f"Owner {i}"} for i in range(count)]}


def keys(core, day="2020-09-10"):
    return [c["key"] for c in core.list_visits(dates=[day])["days"][0]["visits"]]


def all_keys(core, document: dict) -> list:
    days = sorted({r["startTimeUtc"][:10] for r in document["data"]})
    return [c["key"] for d in core.list_visits(dates=days)["days"] for c in d["visits"]]


def bench_set_state(work: Path) -> float:
    document = synthetic(2000)
    with carfit.Core(dict(CONFIG, database=str(work / "set_state.db"))) as core:
        core.import_visits(document)
        times = []
        for key in all_keys(core, document)[:500]:
            start = time.perf_counter()
            core.set_visit_state(key, "InProgress")
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def bench_push(work: Path) -> float:
    document = synthetic(10_000)
    with SyncServer(visits=document, idle_timeout=300) as server:
        config = dict(CONFIG, database=str(work / "push.db"), sources={"visitUpdates": server.url()})
        with carfit.Core(config) as core:
            core.import_visits(document)
            for key in all_keys(core, document):
                core.set_visit_state(key, "InProgress")
            start = time.perf_counter()
            result = core.push()
            elapsed = time.perf_counter() - start
            assert result == {"pushed": 10_000, "rejected": 0, "pending": 0}, result
    return elapsed


def visits_file(visits: int) -> Path:
    data = HERE / "data"
    data.mkdir(exist_ok=True)
    path = data / f"visits-{visits}.json"
    if not path.exists():
        subprocess.run([sys.executable, str(HERE / "gen_visits.py"), "--visits", str(visits), "--clients", "10000",
                        "--days", "365", "--washers", "30", "--seed", "42", "--out", str(path)], check=True)
    return path


def bench_import(work: Path, visits: int, rounds: int = 3) -> tuple[float, float]:
    text = visits_file(visits).read_text(encoding="utf-8")
    plain = carfit.Core(dict(CONFIG, database=str(work / "plain.db")))
    pending = carfit.Core(dict(CONFIG, database=str(work / "pending.db")))
    plain.call_text("visits.import", text)
    pending.call_text("visits.import", text)
    # 1,000 changes pending, spread over the data's days.
    changed = 0
    for day in sorted({r["startTimeUtc"][:10] for r in json.loads(text)["data"]}):
        for key in keys(pending, day):
            if changed == 1000:
                break
            try:
                pending.set_visit_state(key, "Rejected")
                changed += 1
            except carfit.ConflictError:
                pass
        if changed == 1000:
            break
    assert pending.sync_status()["pending"] == 1000
    with_pending, without = [], []
    for _ in range(rounds):
        for core, out in ((plain, without), (pending, with_pending)):
            start = time.perf_counter()
            core.call_text("visits.import", text)
            out.append(time.perf_counter() - start)
    plain.close()
    pending.close()
    return statistics.median(without), statistics.median(with_pending)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visits", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        set_state_ms = bench_set_state(work)
        push_s = bench_push(work)
        without, with_pending = bench_import(work, args.visits)
    slower = with_pending / without - 1
    rows = [
        ("visits.set_state median (file database)", f"{set_state_ms:.3f} ms", "< 1 ms", set_state_ms < 1),
        ("sync.push of 10,000 pending (20 requests)", f"{push_s:.2f} s", "< 2 s", push_s < 2),
        (f"import {args.visits:,} visits, none pending", f"{without:.2f} s", "", True),
        (f"import {args.visits:,} visits, 1,000 pending", f"{with_pending:.2f} s ({slower:+.1%})", "<= +10%", slower <= 0.10),
    ]
    print("| measurement | result | goal | |\n|---|---|---|---|")
    for name, result, goal, ok in rows:
        print(f"| {name} | {result} | {goal} | {'PASS' if ok or not goal else 'FAIL'} |")
    return 0 if all(ok for *_, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
