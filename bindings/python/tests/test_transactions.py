"""Transactions and insights through the built library."""

from __future__ import annotations

import ctypes
import json
import random
from decimal import ROUND_HALF_UP, Decimal, getcontext
from pathlib import Path

import pytest

import carfit

getcontext().prec = 80

FIXTURE = Path(__file__).resolve().parents[3] / "examples" / "data" / "transactions.json"
FIVE = ["food", "health", "entertainment", "shopping", "travel"]

Core = carfit.Core


def sample() -> dict:
    return json.loads(FIXTURE.read_text())


def dec(x: float | int) -> Decimal:
    """The decimal a JSON number in a response stands for (its shortest text)."""
    return Decimal(repr(x)) if isinstance(x, float) else Decimal(x)


def share(part: Decimal, whole: Decimal) -> float:
    if whole == 0:
        return 0.0
    return float((part / whole).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))


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


# ---------------------------------------------------------------- the challenge's own asks


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


def test_sum_for_each_filtered_category(loaded):
    raw = sample()["transactions"]
    for category in FIVE:
        listed = loaded.list_transactions(category)
        expected = [t for t in raw if t["category"] == category]
        assert listed["count"] == len(expected)
        assert sorted(t["id"] for t in listed["transactions"]) == sorted(t["id"] for t in expected)
        assert listed["sum"] == float(sum(dec(t["amount"]) for t in expected))
        dates = [t["date"] for t in listed["transactions"]]
        assert dates == sorted(dates, reverse=True)


@pytest.mark.parametrize("request_", [{}, {"category": None}, {"category": "all"}, {"category": " ALL "}])
def test_all_lists_everything_newest_first(core, request_):
    core.import_transactions(sample())
    listed = core._call("transactions.list", request_)
    assert listed["category"] == "all"
    assert listed["count"] == 13
    assert listed["sum"] == 472.08
    assert [t["id"] for t in listed["transactions"]] == [13, 11, 12, 2, 6, 7, 10, 9, 3, 4, 8, 5, 1]


def test_sample_insights_are_exact(loaded):
    insights = loaded.insights()
    assert insights["total"] == 472.08
    assert insights["count"] == 13
    rows = {r["category"]: r for r in insights["categories"]}
    assert [r["category"] for r in insights["categories"]] == FIVE
    assert {c: rows[c]["total"] for c in FIVE} == {
        "food": 74.28, "health": 21.53, "entertainment": 82.99, "shopping": 78.00, "travel": 215.28}
    assert {c: rows[c]["count"] for c in FIVE} == {
        "food": 5, "health": 1, "entertainment": 1, "shopping": 3, "travel": 3}
    assert rows["food"]["share"] == 0.1573
    for c in FIVE:
        assert rows[c]["share"] == share(dec(rows[c]["total"]), Decimal("472.08"))


def test_category_names_match_case_insensitively(loaded):
    assert loaded.list_transactions("Food")["count"] == 5
    assert loaded.list_transactions("  TRAVEL ")["sum"] == 215.28


def test_unknown_category_lists_nothing(loaded):
    listed = loaded.list_transactions("pets")
    assert (listed["category"], listed["count"], listed["sum"], listed["transactions"]) == ("pets", 0, 0.0, [])
    assert listed["categories"] == ["all"] + FIVE


def test_empty_store(core):
    assert core.list_transactions() == {
        "category": "all", "categories": ["all"] + FIVE, "transactions": [], "count": 0, "sum": 0.0,
        "pinnedCount": 0}
    insights = core.insights()
    assert insights["total"] == 0.0
    assert [(r["category"], r["total"], r["count"], r["share"]) for r in insights["categories"]] == [
        (c, 0.0, 0, 0.0) for c in FIVE]


# ---------------------------------------------------------------- pins


