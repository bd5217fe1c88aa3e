#!/usr/bin/env python3
"""The refresh benchmark: the generated 100k-visit document served over loopback, each
measurement in its own fresh process.

    python3 bench/refresh.py                  # 100k visits
    python3 bench/refresh.py --visits 10000 --repeat 3

Measures (1) a refresh of the unchanged source answered with 304 (after one 200 that stored
the validators), (2) a refresh of the changed document (a fresh database: the whole body
downloaded to a temporary file and imported), and (3) `visits.import` with `{"file": path}` of
the same file; the time and the peak RSS (`ru_maxrss`) of (2) and (3). Prints a markdown table
with the goals (304 under 50 ms; a changed refresh at most 1.2x the import's time and its peak
memory at most the import's plus 32 MiB) and appends it to bench/results.md. See
bench/README.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import email.utils
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
from run import DATA, fresh, generate, library_path, machine  # noqa: E402

MIB = 1 << 20

#: One job in a child process: prints {"seconds": [...], "maxrssKiB": n}.
JOB = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
import carfit
kind, database, target, rounds = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
config = {"database": database, "timeZone": "Europe/Copenhagen"}
if kind != "import":
    config["sources"] = {"visits": target}
seconds = []
with carfit.Core(config) as core:
    if kind == "import":
        started = time.perf_counter()
        result = core.import_visits_file(target)
        seconds.append(time.perf_counter() - started)
    elif kind == "changed":
        started = time.perf_counter()
        result = core.refresh_visits()
        seconds.append(time.perf_counter() - started)
    else:  # "304": one 200 stores the validators, then the timed refreshes answer 304
        core.refresh_visits()
        for _ in range(rounds):
            started = time.perf_counter()
            result = core.refresh_visits()
            seconds.append(time.perf_counter() - started)
        assert result == {"imported": 0, "notModified": True, "changes": []}, result
print(json.dumps({"seconds": seconds, "maxrssKiB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "imported": result.get("imported")}))
"""


class FileServer(http.server.ThreadingHTTPServer):
    """Serves one file at /visits.json with a fixed ETag and Last-Modified, answering 304 when
    If-None-Match names that ETag; the body is sent from the file (sendfile), never read whole."""

    daemon_threads = True

    def __init__(self, path: Path):
        self.path = path
        stat = path.stat()
        self.etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
        self.last_modified = email.utils.formatdate(stat.st_mtime, usegmt=True)
        super().__init__(("127.0.0.1", 0), Handler)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):  # noqa: N802
        server: FileServer = self.server  # type: ignore[assignment]
        if self.headers.get("If-None-Match") == server.etag:
            self.send_response(304)
            self.send_header("ETag", server.etag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        size = server.path.stat().st_size
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(size))
        self.send_header("ETag", server.etag)
        self.send_header("Last-Modified", server.last_modified)
        self.end_headers()
        with open(server.path, "rb") as f:
            try:
                self.wfile.flush()
                os.sendfile(self.connection.fileno(), f.fileno(), 0, size)
            except (BrokenPipeError, ConnectionResetError):
                pass


def job(kind: str, database: str, target: str, rounds: int = 1) -> dict:
    env = {**os.environ, "CARFIT_LIBRARY": str(library_path())}
    done = subprocess.run([sys.executable, "-c", JOB, str(ROOT / "bindings" / "python"), kind, database, target,
                           str(rounds)], capture_output=True, text=True, env=env, timeout=1800)
    if done.returncode != 0:
        sys.exit(f"{kind} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--visits", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=1, help="rounds of the changed refresh and the import")
    parser.add_argument("--rounds-304", type=int, default=20, help="304 refreshes timed in one process")
    parser.add_argument("--output", default=str(BENCH / "results.md"))
    args = parser.parse_args()

    DATA.mkdir(exist_ok=True)
    data = generate(args.visits)
    server = FileServer(data)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/visits.json"
    try:
        not_modified = job("304", fresh(DATA / "refresh-304.sqlite"), url, args.rounds_304)
        changed, imported = [], []
        for _ in range(args.repeat):
            imported.append(job("import", fresh(DATA / "refresh-import.sqlite"), str(data)))
            changed.append(job("changed", fresh(DATA / "refresh-changed.sqlite"), url))
    finally:
        server.shutdown()
        server.server_close()
    for name in ("refresh-304", "refresh-import", "refresh-changed"):
        fresh(DATA / f"{name}.sqlite")

    median_304 = statistics.median(not_modified["seconds"])
    changed_s = statistics.median(r["seconds"][0] for r in changed)
    import_s = statistics.median(r["seconds"][0] for r in imported)
    changed_rss = statistics.median(r["maxrssKiB"] for r in changed) / 1024
    import_rss = statistics.median(r["maxrssKiB"] for r in imported) / 1024
    size_mb = data.stat().st_size / 1e6
    rows = [
        ("304 refresh of the unchanged source, median", f"{median_304 * 1000:.1f} ms",
         "< 50 ms", median_304 < 0.050),
        ("changed refresh over loopback", f"{changed_s:.2f} s ({changed_s / import_s:.2f}× the import)",
         "≤ 1.2× the import", changed_s <= 1.2 * import_s),
        ("import of the same file ({\"file\"})", f"{import_s:.2f} s", "", None),
        ("peak RSS, changed refresh", f"{changed_rss:.0f} MiB ({changed_rss - import_rss:+.0f} MiB)",
         "≤ the import's + 32 MiB", changed_rss <= import_rss + 32),
        ("peak RSS, import", f"{import_rss:.0f} MiB", "", None),
    ]
    lines = [f"## Refresh ({args.visits} visits, {size_mb:.0f} MB over loopback)", "",
             f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC; {machine()}; load average "
             f"{os.getloadavg()[0]:.2f}", "",
             "| figure | measured | goal | result |", "|---|---|---|---|"]
    for name, value, goal, ok in rows:
        lines.append(f"| {name} | {value} | {goal} | {'' if ok is None else ('PASS' if ok else 'FAIL')} |")
    text = "\n".join(lines) + "\n"
    print(text)
    with open(args.output, "a", encoding="utf-8") as out:
        out.write("\n" + text)
    sys.exit(0 if all(ok is not False for *_, ok in rows) else 1)


if __name__ == "__main__":
    main()
