#!/usr/bin/env python3
"""The washer on the road, measured: a position report on a day of 30 visits with a trail of
10,000 points, and pushing 10,000 pending points to the loopback reference server.

    swift build -c release        (or: make)
    python3 bench/road.py

Prints a markdown table with the goals (PASS/FAIL) and exits 1 when one fails:

- `location.report` median under 0.2 ms on a database file with 30 visits today (Todo, with
  coordinates) and 10,000 stored points (1,000 reports timed, a third of them stored, the
  rest within 20 m and 5 minutes of the last stored point), through `carfit_call` with the
  request text prepared beforehand;
- pushing 10,000 pending points (10 requests of 1,000) to the reference server under 2 s.
"""

from __future__ import annotations

import ctypes
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "bindings" / "python"))
sys.path.insert(0, str(ROOT / "examples" / "servers"))

import carfit  # noqa: E402
from carfit._lib import load_library  # noqa: E402
from sync_server import SyncServer  # noqa: E402

CONFIG = {"now": "2020-09-10T05:00:00Z", "timeZone": "UTC", "hour24": True}
TRAIL = 10_000
TIMED = 1_000


def day_of_30() -> dict:
    """30 Todo visits on 2020-09-10, one every 15 minutes, 500 m apart going north."""
    return {"data": [{"visitId": f"v{i:02d}", "startTimeUtc": f"2020-09-10T{6 + i // 4:02d}:{(i % 4) * 15:02d}:00Z",
                      "visitState": "Todo", "houseOwnerFirstName": f"Owner {i}",
                      "houseOwnerLatitude": 55.70 + i * 0.0045, "houseOwnerLongitude": 12.50} for i in range(30)]}


def at(second: int) -> str:
    return f"2020-09-{9 + second // 86_400:02d}T{second % 86_400 // 3600:02d}:{second % 3600 // 60:02d}:{second % 60:02d}Z"


def fill_trail(core, count: int, start_second: int = 0) -> int:
    """`count` stored points 30 m apart to the east, far from the visits; the next second."""
    for i in range(count):
        core.report_location(55.60, 12.0 + i * 0.0005, 5, at=at(start_second + i))
    return start_second + count


def bench_report(work: Path) -> float:
    lib = load_library()
    with carfit.Core(dict(CONFIG, database=str(work / "report.db"))) as core:
        core.import_visits(day_of_30())
        second = fill_trail(core, TRAIL)
        assert core.location_status()["trail"]["stored"] == TRAIL
        # A walk past the visits: every third report moves 30 m (stored), the others 5 m.
        requests = []
        latitude = 55.70
        for i in range(TIMED):
            latitude += 0.00027 if i % 3 == 0 else 0.000045
            requests.append(json.dumps({"latitude": latitude, "longitude": 12.50, "accuracyMeters": 5,
                                        "at": at(second + 86_400 + i * 5)}).encode())
        handle = core._handle  # noqa: SLF001  (the raw call, without the binding's JSON work)
        response = ctypes.c_void_p()
        times = []
        for text in requests:
            start = time.perf_counter()
            status = lib.carfit_location_report(handle, text, ctypes.byref(response))
            times.append(time.perf_counter() - start)
            lib.carfit_free(response)
            assert status == 0
        stored = core.location_status()["trail"]["stored"]
        assert TRAIL + TIMED // 3 <= stored <= TRAIL + TIMED // 3 + 2, stored
    return statistics.median(times) * 1000


def bench_push(work: Path) -> float:
    with SyncServer(idle_timeout=300) as server:
        config = dict(CONFIG, database=str(work / "push.db"), sources={"locations": server.url("/locations")})
        with carfit.Core(config) as core:
            fill_trail(core, TRAIL)
            start = time.perf_counter()
            answer = core.push()
            elapsed = time.perf_counter() - start
            assert answer["locations"] == {"pushed": TRAIL, "pending": 0}, answer
        assert len(server.state()["points"]) == TRAIL
    return elapsed


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="carfit-road-") as directory:
        work = Path(directory)
        report = bench_report(work)
        push = bench_push(work)
    rows = [("`location.report` median, 30 visits, 10,000-point trail", f"{report:.3f} ms", "under 0.2 ms", report < 0.2),
            ("push of 10,000 pending points", f"{push:.2f} s", "under 2 s", push < 2.0)]
    print("| figure | measured | goal | |\n|---|---|---|---|")
    for name, value, goal, ok in rows:
        print(f"| {name} | {value} | {goal} | {'PASS' if ok else 'FAIL'} |")
    return 0 if all(ok for *_, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
