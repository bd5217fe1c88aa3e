"""Crash safety: a process killed (SIGKILL) in the middle of a large import.

A file database holds a small snapshot (the bundled sample). A child process starts importing
a generated snapshot of 50,000 visits (~70 MB, bench/gen_visits.py) into it and is killed at
several moments of the import. On reopening, the database must show exactly the previous
snapshot, pass SQLite's `PRAGMA integrity_check`, and accept new writes. The import's duration
is measured first (a complete import in a child process), and the kills land at fractions of it;
a kill that comes after the commit (the new snapshot then stands whole) is tried again earlier.
"""

from __future__ import annotations

import os
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import carfit
from conftest import DAY_CONFIG, REPO_ROOT, worker

VISITS = int(os.environ.get("CARFIT_KILL_VISITS", "50000"))
FRACTIONS = (0.1, 0.3, 0.5, 0.7, 0.9)
MONTHS = [(2020, m) for m in range(8, 13)]  # the sample's and the generated visits' months
landed: dict = {}


@pytest.fixture(scope="module")
def big_document(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("kill") / f"visits-{VISITS}.json"
    subprocess.run([sys.executable, str(REPO_ROOT / "bench" / "gen_visits.py"), "--visits", str(VISITS),
                    "--clients", "2000", "--days", "60", "--washers", "20", "--seed", "7", "--out", str(path)],
                   check=True)
    return path


def state(core: carfit.Core) -> dict:
    """What the stored snapshot shows: visit counts per day of the months, and the cards of
    every day that has visits."""
    counts = {}
    for year, month in MONTHS:
        for day in core.call("calendar.month", {"year": year, "month": month})["days"]:
            if day["visits"]:
                counts[day["date"]] = day["visits"]
    cards = core.list_visits(dates=sorted(counts)) if counts else {}
    return {"counts": counts, "cards": cards}


def fresh_database(path: Path, sample: dict) -> dict:
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    with carfit.Core(DAY_CONFIG, database=str(path)) as core:
        assert core.import_visits(sample)["imported"] == len(sample["data"])
        return state(core)


def wait_for_start(process: subprocess.Popen) -> float:
    ready, _, _ = select.select([process.stdout], [], [], 120)
    assert ready, "the child did not start the import"
    line = process.stdout.readline().strip()
    assert line == "start", (line, process.stderr.read() if process.poll() is not None else "")
    return time.monotonic()


def integrity(path: Path) -> list:
    connection = sqlite3.connect(str(path))
    try:
        return connection.execute("PRAGMA integrity_check").fetchall()
    finally:
        connection.close()


def after_kill(db: Path, before: dict, new: dict, sample: dict) -> dict:
    """The state a killed import left in `db`, checked: one whole snapshot (`before` or `new`),
    still a working database that a new snapshot replaces, and intact. Answers that state."""
    with carfit.Core(DAY_CONFIG, database=str(db)) as core:
        after = state(core)
        assert after == before or after == new, "the database holds part of a snapshot"
        # Still a working database: a new snapshot replaces whatever is there.
        assert core.import_visits(sample)["imported"] == len(sample["data"])
        assert state(core) == before
    assert integrity(db) == [("ok",)]
    return after


@pytest.fixture(scope="module")
def complete(big_document, sample_visits, tmp_path_factory) -> tuple:
    """A complete import in a child process: its duration, and the state it leaves."""
    db = tmp_path_factory.mktemp("kill-complete") / "visits.db"
    fresh_database(db, sample_visits)
    child = worker("import", str(db), str(big_document))
    started = wait_for_start(child)
    out, err = child.communicate(timeout=600)
    seconds = time.monotonic() - started
    assert child.returncode == 0, err
    assert f'"imported": {VISITS}' in out
    with carfit.Core(DAY_CONFIG, database=str(db)) as core:
        after = state(core)
        assert sum(after["counts"].values()) == VISITS
    assert integrity(db) == [("ok",)]
    return seconds, after


@pytest.mark.parametrize("fraction", FRACTIONS)
def test_kill_during_import_keeps_the_previous_snapshot(fraction, complete, big_document, sample_visits, tmp_path):
    """Killed at `fraction` of the measured import time, the database holds one whole snapshot:
    the previous one, or (the kill came after the commit, or the import finished first on a
    faster run) the complete new one; never a part. A kill that did not land before the commit
    is tried again, earlier, up to five times (the measured time includes the answer, whose
    planner's changes may be long, written after the commit)."""
    seconds, new = complete
    db = tmp_path / "visits.db"
    tries = []
    for _ in range(5):
        before = fresh_database(db, sample_visits)
        child = worker("import", str(db), str(big_document))
        started = wait_for_start(child)
        deadline = started + fraction * seconds
        while child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        if child.poll() is None:
            child.send_signal(signal.SIGKILL)
        elapsed = time.monotonic() - started
        tries.append(round(elapsed, 3))
        child.communicate(timeout=60)
        wal = Path(str(db) + "-wal")
        wal_bytes = wal.stat().st_size if wal.exists() else 0

        after = after_kill(db, before, new, sample_visits)
        if child.returncode == -signal.SIGKILL and after == before:
            landed[fraction] = wal_bytes
            return
        seconds = min(seconds, elapsed) * 0.7  # this run was faster: aim earlier
    pytest.fail(f"no kill at {fraction:.0%} landed before the import committed (seconds: {tries})")


@pytest.mark.parametrize("wal_threshold", (1 << 20, 4 << 20))
def test_kill_while_the_snapshot_is_written(wal_threshold, complete, big_document, sample_visits, tmp_path):
    """Killed once the import has written `wal_threshold` bytes of pages to the write-ahead log
    (the snapshot is written at the end of the import, after the records are read), the
    database holds the previous snapshot whole. An import that committed before the log was
    seen to grow is tried again, up to five times."""
    _, new = complete
    db = tmp_path / "visits.db"
    wal = Path(str(db) + "-wal")
    seen = []
    for _ in range(5):
        before = fresh_database(db, sample_visits)
        child = worker("import", str(db), str(big_document))
        wait_for_start(child)
        size = 0
        while child.poll() is None:
            size = wal.stat().st_size if wal.exists() else 0
            if size >= wal_threshold:
                child.send_signal(signal.SIGKILL)
                break
            time.sleep(0.0005)
        child.communicate(timeout=60)
        wal_bytes = wal.stat().st_size if wal.exists() else 0
        after = after_kill(db, before, new, sample_visits)
        seen.append(size)
        if child.returncode == -signal.SIGKILL:
            assert after == before, "killed before its commit, the import left its snapshot"
            landed[f"WAL {wal_threshold}"] = wal_bytes
            return
    pytest.fail(f"the import committed each time before its log reached {wal_threshold} bytes (seen: {seen})")


def test_the_kills_landed_during_the_import(complete):
    """Every kill hit a running import, and several after it had started writing (pages in the
    write-ahead log)."""
    import_seconds = complete[0]
    print(f"\nkill tests: import of {VISITS} visits takes {import_seconds:.2f} s; killed mid-import at "
          + ", ".join(f"{f:.0%} (WAL {wal // 1024} KiB)" for f, wal in sorted((f, w) for f, w in landed.items()
                                                                          if isinstance(f, float)))
          + "; once the log had grown: "
          + ", ".join(f"{f} B (WAL {wal // 1024} KiB)" for f, wal in landed.items() if isinstance(f, str)))
    assert all(f in landed for f in FRACTIONS), (landed, import_seconds)
    assert sum(1 for wal in landed.values() if wal > 0) >= 2, (landed, import_seconds)
