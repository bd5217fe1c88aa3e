"""Encryption at rest: with `encryption.key` the database, its WAL and journal hold no stored
text and no SQLite header, while open, after close and after a kill -9 mid-write; an encrypted
database opened without its key is refused (`key_required`, `wrong_key`) and no file is created,
changed or removed; the library's SQLite is its own even when the host loaded the system's first;
a refresh's download never lands in $TMPDIR in the clear.
"""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Dict, Tuple

import pytest

import carfit
from conftest import DAY_CONFIG, REPO_ROOT, SAMPLE_PATH
from helpers import many_visits

KEY = "5f1c0e2a9b7d4c3e8a6f0b1d2c3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4"
OTHER_KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
VISIT = "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0"
#: Text of the sample that must be in no file: a name, an address, a phone number, a city.
MARKERS = [b"Holtermann", b"Akademivej", b"+4520934021", b"Lyngby"]
SQLITE_HEADER = b"SQLite format 3\x00"


def config(database: Path, key: str | None = KEY) -> dict:
    c = dict(DAY_CONFIG, database=str(database), images={"directory": str(database.parent / "images")})
    if key is not None:
        c["encryption"] = {"key": key}
    return c


def files_state(root: Path) -> Dict[str, Tuple[int, str, int]]:
    """Every file under `root`: its size, its SHA-256 and its modification time."""
    found = {}
    for directory, _, names in os.walk(root):
        for name in names:
            path = Path(directory) / name
            data = path.read_bytes()
            found[str(path.relative_to(root))] = (len(data), hashlib.sha256(data).hexdigest(), path.stat().st_mtime_ns)
    return found


def leaks(root: Path) -> Dict[str, list]:
    """The files under `root` holding the SQLite header or a marker, and which."""
    found = {}
    for directory, _, names in os.walk(root):
        for name in names:
            path = Path(directory) / name
            data = path.read_bytes()
            hits = [m.decode() for m in MARKERS + [SQLITE_HEADER] if m in data]
            if hits:
                found[str(path.relative_to(root))] = hits
    return found


def fill(core: carfit.Core) -> None:
    core.import_visits(SAMPLE_PATH.read_text(encoding="utf-8"))
    core.set_visit_state(VISIT, "InProgress")


def test_no_stored_text_and_no_sqlite_header_in_any_file(tmp_path):
    database = tmp_path / "db" / "carfit.db"
    database.parent.mkdir()
    with carfit.Core(config(database)) as core:
        fill(core)
        assert (tmp_path / "db" / "carfit.db-wal").stat().st_size > 0
        # While open: the WAL holds the commits.
        assert leaks(tmp_path) == {}
    assert leaks(tmp_path) == {}
    assert not database.read_bytes().startswith(SQLITE_HEADER)
    with carfit.Core(config(database)) as core:
        day = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
        assert any("Holtermann" in json.dumps(v) for v in day)


def test_the_same_data_without_a_key_is_plaintext(tmp_path):
    # The check above can fail: without a key the markers are in the files.
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database, key=None)) as core:
        fill(core)
    assert set(leaks(tmp_path)) >= {"carfit.db"}


def test_key_case_does_not_matter(tmp_path):
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database, KEY.upper())) as core:
        fill(core)
    with carfit.Core(config(database, KEY.lower())) as core:
        assert core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]


@pytest.mark.parametrize("key,reason", [(None, "key_required"), (OTHER_KEY, "wrong_key")])
def test_refused_open_touches_no_file(tmp_path, key, reason):
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database)) as core:
        fill(core)
    before = files_state(tmp_path)
    with pytest.raises(carfit.CarfitError) as refused:
        carfit.Core(config(database, key))
    assert refused.value.code == "unauthorized"
    assert refused.value.document.get("reason") == reason
    assert KEY not in json.dumps(refused.value.response) and OTHER_KEY not in json.dumps(refused.value.response)
    assert files_state(tmp_path) == before


def test_a_file_without_the_sqlite_header_needs_a_key(tmp_path):
    database = tmp_path / "carfit.db"
    database.write_bytes(b"\x01" * 5000)
    before = files_state(tmp_path)
    with pytest.raises(carfit.CarfitError) as refused:
        carfit.Core(config(database, key=None))
    assert (refused.value.code, refused.value.document.get("reason")) == ("unauthorized", "key_required")
    assert files_state(tmp_path) == before


