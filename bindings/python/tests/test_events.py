"""The change feed through the binding: the iterator, the progress callbacks on the caller's
thread, closing while a thread waits, and commits by another process. Which areas a commit
names is specified in Swift (ChangeTrackerTests, SyncServiceTests)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading

import pytest

import carfit
from conftest import BINDING_DIR, DAY_CONFIG


def large_document(sample: dict, size: int) -> dict:
    """The sample's records repeated until the JSON text is over ``size`` bytes."""
    one = len(json.dumps(sample["data"]))
    return {"data": sample["data"] * (size // one + 1)}


def test_events_yields_the_changes_and_follows_last(core, sample):
    core.import_visits(sample)
    core.select_day("2020-09-11")
    seen = list(core.events(timeout=0))
    assert [e["seq"] for e in seen] == list(range(1, len(seen) + 1))
    assert seen[0] == {"seq": 1, "kind": "changed", "areas": ["visits", "calendar"]}
    assert seen[-1]["areas"] == ["calendar"]
    assert list(core.events(after=seen[-1]["seq"], timeout=0)) == []


def test_wait_events_answers_at_once_or_after_the_timeout(core):
    assert core.wait_events(0, timeout=0) == {"events": [], "last": 0}
    with pytest.raises(carfit.InvalidError) as refused:
        core.wait_events(0, timeout=61)
    assert refused.value.field == "timeoutMs"


def test_progress_is_called_on_the_calling_thread_and_ends_complete(core, sample):
    document = large_document(sample, 3 << 20)
    total = len(json.dumps(document, ensure_ascii=False, allow_nan=False).encode("utf-8"))
    calls = []
    result = core.import_visits(document, progress=lambda done, t: calls.append((done, t, threading.get_ident())))
    assert result["imported"] == len(document["data"])
    assert calls, "a 3 MiB import reports its progress"
    assert {c[2] for c in calls} == {threading.get_ident()}
    assert {c[1] for c in calls} == {total}
    done = [c[0] for c in calls]
    assert done == sorted(done) and done[-1] == total and done.count(total) == 1


def test_a_small_import_makes_no_progress_calls(core, sample):
    calls = []
    core.import_visits(sample, progress=lambda done, total: calls.append(done))
    assert calls == []


def test_an_exception_in_the_callback_is_raised_after_the_import(core, sample):
    document = large_document(sample, 2 << 20)

    def failing(done, total):
        raise RuntimeError("the bar broke")

    with pytest.raises(RuntimeError, match="the bar broke"):
        core.import_visits(document, progress=failing)
    assert core.list_visits(["2020-09-10"])["summary"]["visits"] > 0, "the import itself completed"


def test_a_failed_import_raises_its_error_with_a_callback(core):
    with pytest.raises(carfit.InvalidError):
        core.import_visits({"nodata": []}, progress=lambda done, total: None)


def test_closing_ends_the_iterator_of_another_thread(lib):
    core = carfit.Core(DAY_CONFIG)
    ended = threading.Event()
    got = []

    def reader():
        got.extend(core.events(timeout=None))
        ended.set()

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    thread.join(0.2)
    core.close()
    assert ended.wait(20), "the iterator still waits after close"
    assert got == []


WRITER = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, sys.argv[1])
    import carfit, json
    with carfit.Core({"now": "2020-09-10T07:00:00Z", "database": sys.argv[2]}) as core:
        core.import_visits(json.loads(sys.argv[3]))
    """
)


def test_a_commit_by_another_process_is_an_external_change(lib, tmp_path, sample):
    database = str(tmp_path / "shared.db")
    with carfit.Core(DAY_CONFIG, database=database) as core:
        waiting = threading.Event()
        got = []

        def reader():
            waiting.set()
            for event in core.events(timeout=20):
                got.append(event)
                break

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        waiting.wait()
        child = subprocess.run([sys.executable, "-c", WRITER, str(BINDING_DIR), database, json.dumps(sample)],
                               capture_output=True, text=True, timeout=120)
        assert child.returncode == 0, child.stderr
        thread.join(30)
        assert got == [{"seq": 1, "kind": "changed", "areas": ["all"], "external": True}]
        assert core.list_visits(["2020-09-10"])["summary"]["visits"] == 3


def test_a_prefetch_that_ends_is_an_image_event(lib, tmp_path):
    from test_images import ImageServer, png

    server = ImageServer()
    try:
        loaded = server.add("/a.png", png())
        missing = server.add("/gone.png", b"", status=404)
        with carfit.Core(DAY_CONFIG, images={"directory": str(tmp_path / "images"), "concurrency": 1}) as core:
            assert core.call("images.prefetch", {"urls": [loaded, missing]}) == {"queued": 2}
            got = []
            for event in core.events(timeout=10):
                if event["kind"] == "image":
                    got.append({"url": event["url"], "status": event["status"]})
                if len(got) == 2:
                    break
        assert sorted(got, key=lambda e: e["url"]) == [{"url": loaded, "status": "loaded"},
                                                        {"url": missing, "status": "failed"}]
    finally:
        server.stop()


def test_a_large_file_import_reports_the_files_bytes(core, sample, tmp_path):
    path = tmp_path / "visits.json"
    path.write_text(json.dumps(large_document(sample, 3 << 20)))
    total = path.stat().st_size
    calls = []
    result = core.import_visits_file(path, progress=lambda done, t: calls.append((done, t)))
    assert result["imported"] > 0
    assert calls, "a 3 MiB file reports its progress, though the request itself is small"
    assert {t for _, t in calls} == {total}
    done = [d for d, _ in calls]
    assert done == sorted(done) and done[-1] == total and done.count(total) == 1
    progress = [e for e in core.events(timeout=0) if e["kind"] == "progress"]
    assert {e["operation"] for e in progress} == {"visits.import"}


def test_a_progress_call_reads_the_feed_on_from_the_newest_seq_it_saw(core, sample, monkeypatch):
    """The binding learns the newest seq once: the next import with a callback reads only the
    events since, not the whole ring (up to 1024 events, 256 an answer) again."""
    for _ in range(300):  # more events than one answer holds
        core.select_day("2020-09-11")
        core.select_day("2020-09-12")
    document = large_document(sample, 2 << 20)
    first = []
    core.import_visits(document, progress=lambda done, total: first.append(done))
    assert first

    waits = []
    real_wait = core.wait_events

    def counting(after=0, timeout=None):
        waits.append(after)
        return real_wait(after, timeout)

    monkeypatch.setattr(core, "wait_events", counting)
    second = []
    core.import_visits(document, progress=lambda done, total: second.append(done))
    assert second and second[-1] == first[-1]
    # The first look starts at the newest seq the first import saw, not at 0.
    assert waits[0] > 600
