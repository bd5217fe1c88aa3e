"""The wine club through the built library: employees, the PIN session and its lock-out, the
catalog, and the cart. Every refusal is checked for its status and field, and for having
changed nothing."""
import json
import multiprocessing
import random
from collections import OrderedDict
from pathlib import Path

import pytest

import carfit
from carfit.shop import ShopMixin

ROOT = Path(__file__).resolve().parents[3]
CATALOG = json.loads((ROOT / "examples" / "data" / "catalog.json").read_text(encoding="utf-8"))
NOW = "2024-05-01T10:00:00Z"

ShopCore = carfit.Core if issubclass(carfit.Core, ShopMixin) else type("ShopCore", (ShopMixin, carfit.Core), {})


def open_core(db, now=NOW, **config):
    config = {"database": str(db), **config}
    if now is not None:
        config["now"] = now
    return ShopCore(config)


@pytest.fixture
def db(tmp_path):
    return tmp_path / "shop.sqlite"


@pytest.fixture
def core(db):
    with open_core(db) as c:
        yield c


@pytest.fixture
def shop(core):
    """A core with the sample catalog and two employees, Ada (4821) logged in."""
    core.import_catalog(CATALOG)
    core.create_employee("4821", "Ada", "Lovelace", "ada@example.com", "2024-03-01")
    core.create_employee("1234", "Grace", "Hopper", "grace@example.com", "2023-01-15")
    core.login("4821")
    return core


def refused(error_type, call, *args, field=None, **kwargs):
    """Runs a call that must fail with `error_type` naming `field`; returns the error."""
    with pytest.raises(error_type) as info:
        call(*args, **kwargs)
    assert info.value.field == field, info.value.document
    assert info.value.code == carfit.status_name(info.value.status)
    assert info.value.document["code"] == info.value.code
    assert info.value.message
    return info.value


# ------------------------------------------------------------------------------------ employees

def test_create_employee_trims_lowercases_and_returns_the_record(core):
    e = core.create_employee("4821", "  Ada ", " Lovelace\t", "  Ada@Example.COM ", "2024-03-01")["employee"]
    assert e == {"id": e["id"], "pin": "4821", "firstName": "Ada", "lastName": "Lovelace",
                 "email": "ada@example.com", "hiredOn": "2024-03-01"}
    assert isinstance(e["id"], int)


def test_hired_on_defaults_to_today_by_the_cores_clock_and_zone(db):
    # 23:30 UTC on 1 May is already 2 May in Copenhagen.
    with open_core(db, now="2024-05-01T23:30:00Z", timeZone="Europe/Copenhagen") as c:
        assert c.create_employee("4821", "Ada", "Lovelace")["employee"]["hiredOn"] == "2024-05-02"
        assert c.create_employee("4822", "Bob", "Babbage", email="")["employee"]["email"] is None


