"""The wine club's shop screens on a catalog file.

    python3 examples/python/shop.py [catalog.json]   (the bundled sample by default)

Creates an employee, logs in with the PIN, imports the catalog, shows the red wines and one
product, fills the cart (the same wine twice goes into one line) and checks out.
"""

import sys

from common.start import DATA, carfit, open_core, read_json, run


def show_cart(cart: dict) -> None:
    print("Cart")
    for line in cart["lines"]:
        print(f"  {line['quantity']:>3} x {line['name']}")
    print(f"  {cart['totalQuantity']} bottles\n")


def main(path: str) -> None:
    document = read_json(path)
    with open_core() as core:
        ada = core.create_employee("4821", "Ada", "Lovelace", "ada@example.com")["employee"]
        print(f"New employee {ada['firstName']} {ada['lastName']}, hired {ada['hiredOn']}")
        try:
            core.login("0000")
        except carfit.UnauthorizedError as e:
            print(f"Login with 0000: {e.message}")
        print(f"Login with 4821: welcome, {core.login('4821')['employee']['firstName']}\n")

        answer = core.import_catalog(document)
        print(f"Imported {answer['imported']} wines, {len(answer['rejected'])} rejected\n")
        print("Red Wines")
        for product in core.list_catalog("Red Wines")["products"]:
            print(f"  {product['name']:<40} {product['price']:>8.2f}")
        product = core.product(103)["product"]
        print(f"\n{product['name']}\n  {product['description']}\n")

        core.add_to_cart(101)
        core.add_to_cart(110, 2)
        show_cart(core.add_to_cart(101, 4)["cart"])

        done = core.checkout()
        order = done["order"]
        print(f"Order {order['id']} placed at {order['placedAt']}: {order['totalQuantity']} bottles. {done['message']}")
        show_cart(done["cart"])


SAMPLE = DATA / "catalog.json"

if __name__ == "__main__":
    if len(sys.argv) > 2:
        sys.exit(f"usage: {sys.argv[0]} [catalog.json]")
    run(lambda: main(sys.argv[1] if len(sys.argv) == 2 else str(SAMPLE)))