@pytest.mark.parametrize("bad", ["abc", KEY[:-1] + "g", KEY + "00", 12])
def test_a_malformed_key_is_invalid_and_not_quoted(tmp_path, bad):
    with pytest.raises(carfit.CarfitError) as refused:
        carfit.Core(config(tmp_path / "carfit.db", bad))
    assert refused.value.code == "invalid"
    assert refused.value.field == "encryption.key"
    if isinstance(bad, str):
        assert bad not in json.dumps(refused.value.response)
    assert list(tmp_path.iterdir()) == []


CHILD = textwrap.dedent("""
    import ctypes, json, os, sys
    spec = json.loads(sys.argv[1])
    if spec.get("system_sqlite"):
        # The host process loaded the system's SQLite first, its symbols global.
        ctypes.CDLL("libsqlite3.so.0", mode=ctypes.RTLD_GLOBAL)
    sys.path.insert(0, {binding!r})
    import carfit
    core = carfit.Core(spec["config"])
    text = open(spec["sample"], encoding="utf-8").read()
    print("open", flush=True)
    for n in range(spec["rounds"]):
        core.import_visits(text)
        try:
            core.set_visit_state(spec["visit"], "InProgress" if n % 2 else "Todo")
        except carfit.ConflictError:
            pass
    print("done", flush=True)
    sys.stdin.read()
    core.close()
""")


def child(cfg: dict, rounds: int, system_sqlite: bool = False) -> subprocess.Popen:
    code = CHILD.format(binding=str(REPO_ROOT / "bindings" / "python"))
    spec = dict(config=cfg, rounds=rounds, system_sqlite=system_sqlite, sample=str(SAMPLE_PATH), visit=VISIT)
    env = dict(os.environ, CARFIT_LIBRARY=str(carfit._lib.find_library()))
    return subprocess.Popen([sys.executable, "-c", code, json.dumps(spec)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def test_the_system_sqlite_loaded_first_changes_nothing(tmp_path):
    database = tmp_path / "carfit.db"
    process = child(config(database), rounds=2, system_sqlite=True)
    assert process.stdout.readline().strip() == "open", process.stderr.read()
    assert process.stdout.readline().strip() == "done", process.stderr.read()
    assert leaks(tmp_path) == {}
    process.communicate("", timeout=60)
    assert process.returncode == 0
    assert leaks(tmp_path) == {}
    with carfit.Core(config(database)) as core:
        assert core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]


@pytest.mark.parametrize("delay_ms", [5, 40, 150])
def test_kill_mid_write_leaves_encrypted_files_that_open(tmp_path, delay_ms):
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database)) as core:
        fill(core)
    process = child(config(database), rounds=50)
    assert process.stdout.readline().strip() == "open", process.stderr.read()
    time.sleep(delay_ms / 1000)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    assert leaks(tmp_path) == {}
    with carfit.Core(config(database)) as core:
        day = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
        assert any("Holtermann" in json.dumps(v) for v in day)
    assert leaks(tmp_path) == {}


def rekey(core: carfit.Core, key):
    return core.call("storage.rekey", {"key": key})


def test_rekey_to_a_new_key_and_back_to_plaintext(tmp_path):
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database)) as core:
        fill(core)
        assert rekey(core, OTHER_KEY) == {"encrypted": True}
        # The rekeying core goes on working, under the new key.
        core.set_visit_state(VISIT, "Todo")
        assert core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
    assert leaks(tmp_path) == {}
    with pytest.raises(carfit.CarfitError) as refused:
        carfit.Core(config(database, KEY))
    assert refused.value.document.get("reason") == "wrong_key"
    with carfit.Core(config(database, OTHER_KEY)) as core:
        assert rekey(core, None) == {"encrypted": False}
        assert core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
    assert database.read_bytes().startswith(SQLITE_HEADER)
    with carfit.Core(config(database, key=None)) as core:
        assert rekey(core, KEY) == {"encrypted": True}
    assert leaks(tmp_path) == {}
    with carfit.Core(config(database)) as core:
        assert core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]