@pytest.mark.parametrize("request_, field", [
    ({"firstName": "A", "lastName": "B"}, "pin"),
    ({"pin": "123", "firstName": "A", "lastName": "B"}, "pin"),
    ({"pin": "1234567890123", "firstName": "A", "lastName": "B"}, "pin"),
    ({"pin": "12a4", "firstName": "A", "lastName": "B"}, "pin"),
    ({"pin": " 1234", "firstName": "A", "lastName": "B"}, "pin"),
    ({"pin": "١٢٣٤", "firstName": "A", "lastName": "B"}, "pin"),
    ({"pin": 4821, "firstName": "A", "lastName": "B"}, "pin"),
    ({"pin": "4821", "lastName": "B"}, "firstName"),
    ({"pin": "4821", "firstName": "   ", "lastName": "B"}, "firstName"),
    ({"pin": "4821", "firstName": 7, "lastName": "B"}, "firstName"),
    ({"pin": "4821", "firstName": "A"}, "lastName"),
    ({"pin": "4821", "firstName": "A", "lastName": ""}, "lastName"),
    ({"pin": "4821", "firstName": "A", "lastName": "B", "email": "ada"}, "email"),
    ({"pin": "4821", "firstName": "A", "lastName": "B", "email": "ada@example"}, "email"),
    ({"pin": "4821", "firstName": "A", "lastName": "B", "email": "a b@example.com"}, "email"),
    ({"pin": "4821", "firstName": "A", "lastName": "B", "email": "a@@example.com"}, "email"),
    ({"pin": "4821", "firstName": "A", "lastName": "B", "email": "@example.com"}, "email"),
    ({"pin": "4821", "firstName": "A", "lastName": "B", "email": "a@example.c"}, "email"),
    ({"pin": "4821", "firstName": "A", "lastName": "B", "email": 5}, "email"),
    ({"pin": "4821", "firstName": "A", "lastName": "B", "hiredOn": "2024-02-30"}, "hiredOn"),
    ({"pin": "4821", "firstName": "A", "lastName": "B", "hiredOn": "01/03/2024"}, "hiredOn"),
])
def test_create_employee_refusals_name_the_field_and_store_nothing(core, request_, field):
    refused(carfit.InvalidError, core._call, "employees.create", request_, field=field)
    assert core.list_employees() == {"employees": []}


def test_pins_of_4_and_12_digits_are_accepted(core):
    core.create_employee("0000", "A", "Aa")
    core.create_employee("012345678901", "B", "Bb")
    assert [e["pin"] for e in core.list_employees()["employees"]] == ["0000", "012345678901"]


@pytest.mark.parametrize("pin, last, email, field", [
    ("4821", "Babbage", None, "pin"),
    ("9999", "LOVELACE", None, "lastName"),
    ("9999", "lovelace", "other@example.com", "lastName"),
    ("9999", "Babbage", "ADA@example.com", "email"),
])
def test_uniqueness_conflicts_name_the_field_and_store_nothing(core, pin, last, email, field):
    core.create_employee("4821", "Ada", "Lovelace", "ada@example.com")
    before = core.list_employees()
    refused(carfit.ConflictError, core.create_employee, pin, "Charles", last, email, field=field)
    assert core.list_employees() == before


def test_first_names_may_repeat(core):
    core.create_employee("1111", "Ada", "Lovelace")
    core.create_employee("2222", "Ada", "Byron")
    assert len(core.list_employees()["employees"]) == 2


def test_list_sorts_by_last_then_first_name_ignoring_case_and_accents(core):
    for pin, first, last in [("1001", "Zoe", "Young"), ("1002", "Ben", "étienne"), ("1003", "Al", "Adams"),
                             ("1004", "Cy", "Eve"), ("1005", "Bo", "Ewing")]:
        core.create_employee(pin, first, last)
    names = [(e["lastName"], e["firstName"]) for e in core.list_employees()["employees"]]
    assert names == [("Adams", "Al"), ("étienne", "Ben"), ("Eve", "Cy"), ("Ewing", "Bo"), ("Young", "Zoe")]


def test_list_carries_each_employees_cart_quantity(shop):
    shop.add_to_cart(101, 3)
    shop.add_to_cart(102, 2)
    shop.login("1234")
    shop.add_to_cart(101)
    employees = shop.list_employees()["employees"]
    assert [(e["lastName"], e["cartQuantity"]) for e in employees] == [("Hopper", 1), ("Lovelace", 5)]
    assert set(employees[0]) == {"id", "pin", "firstName", "lastName", "email", "hiredOn", "cartQuantity"}


def test_recover_pin_by_email_case_insensitively(shop):
    assert shop.recover_pin("  GRACE@example.com ") == {"pin": "1234", "firstName": "Grace", "lastName": "Hopper"}