def test_pin_shows_in_list_and_insights_at_once(loaded):
    answer = loaded.unpin_transaction(3)
    assert answer["transaction"]["id"] == 3 and answer["transaction"]["pinned"] is False
    food = loaded.list_transactions("food")
    assert food["count"] == 5 and food["pinnedCount"] == 4
    assert food["sum"] == 48.96
    assert loaded.list_transactions()["sum"] == 446.76
    insights = loaded.insights()
    row = insights["categories"][0]
    assert (row["category"], row["total"], row["count"]) == ("food", 48.96, 4)
    assert insights["total"] == 446.76
    assert row["share"] == share(Decimal("48.96"), Decimal("446.76"))
    loaded.pin_transaction(3, True)
    assert loaded.list_transactions("food")["sum"] == 74.28
    assert loaded.insights()["total"] == 472.08


def test_category_with_nothing_pinned_stays_in_insights(loaded):
    loaded.unpin_transaction(8)  # the only health transaction
    rows = {r["category"]: r for r in loaded.insights()["categories"]}
    assert rows["health"] == {"category": "health", "total": 0.0, "count": 0, "share": 0.0}


def test_everything_unpinned_gives_zero_shares(loaded):
    for t in loaded.list_transactions()["transactions"]:
        loaded.unpin_transaction(t["id"])
    insights = loaded.insights()
    assert insights["total"] == 0.0 and insights["count"] == 0
    assert all(r["share"] == 0.0 and r["count"] == 0 for r in insights["categories"])
    assert loaded.list_transactions()["count"] == 13


@pytest.mark.parametrize("request_, field", [
    ({"pinned": False}, "id"),
    ({"id": None, "pinned": False}, "id"),
    ({"id": True, "pinned": False}, "id"),
    ({"id": 1.5, "pinned": False}, "id"),
    ({"id": "", "pinned": False}, "id"),
    ({"id": [3], "pinned": False}, "id"),
    ({"id": 3}, "pinned"),
    ({"id": 3, "pinned": None}, "pinned"),
    ({"id": 3, "pinned": "false"}, "pinned"),
    ({"id": 3, "pinned": 0}, "pinned"),
])
def test_pin_refusals_change_nothing(loaded, request_, field):
    before = snapshot(loaded)
    with pytest.raises(carfit.InvalidError) as caught:
        loaded._call("transactions.pin", request_)
    assert caught.value.field == field
    assert caught.value.code == "invalid" and caught.value.status == 2
    assert snapshot(loaded) == before


@pytest.mark.parametrize("unknown", [99, "3", -1, "nope"])
def test_pin_unknown_id_is_not_found(loaded, unknown):
    before = snapshot(loaded)
    with pytest.raises(carfit.NotFoundError) as caught:
        loaded.pin_transaction(unknown, False)
    assert caught.value.field == "id"
    assert snapshot(loaded) == before


# ---------------------------------------------------------------- upsert rules


def test_new_transactions_are_pinned_unless_the_record_says_otherwise(core):
    core.import_transactions({"transactions": [
        {"id": 1, "category": "food", "amount": 1.00, "date": "2021-04-01"},
        {"id": 2, "category": "food", "amount": 2.00, "date": "2021-04-02", "pinned": False},
        {"id": 3, "category": "food", "amount": 4.00, "date": "2021-04-03", "pinned": None}]})
    listed = core.list_transactions("food")
    assert {t["id"]: t["pinned"] for t in listed["transactions"]} == {1: True, 2: False, 3: True}
    assert listed["sum"] == 5.0


def test_reimport_keeps_the_users_pin(loaded):
    loaded.unpin_transaction(3)
    loaded.pin_transaction(2, True)
    assert loaded.import_transactions(sample())["imported"] == 13
    pins = {t["id"]: t["pinned"] for t in loaded.list_transactions()["transactions"]}
    assert pins[3] is False and pins[2] is True
    assert loaded.list_transactions("food")["sum"] == 48.96
    # A record that says "pinned" decides.
    loaded.import_transactions({"transactions": [dict(sample()["transactions"][2], pinned=True)]})
    assert loaded.list_transactions("food")["sum"] == 74.28


