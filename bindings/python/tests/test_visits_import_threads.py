"""visits.import of large documents: the data array is parsed in batches on worker threads.

Whatever the number of threads (config ``importThreads``), the answer, the stored snapshot and
every error must be those of one parse of the whole document: the error document of a
malformed document is compared with jansson's own, taken from another operation that parses
the same text whole (``visits.list`` reads the request as JSON first, then ignores ``data``).
"""

from __future__ import annotations

import json
import os
import threading

import pytest

import carfit

from conftest import DAY_CONFIG, REPO_ROOT

SUITE = REPO_ROOT / "Tests" / "CarFitABITests" / "Fixtures" / "JSONTestSuite" / "test_parsing"

#: 0 parses on the calling thread; the others hand batches (128 elements) to worker threads.
THREADS = [0, 1, 2, 4]

#: Enough records for several batches (a batch is 128 elements or 256 KiB).
RECORDS = 400


def record_texts(sample: dict, n: int = RECORDS) -> list[bytes]:
    """n records of the sample, each with its index in visitId, as compact JSON texts."""
    records = sample["data"]
    out = []
    for i in range(n):
        r = dict(records[i % len(records)])
        r["visitId"] = f"v{i}"
        out.append(json.dumps(r, ensure_ascii=False).encode())
    return out


def document(elements: list[bytes], *, between: bytes = b",") -> bytes:
    return b'{"success": true, "message": "ok", "data": [' + between.join(elements) + b'], "code": 200}'


def stored(core) -> list:
    """Every stored visit card of the sample's month, by day, in order."""
    dates = [f"2020-09-{d:02d}" for d in range(1, 31)]
    return core.call("visits.list", {"dates": dates})["days"]


def jansson_error(core, text: bytes):
    """The bad_json error document of parsing `text` whole, or None when it is JSON (which
    visits.list then reads, or refuses as invalid: any other status is a failure)."""
    try:
        core.call("visits.list", text)
    except carfit.BadJSONError as e:
        return e.document
    except carfit.InvalidError:
        pass
    return None


def open_core(threads: int):
    return carfit.Core({**DAY_CONFIG, "importThreads": threads})


def test_every_thread_count_gives_the_same_answer_and_snapshot(lib, sample):
    texts = record_texts(sample)
    bad = {5: ("houseOwnerLatitude", 91.5), 130: ("startTimeUtc", None), 255: ("tasks", "x"),
           256: ("houseOwnerLongitude", -181), 399: ("visitState", 3)}
    for i, (key, value) in bad.items():
        r = json.loads(texts[i])
        r[key] = value
        texts[i] = json.dumps(r).encode()
    texts[200] = b'"not a record"'
    text = document(texts)
    answers, snapshots = [], []
    for threads in THREADS:
        with open_core(threads) as core:
            answer = core.call("visits.import", text)
            answers.append(answer)
            snapshots.append(stored(core))
    assert answers[0]["imported"] == RECORDS - 6
    assert [r["index"] for r in answers[0]["rejected"]] == [5, 130, 200, 255, 256, 399]
    assert [r["field"] for r in answers[0]["rejected"]] == [
        "houseOwnerLatitude", "startTimeUtc", None, "tasks", "houseOwnerLongitude", "visitState"]
    assert all(a == answers[0] for a in answers)
    assert all(s == snapshots[0] for s in snapshots)
    # The whole-document path (a document it does not stream: data is not the only member
    # read, the top level is parsed whole) agrees too.
    with open_core(2) as core:
        whole = core.import_visits(json.loads(text))
        assert whole == answers[0]


def test_records_keep_document_order_across_batches(lib, sample):
    texts = record_texts(sample, 1000)
    with open_core(2) as core:
        assert core.call("visits.import", document(texts))["imported"] == 1000
        days = core.call("visits.list", {"dates": ["2020-09-10"]})["days"]
        # Equal start times keep snapshot order: the sample's day repeats every record
        # 1000 / len(sample) times; their ids must come out in increasing index order.
        ids = [c["visitId"] for c in days[0]["visits"]]
        assert ids, "the sample day has visits"
        by_start = {}
        for c in days[0]["visits"]:
            by_start.setdefault(c["startTimeUtc"], []).append(int(c["visitId"][1:]))
        assert all(v == sorted(v) for v in by_start.values())
        assert sum(len(v) for v in by_start.values()) == len(ids)