def test_recover_pin_refusals(shop):
    e = refused(carfit.NotFoundError, shop.recover_pin, "nobody@example.com", field="email")
    assert e.message == "No employee has that email."
    refused(carfit.InvalidError, shop._call, "employees.recover_pin", {}, field="email")
    refused(carfit.InvalidError, shop.recover_pin, "not-an-address", field="email")


# -------------------------------------------------------------------------------------- session

def test_login_logout_and_current_employee(core):
    ada = core.create_employee("4821", "Ada", "Lovelace")["employee"]
    assert core.current_employee() == {"employee": None}
    assert core.login("4821") == {"employee": ada}
    assert core.current_employee() == {"employee": ada}
    assert core.logout() == {"employee": None}
    assert core.current_employee() == {"employee": None}
    assert core.logout() == {"employee": None}


def test_session_is_per_core(db):
    with open_core(db) as a, open_core(db) as b:
        a.create_employee("4821", "Ada", "Lovelace")
        a.login("4821")
        assert b.current_employee() == {"employee": None}
        refused(carfit.UnauthorizedError, b.get_cart)


@pytest.mark.parametrize("pin", ["123", "12345678901234", "abcd", 4821, None])
def test_malformed_pin_is_invalid_and_not_counted(core, pin):
    core.create_employee("4821", "Ada", "Lovelace")
    for _ in range(10):
        refused(carfit.InvalidError, core._call, "session.login", {"pin": pin} if pin is not None else {}, field="pin")
    # Ten malformed attempts did not count: four wrong PINs still leave one attempt.
    for _ in range(4):
        refused(carfit.UnauthorizedError, core.login, "9999", field="pin")
    assert core.login("4821")["employee"]["pin"] == "4821"


def test_unknown_pin_is_unauthorized_and_keeps_the_session(core):
    core.create_employee("4821", "Ada", "Lovelace")
    core.login("4821")
    refused(carfit.UnauthorizedError, core.login, "0000", field="pin")
    assert core.current_employee()["employee"]["pin"] == "4821"


def fail(core, times, pin="9999"):
    errors = []
    for _ in range(times):
        with pytest.raises(carfit.UnauthorizedError) as info:
            core.login(pin)
        errors.append(info.value)
    return errors


def test_five_failures_lock_logins_for_30_seconds(db):
    with open_core(db, now="2024-05-01T10:00:00Z") as c:
        c.create_employee("4821", "Ada", "Lovelace")
        errors = fail(c, 5)
        assert all("locked" not in e.message for e in errors[:4])
        assert "locked" in errors[4].message and "2024-05-01T10:00:30Z" in errors[4].message
        # Every login is refused during the lock, the right PIN included.
        e = fail(c, 1, pin="4821")[0]
        assert "locked" in e.message and "2024-05-01T10:00:30Z" in e.message
        assert e.document["lockedUntil"] == "2024-05-01T10:00:30Z"
        assert c.current_employee() == {"employee": None}
    with open_core(db, now="2024-05-01T10:00:29Z") as c:
        assert "until 2024-05-01T10:00:30Z" in fail(c, 1, pin="4821")[0].message
    with open_core(db, now="2024-05-01T10:00:30Z") as c:
        assert c.login("4821")["employee"]["pin"] == "4821"


def test_refusals_during_a_lock_do_not_extend_it(db):
    with open_core(db, now="2024-05-01T10:00:00Z") as c:
        c.create_employee("4821", "Ada", "Lovelace")
        fail(c, 5)
    for t in ("10:00:10", "10:00:20", "10:00:29"):
        with open_core(db, now=f"2024-05-01T{t}Z") as c:
            errors = fail(c, 3)
            assert all("until 2024-05-01T10:00:30Z" in e.message for e in errors)
    with open_core(db, now="2024-05-01T10:00:30Z") as c:
        assert c.login("4821")["employee"]["lastName"] == "Lovelace"


