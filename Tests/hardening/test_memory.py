"""No growth of the process over 100,000 calls of every kind.

Every response (results and error documents alike) is a new allocation the host frees with
carfit_free; everything the library allocates inside a call must be released by its end. The
bound is 1 MiB of RSS growth between call 20,000 and call 100,000 (the first 20,000 warm up
SQLite's page cache, the allocator's pools and the library's caches; measured growth after them:
0). One leaked allocation per call, however small, is at least a 32-byte malloc chunk: 80,000
calls x 32 bytes = 2.6 MB, well past the bound.
"""

from __future__ import annotations

import os

import pytest

import carfit

PAGE = os.sysconf("SC_PAGE_SIZE")
CALLS = 100_000
WARM_UP = 20_000
BOUND = 1024 * 1024


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
def test_hundred_thousand_mixed_calls_do_not_grow_the_process(core, sample_visits, sample_transactions):
    core.import_visits(sample_visits)
    core.import_transactions(sample_transactions)
    ids = [t["id"] for t in sample_transactions["transactions"]]
    small_snapshot = {"data": sample_visits["data"][:3]}
    answers = {"ok": 0}

    operations = [
        lambda i: core.calendar(),
        lambda i: core.call("calendar.next" if i % 4 < 2 else "calendar.previous"),
        lambda i: core.call("calendar.select", {"date": f"2020-09-{1 + i % 28:02d}", "mode": "toggle"}),
        lambda i: core.call("calendar.month", {"year": 1 + i % 9999, "month": 1 + i % 12}),
        lambda i: core.list_visits(dates=["2020-09-10", "2020-09-11"]),
        lambda i: core.list_transactions("food" if i % 2 else None),
        lambda i: core.pin_transaction(ids[i % len(ids)], i % 3 != 0),
        lambda i: core.insights(),
        lambda i: core.import_visits(sample_visits if i % 2 else small_snapshot),
        lambda i: core.import_transactions({"transactions": [
            {"id": f"t{i % 50}", "category": "misc", "amount": "0.10", "date": "2020-09-10"}]}),
        # Refusals of every kind: each builds and frees an error document.
        lambda i: core.call("visits.list", {"dates": ["2020-02-30"]}),
        lambda i: core.call("calendar.select", "{\"date\": [1, 2, "),
        lambda i: core.call("no.such_method", {}),
        lambda i: core.pin_transaction(10_000_000 + i, True),
        lambda i: core.call("transactions.import", {"transactions": [{"id": i, "amount": "0.001"}]}),
        lambda i: core.call("calendar.month", {"year": 0, "month": 13}),
    ]

    def run(i: int) -> None:
        try:
            operations[i % len(operations)](i)
            answers["ok"] += 1
        except carfit.CarfitError as exc:
            answers[exc.code] = answers.get(exc.code, 0) + 1

    for i in range(WARM_UP):
        run(i)
    before = rss_bytes()
    for i in range(WARM_UP, CALLS):
        run(i)
    grown = rss_bytes() - before

    # Every kind of answer was given many times.
    assert set(answers) == {"ok", "invalid", "bad_json", "misuse", "not_found"}, answers
    assert min(answers.values()) > CALLS // len(operations) // 2, answers
    assert grown < BOUND, f"RSS grew by {grown / 1e6:.2f} MB over {CALLS - WARM_UP} calls ({answers})"
