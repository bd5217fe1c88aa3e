"""Concurrency: many threads on one core, and two processes on one database file.

Threads: ctypes releases the GIL during a call, so the threads really call into the library at
the same time; the core serialises them. Checked afterwards: the calendar shows the start month
moved by the net navigation of all threads, and every pin is the last value its thread set.

Processes: two cores on one SQLite file (WAL, busy timeout): no update may be lost, and a
snapshot import is seen whole or not at all.
"""

from __future__ import annotations

import json
import threading
import time

import pytest

import carfit
from conftest import DAY_CONFIG, worker

THREADS = 8
CALLS = 1_000
PINS = 4  # transactions per thread


def test_eight_threads_mixed_calls_on_one_core(core, sample_visits):
    core.import_visits(sample_visits)
    ids = range(1, THREADS * PINS + 1)
    core.import_transactions({"transactions": [
        {"id": i, "category": "food", "amount": "1.25", "date": "2020-09-10"} for i in ids]})

    nexts = [0] * THREADS
    previouses = [0] * THREADS
    pinned = [[True] * PINS for _ in range(THREADS)]
    errors: list = []
    start = threading.Barrier(THREADS)

    def run(t: int) -> None:
        try:
            start.wait()
            for i in range(CALLS):
                op = (i * 7 + t) % 10
                if op in (0, 5):
                    assert "days" in core.call("calendar.next")
                    nexts[t] += 1
                elif op == 1:
                    assert "days" in core.call("calendar.previous")
                    previouses[t] += 1
                elif op in (2, 7):
                    slot = (i // 10) % PINS
                    value = ((i // 10) // PINS + t) % 2 == 1
                    got = core.pin_transaction(t * PINS + slot + 1, value)["transaction"]
                    assert got["pinned"] is value
                    pinned[t][slot] = value
                elif op == 3:
                    day = core.list_visits(dates=["2020-09-10"])["days"][0]
                    assert day["summary"]["visits"] == len(day["visits"]) > 0
                elif op == 4:
                    # Pins change under this read; every transaction is 1.25 of food, so the
                    # insights always agree with their own count whatever the moment.
                    insights = core.insights()
                    assert 0 <= insights["count"] <= THREADS * PINS
                    assert round(insights["total"] * 100) == 125 * insights["count"]
                    food = insights["categories"][0]
                    assert (food["category"], food["count"], food["total"]) == \
                        ("food", insights["count"], insights["total"])
                elif op == 6:
                    assert core.list_transactions("food")["count"] == THREADS * PINS
                elif op == 8:
                    assert "selected" in core.calendar()
                else:
                    with pytest.raises((carfit.BadJSONError, carfit.MisuseError, carfit.NotFoundError)):
                        [lambda: core.call("calendar.select", "{\"date\": "),
                         lambda: core.call("no.such_method", {}),
                         lambda: core.pin_transaction(999_999, True)][i % 3]()
        except BaseException as exc:  # reported after the join
            errors.append((t, repr(exc)))

    threads = [threading.Thread(target=run, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []

    net = sum(nexts) - sum(previouses)
    months = 2020 * 12 + (9 - 1) + net
    state = core.calendar()
    assert (state["year"], state["month"]) == (months // 12, months % 12 + 1), f"net navigation {net:+d}"
    assert state["selected"] == ["2020-09-10"]

    listed = {row["id"]: row["pinned"] for row in core.list_transactions()["transactions"]}
    expected = {t * PINS + s + 1: pinned[t][s] for t in range(THREADS) for s in range(PINS)}
    assert listed == expected
    insights = core.insights()
    assert insights["count"] == sum(expected.values())
    assert round(insights["total"] * 100) == 125 * sum(expected.values())


def finish(processes) -> list:
    outputs = []
    for process in processes:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        outputs.append(json.loads(out.strip().splitlines()[-1]))
    return outputs


def test_two_processes_pinning_and_reimporting_lose_no_update(lib, tmp_path):
    db = str(tmp_path / "shared.db")
    with carfit.Core(DAY_CONFIG, database=db) as core:
        core.import_transactions({"transactions": [
            {"id": i, "category": "food", "amount": "2.50", "date": "2020-09-10"} for i in range(1, 41)]})

    at = time.time() + 1.5
    a = worker("pins", db, "1", "20", "1000", "40", start_at=at)
    b = worker("pins", db, "21", "40", "1000", "40", start_at=at)
    final = {}
    for out in finish([a, b]):
        final.update({int(k): v for k, v in out.items()})

    with carfit.Core(DAY_CONFIG, database=db) as core:
        listed = {row["id"]: row["pinned"] for row in core.list_transactions()["transactions"]}
        assert listed == final
        assert core.insights()["count"] == sum(final.values())


def test_two_processes_importing_snapshots_are_seen_whole(lib, tmp_path):
    db = str(tmp_path / "shared.db")
    sizes = {"A": 5, "B": 9}
    with carfit.Core(DAY_CONFIG, database=db) as core:
        core.import_visits({"data": [{"visitId": "A-0", "startTimeUtc": "2020-09-10T06:00:00Z"}] * 5})

    at = time.time() + 1.5
    a = worker("snapshots", db, "A", "5", "300", json.dumps(sizes), start_at=at)
    b = worker("snapshots", db, "B", "9", "300", json.dumps(sizes), start_at=at)
    outputs = finish([a, b])
    assert sum(sum(o["seen"].values()) for o in outputs) == 600

    with carfit.Core(DAY_CONFIG, database=db) as core:
        cards = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
        tags = {c["visitId"].split("-")[0] for c in cards}
        assert len(tags) == 1 and len(cards) == sizes[tags.pop()]
        assert sum(d["visits"] for d in core.calendar()["days"]) == len(cards)


def test_two_processes_adding_to_one_cart_lose_no_update(lib, tmp_path):
    db = str(tmp_path / "shared.db")
    with carfit.Core(DAY_CONFIG, database=db) as core:
        core.call("catalog.import", {"products": [
            {"id": "p1", "name": "Riesling", "category": "White Wines", "price": 12.5}]})
        core.call("employees.create", {"pin": "4821", "firstName": "Ada", "lastName": "Lovelace"})

    adds = 450  # two processes: 900 in one line, under the 999 a line may hold
    at = time.time() + 1.5
    finish([worker("cart", db, "4821", "p1", str(adds), start_at=at),
            worker("cart", db, "4821", "p1", str(adds), start_at=at)])

    with carfit.Core(DAY_CONFIG, database=db) as core:
        core.call("session.login", {"pin": "4821"})
        cart = core.call("cart.get")["cart"]
        assert cart["totalQuantity"] == 2 * adds
        assert [(line["productId"], line["quantity"]) for line in cart["lines"]] == [("p1", 2 * adds)]