def test_a_success_resets_the_failure_count(db):
    with open_core(db) as c:
        c.create_employee("4821", "Ada", "Lovelace")
        fail(c, 4)
        c.login("4821")
        errors = fail(c, 4)
        assert all("locked" not in e.message for e in errors)
        c.login("4821")


def test_the_count_and_the_lock_survive_reopening(db):
    with open_core(db) as c:
        c.create_employee("4821", "Ada", "Lovelace")
        fail(c, 3)
    with open_core(db) as c:
        errors = fail(c, 2)  # the 4th and 5th in a row
        assert "locked" in errors[-1].message
    with open_core(db) as c:
        assert "locked" in fail(c, 1, pin="4821")[0].message


def test_after_a_lock_the_count_starts_again(db):
    with open_core(db, now="2024-05-01T10:00:00Z") as c:
        c.create_employee("4821", "Ada", "Lovelace")
        fail(c, 5)
    with open_core(db, now="2024-05-01T10:01:00Z") as c:
        errors = fail(c, 5)
        assert ["locked" in e.message for e in errors] == [False] * 4 + [True]
        assert "2024-05-01T10:01:30Z" in errors[-1].message


# -------------------------------------------------------------------------------------- catalog

NAME_ORDER = [
    "Ålborg Riesling Trocken 2020", "alpine Grüner Veltliner 2022", "Bay Terrace Chardonnay 2022",
    "Casa Blanca Brut", "Cascade Ridge Cabernet Sauvignon 2019", "Étienne Merlot 2020",
    "Old Mill Pinot Noir 2021", "Rosa del Sol Rosé 2023", "Sauternes Late Harvest 2015", "Zinfandel Old Vines 2018",
]


def test_import_wine_com_catalog(core):
    assert core.import_catalog(CATALOG) == {"imported": 10, "rejected": []}
    listed = core.list_catalog()
    assert listed["categories"] == ["Champagne & Sparkling", "Dessert, Sherry & Port", "Red Wines",
                                    "Rosé Wine", "White Wines"]
    assert [p["name"] for p in listed["products"]] == NAME_ORDER
    first = listed["products"][0]
    assert first == {"id": 104, "name": "Ålborg Riesling Trocken 2020", "category": "White Wines",
                     "imageUrl": None, "price": 21.75}
    by_id = {p["id"]: p for p in listed["products"]}
    assert by_id[101]["imageUrl"] == "http://cache.wine.com/labels/101m.jpg"
    assert by_id[101]["category"] == "Red Wines"
    assert [by_id[i]["price"] for i in (101, 102, 103, 107, 108, 110)] == [34.99, 27.5, 18.0, 16.4, 22.1, 19.95]


def test_list_sorts_descending_or_in_import_order(core):
    core.import_catalog(CATALOG)
    assert [p["name"] for p in core.list_catalog(sort="-name")["products"]] == NAME_ORDER[::-1]
    assert [p["id"] for p in core.list_catalog(sort="none")["products"]] == list(range(101, 111))


def test_list_filters_by_category(core):
    core.import_catalog(CATALOG)
    reds = core.list_catalog(category="Red Wines")
    assert [p["name"] for p in reds["products"]] == [
        "Cascade Ridge Cabernet Sauvignon 2019", "Étienne Merlot 2020", "Old Mill Pinot Noir 2021",
        "Zinfandel Old Vines 2018"]
    assert len(reds["categories"]) == 5
    assert core.list_catalog(category="Beer")["products"] == []
    assert len(core._call("catalog.list", {"category": None})["products"]) == 10


def test_list_refusals(core):
    core.import_catalog(CATALOG)
    refused(carfit.InvalidError, core._call, "catalog.list", {"sort": "price"}, field="sort")
    refused(carfit.InvalidError, core._call, "catalog.list", {"category": 3}, field="category")