def test_other_cores_answer_wrong_key_after_a_rekey(tmp_path):
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database)) as first, carfit.Core(config(database)) as second:
        fill(first)
        assert second.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
        rekey(first, OTHER_KEY)
        for call in (lambda: second.list_visits(dates=["2020-09-10"]), lambda: second.set_visit_state(VISIT, "Todo")):
            with pytest.raises(carfit.CarfitError) as refused:
                call()
            assert (refused.value.code, refused.value.document.get("reason")) == ("unauthorized", "wrong_key")
        assert first.list_visits(dates=["2020-09-10"])["days"][0]["visits"]


REPORTER = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {binding!r})
    import carfit
    core = carfit.Core(json.loads(sys.argv[1]))
    print("open", flush=True)
    n = 0
    while True:
        n += 1
        try:
            stored = core.call("location.report", {{"latitude": 55.0 + n / 1000, "longitude": 12.5,
                                                    "accuracyMeters": 5, "at": "2020-09-10T05:%02d:%02dZ" % (n // 60 % 60, n % 60)}})
        except carfit.CarfitError as e:
            print(json.dumps({{"refused": e.code, "reason": e.document.get("reason")}}), flush=True)
            break
        if stored["stored"]:
            print(json.dumps({{"stored": n}}), flush=True)
    core.close()
""")


def report(core: carfit.Core, n: int) -> bool:
    return core.call("location.report", {"latitude": 55.0 + n / 1000, "longitude": 12.5, "accuracyMeters": 5,
                                         "at": "2020-09-10T05:%02d:%02dZ" % (n // 60 % 60, n % 60)})["stored"]


@pytest.mark.parametrize("new_key", [OTHER_KEY, None])
def test_writes_of_another_core_during_a_rekey_are_kept_or_refused(tmp_path, new_key):
    # Another core writes as fast as it can while the first changes the key: every write it
    # was told succeeded is in the new files; once the copy is in place it is refused (wrong_key).
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database)) as first:
        fill(first)
    with carfit.Core(config(database)) as first, carfit.Core(config(database)) as second:
        stored, refused, started = [], [], threading.Event()

        def writer() -> None:
            n = 0
            while n < 3000:
                n += 1
                try:
                    if report(second, n):
                        stored.append(n)
                except carfit.CarfitError as e:
                    refused.append((e.code, e.document.get("reason")))
                    return
                if n == 20:
                    started.set()

        thread = threading.Thread(target=writer)
        thread.start()
        assert started.wait(30)
        rekey(first, new_key)
        thread.join(60)
        assert refused == [("unauthorized", "wrong_key")]
        assert stored, "the other core wrote before the change of key"
        assert first.call("location.status")["trail"]["stored"] == len(stored)
    with carfit.Core(config(database, new_key)) as reopened:
        assert reopened.call("location.status")["trail"]["stored"] == len(stored)


def test_writes_of_another_process_during_a_rekey_are_kept_or_refused(tmp_path):
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database)) as first:
        fill(first)
    code = REPORTER.format(binding=str(REPO_ROOT / "bindings" / "python"))
    env = dict(os.environ, CARFIT_LIBRARY=str(carfit._lib.find_library()))
    process = subprocess.Popen([sys.executable, "-c", code, json.dumps(config(database))], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout.readline().strip() == "open", process.stderr.read()
        lines = [json.loads(process.stdout.readline()) for _ in range(20)]
        with carfit.Core(config(database)) as first:
            rekey(first, OTHER_KEY)
            # Read line by line to the end (the reader's buffer already holds some of them).
            for line in process.stdout:
                lines.append(json.loads(line))
            assert process.wait(timeout=60) == 0, process.stderr.read()
            stored = [line["stored"] for line in lines if "stored" in line]
            assert lines[-1] == {"refused": "unauthorized", "reason": "wrong_key"}
            assert first.call("location.status")["trail"]["stored"] == len(stored)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_cores_opened_during_a_rekey_leave_its_copy_alone(tmp_path):
    # The copy under the new key is being built beside the database while other cores open it:
    # an open drops only a copy that an interrupted run left, never one being built.
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database)) as first:
        first.import_visits(json.dumps(many_visits(json.loads(SAMPLE_PATH.read_text(encoding="utf-8")), 1500)))
        keys, stop, opened, failures = [OTHER_KEY, KEY], threading.Event(), [], []

        def opener() -> None:
            while not stop.is_set():
                for key in (KEY, OTHER_KEY):
                    try:
                        carfit.Core(config(database, key)).close()
                        opened.append(key)
                    except carfit.CarfitError as e:
                        if e.code != "unauthorized":
                            failures.append((e.code, str(e)))

        thread = threading.Thread(target=opener)
        thread.start()
        try:
            for n in range(6):
                assert rekey(first, keys[n % 2]) == {"encrypted": True}
        finally:
            stop.set()
            thread.join(60)
        assert opened and failures == []
        assert first.list_visits(dates=["2020-09-12"])["days"][0]["summary"]["visits"] == 1500
    assert not (tmp_path / "carfit.db-encrypting").exists()


def test_a_malformed_new_key_changes_nothing(tmp_path):
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database)) as core:
        fill(core)
        with pytest.raises(carfit.CarfitError) as refused:
            rekey(core, "zz" * 32)
        assert refused.value.code == "invalid" and "zz" * 32 not in json.dumps(refused.value.response)
    with carfit.Core(config(database)) as core:
        assert core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]


def test_a_plaintext_database_is_encrypted_at_open(tmp_path):
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database, key=None)) as core:
        fill(core)
    assert set(leaks(tmp_path)) >= {"carfit.db"}
    with carfit.Core(config(database)) as core:
        day = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
        assert any("Holtermann" in json.dumps(v) for v in day)
    assert leaks(tmp_path) == {}


REKEY_CHILD = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {binding!r})
    import carfit
    spec = json.loads(sys.argv[1])
    core = carfit.Core(spec["config"])
    print("open", flush=True)
    keys = spec["keys"]
    n = 0
    while True:
        core.call("storage.rekey", {{"key": keys[n % len(keys)]}})
        print("rekeyed", n, flush=True)
        n += 1
""")


@pytest.mark.parametrize("delay_ms", [0, 3, 10, 30, 80])
def test_kill_mid_rekey_leaves_one_key_that_opens_everything(tmp_path, delay_ms):
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database)) as core:
        fill(core)
    code = REKEY_CHILD.format(binding=str(REPO_ROOT / "bindings" / "python"))
    keys = [OTHER_KEY, None, KEY]
    env = dict(os.environ, CARFIT_LIBRARY=str(carfit._lib.find_library()))
    process = subprocess.Popen([sys.executable, "-c", code, json.dumps({"config": config(database), "keys": keys})],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert process.stdout.readline().strip() == "open", process.stderr.read()
    time.sleep(delay_ms / 1000)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    # A plaintext copy in progress (a rekey to null) is left out: it is dropped at the next open.
    found = {name: hits for name, hits in leaks(tmp_path).items() if not name.startswith("carfit.db-encrypting")}
    missing = object()
    opened = missing
    # Plaintext first: a key would encrypt a plaintext set at open.
    for key in (None, KEY, OTHER_KEY):
        try:
            with carfit.Core(config(database, key)) as core:
                day = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
                assert any("Holtermann" in json.dumps(v) for v in day)
            opened = key
            break
        except carfit.CarfitError as error:
            assert error.code == "unauthorized", error.message
    assert opened is not missing
    if opened == KEY:
        with pytest.raises(carfit.CarfitError) as refused:
            carfit.Core(config(database, OTHER_KEY))
        assert refused.value.document.get("reason") == "wrong_key"
    if opened is not None:
        assert found == {}
    assert not (tmp_path / "carfit.db-encrypting").exists()


NOTE = "Gate code 4711 behind the Holtermann garage"
PHOTO = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"Holtermann-photo " * 9000  # over two 64 KiB chunks


def attach_both(core: carfit.Core, tmp_path: Path):
    photo_file = tmp_path / "outside" / "photo.jpg"
    photo_file.parent.mkdir(exist_ok=True)
    photo_file.write_bytes(PHOTO)
    photo = core.attach(VISIT, "photo", file=str(photo_file))["attachment"]
    note = core.attach(VISIT, "note", text=NOTE)["attachment"]
    photo_file.unlink()
    return photo, note


def test_attachments_are_sealed_and_read_back_whole(tmp_path):
    database = tmp_path / "db" / "carfit.db"
    database.parent.mkdir()
    with carfit.Core(config(database)) as core:
        fill(core)
        photo, note = attach_both(core, tmp_path)
        listed = core.attachments(VISIT)["attachments"]
        assert [a["path"] for a in listed] == [None, None]
        data, info = core.attachment_data(photo["id"])
        assert data == PHOTO and info == {"id": photo["id"], "bytes": len(PHOTO), "contentType": "image/jpeg"}
        assert core.attachment_data(note["id"])[0] == NOTE.encode()
        assert leaks(tmp_path / "db") == {}
    stored = list((tmp_path / "db" / "carfit.db-attachments").iterdir())
    assert len(stored) == 2 and all(not f.read_bytes().startswith(b"\xff\xd8") for f in stored)
    with carfit.Core(config(database)) as core, pytest.raises(carfit.NotFoundError):
        core.attachment_data("no-such-id")


def test_a_plaintext_set_is_sealed_at_open_and_unsealed_by_a_rekey_to_null(tmp_path):
    database = tmp_path / "db" / "carfit.db"
    database.parent.mkdir()
    with carfit.Core(config(database, key=None)) as core:
        fill(core)
        photo, note = attach_both(core, tmp_path)
        assert all(a["path"] for a in core.attachments(VISIT)["attachments"])
    assert leaks(tmp_path / "db") != {}
    with carfit.Core(config(database)) as core:
        assert leaks(tmp_path / "db") == {}
        assert core.attachment_data(photo["id"])[0] == PHOTO
        assert rekey(core, OTHER_KEY) == {"encrypted": True}
        assert core.attachment_data(note["id"])[0] == NOTE.encode()
        assert rekey(core, None) == {"encrypted": False}
        paths = [a["path"] for a in core.attachments(VISIT)["attachments"]]
        assert Path(paths[0]).read_bytes() == PHOTO and Path(paths[1]).read_bytes() == NOTE.encode()


def test_an_upload_sends_the_original_bytes_and_their_sha256(tmp_path):
    from attachment_server import AttachmentServer
    server = AttachmentServer().start()
    try:
        database = tmp_path / "db" / "carfit.db"
        database.parent.mkdir()
        cfg = dict(config(database), sources={"attachments": server.url()})
        with carfit.Core(cfg) as core:
            fill(core)
            photo, note = attach_both(core, tmp_path)
            answer = core.push()
            assert answer["attachments"] == {"uploaded": 2, "pending": 0, "failed": 0}
        assert server.bodies[photo["id"]] == PHOTO
        assert server.bodies[note["id"]] == NOTE.encode()
        headers = server.stored[photo["id"]]["headers"]
        assert headers["x-carfit-sha256"] == hashlib.sha256(PHOTO).hexdigest()
        assert headers["content-length"] == str(len(PHOTO))
        assert leaks(tmp_path / "db") == {}
    finally:
        server.stop()


def test_with_a_key_no_image_is_cached_on_disk(tmp_path):
    database = tmp_path / "carfit.db"
    images = tmp_path / "images"
    images.mkdir()
    (images / "0123456789abcdef.img").write_bytes(b"\x89PNG\r\n\x1a\n" + b"Holtermann" * 10)
    with carfit.Core(config(database)) as core:
        assert core.call("images.stats")["disk"]["limit"] == 0
    assert list(images.iterdir()) == []


def test_two_processes_write_the_same_encrypted_database(tmp_path):
    # Both write the WAL between each other's transactions: every read and write stays whole.
    database = tmp_path / "carfit.db"
    with carfit.Core(config(database)) as core:
        fill(core)
    children = [child(config(database), rounds=12) for _ in range(2)]
    for process in children:
        assert process.stdout.readline().strip() == "open", process.stderr.read()
    for process in children:
        assert process.stdout.readline().strip() == "done", process.stderr.read()
        process.communicate("", timeout=120)
        assert process.returncode == 0
    with carfit.Core(config(database)) as core:
        day = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
        assert any("Holtermann" in json.dumps(v) for v in day)
    assert leaks(tmp_path) == {}


OPEN_CHILD = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {binding!r})
    import carfit
    core = carfit.Core(json.loads(sys.argv[1]))
    print("open", flush=True)
    sys.stdin.read()
""")


@pytest.mark.parametrize("delay_ms", [0, 20, 60, 120, 250])
def test_kill_during_encryption_at_open_leaves_one_whole_set(tmp_path, delay_ms):
    database = tmp_path / "db" / "carfit.db"
    database.parent.mkdir()
    with carfit.Core(config(database, key=None)) as core:
        fill(core)
        photo, note = attach_both(core, tmp_path)
    directory = tmp_path / "db" / "carfit.db-attachments"
    before = {f.name: f.read_bytes() for f in directory.iterdir()}
    code = OPEN_CHILD.format(binding=str(REPO_ROOT / "bindings" / "python"))
    env = dict(os.environ, CARFIT_LIBRARY=str(carfit._lib.find_library()))
    process = subprocess.Popen([sys.executable, "-c", code, json.dumps(config(database))], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(delay_ms / 1000)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    if database.read_bytes().startswith(SQLITE_HEADER):
        # The encrypted database never took its place: every attachment is as it was.
        assert {f.name: f.read_bytes() for f in directory.iterdir() if not f.name.startswith(".")} == before
    # Either way the key opens everything now, and the next open finished the work.
    with carfit.Core(config(database)) as core:
        assert core.attachment_data(photo["id"])[0] == PHOTO
        assert core.attachment_data(note["id"])[0] == NOTE.encode()
        day = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
        assert any("Holtermann" in json.dumps(v) for v in day)
    assert leaks(tmp_path / "db") == {}


def slow_visits_server(body: bytes, piece: int = 64 * 1024, pause: float = 0.02):
    """A loopback server answering every GET with `body` (its length declared) in pieces of
    `piece` bytes, `pause` seconds apart; `halfway` is set once half the body is sent and
    `sent` once all of it is. The caller shuts it down."""
    halfway = threading.Event()
    sent = threading.Event()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for start in range(0, len(body), piece):
                self.wfile.write(body[start:start + piece])
                self.wfile.flush()
                if start + piece >= len(body) // 2:
                    halfway.set()
                time.sleep(pause)
            sent.set()
            self.close_connection = True

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, halfway, sent


def marker_files(*roots: Path) -> Dict[str, list]:
    """The files under `roots` holding a marker, and which; a file removed while it is looked
    at is skipped."""
    found = {}
    for root in roots:
        for directory, _, names in os.walk(root):
            for name in names:
                path = Path(directory) / name
                try:
                    data = path.read_bytes()
                except (FileNotFoundError, IsADirectoryError):
                    continue
                hits = [m.decode() for m in MARKERS if m in data]
                if hits:
                    found[str(path)] = hits
    return found


@pytest.mark.parametrize("key,later", [(KEY, None), (None, KEY), (None, None)])
def test_a_refresh_download_never_reaches_the_disk_in_the_clear(tmp_path, monkeypatch, key, later):
    # Without a key the body is downloaded to $TMPDIR, where the sampling finds it: the same
    # sampling finds no file with the markers when a key is set (at open, or by a rekey of the
    # open core), during the download or after.
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))
    database = tmp_path / "db" / "carfit.db"
    database.parent.mkdir()
    body = json.dumps(many_visits(json.loads(SAMPLE_PATH.read_text(encoding="utf-8")), 3000)).encode("utf-8")
    assert len(body) > 2 * (1 << 20) and all(m in body[:64 * 1024] for m in MARKERS)
    server, halfway, sent = slow_visits_server(body)
    seen: Dict[str, list] = {}
    samples_mid_download = 0
    finished = threading.Event()

    def sample():
        nonlocal samples_mid_download
        while not finished.is_set():
            mid = halfway.is_set() and not sent.is_set()
            seen.update(marker_files(temporary, database.parent))
            if mid and not sent.is_set():
                samples_mid_download += 1
            time.sleep(0.005)

    try:
        cfg = dict(config(database, key), sources={"visits": f"http://127.0.0.1:{server.server_address[1]}/visits"})
        with carfit.Core(cfg) as core:
            if later is not None:
                rekey(core, later)
            sampler = threading.Thread(target=sample)
            sampler.start()
            try:
                result = core.refresh_visits()
            finally:
                finished.set()
                sampler.join()
            assert result["imported"] == 3000
            seen.update(marker_files(temporary, database.parent))
        seen.update(marker_files(temporary, database.parent))
    finally:
        server.shutdown()
    assert samples_mid_download > 0
    if key is None and later is None:
        assert any(path.startswith(str(temporary)) for path in seen), seen
    else:
        assert seen == {}
        assert list(temporary.iterdir()) == []