def test_upsert_replaces_fields_and_keeps_others(loaded):
    answer = loaded.import_transactions({"transactions": [
        {"id": 3, "name": "Big Salad", "category": "Groceries", "amount": "30.10", "date": "2021-05-01"},
        {"id": 14, "category": "bills", "amount": -5, "date": "2021-05-01"}]})
    assert answer == {"imported": 2, "rejected": []}
    listed = loaded.list_transactions()
    assert listed["count"] == 14
    assert listed["categories"] == ["all"] + FIVE + ["bills", "groceries"]
    moved = next(t for t in listed["transactions"] if t["id"] == 3)
    assert moved == {"id": 3, "name": "Big Salad", "category": "groceries", "amount": 30.10, "date": "2021-05-01",
                     "accountName": None, "provider": None, "pinned": True}
    assert loaded.list_transactions("food")["sum"] == 48.96
    assert loaded.list_transactions()["sum"] == float(Decimal("472.08") - Decimal("25.32") + Decimal("30.10") - 5)
    insights = loaded.insights()
    assert [r["category"] for r in insights["categories"]] == FIVE + ["bills", "groceries"]


def test_repeated_id_in_one_document_keeps_the_last(core):
    answer = core.import_transactions({"transactions": [
        {"id": 1, "category": "food", "amount": 1.10, "date": "2021-04-01"},
        {"id": 1, "category": "food", "amount": 2.20, "date": "2021-04-01", "pinned": False}]})
    assert answer["imported"] == 2
    listed = core.list_transactions()
    assert listed["count"] == 1 and listed["transactions"][0]["amount"] == 2.20
    assert listed["transactions"][0]["pinned"] is False


def test_integer_and_string_ids_are_distinct(core):
    core.import_transactions({"transactions": [
        {"id": 1, "category": "food", "amount": 1, "date": "2021-04-01"},
        {"id": "1", "category": "food", "amount": 2, "date": "2021-04-01"},
        {"id": "b", "category": "food", "amount": 3, "date": "2021-04-01"},
        {"id": 10, "category": "food", "amount": 4, "date": "2021-04-01"},
        {"id": 2, "category": "food", "amount": 5, "date": "2021-04-01"}]})
    listed = core.list_transactions()
    assert [t["id"] for t in listed["transactions"]] == [1, 2, 10, "1", "b"]
    assert core.unpin_transaction("1")["transaction"]["amount"] == 2.0
    pins = {json.dumps(t["id"]): t["pinned"] for t in core.list_transactions()["transactions"]}
    assert pins == {"1": True, '"1"': False, '"b"': True, "10": True, "2": True}


def test_refunds_are_allowed(core):
    core.import_transactions({"transactions": [
        {"id": 1, "category": "shopping", "amount": 54.60, "date": "2021-04-25"},
        {"id": 2, "category": "shopping", "amount": -54.60, "date": "2021-04-26"},
        {"id": 3, "category": "food", "amount": 10, "date": "2021-04-26"}]})
    assert core.list_transactions("shopping")["sum"] == 0.0
    rows = {r["category"]: r for r in core.insights()["categories"]}
    assert rows["shopping"]["total"] == 0.0 and rows["shopping"]["count"] == 2
    assert rows["food"]["share"] == 1.0


# ---------------------------------------------------------------- rejected records


def test_each_rejection_rule(core):
    good = {"id": 100, "name": "ok", "category": "food", "amount": 1.25, "date": "2021-04-01"}
    records = [
        good,
        dict(good, id=101, amount=0.125),          # more than two decimals
        {k: v for k, v in dict(good, id=102).items() if k != "amount"},  # missing amount
        dict(good, id=103, date="2021-02-30"),     # a day that does not exist
        dict(good, id=104, date="04/01/2021"),     # not YYYY-MM-DD
        dict(good, id=105, amount="12.345"),       # a string with three decimals
        dict(good, id=106, amount=1e300),          # out of range
        {k: v for k, v in good.items() if k != "id"},  # missing id
        dict(good, id=107, category="all"),        # reserved category
        dict(good, id=108, pinned="yes"),          # pinned not a boolean
        "not a record",
        dict(good, id=109, amount="54.60"),        # a decimal string is fine
    ]
    answer = core.import_transactions({"transactions": records})
    assert answer["imported"] == 2
    assert [(r["index"], r["field"]) for r in answer["rejected"]] == [
        (1, "amount"), (2, "amount"), (3, "date"), (4, "date"), (5, "amount"), (6, "amount"),
        (7, "id"), (8, "category"), (9, "pinned"), (10, None)]
    assert all(r["message"] for r in answer["rejected"])
    listed = core.list_transactions()
    assert sorted(t["id"] for t in listed["transactions"]) == [100, 109]
    assert listed["sum"] == 55.85


