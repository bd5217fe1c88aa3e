#!/usr/bin/env python3
"""Measurement (a) of the benchmark: libcarfit through the Python binding.

    python3 bench/carfit_job.py ingest VISITS.json DB.sqlite [IMPORT_THREADS]
    python3 bench/carfit_job.py query DB.sqlite 2020-09-10 [2020-09-11 ...]

With CARFIT_BENCH_KEY set (64 hexadecimal digits) the database is encrypted under that key.

Each command prints one JSON line of measurements (``bench/run.py`` reads it). The library is
found as the binding finds it (``$CARFIT_LIBRARY``, else the repository's build folder).
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bindings" / "python"))

import carfit  # noqa: E402

CONFIG = {"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": True}
# CARFIT_BENCH_KEY (64 hexadecimal digits): the same measurements on an encrypted database.
if os.environ.get("CARFIT_BENCH_KEY"):
    CONFIG["encryption"] = {"key": os.environ["CARFIT_BENCH_KEY"]}

#: Calls of the calendar and cart measurements (each a median over this many).
SMALL_CALLS = 2000

CATALOG = {"products": [{"id": "bench-1", "name": "Bench Red", "category": "Red Wines",
                         "description": "", "imageUrl": None, "price": 9.5}]}


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(fn, n):
    """Seconds of each of n calls of fn()."""
    out = []
    clock = time.perf_counter
    for _ in range(n):
        started = clock()
        fn()
        out.append(clock() - started)
    return out


def ingest(path, db_path, threads=None):
    """Reads the file and imports it; `threads` sets the config's importThreads (else the
    library's default, one per processor)."""
    size = os.path.getsize(path)
    config = dict(CONFIG) if threads is None else {**CONFIG, "importThreads": int(threads)}
    with carfit.Core(config, database=db_path, maxRequestBytes=max(size + 1, 1 << 29)) as core:
        started = time.perf_counter()
        with open(path, "rb") as f:
            document = f.read()
        read = time.perf_counter() - started
        result = json.loads(core.call_text("visits.import", document))
        seconds = time.perf_counter() - started
    print(json.dumps({"visits": result["imported"], "rejected": len(result["rejected"]),
                      "seconds": seconds, "readSeconds": read, "peakRssMiB": peak_rss_mib()}))


def cart_times():
    """Times of cart.get on a fresh database with one employee logged in and one cart line,
    or None while the library has no cart (it answers misuse: no such operation)."""
    with tempfile.TemporaryDirectory(prefix="carfit-bench-") as scratch:
        with carfit.Core(CONFIG, database=str(Path(scratch) / "cart.sqlite")) as core:
            try:
                core.call_text("cart.get")
            except carfit.MisuseError:
                return None
            except carfit.UnauthorizedError:
                pass  # the cart exists; nobody is logged in yet
            core.call("employees.create", {"pin": "4821", "firstName": "Bench", "lastName": "Marker"})
            core.call("session.login", {"pin": "4821"})
            core.call("catalog.import", CATALOG)
            core.call("cart.add", {"productId": "bench-1", "quantity": 2})
            return {"raw": timed(lambda: core.call_text("cart.get"), SMALL_CALLS),
                    "decoded": timed(lambda: core.call("cart.get"), SMALL_CALLS)}


def query(db_path, days):
    with carfit.Core(CONFIG, database=db_path) as core:
        requests = [{"dates": [d]} for d in days]
        core.call_text("visits.list", requests[0])  # warm the statement cache and the page cache

        raw, decoded, cards = [], [], 0
        clock = time.perf_counter
        for request in requests:
            started = clock()
            core.call_text("visits.list", request)
            raw.append(clock() - started)
        for request in requests:
            started = clock()
            document = core.call("visits.list", request)
            decoded.append(clock() - started)
            cards += document["summary"]["visits"]

        # Calendar: the first call after opening computes the month's counts (cold); then
        # get repeatedly, and next/previous walking a year forth and back.
        started = clock()
        core.call_text("calendar.get")
        calendar_cold = clock() - started
        calendar = {"cold": calendar_cold,
                    "get": timed(lambda: core.call_text("calendar.get"), SMALL_CALLS),
                    "getDecoded": timed(lambda: core.call("calendar.get"), SMALL_CALLS)}
        moves = []
        for _ in range(max(1, SMALL_CALLS // 24)):
            moves += timed(lambda: core.call_text("calendar.next"), 12)
            moves += timed(lambda: core.call_text("calendar.previous"), 12)
        calendar["next"] = moves
        # The floor of any call from Python: carfit_call through ctypes for a method that does
        # not exist (the library answers misuse at once), its response freed, nothing decoded.
        lib, handle, response = core._lib, core._handle, ctypes.c_void_p()

        def nothing():
            lib.carfit_call(handle, b"bench.nothing", None, ctypes.byref(response))
            lib.carfit_free(response)

        floor = timed(nothing, SMALL_CALLS)

        result = {"raw": raw, "decoded": decoded, "cards": cards, "calendar": calendar, "floor": floor}
    result["cart"] = cart_times()
    print(json.dumps(result))


def main(argv):
    command, *args = argv
    if command == "ingest":
        ingest(*args)
    elif command == "query":
        db_path, *days = args
        query(db_path, days)
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
