"""The wine club through the binding: the typed methods' arguments and answers, refusals as
exceptions with code, field and message, the session per core, what survives reopening a file,
and two processes on one cart. The rules themselves (validation, uniqueness, the lock-out, the
catalog's order and import, the cart's quantities) are tested on the services in
Tests/CarFitServicesTests and Tests/CarFitAPITests."""
import json
import multiprocessing
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


def test_employee_answers_and_the_typed_methods_arguments(shop):
    employees = shop.list_employees()["employees"]
    assert [(e["lastName"], e["cartQuantity"]) for e in employees] == [("Hopper", 0), ("Lovelace", 0)]
    for e in employees:
        assert set(e) == {"id", "pin", "firstName", "lastName", "email", "hiredOn", "cartQuantity"}
        assert isinstance(e["id"], int) and isinstance(e["cartQuantity"], int)
    assert shop.recover_pin("grace@example.com") == {"pin": "1234", "firstName": "Grace", "lastName": "Hopper"}
    # Optional arguments left out are not sent: the core's defaults apply.
    bob = shop.create_employee("5555", "Bob", "Babbage")["employee"]
    assert (bob["email"], bob["hiredOn"]) == (None, "2024-05-01")


def test_refusals_become_typed_exceptions_with_code_field_and_document(shop):
    e = refused(carfit.ConflictError, shop.create_employee, "9999", "Charles", "LOVELACE", field="lastName")
    assert e.status == 4 and e.code == "conflict"
    e = refused(carfit.NotFoundError, shop.recover_pin, "nobody@example.com", field="email")
    assert e.message == "No employee has that email."
    refused(carfit.InvalidError, shop.create_employee, "12", "A", "B", field="pin")
    refused(carfit.InvalidError, shop.add_to_cart, 101, "2", field="quantity")
    refused(carfit.InvalidError, shop.add_to_cart, 101, 1.5, field="quantity")
    refused(carfit.NotFoundError, shop.product, 999, field="id")
    shop.logout()
    refused(carfit.UnauthorizedError, shop.get_cart)
    errors = []
    for _ in range(5):
        with pytest.raises(carfit.UnauthorizedError) as info:
            shop.login("9999")
        errors.append(info.value)
    # The lock's end is a member of the error document as well as in the message.
    assert errors[-1].document["lockedUntil"] == "2024-05-01T10:00:30Z"
    assert "2024-05-01T10:00:30Z" in errors[-1].message
    assert "lockedUntil" not in errors[0].document


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


def fail(core, times, pin="9999"):
    errors = []
    for _ in range(times):
        with pytest.raises(carfit.UnauthorizedError) as info:
            core.login(pin)
        errors.append(info.value)
    return errors


def test_the_count_and_the_lock_survive_reopening(db):
    with open_core(db) as c:
        c.create_employee("4821", "Ada", "Lovelace")
        fail(c, 3)
    with open_core(db) as c:
        errors = fail(c, 2)  # the 4th and 5th in a row
        assert "locked" in errors[-1].message
    with open_core(db) as c:
        assert "locked" in fail(c, 1, pin="4821")[0].message


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


def test_catalog_methods_pass_their_arguments_and_documents_in_every_form(core):
    plain = {"products": [{"id": "cider-1", "name": "Orchard Cider", "category": "Cider", "price": "7.50"}]}
    assert core.import_catalog(json.dumps(plain)) == {"imported": 1, "rejected": []}
    assert core.import_catalog(json.dumps(plain).encode()) == {"imported": 1, "rejected": []}
    core.import_catalog(CATALOG)
    assert [p["id"] for p in core.list_catalog(category="Cider")["products"]] == ["cider-1"]
    assert [p["name"] for p in core.list_catalog(sort="-name")["products"]][:2] == NAME_ORDER[::-1][:2]
    assert [p["id"] for p in core.list_catalog(sort="none")["products"]][:2] == ["cider-1", 101]
    detail = core.product("110")["product"]
    assert (detail["id"], detail["price"], detail["hasDescription"]) == (110, 19.95, True)
    assert isinstance(detail["price"], float)
    assert core.product("cider-1")["product"]["price"] == 7.5


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


def test_cart_methods_pass_their_arguments(shop):
    assert lines(shop.add_to_cart(104)) == [(104, 1)]
    assert lines(shop.update_cart("104", 7)) == [(104, 7)]
    shop.add_to_cart(101, 2)
    assert lines(shop.remove_from_cart(104)) == [(101, 2)]
    result = shop.checkout()
    assert result["message"] == "Thank you for your order!"
    assert result["cart"] == {"lines": [], "totalQuantity": 0}
    order = result["order"]
    assert set(order) == {"id", "placedAt", "lines", "totalQuantity"}
    assert (order["placedAt"], order["totalQuantity"]) == (NOW, 2)
    assert shop.list_orders() == {"orders": [order]}
    assert shop.list_employees()["employees"][1]["cartQuantity"] == 0


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
