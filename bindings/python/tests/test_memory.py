"""Owned response strings are freed: many calls do not grow the process."""

from __future__ import annotations

import os

import pytest

import carfit

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
def test_twenty_thousand_calls_do_not_leak(loaded):
    calls = 20_000
    size = len(loaded.calendar().__repr__())  # ~6 KB per response: ~120 MB if leaked
    for _ in range(1_000):  # warm up allocator pools and caches
        loaded.calendar()
        loaded.list_visits(dates=["2020-09-10"])
    before = rss_bytes()
    for i in range(calls):
        if i % 2:
            loaded.calendar()
        else:
            loaded.list_visits(dates=["2020-09-10"])
    grown = rss_bytes() - before
    assert size > 3_000
    assert grown < 4 * 1024 * 1024, f"RSS grew by {grown / 1e6:.1f} MB over {calls} calls"


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
def test_error_documents_are_freed(core):
    before = None
    for i in range(21_000):
        if i == 1_000:
            before = rss_bytes()
        with pytest.raises(carfit.InvalidError):
            core.call("visits.list", {"dates": ["2020-02-30"] * 1})
    assert rss_bytes() - before < 4 * 1024 * 1024
