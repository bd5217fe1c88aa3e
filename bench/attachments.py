#!/usr/bin/env python3
"""Proof of work, measured: attaching a 10 MB photo, uploading 100 MB of attachments over
loopback, and the host's peak memory during a 200 MB upload.

    make -s library            # or swift build -c release
    python3 bench/attachments.py

Prints a markdown table with the goals (PASS/FAIL) and exits 1 when one fails:

- `visits.attach` of a 10 MB photo (copied, flushed to the disk, hashed) under 50 ms (median of 7);
- a push uploading 100 MB (ten 10 MB photos) to the loopback reference server at 100 MB/s or more;
- a push uploading one 200 MB photo raises the pushing process's peak RSS by less than 64 MiB
  (measured in a fresh process: ru_maxrss after the push minus before it).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "bindings" / "python"))
sys.path.insert(0, str(ROOT / "examples" / "servers"))

import carfit  # noqa: E402
from attachment_server import AttachmentServer  # noqa: E402

KEY = "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0"
SAMPLE = ROOT / "examples" / "data" / "carfit.json"


def config(database: Path, url: str | None = None) -> dict:
    c = {"database": str(database), "now": "2020-09-10T07:00:00Z",
         "attachments": {"maxBytes": 1 << 30, "quotaBytes": 1 << 34}}
    if url:
        c["sources"] = {"attachments": url}
    return c


def photo(path: Path, size: int) -> Path:
    block = os.urandom(1 << 20)
    with open(path, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0")
        left = size - 4
        while left > 0:
            f.write(block[:min(left, len(block))])
            left -= min(left, len(block))
    return path


CHILD = textwrap.dedent("""
    import json, resource, sys, time
    sys.path.insert(0, {binding!r})
    import carfit
    core = carfit.Core(json.loads(sys.argv[1]))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    answer = core.push()
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({{"before": before, "after": after, "seconds": elapsed, "answer": answer}}))
""")


def main() -> int:
    rows = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="carfit-bench-att-") as tmp:
        tmp_path = Path(tmp)
        server = AttachmentServer().start()
        server.keep_bodies = False
        try:
            # 1. attach a 10 MB photo
            ten = photo(tmp_path / "ten.jpg", 10_000_000)
            with carfit.Core(config(tmp_path / "attach.db")) as core:
                core.import_visits(SAMPLE.read_text())
                times = []
                for _ in range(7):
                    started = time.perf_counter()
                    a = core.attach(KEY, "photo", file=ten)["attachment"]
                    times.append(time.perf_counter() - started)
                    core.detach(a["id"])
            attach_ms = statistics.median(times) * 1000
            ok = attach_ms < 50
            failed |= not ok
            rows.append(("attach a 10 MB photo, median of 7", f"{attach_ms:.1f} ms", "< 50 ms", ok))

            # 2. upload 100 MB over loopback
            with carfit.Core(config(tmp_path / "push.db", server.url())) as core:
                core.import_visits(SAMPLE.read_text())
                for _ in range(10):
                    core.attach(KEY, "photo", file=ten)
                started = time.perf_counter()
                answer = core.push()
                seconds = time.perf_counter() - started
            assert answer["attachments"]["uploaded"] == 10, answer
            rate = 100 / seconds
            ok = rate >= 100
            failed |= not ok
            rows.append(("upload 100 MB (10 x 10 MB) over loopback", f"{rate:.0f} MB/s ({seconds:.2f} s)", ">= 100 MB/s", ok))

            # 3. peak memory of a 200 MB upload, in a fresh process
            database = tmp_path / "peak.db"
            big = photo(tmp_path / "big.jpg", 200_000_000)
            with carfit.Core(config(database)) as core:
                core.import_visits(SAMPLE.read_text())
                core.attach(KEY, "photo", file=big)
            big.unlink()
            code = CHILD.format(binding=str(ROOT / "bindings" / "python"))
            out = subprocess.run([sys.executable, "-c", code, json.dumps(config(database, server.url()))],
                                 check=True, capture_output=True, text=True).stdout
            result = json.loads(out)
            assert result["answer"]["attachments"]["uploaded"] == 1, result
            grown = (result["after"] - result["before"]) / 1024
            ok = grown < 64
            failed |= not ok
            rows.append(("peak RSS growth of a 200 MB upload",
                         f"{grown:.1f} MiB ({200 / result['seconds']:.0f} MB/s)", "< 64 MiB", ok))
        finally:
            server.stop()
    print("| measure | result | goal | |")
    print("|---|---|---|---|")
    for name, value, goal, ok in rows:
        print(f"| {name} | {value} | {goal} | {'PASS' if ok else 'FAIL'} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