MALFORMED = {
    "trailing comma": lambda texts, i: texts[: i + 1] + [b""],
    "empty element": lambda texts, i: texts[:i] + [b""] + texts[i:],
    "unterminated string": lambda texts, i: texts[:i] + [b'{"startTimeUtc": "2020-09-10T08:00:00Z}'],
    "wrong closing bracket": lambda texts, i: texts[:i] + [b'{"a": [1, 2}'] + texts[i:],
    "stray closing brace": lambda texts, i: texts[:i] + [b"}"] + texts[i:],
    "two values in one element": lambda texts, i: texts[:i] + [b"1 2"] + texts[i:],
    "bad literal": lambda texts, i: texts[:i] + [b"nul"] + texts[i:],
    "control character in a string": lambda texts, i: texts[:i] + [b'{"visitId": "a\x01b"}'] + texts[i:],
    "invalid UTF-8 in a string": lambda texts, i: texts[:i] + [b'{"visitId": "a\xff"}'] + texts[i:],
    "escaped NUL": lambda texts, i: texts[:i] + [b'{"visitId": "a\\u0000"}'] + texts[i:],
    "lone surrogate escape": lambda texts, i: texts[:i] + [b'{"visitId": "\\ud800"}'] + texts[i:],
    "too deep": lambda texts, i: texts[:i] + [b"[" * 2100 + b"]" * 2100] + texts[i:],
    "leading zero": lambda texts, i: texts[:i] + [b'{"houseOwnerLatitude": 055.5}'] + texts[i:],
}


@pytest.mark.parametrize("position", [0, 1, 127, 128, 129, 300, RECORDS - 1])
@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_a_malformed_element_anywhere_is_janssons_error_and_changes_nothing(lib, sample, kind, position):
    texts = record_texts(sample)
    text = document(MALFORMED[kind](texts, position))
    for threads in (0, 2):
        with open_core(threads) as core:
            core.import_visits(sample)
            before = stored(core)
            expected = jansson_error(core, text)
            assert expected is not None, "the document is not JSON"
            with pytest.raises(carfit.BadJSONError) as refused:
                core.call("visits.import", text)
            assert refused.value.document == expected
            assert stored(core) == before


def test_an_unterminated_array_is_janssons_error(lib, sample):
    text = b'{"data": [' + b",".join(record_texts(sample))
    with open_core(2) as core:
        expected = jansson_error(core, text)
        with pytest.raises(carfit.BadJSONError) as refused:
            core.call("visits.import", text)
        assert refused.value.document == expected


def suite_cases():
    return sorted(p for p in SUITE.iterdir() if p.suffix == ".json")


def test_every_json_test_suite_case_as_a_record_of_a_large_document(lib, sample):
    """Each case as element 200 of 260 (inside a worker's batch): an error exactly when a whole
    parse errs, with jansson's line, column and position; otherwise the same answer as on the
    calling thread."""
    texts = record_texts(sample, 260)
    cases = suite_cases()
    assert len(cases) == 318
    errors = 0
    with open_core(2) as threaded, open_core(0) as inline:
        for path in cases:
            text = document(texts[:200] + [path.read_bytes()] + texts[200:])
            expected = jansson_error(threaded, text)
            try:
                answer = threaded.call("visits.import", text)
            except carfit.BadJSONError as e:
                assert e.document == expected, path.name
                errors += 1
                continue
            assert expected is None, path.name
            assert answer == inline.call("visits.import", text), path.name
            assert answer["imported"] + len(answer["rejected"]) == 261, path.name
    assert errors > 150  # most n_ cases are malformed wherever they sit


def import_threads() -> int:
    """The library's import workers now alive in this process (they are named carfit-import)."""
    count = 0
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/comm") as f:
                count += f.read().strip() == "carfit-import"
        except OSError:
            pass  # the thread ended while being looked at
    return count


def test_no_worker_thread_outlives_the_call(lib, sample):
    """Workers are seen while an import runs (from another thread: ctypes lets go of the GIL)
    and none is left once a call has returned, failed imports included. Only this library's
    workers are counted: other threads of the process (the runtime's, other tests') come and go
    on their own."""
    text = document(record_texts(sample, 4000))
    seen = []
    running = threading.Event()

    def watch():
        while running.is_set():
            seen.append(import_threads())

    with open_core(4) as core:
        running.set()
        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            for _ in range(5):
                core.call("visits.import", text)
                assert import_threads() == 0
        finally:
            running.clear()
            watcher.join()
        assert max(seen) >= 1, "the watcher never saw a worker: the test would not see a leftover one"
        with pytest.raises(carfit.BadJSONError):
            core.call("visits.import", document(record_texts(sample)[:300] + [b"nul"]))
        assert import_threads() == 0

