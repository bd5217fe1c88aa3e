#!/usr/bin/env python3
"""The change feed's costs: how soon a waiter wakes after a commit, and what the feed's
machinery (the commit hooks, the progress reports) adds to the 100k import and the day query
when nobody waits, against a library without it.

    python3 bench/events.py --previous /path/to/older/libcarfit.so      # both measurements
    python3 bench/events.py                                             # wake-up latency only
    python3 bench/events.py --visits 20000 --rounds 1 --previous ...    # a quicker look

The library under test is the binding's (``$CARFIT_LIBRARY``, else ``.build/release``). The
import and the day query run through ``bench/carfit_job.py`` in fresh processes, the two
libraries alternating round by round on the same generated data (``bench/run.py``'s files).
Prints a markdown table; writes nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "bindings" / "python"))

import carfit  # noqa: E402
from run import DATA, fresh, generate, library_path, pick_days, run_json  # noqa: E402

CONFIG = {"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": True}


def wake_latency(commits: int) -> dict:
    """Seconds from the start of a committing call (``transactions.pin``) to its waiter's
    return, and of the call alone, over `commits` commits. The committing thread blocks right
    after the call, so the waiter never queues for the GIL behind it."""
    sample = (BENCH.parent / "examples" / "data" / "transactions.json").read_text(encoding="utf-8")
    wakes, calls = [], []
    with carfit.Core(CONFIG) as core:
        core.call("transactions.import", sample)
        last = core._current_seq()
        for i in range(commits):
            woke = threading.Event()
            stamp = {}

            def waiter(after=last):
                batch = core.wait_events(after, timeout=10)
                stamp["woke"] = time.perf_counter()
                stamp["last"] = batch["last"]
                woke.set()

            thread = threading.Thread(target=waiter)
            thread.start()
            time.sleep(0.002)  # let it reach its wait
            started = time.perf_counter()
            core.call("transactions.pin", {"id": 1, "pinned": i % 2 == 0})
            returned = time.perf_counter()
            woke.wait(10)
            thread.join()
            last = stamp["last"]
            wakes.append(stamp["woke"] - started)
            calls.append(returned - started)
    return {"wake": statistics.median(wakes), "wakeMax": max(wakes), "call": statistics.median(calls)}


def import_and_query(libraries: dict[str, str], visits: int, rounds: int, days: int) -> dict:
    """Median import seconds (wall, and CPU of the importing process) and median day query
    seconds of each library."""
    data = generate(visits)
    chosen = pick_days(data, days)
    py = sys.executable
    results: dict[str, dict[str, list[float]]] = {name: {"ingest": [], "ingestCPU": [], "query": []} for name in libraries}
    for round_ in range(rounds):
        order = list(libraries.items())
        if round_ % 2:
            order.reverse()
        for name, path in order:
            env = {**os.environ, "CARFIT_LIBRARY": path}
            db = fresh(DATA / f"events-{name}-{visits}.sqlite")
            ingest = run_json([py, str(BENCH / "carfit_job.py"), "ingest", str(data), db], env)
            query = run_json([py, str(BENCH / "carfit_job.py"), "query", db, *chosen], env)
            results[name]["ingest"].append(ingest["seconds"])
            results[name]["ingestCPU"].append(ingest["cpuSeconds"])
            results[name]["query"].append(statistics.median(query["raw"]))
            fresh(DATA / f"events-{name}-{visits}.sqlite")
    return {name: {key: statistics.median(values) for key, values in r.items()} for name, r in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--previous", help="a libcarfit.so without the change feed, to compare against")
    parser.add_argument("--visits", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--days", type=int, default=100)
    parser.add_argument("--commits", type=int, default=200)
    args = parser.parse_args()
    current = str(library_path())
    os.environ["CARFIT_LIBRARY"] = current
    DATA.mkdir(exist_ok=True)

    latency = wake_latency(args.commits)
    print("| figure | value |\n|---|---|")
    print(f"| waiter wake-up, from the start of the committing call (median of {args.commits}) | "
          f"{latency['wake'] * 1e3:.3f} ms |")
    print(f"| the committing call alone (median) | {latency['call'] * 1e3:.3f} ms |")
    print(f"| waiter wake-up, slowest | {latency['wakeMax'] * 1e3:.3f} ms |")
    if not args.previous:
        return
    measured = import_and_query({"feed": current, "previous": args.previous}, args.visits, args.rounds, args.days)
    feed, previous = measured["feed"], measured["previous"]
    size = f"{args.visits // 1000}k"
    for key, label in (("ingest", f"{size} import"), ("ingestCPU", f"{size} import, CPU time of the process"),
                        ("query", "day query (median)")):
        change = (feed[key] / previous[key] - 1) * 100
        unit, scale = ("ms", 1e3) if key == "query" else ("s", 1)
        print(f"| {label}: with the feed / previous (median of {args.rounds} rounds) | "
              f"{feed[key] * scale:.3f} {unit} / {previous[key] * scale:.3f} {unit} ({change:+.1f}%) |")


if __name__ == "__main__":
    main()
