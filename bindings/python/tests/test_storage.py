"""Storage errors say which file and what is in the way: a missing directory, permissions, a
read-only file or disk, a file that is not a database, a full disk.

Root may read and write any file, so the permission cases run as ``nobody`` in a child process
(``setpriv``); the disk cases mount a small tmpfs, which needs root. Each skips, saying why,
when it cannot run here.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import carfit
from carfit import _lib

from conftest import BINDING_DIR, DAY_CONFIG, SAMPLE_PATH
from helpers import serving

NOBODY = 65534

#: Opens a core on argv[1], imports the sample, and prints what happened as JSON.
CHILD = """
import json, sys
sys.path.insert(0, sys.argv[2])
import carfit
try:
    with carfit.Core(database=sys.argv[1]) as core:
        core.import_visits(sys.argv[3])
    print(json.dumps({"ok": True}))
except carfit.CarfitError as error:
    print(json.dumps({"code": error.code, "field": error.field, "message": error.message}))
"""

JARGON = ("sqlite3_", "SQLITE_", "(step)", "(prepare)", "The database failed")


def assert_plain(message: str) -> None:
    for word in JARGON:
        assert word not in message, message


@pytest.fixture(scope="module")
def nobody_kit():
    """The binding, the header it reads its version from and the library, copied where ``nobody``
    may read them (the checkout may sit in a directory only root can enter, as a fresh clone
    under a private temporary directory does): a checkout's layout, so the binding finds the header."""
    kit = Path(tempfile.mkdtemp(prefix="carfit-nobody-"))
    try:
        shutil.copytree(BINDING_DIR / "carfit", kit / "bindings" / "python" / "carfit",
                        ignore=shutil.ignore_patterns("__pycache__"))
        (kit / "include").mkdir()
        shutil.copy2(BINDING_DIR.parents[1] / "include" / "carfit.h", kit / "include" / "carfit.h")
        shutil.copy2(_lib.find_library(), kit / "libcarfit.so")
        for path in [kit, *kit.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        yield kit
    finally:
        shutil.rmtree(kit, ignore_errors=True)


def open_as_nobody(database: Path, kit: Path) -> dict:
    """What opening ``database`` and importing the sample does for user ``nobody``."""
    if os.geteuid() != 0:
        pytest.skip("permission checks run as root, which switches to nobody for them")
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("setpriv is missing (util-linux): cannot run the permission checks as nobody")
    python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    env = {"PATH": "/usr/bin:/bin", "CARFIT_LIBRARY": str(kit / "libcarfit.so"), "PYTHONDONTWRITEBYTECODE": "1",
           "LANG": "C.UTF-8"}
    result = subprocess.run(
        [setpriv, "--reuid", str(NOBODY), "--regid", str(NOBODY), "--clear-groups", "--",
         python, "-B", "-c", CHILD, str(database), str(kit / "bindings" / "python"),
         SAMPLE_PATH.read_text(encoding="utf-8")],
        capture_output=True, text=True, timeout=60, env=env, cwd="/")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture()
def shared_dir():
    """A directory of root's that nobody may enter, in one of the system's temporary directory
    (pytest's own are closed to other users), removed afterwards."""
    top = Path(tempfile.mkdtemp(prefix="carfit-storage-"))
    try:
        os.chmod(top, 0o711)
        directory = top / "shared"
        directory.mkdir()
        yield directory
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_a_missing_directory_is_named(lib, tmp_path):
    database = tmp_path / "missing" / "dir" / "x.db"
    with pytest.raises(carfit.StorageError) as info:
        carfit.Core(database=str(database))
    assert info.value.field == "database"
    assert info.value.message == (
        f'Cannot open the database "{database}": the directory "{database.parent}" does not exist. '
        "Create it, or choose a database path in an existing directory.")


def test_a_text_file_is_not_a_database_and_is_kept(lib, tmp_path):
    notes = tmp_path / "notes.txt"
    text = b"these are my notes, not a database\n" * 100
    notes.write_bytes(text)
    # Without SQLite's header the file may be an encrypted database: a key is asked for.
    with pytest.raises(carfit.CarfitError) as info:
        carfit.Core(database=str(notes))
    assert (info.value.code, info.value.document.get("reason")) == ("unauthorized", "key_required")
    assert info.value.field == "encryption"
    assert "the file is encrypted, or is not a libcarfit database" in info.value.message
    assert str(notes) in info.value.message
    assert_plain(info.value.message)
    assert notes.read_bytes() == text


def test_no_permission_to_create_the_file(lib, shared_dir, nobody_kit):
    os.chmod(shared_dir, 0o755)  # root's: nobody may enter but not create files
    answer = open_as_nobody(shared_dir / "carfit.db", nobody_kit)
    assert answer["code"] == "storage" and answer["field"] == "database"
    assert f'no permission to create files in the directory "{shared_dir}"' in answer["message"]
    assert_plain(answer["message"])
    assert not (shared_dir / "carfit.db").exists()


def test_no_permission_to_read_the_file(lib, shared_dir, nobody_kit):
    database = shared_dir / "carfit.db"
    with carfit.Core(database=str(database)) as core:
        core.import_visits(json.loads(SAMPLE_PATH.read_text(encoding="utf-8")))
    os.chmod(database, 0o600)
    answer = open_as_nobody(database, nobody_kit)
    assert answer["code"] == "storage" and answer["field"] == "database"
    assert "no permission to read and write the file" in answer["message"]
    assert str(database) in answer["message"]
    assert_plain(answer["message"])


def test_a_read_only_file_is_named(lib, shared_dir, nobody_kit):
    database = shared_dir / "carfit.db"
    with carfit.Core(database=str(database)) as core:
        core.import_visits(json.loads(SAMPLE_PATH.read_text(encoding="utf-8")))
    os.chown(shared_dir, NOBODY, NOBODY)
    os.chown(database, NOBODY, NOBODY)
    os.chmod(database, 0o444)
    before = database.read_bytes()
    answer = open_as_nobody(database, nobody_kit)
    assert answer == {"code": "storage", "field": "database", "message":
                      f'Cannot open the database "{database}": the file is read-only. Make it writable '
                      "(chmod u+w), or choose another path."}
    assert database.read_bytes() == before


@contextlib.contextmanager
def small_disk(directory: Path, size: str = "3m"):
    """A tmpfs of ``size`` mounted on ``directory``, always unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("the disk checks mount a tmpfs, which needs root")
    directory.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(directory)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield directory
    finally:
        subprocess.run(["umount", "-l", str(directory)], check=False)


def big_snapshot(count: int) -> dict:
    name = "A long name that takes room on the disk " * 4
    return {"data": [{"visitId": f"v{i}", "startTimeUtc": "2020-09-12T08:00:00Z", "houseOwnerFirstName": name,
                      "houseOwnerLastName": str(i), "houseOwnerAddress": name} for i in range(count)]}


def test_a_full_disk_changes_nothing_and_says_so(lib, tmp_path):
    sample = json.loads(SAMPLE_PATH.read_text(encoding="utf-8"))
    with small_disk(tmp_path / "disk") as disk:
        database = disk / "carfit.db"
        with carfit.Core(database=str(database), now="2020-09-10T07:00:00Z", timeZone="Europe/Copenhagen") as core:
            core.import_visits(sample)
            before = core.list_visits(dates=["2020-09-10", "2020-09-11", "2020-09-12"])
            with pytest.raises(carfit.StorageError) as info:
                core.import_visits(big_snapshot(40_000))
            message = info.value.message
            assert message == (f'Cannot use the database "{database}": the disk holding it is full, so nothing was '
                               "changed. Free some space, then try again.")
            assert core.list_visits(dates=["2020-09-10", "2020-09-11", "2020-09-12"]) == before
        # Reopened, the stored visits are those of before.
        with carfit.Core(database=str(database), now="2020-09-10T07:00:00Z", timeZone="Europe/Copenhagen") as core:
            assert core.list_visits(dates=["2020-09-10", "2020-09-11", "2020-09-12"]) == before


def test_a_read_only_disk_is_named(lib, tmp_path):
    with small_disk(tmp_path / "disk") as disk:
        database = disk / "carfit.db"
        with carfit.Core(database=str(database)):
            pass
        remounted = subprocess.run(["mount", "-o", "remount,ro", str(disk)], capture_output=True, text=True)
        if remounted.returncode != 0:
            pytest.skip(f"cannot remount the tmpfs read-only: {remounted.stderr.strip()}")
        with pytest.raises(carfit.StorageError) as info:
            carfit.Core(database=str(database))
        assert info.value.field == "database"
        assert info.value.message == (f'Cannot open the database "{database}": the file lies on a read-only file '
                                      "system. Choose a database path on a writable disk.")


def test_a_refresh_that_fills_the_disk_is_recorded_in_the_sources_status(lib, tmp_path):
    """A refresh whose import fails for storage is a failed attempt like any other: recorded
    in sources.status (lastError reason "storage"), published as a failed source event, and
    the stored visits kept."""
    sample = json.loads(SAMPLE_PATH.read_text(encoding="utf-8"))
    days = ["2020-09-10", "2020-09-11", "2020-09-12"]
    with serving(json.dumps(big_snapshot(40_000)).encode()) as url, small_disk(tmp_path / "disk") as disk:
        config = {"database": str(disk / "carfit.db"), "now": "2020-09-10T07:00:00Z",
                  "timeZone": "Europe/Copenhagen", "sources": {"visits": url}}
        with carfit.Core(config) as core:
            core.import_visits(sample)
            before = core.list_visits(dates=days)
            with pytest.raises(carfit.StorageError):
                core.refresh_visits()
            assert core.list_visits(dates=days) == before
            entry = core.sources_status()["sources"]["visits"]
            assert entry["lastError"] is not None, entry
            assert entry["lastError"]["reason"] == "storage"
            assert "full" in entry["lastError"]["message"]
            assert entry["lastAttemptAt"] == entry["lastError"]["at"] == "2020-09-10T07:00:00Z"
            assert entry["consecutiveFailures"] == 1 and entry["lastSuccessAt"] is None
            sources = [e for e in core.events(timeout=0) if e["kind"] == "source"]
            assert sources[-1]["source"] == "visits" and sources[-1]["status"] == "failed"


LAST_CLOSER = """
import json, sys
sys.path.insert(0, sys.argv[1])
import carfit
with carfit.Core(json.loads(sys.argv[3]), database=sys.argv[2]) as core:
    core.call("visits.list", {"dates": ["2020-09-10"]})
"""


def test_opening_another_core_keeps_the_locks_of_the_cores_already_open(lib, sample, tmp_path):
    """A core opened (and closed) beside one already open in the same process leaves that one's
    file locks alone: another process that closes the database last then finds it still in use
    and leaves its WAL and shared memory where the open core needs them."""
    path = tmp_path / "locks.sqlite"
    with carfit.Core(DAY_CONFIG, database=str(path)) as held:
        held.import_visits(sample)
        before = held.call_text("visits.list", {"dates": ["2020-09-10"]})
        with carfit.Core(DAY_CONFIG, database=str(path)):
            pass
        done = subprocess.run([sys.executable, "-c", LAST_CLOSER, str(BINDING_DIR), str(path),
                                json.dumps(DAY_CONFIG)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "locks.sqlite-shm").exists()
        assert (tmp_path / "locks.sqlite-wal").exists()
        with carfit.Core(DAY_CONFIG, database=str(path)) as again:
            assert again.call_text("visits.list", {"dates": ["2020-09-10"]}) == before
        assert held.call_text("visits.list", {"dates": ["2020-09-10"]}) == before
