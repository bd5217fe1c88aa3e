"""Transactions and insights through the binding: the answers' shape and types, the typed
methods' arguments (an id's JSON type kept), refusals as exceptions, persistence, two cores on
one file, the named exports and threads. The rules (sums, shares, pins, the upsert, rejected
records) are tested on the service (Tests/CarFitServicesTests/TransactionsServiceTests.swift)."""

from __future__ import annotations

import ctypes
import json
from decimal import Decimal
from pathlib import Path

import pytest

import carfit

FIXTURE = Path(__file__).resolve().parents[3] / "examples" / "data" / "transactions.json"
FIVE = ["food", "health", "entertainment", "shopping", "travel"]

Core = carfit.Core


def sample() -> dict:
    return json.loads(FIXTURE.read_text())


@pytest.fixture
def core():
    with Core({"now": "2021-05-01T12:00:00Z"}) as c:
        yield c


@pytest.fixture
def loaded(core):
    assert core.import_transactions(sample()) == {"imported": 13, "rejected": []}
    return core


def snapshot(core) -> tuple[dict, dict]:
    return core.list_transactions(), core.insights()


# ---------------------------------------------------------------- end to end, and the binding


def test_category_bar_and_food_filter(loaded):
    food = loaded.list_transactions("food")
    assert food["category"] == "food"
    assert food["categories"] == ["all"] + FIVE
    assert [t["id"] for t in food["transactions"]] == [11, 7, 9, 3, 4]
    assert all(t["category"] == "food" and t["pinned"] is True for t in food["transactions"])
    assert food["count"] == 5
    assert food["sum"] == 74.28
    assert food["transactions"][0] == {
        "id": 11, "name": "Matcha Latte", "category": "food", "amount": 9.89, "date": "2021-04-27",
        "accountName": "Credit Card", "provider": "starbucks", "pinned": True}


def test_the_typed_methods_pass_their_arguments_and_keep_an_ids_type(core):
    core.import_transactions(json.dumps({"transactions": [
        {"id": 1, "category": "food", "amount": 1, "date": "2021-04-01"},
        {"id": "1", "category": "food", "amount": 2.5, "date": "2021-04-01"}]}))
    assert core.unpin_transaction("1")["transaction"]["amount"] == 2.5
    assert core.pin_transaction(1, False)["transaction"] == {
        "id": 1, "name": None, "category": "food", "amount": 1.0, "date": "2021-04-01",
        "accountName": None, "provider": None, "pinned": False}
    assert core.pin_transaction("1")["transaction"]["pinned"] is True
    listed = core.list_transactions(" FOOD ")
    assert (listed["category"], listed["count"], listed["pinnedCount"], listed["sum"]) == ("food", 2, 1, 2.5)
    assert [t["id"] for t in listed["transactions"]] == [1, "1"]
    assert isinstance(listed["sum"], float) and isinstance(core.insights()["categories"][0]["share"], float)


def test_refusals_become_exceptions_with_code_and_field(loaded):
    with pytest.raises(carfit.InvalidError) as caught:
        loaded._call("transactions.pin", {"id": 3, "pinned": "false"})
    assert (caught.value.field, caught.value.code, caught.value.status) == ("pinned", "invalid", 2)
    with pytest.raises(carfit.NotFoundError) as caught:
        loaded.pin_transaction("3", False)
    assert caught.value.field == "id" and caught.value.message
    with pytest.raises(carfit.InvalidError) as caught:
        loaded.import_transactions({"data": []})
    assert caught.value.field == "transactions"
    with pytest.raises(carfit.InvalidError) as caught:
        loaded.list_transactions("")
    assert caught.value.field == "category"
    assert loaded.insights()["total"] == 472.08


# ---------------------------------------------------------------- persistence and the C names


def test_survives_reopening_a_file_database(tmp_path):
    path = str(tmp_path / "carfit.sqlite")
    with Core({"database": path}) as first:
        first.import_transactions(sample())
        first.unpin_transaction(3)
        before = snapshot(first)
    with Core({"database": path}) as second:
        assert snapshot(second) == before
        assert second.list_transactions("food")["sum"] == 48.96
        second.import_transactions(sample())  # re-import keeps the stored pin
        assert second.list_transactions("food")["sum"] == 48.96


def test_two_cores_on_one_file_see_each_others_pins(tmp_path):
    path = str(tmp_path / "shared.sqlite")
    with Core({"database": path}) as a, Core({"database": path}) as b:
        a.import_transactions(sample())
        b.unpin_transaction(13)
        assert a.insights()["total"] == float(Decimal("472.08") - Decimal("116.78"))


def test_named_exports_match_carfit_call(loaded):
    # The library the binding loaded (found the same way without CARFIT_LIBRARY), with
    # declarations of this test's own.
    lib = ctypes.CDLL(carfit.load_library()._name)
    open_ = lib.carfit_open
    open_.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
    lib.carfit_free.argtypes = [ctypes.c_void_p]
    lib.carfit_close.argtypes = [ctypes.c_void_p]

    def take(p: ctypes.c_void_p) -> dict:
        try:
            return json.loads(ctypes.string_at(p.value).decode())
        finally:
            lib.carfit_free(p)

    handle, out = ctypes.c_void_p(), ctypes.c_void_p()
    assert open_(None, ctypes.byref(handle), ctypes.byref(out)) == 0
    take(out)
    try:
        def call(name: str, request: dict | None) -> tuple[int, dict]:
            fn = getattr(lib, name)
            fn.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
            fn.restype = ctypes.c_int
            response = ctypes.c_void_p()
            status = fn(handle, None if request is None else json.dumps(request).encode(), ctypes.byref(response))
            return status, take(response)

        assert call("carfit_transactions_import", sample()) == (0, {"imported": 13, "rejected": []})
        assert call("carfit_transactions_list", {"category": "food"}) == (0, loaded.list_transactions("food"))
        assert call("carfit_insights_get", None) == (0, loaded.insights())
        status, pinned = call("carfit_transactions_pin", {"id": 3, "pinned": False})
        assert status == 0 and pinned["transaction"]["pinned"] is False
        status, error = call("carfit_transactions_pin", {"id": 3})
        assert status == 2 and error["error"]["code"] == "invalid" and error["error"]["field"] == "pinned"
        status, error = call("carfit_transactions_pin", None)
        assert status == 2 and error["error"]["field"] == "id"
    finally:
        lib.carfit_close(handle)


def test_pins_from_several_threads_at_once(loaded):
    import threading

    ids = [t["id"] for t in loaded.list_transactions()["transactions"]]
    errors: list[BaseException] = []

    def flip(my_ids: list[int]) -> None:
        try:
            for _ in range(50):
                for i in my_ids:
                    loaded.unpin_transaction(i)
                    loaded.insights()
                for i in my_ids:
                    loaded.pin_transaction(i, True)
                    loaded.list_transactions()
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=flip, args=(ids[k::4],)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert loaded.insights()["total"] == 472.08
    assert loaded.list_transactions()["pinnedCount"] == 13
