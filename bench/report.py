#!/usr/bin/env python3
"""Time on the job and time to leave from Python: ``reminders.list`` and ``report.day`` of a
30-visit day (every visit started, most finished, arrivals on half of them), and
``report.durations`` over 10,000 finished visits.

    python3 bench/report.py
    python3 bench/report.py --finished 10000 --rounds 200

The library under test is the binding's (``$CARFIT_LIBRARY``, else ``.build/release``). The
database is a temporary file. Prints each operation's median and p99 in milliseconds; writes
nothing else.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "bindings" / "python"))
if "CARFIT_LIBRARY" not in os.environ:
    os.environ["CARFIT_LIBRARY"] = str(BENCH.parent / ".build" / "release" / "libcarfit.so")

import carfit  # noqa: E402

DAY_MS = 86_400_000
DAY0 = 1_599_696_000_000  # 2020-09-10T00:00:00Z
TITLES = ["Wash", "Polish", "Interior", "Wax", "Tyres", "Windows"]


def iso(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + "Z"


def visit(i: int, start: int, rng: random.Random) -> dict:
    return {"visitId": f"v{i}", "startTimeUtc": iso(start), "visitState": "Todo",
            "houseOwnerFirstName": f"Client {i}", "houseOwnerAddress": f"Street {i}",
            "houseOwnerLatitude": 55.6 + rng.random() / 5, "houseOwnerLongitude": 12.4 + rng.random() / 3,
            "tasks": [{"title": rng.choice(TITLES), "timesInMinutes": rng.randint(5, 60)} for _ in range(rng.randint(1, 3))]}


def timed(call, rounds: int) -> tuple[float, float]:
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        call()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "report.db")
        # The finished visits: one a slot over the past 80 days, each started and finished.
        per_day = args.finished // 80 + 1
        past = []
        for i in range(args.finished):
            day, slot = divmod(i, per_day)
            past.append(visit(i, DAY0 - (day + 1) * DAY_MS + slot * 60_000, rng))
        today = [visit(args.finished + i, DAY0 + 5 * 3_600_000 + i * 20 * 60_000, rng) for i in range(30)]
        base = {"timeZone": "Europe/Copenhagen", "hour24": True, "database": db}
        with carfit.Core({**base, "now": iso(DAY0 - 90 * DAY_MS)}) as core:
            core.import_visits({"data": past + today})
        # Every past visit started by one core whose clock reads an hour before the day (facts
        # keep the instants the calls ran at); finished by 20 cores whose clocks are spread over
        # that hour, so worked times vary.
        with carfit.Core({**base, "now": iso(DAY0 - 3_600_000)}) as core:
            for v in past:
                core.set_visit_state(f"{v['visitId']}|{_ms(v['startTimeUtc'])}|0", "InProgress")
        groups = 20
        for g in range(groups):
            with carfit.Core({**base, "now": iso(DAY0 - 3_600_000 + (g + 1) * 150_000 + rng.randint(0, 59_999))}) as core:
                for v in past[g::groups]:
                    core.set_visit_state(f"{v['visitId']}|{_ms(v['startTimeUtc'])}|0", "Done")
        with carfit.Core({**base, "now": iso(DAY0 + 6 * 3_600_000)}) as core:
            for v in today[:20]:
                core.set_visit_state(f"{v['visitId']}|{_ms(v['startTimeUtc'])}|0", "InProgress")
            for v in today[:12]:
                core.set_visit_state(f"{v['visitId']}|{_ms(v['startTimeUtc'])}|0", "Done")
            core.report_location(55.7, 12.5, 5)
            assert len(core.report_day("2020-09-10")["visits"]) == 30
            tasks = core.report_durations()["tasks"]
            assert sum(t["samples"] for t in tasks) > 0
            rows = [
                ("reminders.list (30-visit day)", timed(lambda: core.reminders("2020-09-10"), args.rounds), 1.0),
                ("report.day (30-visit day)", timed(lambda: core.report_day("2020-09-10"), args.rounds), 1.0),
                (f"report.durations ({args.finished} finished visits)", timed(core.report_durations, max(10, args.rounds // 10)), 50.0),
            ]
    print("| operation | median ms | p99 ms | goal (median) |")
    print("|---|---|---|---|")
    for name, (median, p99), goal in rows:
        print(f"| {name} | {median:.3f} | {p99:.3f} | < {goal:g} ms {'met' if median < goal else 'MISSED'} |")


def _ms(text: str) -> int:
    import calendar
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ")) * 1000


if __name__ == "__main__":
    main()
