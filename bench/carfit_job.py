#!/usr/bin/env python3
"""Measurement (a) of the benchmark: libcarfit through the Python binding.

    python3 bench/carfit_job.py ingest VISITS.json DB.sqlite [IMPORT_THREADS]
    python3 bench/carfit_job.py ingest-file VISITS.json DB.sqlite
    python3 bench/carfit_job.py query DB.sqlite 2020-09-10 [2020-09-11 ...]
    python3 bench/carfit_job.py day-query DB.sqlite 2020-09-10 [2020-09-11 ...]
    python3 bench/carfit_job.py rerender DB.sqlite 2020-09-10 [2020-09-11 ...]

With CARFIT_BENCH_KEY set (64 hexadecimal digits) the database is encrypted under that key.

Each command prints one JSON line of measurements (``bench/run.py`` reads it). The library is
found as the binding finds it (``$CARFIT_LIBRARY``, else the repository's build folder). With
``$CARFIT_BENCH_KEY`` set (64 hexadecimal digits), the core is opened with that encryption key.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bindings" / "python"))

import carfit  # noqa: E402

CONFIG = {"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": True}
# CARFIT_BENCH_KEY (64 hexadecimal digits): the same measurements on an encrypted database.
if os.environ.get("CARFIT_BENCH_KEY"):
    CONFIG["encryption"] = {"key": os.environ["CARFIT_BENCH_KEY"]}

#: How often the anonymous memory is sampled during an import from a file, in seconds.
RSS_INTERVAL = 0.05

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


def rss_anon_kib():
    """The process's anonymous resident memory (`RssAnon` of /proc/self/status), KiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("RssAnon:"):
                return int(line.split()[1])
    return 0


class RssSampler:
    """Samples `RssAnon` every RSS_INTERVAL seconds on a thread of its own while it is open
    (ctypes lets go of the interpreter during a library call, so the samples go on during it)."""

    def __init__(self):
        self.samples = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            self.samples.append(rss_anon_kib())
            self._stop.wait(RSS_INTERVAL)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.samples.append(rss_anon_kib())


def ingest_file(path, db_path):
    """`visits.import` of `{"file": path}` (the library reads the file), with `RssAnon` sampled
    before the import and every RSS_INTERVAL during it."""
    with carfit.Core(CONFIG, database=db_path) as core:
        request = json.dumps({"file": str(Path(path).resolve())})
        before = rss_anon_kib()
        with RssSampler() as sampler:
            started = time.perf_counter()
            result = json.loads(core.call_text("visits.import", request))
            seconds = time.perf_counter() - started
    print(json.dumps({"visits": result["imported"], "rejected": len(result["rejected"]), "seconds": seconds,
                      "rssAnonBeforeKiB": before, "rssAnonPeakKiB": max(sampler.samples),
                      "rssSamples": len(sampler.samples), "peakRssMiB": peak_rss_mib()}))


def day_query(db_path, days):
    """The day query alone (text), each of `days` once after one warm-up call."""
    with carfit.Core(CONFIG, database=db_path) as core:
        requests = [{"dates": [d]} for d in days]
        core.call_text("visits.list", requests[0])
        clock = time.perf_counter
        raw, cards = [], 0
        for request in requests:
            started = clock()
            text = core.call_text("visits.list", request)
            raw.append(clock() - started)
            cards += text.count('"key":')
    print(json.dumps({"raw": raw, "cards": cards}))


def rerender(db_path, days):
    """The day query right after one of that day's cards changed: for each day, its list is
    asked (as the host shows it), a Todo card of it is set to InProgress by `visits.set_state`
    (not timed), and the day is asked again (timed): the re-render after a change."""
    with carfit.Core(CONFIG, database=db_path) as core:
        clock = time.perf_counter
        times, changes = [], 0
        for day in days:
            request = {"dates": [day]}
            shown = json.loads(core.call_text("visits.list", request))
            todo = [c["key"] for c in shown["days"][0]["visits"] if c["state"] == "Todo"]
            if not todo:
                continue
            core.call_text("visits.set_state", {"key": todo[0], "state": "InProgress"})
            changes += 1
            started = clock()
            core.call_text("visits.list", request)
            times.append(clock() - started)
    print(json.dumps({"times": times, "changes": changes}))


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
    elif command == "ingest-file":
        ingest_file(*args)
    elif command == "query":
        db_path, *days = args
        query(db_path, days)
    elif command == "day-query":
        db_path, *days = args
        day_query(db_path, days)
    elif command == "rerender":
        db_path, *days = args
        rerender(db_path, days)
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