@pytest.mark.parametrize("document", [{}, {"transactions": None}, {"transactions": {"id": 1}}, {"data": []}])
def test_import_without_a_transactions_array_changes_nothing(loaded, document):
    before = snapshot(loaded)
    with pytest.raises(carfit.InvalidError) as caught:
        loaded.import_transactions(document)
    assert caught.value.field == "transactions"
    assert snapshot(loaded) == before


def test_list_refusals(loaded):
    for request_ in [{"category": 3}, {"category": ""}, {"category": ["food"]}]:
        with pytest.raises(carfit.InvalidError) as caught:
            loaded._call("transactions.list", request_)
        assert caught.value.field == "category"


# ---------------------------------------------------------------- exactness


def test_random_two_decimal_amounts_sum_exactly(core):
    rng = random.Random(472_08)
    categories = FIVE + ["bills", "gifts"]
    records, expected = [], {c: Decimal(0) for c in categories}
    counts = {c: 0 for c in categories}
    listed_sum = {c: Decimal(0) for c in categories}
    for i in range(30_000):
        cents = rng.randint(-2_000_000, 50_000_000) if i % 7 else rng.randint(-10**15, 10**15)
        amount = Decimal(cents) / 100
        category = rng.choice(categories)
        pinned = rng.random() < 0.8
        value: float | str = str(amount.quantize(Decimal("0.01"))) if i % 11 == 0 else float(amount)
        records.append({"id": i, "category": category, "amount": value, "date": f"2021-04-{1 + i % 28:02d}",
                        "pinned": pinned})
        if pinned:
            expected[category] += amount
            counts[category] += 1
            listed_sum[category] += amount
    answer = core.import_transactions({"transactions": records})
    assert answer == {"imported": 30_000, "rejected": []}
    grand = sum(expected.values())
    insights = core.insights()
    assert insights["total"] == float(grand)
    assert [r["category"] for r in insights["categories"]] == categories
    for row in insights["categories"]:
        c = row["category"]
        assert row["total"] == float(expected[c]), c
        assert row["count"] == counts[c]
        assert row["share"] == share(expected[c], grand), c
    for c in categories:
        assert core.list_transactions(c)["sum"] == float(listed_sum[c])
    everything = core.list_transactions()
    assert everything["count"] == 30_000
    assert everything["sum"] == float(grand)
    # Amounts come back as the double nearest their exact decimal.
    for t, r in zip(sorted(everything["transactions"], key=lambda t: t["id"]), records):
        assert t["amount"] == float(Decimal(str(r["amount"])))


def test_largest_amounts_sum_exactly_beyond_double_precision(core):
    top = Decimal("9999999999999.99")
    core.import_transactions({"transactions": [
        {"id": i, "category": "travel", "amount": float(top), "date": "2021-04-01"} for i in range(1000)]
        + [{"id": "x", "category": "travel", "amount": "0.01", "date": "2021-04-01"}]})
    exact = top * 1000 + Decimal("0.01")
    assert core.list_transactions("travel")["sum"] == float(exact)
    assert core.insights()["total"] == float(exact)
    answer = core.import_transactions({"transactions": [
        {"id": "big", "category": "travel", "amount": 10000000000000.01, "date": "2021-04-01"},
        {"id": "ok", "category": "travel", "amount": 10000000000000, "date": "2021-04-01"}]})
    assert [(r["index"], r["field"]) for r in answer["rejected"]] == [(0, "amount")]


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
