"""Calendar documents, their counts and carts are reused only while nothing was written: writes
through the same core or through another connection to the same file show at once."""

from __future__ import annotations

import carfit

from conftest import DAY_CONFIG


def counts(document):
    return {d["date"]: d["visits"] for d in document["days"] if d["visits"]}


def visit(start):
    return {"visitId": start, "startTimeUtc": start, "houseOwnerFirstName": "A"}


def test_own_import_changes_the_counts(loaded):
    first = loaded.calendar()
    assert sum(counts(first).values()) == 7
    assert loaded.calendar() == first
    loaded.import_visits({"data": [visit("2020-09-03T08:00:00Z"), visit("2020-09-03T09:00:00Z")]})
    assert counts(loaded.calendar()) == {"2020-09-03": 2}
    assert counts(loaded.month(2020, 9)) == {"2020-09-03": 2}


def test_refused_import_keeps_the_counts(loaded):
    before = loaded.calendar()
    try:
        loaded.import_visits({"nodata": []})
    except carfit.InvalidError:
        pass
    assert loaded.calendar() == before


def test_another_connection_changes_the_counts(lib, tmp_path, sample):
    path = str(tmp_path / "shared.sqlite")
    with carfit.Core(DAY_CONFIG, database=path) as a, carfit.Core(DAY_CONFIG, database=path) as b:
        a.import_visits(sample)
        assert sum(counts(a.calendar()).values()) == 7
        assert a.next_month()["month"] == 10
        assert a.previous_month()["month"] == 9
        b.import_visits({"data": [visit("2020-09-20T10:00:00Z")]})
        assert counts(a.calendar()) == {"2020-09-20": 1}
        b.import_visits({"data": [visit("2020-10-02T10:00:00Z")]})
        assert counts(a.calendar()) == {}
        assert counts(a.next_month()) == {"2020-10-02": 1}


def test_selection_and_month_changes_show(loaded):
    assert loaded.calendar()["selected"] == ["2020-09-10"]
    document = loaded.select_day("2020-09-11", "toggle")
    assert document["selected"] == ["2020-09-10", "2020-09-11"]
    assert [d["isSelected"] for d in document["days"][9:11]] == [True, True]
    assert loaded.select_day("2020-10-01")["month"] == 10
    back = loaded.previous_month()
    assert back["month"] == 9 and back["selected"] == ["2020-10-01"]
    assert not any(d["isSelected"] for d in back["days"])


CATALOG = {"products": [{"id": "p1", "name": "Red", "category": "Red Wines", "price": 9.5},
                        {"id": "p2", "name": "White", "category": "White Wines", "price": 7.25}]}


def lines(document):
    return [(line["productId"], line["quantity"]) for line in document["cart"]["lines"]]


def test_cart_follows_every_write(lib, tmp_path):
    path = str(tmp_path / "shop.sqlite")
    with carfit.Core(DAY_CONFIG, database=path) as a, carfit.Core(DAY_CONFIG, database=path) as b:
        a.call("catalog.import", CATALOG)
        a.call("employees.create", {"pin": "4821", "firstName": "Ada", "lastName": "Lovelace"})
        a.call("session.login", {"pin": "4821"})
        b.call("session.login", {"pin": "4821"})
        assert lines(a.call("cart.get")) == []
        assert lines(a.call("cart.add", {"productId": "p1", "quantity": 2})) == [("p1", 2)]
        assert lines(a.call("cart.get")) == [("p1", 2)]
        # The other core writes the same employee's cart: the first sees it at once.
        b.call("cart.add", {"productId": "p2"})
        assert lines(a.call("cart.get")) == [("p1", 2), ("p2", 1)]
        a.call("cart.update", {"productId": "p1", "quantity": 5})
        assert lines(b.call("cart.get")) == [("p1", 5), ("p2", 1)]
        b.call("catalog.import", {"products": [{"id": "p1", "name": "Red Reserve", "category": "Red Wines", "price": 12}]})
        assert a.call("cart.get")["cart"]["lines"][0]["name"] == "Red Reserve"
        a.call("cart.checkout")
        assert lines(b.call("cart.get")) == []
        # A refused change leaves the cart as it was.
        a.call("cart.add", {"productId": "p2", "quantity": 999})
        try:
            a.call("cart.add", {"productId": "p2"})
        except carfit.InvalidError:
            pass
        assert lines(a.call("cart.get")) == [("p2", 999)]
        a.call("session.logout")
        try:
            a.call("cart.get")
            raise AssertionError("cart.get answered with nobody logged in")
        except carfit.UnauthorizedError:
            pass
