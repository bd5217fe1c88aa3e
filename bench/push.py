#!/usr/bin/env python3
"""The planner's pushes, measured from Python against a loopback visits source:

    make
    python3 bench/push.py                   # 2,000 receives, 30 visits a day
    python3 bench/push.py --rounds 5000

- `push.receive` of a push of kind `visits` whose refresh the source answers 304 (the
  conditional request of every refresh): median under 5 ms;
- for scale, the cost of the comparison: an import of `--visits` visits replacing the same
  snapshot when all of them start today or later (every occurrence compared, none changed)
  against the same import by a core whose clock lies past them all (none compared); medians
  of 3 imports, alternated.

Prints a markdown table with the goal (PASS/FAIL) and exits 1 when it fails.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "bindings" / "python"))

import carfit  # noqa: E402

CONFIG = {"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": True}


def visits(count: int, per_day: int) -> dict:
    def start(i: int) -> str:
        day = dt.date(2020, 9, 10) + dt.timedelta(days=i // per_day)
        n = i % per_day
        return f"{day.isoformat()}T{6 + n % 12:02d}:{(n * 7) % 60:02d}:00Z"
    return {"data": [{"visitId": f"v{i:06d}", "startTimeUtc": start(i), "visitState": "Todo",
                      "houseOwnerFirstName": f"Owner {i}", "houseOwnerAddress": f"Street {i}",
                      "houseOwnerLatitude": 55.6 + i * 1e-5, "houseOwnerLongitude": 12.5,
                      "tasks": [{"title": "Wash", "timesInMinutes": 30}]} for i in range(count)]}


def serve(body: bytes):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.headers.get("If-None-Match") == '"v1"':
                self.send_response(304)
                self.send_header("ETag", '"v1"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("ETag", '"v1"')
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--visits", type=int, default=100_000)
    args = parser.parse_args()

    day = json.dumps(visits(300, 30)).encode()
    server = serve(day)
    url = f"http://127.0.0.1:{server.server_address[1]}/visits"
    rows = []
    with carfit.Core(dict(CONFIG, sources={"visits": url})) as core:
        assert core.call("visits.refresh")["imported"] == 300
        for i in range(50):
            core.receive_push({"carfit": {"v": 1, "id": f"warm{i}", "kind": "visits"}})
        times = []
        for i in range(args.rounds):
            payload = {"carfit": json.dumps({"v": 1, "id": f"p{i}", "kind": "visits", "seq": i + 1})}
            t = time.perf_counter()
            answer = core.receive_push(payload)
            times.append((time.perf_counter() - t) * 1000)
            assert answer["refreshed"] and answer["changes"] == [], answer
        times.sort()
        median = statistics.median(times)
        p99 = times[int(len(times) * 0.99) - 1]
        rows.append(("push.receive, refresh answered 304: median", f"{median:.2f} ms", "< 5 ms", median < 5))
        rows.append(("push.receive, refresh answered 304: p99", f"{p99:.2f} ms", "", None))
    server.shutdown()

    big = json.dumps(visits(args.visits, 100)).encode()

    def reimports(now: str) -> float:
        """The median of 3 imports replacing the same snapshot, by a core whose clock says `now`."""
        with carfit.Core(dict(CONFIG, now=now)) as core:
            core.call("visits.import", big)
            times = []
            for _ in range(3):
                t = time.perf_counter()
                answer = core.call("visits.import", big)
                times.append(time.perf_counter() - t)
                assert answer["changes"] == []
            return statistics.median(times)

    # Alternated: the sample day's clock (every occurrence compared) and one years later (none is).
    compared, plain = [], []
    for _ in range(2):
        compared.append(reimports(CONFIG["now"]))
        plain.append(reimports("2030-01-01T00:00:00Z"))
    rows.append((f"import replacing {args.visits:,} visits, none of them today or later (nothing compared)",
                 f"{statistics.median(plain):.2f} s", "", None))
    rows.append((f"the same, all of them today or later (every occurrence compared)",
                 f"{statistics.median(compared):.2f} s", "", None))

    print("| measure | figure | goal | result |")
    print("|---|---|---|---|")
    ok = True
    for name, figure, goal, passed in rows:
        result = "" if passed is None else ("PASS" if passed else "FAIL")
        ok = ok and passed is not False
        print(f"| {name} | {figure} | {goal} | {result} |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
