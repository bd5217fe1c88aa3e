"""Private files: every file and directory the core creates is its owner's only (files 0600,
directories 0700) whatever the process's umask: the database and its -wal, -shm and -journal,
the -sync.lock, the attachments directory and every file in it (a copy a crash interrupted
too), the temporary file a refresh downloads to, the image cache's directory and files. What
an earlier version left open to others is narrowed when a core opens; a file of another owner
that cannot be narrowed is no error. The planner's token is in no byte of any file.

Each core runs in a child process that sets its umask first (the test's own is left alone), and
the tests walk the whole tree the core wrote into.
"""

from __future__ import annotations

import http.server
import json
import os
import shutil
import signal
import socketserver
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import uuid
from pathlib import Path
from typing import Dict

import pytest

import carfit
from conftest import REPO_ROOT

KEY = "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0"
SAMPLE = REPO_ROOT / "examples" / "data" / "carfit.json"
PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
       b"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(256)) * 8

CHILD = textwrap.dedent("""
    import json, os, sys
    os.umask(int(sys.argv[1], 8))
    sys.path.insert(0, {binding!r})
    import carfit
    spec = json.loads(sys.argv[2])
    core = carfit.Core(spec["config"])
    mode = spec["mode"]
    if mode == "work":
        if not core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]:
            core.import_visits(open(spec["sample"], encoding="utf-8").read())
        core.set_visit_state(spec["key"], "InProgress")
        core.attach(spec["key"], "photo", file=spec["photo"])
        core.attach(spec["key"], "note", text="Gate code 1234")
        core.image(spec["image"])
        print("refreshing", flush=True)
        try:
            core.refresh_visits()
        except carfit.CarfitError as error:
            print("refresh:", error.code, file=sys.stderr, flush=True)
        try:
            core.push()
        except carfit.CarfitError as error:
            print("push:", error.code, file=sys.stderr, flush=True)
    elif mode == "import":
        core.import_visits(open(spec["sample"], encoding="utf-8").read())
    elif mode == "attach":
        print("attaching", flush=True)
        core.attach(spec["key"], "photo", file=spec["photo"])
    elif mode == "list":
        print(len(core.attachments(spec["key"])["attachments"]), flush=True)
    print("ready", flush=True)
    sys.stdin.read()
    core.close()
""")