def test_product_detail_and_description_placeholder(core):
    core.import_catalog(CATALOG)
    assert core.product(110)["product"] == {
        "id": 110, "name": "Étienne Merlot 2020", "category": "Red Wines",
        "imageUrl": "http://cache.wine.com/labels/110m.jpg", "price": 19.95,
        "description": "Plum and cocoa, soft tannins.", "hasDescription": True}
    for pid in (103, 105):  # empty and missing descriptions
        p = core.product(pid)["product"]
        assert (p["description"], p["hasDescription"]) == ("No description available.", False)
    assert core.product("110")["product"]["id"] == 110
    refused(carfit.NotFoundError, core.product, 999, field="id")
    refused(carfit.InvalidError, core._call, "catalog.product", {}, field="id")
    refused(carfit.InvalidError, core._call, "catalog.product", {"id": [1]}, field="id")


def test_plain_shape_and_upsert_by_id(core):
    core.import_catalog(CATALOG)
    result = core.import_catalog({"products": [
        {"id": 110, "name": "Étienne Merlot 2021", "category": "Red Wines", "description": "  ",
         "imageUrl": None, "price": 21},
        {"id": "cider-1", "name": "Orchard Cider", "category": "Cider", "price": "7.50"},
    ]})
    assert result == {"imported": 2, "rejected": []}
    p = core.product(110)["product"]
    assert (p["name"], p["price"], p["imageUrl"], p["hasDescription"]) == ("Étienne Merlot 2021", 21.0, None, False)
    ids = [p["id"] for p in core.list_catalog(sort="none")["products"]]
    assert ids == list(range(101, 111)) + ["cider-1"]  # the update kept its place
    assert "Cider" in core.list_catalog()["categories"]
    assert core.product("cider-1")["product"]["price"] == 7.5


def test_rejected_records_are_reported_by_index_and_field(core):
    good = CATALOG["Products"]["List"][0]
    records = [
        dict(good, Id=201, PriceRetail=12.345),
        dict(good, Id=202, Name="  "),
        dict(good, Id=203, Labels=["not an object"]),
        dict(good, Id=204, PriceRetail=-1),
        dict(good, Id=205, Varietal={"WineType": {"Name": 5}}),
        "not a record",
        dict(good, Id=None),
        dict(good, Id=208, PriceRetail=None),
        dict(good, Id=209, Labels=[{"Url": 7}]),
        dict(good, Id=210, Name="Fine", PriceRetail=9.5),
    ]
    result = core.import_catalog({"Products": {"List": records}})
    assert result["imported"] == 1
    assert [(r["index"], r["field"]) for r in result["rejected"]] == [
        (0, "PriceRetail"), (1, "Name"), (2, "Labels[0]"), (3, "PriceRetail"), (4, "Varietal.WineType.Name"),
        (5, None), (6, "Id"), (7, "PriceRetail"), (8, "Labels[0].Url")]
    assert all(r["message"] for r in result["rejected"])
    assert [p["id"] for p in core.list_catalog()["products"]] == [210]
    plain = core.import_catalog({"products": [{"id": "x", "name": "X", "price": "1.999"}, {"name": "Y", "price": 1}]})
    assert [(r["index"], r["field"]) for r in plain["rejected"]] == [(0, "price"), (1, "id")]


@pytest.mark.parametrize("document, field", [
    ({}, "products"),
    ({"products": {}}, "products"),
    ({"Products": {"Total": 3}}, "Products.List"),
    ({"Products": []}, "Products"),
])
def test_a_document_without_a_product_list_is_invalid_and_changes_nothing(core, document, field):
    core.import_catalog(CATALOG)
    before = core.list_catalog(sort="none")
    refused(carfit.InvalidError, core.import_catalog, document, field=field)
    assert core.list_catalog(sort="none") == before


