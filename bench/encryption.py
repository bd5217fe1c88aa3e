#!/usr/bin/env python3
"""Import and day query with and without an encryption key, alternated in the same run.

    python3 bench/encryption.py [--visits 100000] [--rounds 3] [--days 100]

Each round imports the same generated visits file into a fresh database without a key and
with one (in alternating order), then times the day query on random days of each; it prints
each measurement and the with/without ratios of the medians (the goal: at least 0.8x as fast).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import run  # noqa: E402  (the generator's data file and the day picker)

KEY = "6d0b9c1f3e2a4d5c8b7a69f0e1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d5e"


def job(args, key):
    env = dict(os.environ)
    env.pop("CARFIT_BENCH_KEY", None)
    if key:
        env["CARFIT_BENCH_KEY"] = key
    out = subprocess.run([sys.executable, str(BENCH / "carfit_job.py"), *args], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--visits", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--days", type=int, default=100)
    a = ap.parse_args()
    data = run.generate(a.visits)
    days = run.pick_days(data, a.days)
    imports = {"plain": [], "encrypted": []}
    queries = {"plain": [], "encrypted": []}
    for round_ in range(a.rounds):
        order = [("plain", None), ("encrypted", KEY)]
        if round_ % 2:
            order.reverse()
        for name, key in order:
            with tempfile.TemporaryDirectory(prefix="carfit-bench-") as scratch:
                db = str(Path(scratch) / "visits.sqlite")
                ingest = job(["ingest", str(data), db], key)
                query = job(["query", db, *days], key)
                imports[name].append(ingest["seconds"])
                median_ms = statistics.median(query["raw"]) * 1000
                queries[name].append(median_ms)
                print(f"{name}: import {ingest['seconds']:.3f} s ({ingest['visits']} visits), "
                      f"day query median {median_ms:.3f} ms", flush=True)
    for what, values in (("import", imports), ("day query", queries)):
        plain, encrypted = statistics.median(values["plain"]), statistics.median(values["encrypted"])
        print(f"{what}: plain {plain:.4g}, encrypted {encrypted:.4g}: encrypted is {plain / encrypted:.2f}x as fast")


if __name__ == "__main__":
    main()