def child(umask: int, config: dict, mode: str, python: str = sys.executable, prefix=(), **spec) -> subprocess.Popen:
    """A core in a process of its own under `umask`, doing `mode`; it prints "ready" and keeps
    the core open until its stdin closes."""
    code = CHILD.format(binding=str(REPO_ROOT / "bindings" / "python"))
    argument = json.dumps(dict(spec, config=config, mode=mode, sample=str(SAMPLE), key=KEY))
    env = dict(os.environ, CARFIT_LIBRARY=str(carfit._lib.find_library()))
    env.update(spec.get("env", {}))
    return subprocess.Popen([*prefix, python, "-c", code, format(umask, "o"), argument], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def finish(process: subprocess.Popen) -> None:
    _, err = process.communicate("", timeout=60)
    assert process.returncode == 0, err


def expect(process: subprocess.Popen, line: str) -> None:
    got = process.stdout.readline().strip()
    if got != line:
        process.kill()
        raise AssertionError(f"child said {got!r}, not {line!r}: {process.stderr.read()}")


def modes(root: Path) -> Dict[str, int]:
    """Every file and directory under `root` (not following links): its permission bits."""
    found = {}
    for directory, names, files in os.walk(root):
        for name in names + files:
            path = Path(directory) / name
            found[str(path.relative_to(root))] = stat.S_IMODE(path.lstat().st_mode)
    return found


def open_modes(found: Dict[str, int], root: Path) -> Dict[str, str]:
    """The entries of `found` that are not 0600 files or 0700 directories."""
    wrong = {}
    for name, mode in found.items():
        want = 0o700 if (root / name).is_dir() else 0o600
        if mode != want:
            wrong[name] = oct(mode)
    return wrong


def private_directory(path: Path) -> Path:
    path.mkdir(parents=True)
    path.chmod(0o700)
    return path


class Sources(socketserver.ThreadingMixIn, http.server.HTTPServer):
    """The visits (sent in two halves, the second once `release` is set), an image and a
    planner that answers 503."""
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.halfway = threading.Event()
        self.release = threading.Event()
        threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def url(self, path):
        return f"http://127.0.0.1:{self.server_address[1]}{path}"

    def stop(self):
        self.release.set()
        self.shutdown()
        self.server_close()


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/image.png":
            self.answer(200, "image/png", PNG)
        elif self.path == "/visits.json":
            body = SAMPLE.read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:len(body) // 2])
            self.wfile.flush()
            self.server.halfway.set()
            self.server.release.wait(20)
            self.wfile.write(body[len(body) // 2:])
        else:
            self.answer(404, "text/plain", b"no")

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.answer(503, "text/plain", b"down for maintenance")

    def answer(self, status, content_type, body):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture()
def sources():
    server = Sources()
    yield server
    server.stop()


# ----------------------------------------------------------------------------------------------
# What a core creates
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("umask", [0o022, 0o000, 0o277], ids=["umask022", "umask000", "umask277"])
def test_every_file_and_directory_a_core_creates_is_private(tmp_path, sources, umask, lib):
    root = private_directory(tmp_path / "root")
    data, temporary = private_directory(root / "data"), private_directory(root / "tmp")
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(JPEG)

    def config(name):
        return {"database": str(data / name), "now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen",
                "images": {"directory": str(data / "images" / "cache" / name)},
                "sources": {"visits": sources.url("/visits.json"), "visitUpdates": sources.url("/updates")}}

    first = child(umask, config("a.db"), "work", photo=str(photo), image=sources.url("/image.png"),
                  env={"TMPDIR": str(temporary)})
    try:
        expect(first, "refreshing")
        assert sources.halfway.wait(30), "the refresh never started"
        # The refresh's body is half written to its temporary file.
        downloading = modes(temporary)
        sources.release.set()
        expect(first, "ready")
        # A second process on the same database and on one of its own, at the same time.
        second = child(umask, config("a.db"), "list")
        expect(second, "2")
        expect(second, "ready")
        third = child(umask, config("b.db"), "work", photo=str(photo), image=sources.url("/image.png"),
                      env={"TMPDIR": str(temporary)})
        expect(third, "refreshing")
        expect(third, "ready")
        while_open = modes(root)
        finish(second)
        finish(third)
    finally:
        sources.release.set()
        if first.poll() is None:
            first.stdin.close()
        first.wait(60)
    assert first.returncode == 0, first.stderr.read()
    after = modes(root)

    assert [name for name in downloading if name.startswith("carfit-http-")], downloading
    assert open_modes(downloading, temporary) == {}
    names = set(while_open)
    for name in ("data/a.db", "data/a.db-wal", "data/a.db-shm", "data/a.db-sync.lock", "data/a.db-attachments",
                 "data/b.db", "data/b.db-wal", "data/b.db-shm", "data/b.db-sync.lock", "data/b.db-attachments",
                 "data/images", "data/images/cache", "data/images/cache/a.db", "data/images/cache/b.db"):
        assert name in names, (name, sorted(names))
    assert len([n for n in names if n.startswith("data/a.db-attachments/")]) == 2
    assert len([n for n in names if n.startswith("data/images/cache/a.db/") and n.endswith(".img")]) == 1
    assert open_modes(while_open, root) == {}
    assert open_modes(after, root) == {}


def test_a_copy_a_crash_interrupted_is_private_and_reopening_keeps_it_so(tmp_path, lib):
    root = private_directory(tmp_path / "root")
    database = root / "a.db"
    big = tmp_path / "big.jpg"
    with open(big, "wb") as f:
        f.write(JPEG)
        f.truncate(600 << 20)  # sparse: quick to make, long enough to copy
    config = {"database": str(database), "now": "2020-09-10T07:00:00Z",
              "attachments": {"maxBytes": 1 << 30, "quotaBytes": 1 << 32}}
    with carfit.Core(config) as core:
        core.import_visits(SAMPLE.read_text(encoding="utf-8"))
    attacher = child(0o022, config, "attach", photo=str(big))
    expect(attacher, "attaching")
    directory = root / "a.db-attachments"
    deadline = time.monotonic() + 30
    while not (directory.is_dir() and any(p.name.endswith(".partial") for p in directory.iterdir())):
        assert time.monotonic() < deadline and attacher.poll() is None, "no copy in progress seen"
        time.sleep(0.001)
    attacher.send_signal(signal.SIGKILL)
    attacher.wait()
    crashed = modes(root)
    assert [name for name in crashed if name.endswith(".partial")], crashed
    assert open_modes(crashed, root) == {}
    reopened = child(0o022, config, "list")
    expect(reopened, "0")
    expect(reopened, "ready")
    assert open_modes(modes(root), root) == {}
    finish(reopened)
    assert not [name for name in modes(root) if name.endswith(".partial")]
    assert open_modes(modes(root), root) == {}


# ----------------------------------------------------------------------------------------------
# What an earlier version left open
# ----------------------------------------------------------------------------------------------

def test_what_an_earlier_version_left_open_is_narrowed_at_open(tmp_path, lib):
    import sqlite3
    root = tmp_path / "root"
    root.mkdir()
    database = root / "a.db"
    config = {"database": str(database), "now": "2020-09-10T07:00:00Z"}
    with carfit.Core(config) as core:
        core.import_visits(SAMPLE.read_text(encoding="utf-8"))
        core.attach(KEY, "note", text="Gate code 1234")
    (root / "a.db-sync.lock").write_bytes(b"")
    (root / "a.db-attachments" / f".carfit-{uuid.uuid4()}.partial").write_bytes(b"half")
    (root / "a.db-attachments" / "README").write_bytes(b"not an attachment")
    outside = tmp_path / "outside.txt"      # not the core's: a link to it is left alone
    outside.write_bytes(b"someone else's")
    outside.chmod(0o644)
    link = root / "a.db-attachments" / "elsewhere"
    link.symlink_to(outside)
    # Another connection keeps the -wal and -shm there while the core opens.
    keeper = sqlite3.connect(str(database))
    keeper.execute("PRAGMA journal_mode=WAL")
    keeper.execute("CREATE TABLE IF NOT EXISTS kept (x)")
    keeper.execute("INSERT INTO kept VALUES (1)")
    keeper.commit()
    try:
        for path in [database, *root.glob("a.db-*"), *(root / "a.db-attachments").iterdir()]:
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() else 0o644)
        before = modes(root)
        assert {"a.db", "a.db-wal", "a.db-shm", "a.db-sync.lock", "a.db-attachments"} <= set(before)
        assert len(before) == 9 and all(mode & 0o044 for mode in before.values()), before
        opened = child(0o022, config, "list")
        expect(opened, "1")
        expect(opened, "ready")
        link.unlink()
        assert open_modes(modes(root), root) == {}
        finish(opened)
    finally:
        keeper.close()
    assert open_modes(modes(root), root) == {}
    assert stat.S_IMODE(outside.stat().st_mode) == 0o644


def test_a_file_of_another_owner_that_cannot_be_narrowed_is_no_error(tmp_path, lib):
    """The core runs as nobody; the attachments directory and one file in it are root's, open
    to all, and stay so; the database and the files nobody owns are narrowed."""
    if os.geteuid() != 0:
        pytest.skip("needs root: the files of another owner are made with chown, and the core runs "
                    "as nobody through setpriv")
    setpriv = shutil.which("setpriv")
    python = "/usr/bin/python3"
    if not setpriv or not os.path.exists(python):
        pytest.skip("needs setpriv (util-linux) and /usr/bin/python3 to run the core as nobody")
    nobody = 65534
    library = Path(carfit._lib.find_library()).resolve()
    # nobody must reach the library, the binding and the sample: all are under REPO_ROOT.
    for path in (library, REPO_ROOT / "bindings" / "python" / "carfit" / "__init__.py", SAMPLE):
        if not os.access(path, os.R_OK) or any(not (p.stat().st_mode & 0o001) for p in path.parents):
            pytest.skip(f"{path} is not readable by nobody")
    base = Path(tempfile.mkdtemp(prefix="carfit-owners-", dir="/tmp"))
    try:
        base.chmod(0o711)
        root = base / "data"
        root.mkdir()
        os.chown(root, nobody, nobody)
        root.chmod(0o700)
        database = root / "a.db"
        config = {"database": str(database), "now": "2020-09-10T07:00:00Z"}
        prefix = [setpriv, "--reuid", str(nobody), "--regid", str(nobody), "--clear-groups", "--"]
        made = child(0o022, config, "import", python=python, prefix=prefix)
        expect(made, "ready")
        finish(made)
        assert database.stat().st_uid == nobody
        attachments = root / "a.db-attachments"
        if attachments.exists():
            shutil.rmtree(attachments)
        attachments.mkdir(mode=0o755)
        attachments.chmod(0o755)           # root's, open to all
        shared = attachments / "shared-note.txt"
        shared.write_bytes(b"root's")
        shared.chmod(0o644)                # root's, open to all
        own = attachments / "nobodys-note.txt"
        own.write_bytes(b"nobody's")
        os.chown(own, nobody, nobody)
        own.chmod(0o644)
        lock = root / "a.db-sync.lock"
        lock.write_bytes(b"")
        lock.chmod(0o644)                  # root's, in nobody's directory
        database.chmod(0o644)
        opened = child(0o022, config, "list", python=python, prefix=prefix)
        expect(opened, "0")
        expect(opened, "ready")
        finish(opened)
        assert stat.S_IMODE(database.stat().st_mode) == 0o600
        assert stat.S_IMODE(own.stat().st_mode) == 0o600
        assert stat.S_IMODE(attachments.stat().st_mode) == 0o755
        assert stat.S_IMODE(shared.stat().st_mode) == 0o644
        assert stat.S_IMODE(lock.stat().st_mode) == 0o644
        assert shared.read_bytes() == b"root's"
    finally:
        shutil.rmtree(base, ignore_errors=True)


# ----------------------------------------------------------------------------------------------
# The planner's token
# ----------------------------------------------------------------------------------------------

def test_no_file_holds_the_planners_token(tmp_path, lib):
    import auth_server
    secret = "Kp3-" + "planner-token-never-on-disk-5512"
    planner = auth_server.start(idle=120)
    try:
        planner.set_token(secret)
        root = private_directory(tmp_path / "root")
        config = {"database": str(root / "a.db"), "now": "2020-09-10T07:00:00Z",
                  "timeZone": "Europe/Copenhagen",
                  "images": {"directory": str(root / "images")},
                  "sources": {"visits": planner.url(0, "/token/data/carfit.json"),
                              "visitUpdates": planner.url(0, "/token/updates")}}
        with carfit.Core(config) as core:
            core.auth_set(secret)
            assert core.refresh_visits()["imported"] > 0
            core.set_visit_state(KEY, "InProgress")
            core.attach(KEY, "note", text="Gate code 1234")
            assert core.push()["pushed"] == 1
            requests = planner.requests()
            assert any(r["authorization"] == f"Bearer {secret}" for r in requests)
            files = [p for p in root.rglob("*") if p.is_file()]
            assert {"a.db", "a.db-wal", "a.db-sync.lock"} <= {p.name for p in files}
            for path in files:
                assert secret.encode() not in path.read_bytes(), path
        for path in (p for p in root.rglob("*") if p.is_file()):
            assert secret.encode() not in path.read_bytes(), path
    finally:
        planner.stop()


def test_a_directory_named_as_the_database_is_refused_and_left_as_it_is(tmp_path, lib):
    directory = tmp_path / "a.db"
    directory.mkdir()
    directory.chmod(0o755)
    with pytest.raises(carfit.StorageError) as refused:
        carfit.Core({"database": str(directory)})
    assert refused.value.field == "database"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o755