def test_prices_are_exact(core):
    core.import_catalog({"products": [{"id": i, "name": f"P{i}", "price": price}
                                      for i, price in enumerate([0.1, 0.29, 16.4, 999999.99, 0, "0.10", 1000000])]})
    assert [p["price"] for p in core.list_catalog(sort="none")["products"]] == [
        0.1, 0.29, 16.4, 999999.99, 0.0, 0.1, 1000000.0]
    result = core.import_catalog({"products": [{"id": "a", "name": "A", "price": 0.001},
                                               {"id": "b", "name": "B", "price": 1000000.01},
                                               {"id": "c", "name": "C", "price": "1e3"},
                                               {"id": "d", "name": "D", "price": True}]})
    assert [(r["index"], r["field"]) for r in result["rejected"]] == [(0, "price"), (1, "price"), (2, "price"), (3, "price")]


# ----------------------------------------------------------------------------------------- cart

def lines(result):
    return [(l["productId"], l["quantity"]) for l in result["cart"]["lines"]]


def test_salido_example_groups_repeated_adds_into_the_first_line(shop):
    shop.add_to_cart(101, 1)
    shop.add_to_cart(102, 2)
    cart = shop.add_to_cart(101, 4)
    assert lines(cart) == [(101, 5), (102, 2)]
    assert cart["cart"]["totalQuantity"] == 7
    assert cart["cart"]["lines"][0] == {"productId": 101, "name": "Cascade Ridge Cabernet Sauvignon 2019",
                                        "imageUrl": "http://cache.wine.com/labels/101m.jpg", "quantity": 5}
    assert shop.get_cart() == cart


def test_add_defaults_to_one(shop):
    assert lines(shop._call("cart.add", {"productId": 104})) == [(104, 1)]
    assert shop.get_cart()["cart"]["lines"][0]["imageUrl"] is None


def test_cart_calls_without_login_are_unauthorized(shop):
    shop.add_to_cart(101, 2)
    shop.logout()
    for method, request in [("cart.add", {"productId": 101}), ("cart.update", {"productId": 101, "quantity": 3}),
                            ("cart.remove", {"productId": 101}), ("cart.get", {}), ("cart.checkout", {}),
                            ("cart.orders", {})]:
        refused(carfit.UnauthorizedError, shop._call, method, request)
    shop.login("4821")
    assert lines(shop.get_cart()) == [(101, 2)]
    assert shop.list_orders() == {"orders": []}


@pytest.mark.parametrize("quantity", [0, -1, 1000, 1.5, "2", True, 2**40])
def test_add_refuses_bad_quantities_and_changes_nothing(shop, quantity):
    shop.add_to_cart(101, 2)
    refused(carfit.InvalidError, shop.add_to_cart, 102, quantity, field="quantity")
    assert lines(shop.get_cart()) == [(101, 2)]


def test_add_refuses_unknown_or_malformed_products(shop):
    shop.add_to_cart(101, 2)
    refused(carfit.NotFoundError, shop.add_to_cart, 999, field="productId")
    refused(carfit.NotFoundError, shop.add_to_cart, "nope", field="productId")
    refused(carfit.InvalidError, shop._call, "cart.add", {"quantity": 1}, field="productId")
    refused(carfit.InvalidError, shop._call, "cart.add", {"productId": {"id": 1}}, field="productId")
    refused(carfit.InvalidError, shop._call, "cart.add", {"productId": " "}, field="productId")
    assert lines(shop.get_cart()) == [(101, 2)]


def test_a_line_never_passes_999(shop):
    shop.add_to_cart(101, 999)
    refused(carfit.InvalidError, shop.add_to_cart, 101, 1, field="quantity")
    shop.update_cart(101, 990)
    shop.add_to_cart(102, 5)
    e = refused(carfit.InvalidError, shop.add_to_cart, 101, 10, field="quantity")
    assert "9 more" in e.message
    assert lines(shop.get_cart()) == [(101, 990), (102, 5)]
    assert lines(shop.add_to_cart(101, 9)) == [(101, 999), (102, 5)]


