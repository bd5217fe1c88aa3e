"""The real library against the real planner server (server/, its debug executable): one or two
`carfit-planner serve` processes on SQLite or on a throwaway PostgreSQL 15 cluster, washers'
cores through the Python binding, and a proxy that loses answers."""

from __future__ import annotations

import datetime as dt
import json
import os
import select
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
BINDING_DIR = REPO_ROOT / "bindings" / "python"
SAMPLE = REPO_ROOT / "examples" / "data" / "carfit.json"
SERVER = REPO_ROOT / "server" / ".build" / "debug" / "carfit-planner"
PG_BIN = Path("/usr/lib/postgresql/15/bin")

if str(BINDING_DIR) not in sys.path:
    sys.path.insert(0, str(BINDING_DIR))

import carfit  # noqa: E402

#: The planner's token every server of these tests takes.
ADMIN = "planner-admin-token-" + "0123456789abcdef" * 2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def today() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d")


def iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture(scope="session")
def lib():
    if not SERVER.exists():
        pytest.skip("the server is not built (scripts/test-server --build)")
    try:
        return carfit.load_library()
    except OSError as exc:
        pytest.exit(str(exc), returncode=3)


class PostgresCluster:
    """A throwaway cluster in a temporary directory (owned by the postgres user when run as root)."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="planner-pg-"))
        self.port = free_port()
        as_root = os.geteuid() == 0
        self.prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
        if as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run([str(PG_BIN / "initdb"), "-D", str(self.dir / "data"), "-U", "postgres", "-A", "trust", "--no-sync"])
        self._run([str(PG_BIN / "pg_ctl"), "-D", str(self.dir / "data"), "-l", str(self.dir / "log"), "-w", "-o",
                   f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", "start"])

    def _run(self, command: list[str]) -> None:
        # Nothing is read from the command: the server pg_ctl starts would keep a pipe open.
        subprocess.run(self.prefix + command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    def database(self) -> str:
        name = "planner_" + uuid.uuid4().hex[:12]
        self.psql("postgres", f"CREATE DATABASE {name}")
        return f"postgres://postgres:unused@127.0.0.1:{self.port}/{name}"

    def psql(self, database: str, sql: str) -> str:
        out = subprocess.run(["psql", "-h", str(self.dir), "-p", str(self.port), "-U", "postgres", "-d", database,
                              "-At", "-c", sql], check=True, capture_output=True, text=True, timeout=60)
        return out.stdout.strip()

    def stop(self) -> None:
        subprocess.run(self.prefix + [str(PG_BIN / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres():
    if not (PG_BIN / "initdb").exists():
        pytest.skip("PostgreSQL 15 is not installed (scripts/ensure-deps test installs it)")
    cluster = PostgresCluster()
    yield cluster
    cluster.stop()


class Deployment:
    """One database and `processes` servers on it, each on a port of its own that a restart keeps."""

    def __init__(self, root: Path, database: str, processes: int, cluster: PostgresCluster | None = None,
                 serve_args: tuple[str, ...] = ()) -> None:
        self.database = database
        self.serve_args = list(serve_args)
        self.cluster = cluster
        self.files = root / "files"
        self.ports = [free_port() for _ in range(processes)]
        self.procs: list[subprocess.Popen | None] = [None] * processes
        self.logs = [root / f"server-{i}.log" for i in range(processes)]
        for i in range(processes):
            self.start(i)

    def command(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(SERVER), *args], capture_output=True, text=True, timeout=60)

    def start(self, i: int) -> None:
        env = dict(os.environ, CARFIT_PLANNER_ADMIN_TOKEN=ADMIN)
        proc = subprocess.Popen([str(SERVER), "serve", "--database", self.database, "--port", str(self.ports[i]),
                                 "--files", str(self.files), *self.serve_args], stdout=subprocess.PIPE, stderr=open(self.logs[i], "ab"),
                                env=env)
        deadline = time.monotonic() + 30
        line = b""
        while time.monotonic() < deadline and not line.endswith(b"\n"):
            ready, _, _ = select.select([proc.stdout], [], [], 0.5)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 1)
                if not chunk:
                    break
                line += chunk
        assert line.decode().strip() == f"listening on http://127.0.0.1:{self.ports[i]}", (line, self.logs[i].read_text())
        self.procs[i] = proc

    def kill(self, i: int, sig: int = signal.SIGKILL) -> None:
        proc = self.procs[i]
        if proc is not None and proc.poll() is None:
            proc.send_signal(sig)
            proc.wait(timeout=15)
        self.procs[i] = None

    def close(self) -> None:
        for i in range(len(self.procs)):
            self.kill(i, signal.SIGTERM)

    def url(self, i: int, path: str) -> str:
        return f"http://127.0.0.1:{self.ports[i]}{path}"

    def washer(self, name: str) -> dict:
        done = self.command("washer", "add", "--database", self.database, "--name", name)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def admin(self, method: str, path: str, body: object = None, i: int = 0) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url(i, path), data=data, method=method,
                                         headers={"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    def plan(self, washer: dict, count: int) -> list[dict]:
        """`count` visits of the washer today (UTC), one minute apart from midnight, shaped as the sample's first."""
        base = json.loads(SAMPLE.read_text(encoding="utf-8"))["data"][0]
        midnight = dt.datetime.now(dt.timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
        records = []
        for n in range(count):
            record = dict(base, visitId=f"v{n:04d}-{uuid.uuid4().hex[:6]}", homeBobEmployeeId=washer["washerId"],
                          startTimeUtc=iso(midnight + dt.timedelta(minutes=n)), visitState="ToDo",
                          houseOwnerFirstName=f"Owner {n}")
            status, answer = self.admin("POST", "/v1/planner/visits", record, i=n % len(self.ports))
            assert status == 201, answer
            records.append(answer["visit"])
        return records

    def day(self) -> dict:
        status, answer = self.admin("GET", f"/v1/planner/day?date={today()}")
        assert status == 200, answer
        return answer

    def sql(self, query: str) -> list[tuple]:
        """Rows of a query on the server's database (the tests' look behind the API)."""
        if self.database.startswith("sqlite:"):
            with sqlite3.connect(self.database[len("sqlite:"):], timeout=30) as db:
                return list(db.execute(query))
        name = self.database.rsplit("/", 1)[1]
        out = self.cluster.psql(name, query)
        return [tuple(int(c) if c.lstrip("-").isdigit() else c for c in line.split("|")) for line in out.splitlines()]

    def core_config(self, database: Path) -> dict:
        last = len(self.ports) - 1
        return {
            "database": str(database),
            "timeZone": "UTC",
            "sources": {
                "visits": self.url(0, "/v1/visits"),
                "visitUpdates": self.url(last, "/v1/visit-updates"),
                "locations": self.url(0, "/v1/locations"),
                "attachments": self.url(last, "/v1/attachments"),
                "devices": self.url(0, "/v1/devices"),
            },
            "auth": {"origins": sorted({self.url(0, ""), self.url(last, "")})},
            "http": {"timeoutMs": 15000},
        }


@pytest.fixture(params=["sqlite", "postgres-two-processes"])
def deployment(request, tmp_path, lib):
    if request.param == "sqlite":
        d = Deployment(tmp_path, f"sqlite:{tmp_path / 'planner.sqlite'}", 1)
    else:
        cluster = request.getfixturevalue("postgres")
        d = Deployment(tmp_path, cluster.database(), 2, cluster)
    yield d
    d.close()


class LosingProxy:
    """Forwards connections to a server; while `lose` is above 0, each answer the server starts
    to send is thrown away and the client's connection closed (the server applied the request,
    the client never hears of it)."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.lose = 0
        self.lost = 0
        self.lock = threading.Lock()
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target), timeout=30)
        except OSError:
            client.close()
            return
        losing = False
        try:
            while True:
                ready, _, _ = select.select([client, upstream], [], [], 30)
                if not ready:
                    return
                if client in ready:
                    data = client.recv(65536)
                    if not data:
                        return
                    upstream.sendall(data)
                if upstream in ready:
                    data = upstream.recv(65536)
                    if not data:
                        return
                    with self.lock:
                        if self.lose > 0 and not losing:
                            self.lose -= 1
                            self.lost += 1
                            losing = True
                    if losing:
                        return
                    client.sendall(data)
        except OSError:
            return
        finally:
            client.close()
            upstream.close()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self) -> None:
        self.stopped = True
        self.listener.close()
