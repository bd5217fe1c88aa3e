"""The planner's back end (server/, its debug or release executable) under load:

* mutations per second end to end: 10 washers' cores (the real library through the Python
  binding, one thread each) each set the state of their visits and push, in batches of
  `--batch` changes per push;
* request time (median, p99) of `POST /v1/visit-updates` with 10 concurrent HTTP clients posting
  `--requests` batches of `--batch` mutations in all;
* the server's resident memory (VmRSS) before and at its peak during one 60 MiB attachment upload.

On SQLite (one process) and on PostgreSQL 15 (a throwaway cluster, two server processes behind the
clients alternately). Prints a Markdown section for bench/results.md.

    python3 bench/planner.py [--server PATH] [--visits 200] [--batch 100] [--requests 200]

`--server` defaults to the release executable (`server/.build/release/carfit-planner`, made by
`swift build -c release --package-path server`) when it exists, else the debug one.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "Tests" / "planner"))

import conftest as planner  # noqa: E402  (the tests' deployment helpers)

import carfit  # noqa: E402

CLIENTS = 10


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cores_push(d: planner.Deployment, root: Path, visits: int, batch: int) -> dict:
    washers = [d.washer(f"Washer {i}") for i in range(CLIENTS)]
    for w in washers:
        d.plan(w, visits)
    cores = []
    for i, w in enumerate(washers):
        core = carfit.Core(d.core_config(root / f"core-{i}.db"))
        core.auth_set(w["token"])
        core.refresh_visits()
        cores.append(core)
    done = [0] * CLIENTS

    def work(i: int) -> None:
        core = cores[i]
        keys = [c["key"] for c in core.list_visits(dates=[planner.today()])["days"][0]["visits"]]
        pending = 0
        for key in keys:
            for state in ("InProgress", "Done"):
                core.set_visit_state(key, state)
                pending += 1
                if pending == batch:
                    done[i] += core.push()["pushed"]
                    pending = 0
        done[i] += core.push()["pushed"]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(CLIENTS)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    for core in cores:
        core.close()
    return {"mutations": sum(done), "seconds": elapsed}


def http_batches(d: planner.Deployment, visits: int, batch: int) -> dict:
    washers = [d.washer(f"Poster {i}") for i in range(CLIENTS)]
    plans = [d.plan(w, visits) for w in washers]
    times: list[float] = []
    lock = threading.Lock()

    def work(i: int) -> None:
        port = d.ports[i % len(d.ports)]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        records = plans[i]
        mutations = []
        for r in records:
            for state in ("InProgress", "Done"):
                mutations.append({"mutationId": str(uuid.uuid4()), "visitId": r["visitId"], "startTimeUtc": r["startTimeUtc"],
                                  "state": state, "at": r["startTimeUtc"], "timeUsedMinutes": None, "reason": None})
        client = str(uuid.uuid4())
        for at in range(0, len(mutations), batch):
            body = json.dumps({"clientId": client, "mutations": mutations[at:at + batch]})
            t0 = time.perf_counter()
            conn.request("POST", "/v1/visit-updates", body=body,
                         headers={"Authorization": f"Bearer {washers[i]['token']}", "Content-Type": "application/json"})
            answer = conn.getresponse()
            answer.read()
            elapsed = time.perf_counter() - t0
            assert answer.status == 200
            with lock:
                times.append(elapsed)
        conn.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(CLIENTS)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = time.perf_counter() - started
    times.sort()
    return {"requests": len(times), "median": statistics.median(times), "p99": times[min(len(times) - 1, int(0.99 * len(times)))],
            "mutations_per_s": len(times) * batch / total}


def upload_rss(d: planner.Deployment, size: int = 60 << 20) -> dict:
    w = d.washer("Uploader")
    record = d.plan(w, 1)[0]
    chunk = os.urandom(1 << 20)
    digest = hashlib.sha256()
    for _ in range(size >> 20):
        digest.update(chunk)
    pid = d.procs[0].pid
    before = rss_kib(pid)
    peak = [before]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], rss_kib(pid))
            time.sleep(0.005)

    sampler = threading.Thread(target=sample)
    sampler.start()
    conn = http.client.HTTPConnection("127.0.0.1", d.ports[0], timeout=120)
    conn.putrequest("PUT", "/v1/attachments/bench-upload")
    for name, value in {"Authorization": f"Bearer {w['token']}", "Content-Type": "image/jpeg", "Content-Length": str(size),
                        "X-Carfit-Sha256": digest.hexdigest(), "X-Carfit-Visit-Id": record["visitId"],
                        "X-Carfit-Start-Time-Utc": record["startTimeUtc"], "X-Carfit-Kind": "photo"}.items():
        conn.putheader(name, value)
    conn.endheaders()
    t0 = time.perf_counter()
    for _ in range(size >> 20):
        conn.send(chunk)
    answer = conn.getresponse()
    answer.read()
    elapsed = time.perf_counter() - t0
    stop.set()
    sampler.join()
    assert answer.status == 201, answer.status
    return {"before_mib": before / 1024, "peak_mib": peak[0] / 1024, "rise_mib": (peak[0] - before) / 1024, "seconds": elapsed}


def run(name: str, d: planner.Deployment, root: Path, args) -> list[str]:
    e2e = cores_push(d, root, args.visits, args.batch)
    # Each HTTP client posts its share of --requests batches: visits enough for two changes each.
    per_client = max(1, -(-args.requests // CLIENTS))
    raw = http_batches(d, -(-per_client * args.batch // 2), args.batch)
    rss = upload_rss(d)
    return [
        f"| {name}: mutations/s end to end (10 cores, pushes of {args.batch}) | {e2e['mutations'] / e2e['seconds']:,.0f}/s "
        f"({e2e['mutations']:,} in {e2e['seconds']:.2f} s) |",
        f"| {name}: `POST /v1/visit-updates` of {args.batch} (10 HTTP clients) median / p99 | "
        f"{raw['median'] * 1000:.1f} ms / {raw['p99'] * 1000:.1f} ms ({raw['requests']} requests, {raw['mutations_per_s']:,.0f} mutations/s) |",
        f"| {name}: server RSS during a 60 MiB upload (before → peak) | {rss['before_mib']:.1f} → {rss['peak_mib']:.1f} MiB "
        f"(+{rss['rise_mib']:.1f} MiB; {rss['seconds']:.2f} s) |",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    release = ROOT / "server" / ".build" / "release" / "carfit-planner"
    parser.add_argument("--server", type=Path, default=release if release.exists() else planner.SERVER,
                        help="the carfit-planner executable (default: the release build when made, else the debug one)")
    parser.add_argument("--visits", type=int, default=200, help="visits per washer (two changes each)")
    parser.add_argument("--batch", type=int, default=100, help="changes per push or request")
    parser.add_argument("--requests", type=int, default=200,
                        help="HTTP requests of --batch mutations per backend for the request times (default 200: "
                             "the p99 is then the second slowest)")
    parser.add_argument("--skip-postgres", action="store_true")
    args = parser.parse_args()
    planner.SERVER = args.server
    carfit.load_library()
    load = os.getloadavg()[0]
    lines = ["| measure | value |", "|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "sqlite"
        root.mkdir()
        d = planner.Deployment(root, f"sqlite:{root / 'planner.sqlite'}", 1)
        try:
            lines += run("SQLite, 1 process", d, root, args)
        finally:
            d.close()
        if not args.skip_postgres and (planner.PG_BIN / "initdb").exists():
            cluster = planner.PostgresCluster()
            try:
                root = Path(tmp) / "pg"
                root.mkdir()
                d = planner.Deployment(root, cluster.database(), 2, cluster)
                try:
                    lines += run("PostgreSQL, 2 processes", d, root, args)
                finally:
                    d.close()
            finally:
                cluster.stop()
    print(f"- Server: `{args.server.relative_to(ROOT) if args.server.is_relative_to(ROOT) else args.server}`; "
          f"{args.visits} visits per washer and core, {args.requests} HTTP requests of {args.batch}; load average (1 min) before the run {load:.2f}, after {os.getloadavg()[0]:.2f}; 2 CPUs")
    print()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