def test_update_sets_a_quantity(shop):
    shop.add_to_cart(101, 2)
    shop.add_to_cart(102, 1)
    assert lines(shop.update_cart(101, 7)) == [(101, 7), (102, 1)]
    assert lines(shop.update_cart("102", 999)) == [(101, 7), (102, 999)]


@pytest.mark.parametrize("request_, error, field", [
    ({"productId": 101, "quantity": 0}, carfit.InvalidError, "quantity"),
    ({"productId": 101, "quantity": 1000}, carfit.InvalidError, "quantity"),
    ({"productId": 101, "quantity": -3}, carfit.InvalidError, "quantity"),
    ({"productId": 101}, carfit.InvalidError, "quantity"),
    ({"quantity": 2}, carfit.InvalidError, "productId"),
    ({"productId": 103, "quantity": 2}, carfit.NotFoundError, "productId"),
    ({"productId": 999, "quantity": 2}, carfit.NotFoundError, "productId"),
])
def test_update_refusals_change_nothing(shop, request_, error, field):
    shop.add_to_cart(101, 2)
    shop.add_to_cart(102, 1)
    e = refused(error, shop._call, "cart.update", request_, field=field)
    if request_.get("quantity") == 0:
        assert "remove" in e.message
    assert lines(shop.get_cart()) == [(101, 2), (102, 1)]


def test_remove_and_its_refusals(shop):
    shop.add_to_cart(101, 2)
    shop.add_to_cart(102, 1)
    shop.add_to_cart(103, 4)
    assert lines(shop.remove_from_cart(102)) == [(101, 2), (103, 4)]
    refused(carfit.NotFoundError, shop.remove_from_cart, 102, field="productId")
    refused(carfit.NotFoundError, shop.remove_from_cart, 999, field="productId")
    refused(carfit.InvalidError, shop._call, "cart.remove", {}, field="productId")
    assert lines(shop.get_cart()) == [(101, 2), (103, 4)]
    # A product added again after its removal goes to the end.
    assert lines(shop.add_to_cart(102)) == [(101, 2), (103, 4), (102, 1)]


def test_checkout_stores_the_order_and_empties_the_cart(shop):
    shop.add_to_cart(101, 1)
    shop.add_to_cart(102, 2)
    shop.add_to_cart(101, 4)
    result = shop.checkout()
    assert result["message"] == "Thank you for your order!"
    assert result["cart"] == {"lines": [], "totalQuantity": 0}
    order = result["order"]
    assert set(order) == {"id", "placedAt", "lines", "totalQuantity"}
    assert order["placedAt"] == NOW
    assert [(l["productId"], l["quantity"]) for l in order["lines"]] == [(101, 5), (102, 2)]
    assert order["totalQuantity"] == 7
    assert shop.get_cart() == {"cart": {"lines": [], "totalQuantity": 0}}
    assert shop.list_orders() == {"orders": [order]}
    shop.add_to_cart(103)
    second = shop.checkout()["order"]
    assert second["id"] != order["id"]
    assert [o["id"] for o in shop.list_orders()["orders"]] == [second["id"], order["id"]]


def test_checkout_of_an_empty_cart_is_invalid_and_stores_nothing(shop):
    refused(carfit.InvalidError, shop.checkout)
    assert shop.list_orders() == {"orders": []}


def test_carts_are_per_employee(shop):
    shop.add_to_cart(101, 2)
    shop.login("1234")
    assert shop.get_cart()["cart"]["lines"] == []
    shop.add_to_cart(102, 3)
    shop.checkout()
    shop.login("4821")
    assert lines(shop.get_cart()) == [(101, 2)]
    assert shop.list_orders() == {"orders": []}


def test_carts_and_orders_survive_reopening(db):
    with open_core(db) as c:
        c.import_catalog(CATALOG)
        c.create_employee("4821", "Ada", "Lovelace")
        c.login("4821")
        c.add_to_cart(101, 1)
        c.add_to_cart(102, 2)
        order = c.checkout()["order"]
        c.add_to_cart(103, 3)
        c.add_to_cart(101, 1)
        cart = c.get_cart()
    with open_core(db) as c:
        refused(carfit.UnauthorizedError, c.get_cart)  # the session itself is per core
        c.login("4821")
        assert c.get_cart() == cart
        assert c.list_orders() == {"orders": [order]}
        assert c.list_employees()["employees"][0]["cartQuantity"] == 4


class CartModel:
    """The cart rules in a few lines of Python, to compare the library against."""

    def __init__(self, products):
        self.products = set(products)
        self.lines = OrderedDict()

    def apply(self, op, pid, quantity):
        ok_quantity = isinstance(quantity, int) and not isinstance(quantity, bool) and 1 <= quantity <= 999
        if op == "add":
            if not ok_quantity:
                return "invalid"
            if pid not in self.products:
                return "not_found"
            if self.lines.get(pid, 0) + quantity > 999:
                return "invalid"
            self.lines[pid] = self.lines.get(pid, 0) + quantity
        elif op == "update":
            if not ok_quantity:
                return "invalid"
            if pid not in self.lines:
                return "not_found"
            self.lines[pid] = quantity
        elif op == "remove":
            if pid not in self.lines:
                return "not_found"
            del self.lines[pid]
        elif op == "checkout":
            if not self.lines:
                return "invalid"
            self.lines = OrderedDict()
        return "ok"

    def cart(self):
        return [(pid, q) for pid, q in self.lines.items()], sum(self.lines.values())


@pytest.mark.parametrize("seed", range(6))
def test_random_cart_sequences_match_the_model(shop, seed):
    rng = random.Random(seed)
    products = [101, 102, 103, 104, 105]
    model = CartModel(products)
    for _ in range(150):
        op = rng.choice(["add", "add", "add", "update", "remove", "get", "checkout"] if rng.random() < 0.97 else ["checkout"])
        pid = rng.choice(products + [999])
        quantity = rng.choice([1, 2, 5, rng.randint(1, 999), rng.randint(300, 999), 0, 1000, -1])
        expected = model.apply(op, pid, quantity) if op != "get" else "ok"
        request = {"productId": pid, "quantity": quantity} if op in ("add", "update") else {"productId": pid}
        try:
            result = shop._call(f"cart.{op}", request if op not in ("get", "checkout") else None)
            status = "ok"
        except carfit.CarfitError as e:
            status = e.code
            result = shop.get_cart()
        assert status == expected, (seed, op, pid, quantity)
        want_lines, want_total = model.cart()
        assert lines(result) == want_lines
        assert result["cart"]["totalQuantity"] == want_total


def _add_worker(db, pin, product_ids, rounds, barrier, results):
    with open_core(db, now=None) as c:
        c.login(pin)
        barrier.wait()
        done = 0
        for i in range(rounds):
            c.add_to_cart(product_ids[i % len(product_ids)], 1)
            done += 1
        results.put(done)


def test_two_processes_adding_to_one_cart_lose_nothing(db):
    with open_core(db, now=None) as c:
        c.import_catalog(CATALOG)
        c.create_employee("4821", "Ada", "Lovelace")
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    results = ctx.Queue()
    rounds = 200
    workers = [ctx.Process(target=_add_worker, args=(str(db), "4821", ids, rounds, barrier, results))
               for ids in ([101, 102], [102, 101, 103])]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
        assert w.exitcode == 0
    assert sorted(results.get(timeout=5) for _ in workers) == [rounds, rounds]
    with open_core(db, now=None) as c:
        c.login("4821")
        cart = c.get_cart()["cart"]
        assert cart["totalQuantity"] == 2 * rounds
        by_id = {l["productId"]: l["quantity"] for l in cart["lines"]}
        assert by_id == {101: 100 + 67, 102: 100 + 67, 103: 66}
