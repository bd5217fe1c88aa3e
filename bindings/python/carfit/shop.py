"""Section 5 of the contract: employees, the PIN session, the product catalog and the cart."""

from __future__ import annotations

from typing import Any, Optional, Union

ProductId = Union[int, str]


class ShopMixin:
    """Typed methods for employees.*, session.*, catalog.* and cart.* (mixed into Core,
    which provides ``_call``)."""

    _call: Any

    # Employees

    def create_employee(self, pin: str, first_name: str, last_name: str,
                        email: Optional[str] = None, hired_on: Optional[str] = None) -> dict:
        """Create an employee; returns {"employee": {...}} (conflict names pin, lastName or email)."""
        request: dict[str, Any] = {"pin": pin, "firstName": first_name, "lastName": last_name}
        if email is not None:
            request["email"] = email
        if hired_on is not None:
            request["hiredOn"] = hired_on
        return self._call("employees.create", request)

    def list_employees(self) -> dict:
        """All employees by last then first name, each with its cartQuantity: {"employees": [...]}."""
        return self._call("employees.list", None)

    def recover_pin(self, email: str) -> dict:
        """The PIN and names of the employee with that email: {"pin", "firstName", "lastName"}."""
        return self._call("employees.recover_pin", {"email": email})

    # Session

    def login(self, pin: str) -> dict:
        """Log in by PIN on this core: {"employee": {...}}; unauthorized when wrong or locked out."""
        return self._call("session.login", {"pin": pin})

    def logout(self) -> dict:
        """Log out: {"employee": None}."""
        return self._call("session.logout", None)

    def current_employee(self) -> dict:
        """The logged-in employee: {"employee": {...} or None}."""
        return self._call("session.get", None)

    # Catalog

    def import_catalog(self, document: dict) -> dict:
        """Upsert products from a wine.com or plain catalog document: {"imported", "rejected"}."""
        return self._call("catalog.import", document)

    def list_catalog(self, category: Optional[str] = None, sort: str = "name") -> dict:
        """Products of a category (all when None) sorted by "name", "-name" or "none"."""
        request: dict[str, Any] = {"sort": sort}
        if category is not None:
            request["category"] = category
        return self._call("catalog.list", request)

    def product(self, product_id: ProductId) -> dict:
        """One product with its description: {"product": {...}}."""
        return self._call("catalog.product", {"id": product_id})

    # Cart of the logged-in employee

    def add_to_cart(self, product_id: ProductId, quantity: int = 1) -> dict:
        """Add 1-999 of a product to its line (or a new last line): {"cart": {...}}."""
        return self._call("cart.add", {"productId": product_id, "quantity": quantity})

    def update_cart(self, product_id: ProductId, quantity: int) -> dict:
        """Set a line's quantity (1-999): {"cart": {...}}."""
        return self._call("cart.update", {"productId": product_id, "quantity": quantity})

    def remove_from_cart(self, product_id: ProductId) -> dict:
        """Remove a line: {"cart": {...}}."""
        return self._call("cart.remove", {"productId": product_id})

    def get_cart(self) -> dict:
        """The cart: {"cart": {"lines": [...], "totalQuantity": n}}."""
        return self._call("cart.get", None)

    def checkout(self) -> dict:
        """Place the cart as an order: {"order", "message", "cart"} (the cart is then empty)."""
        return self._call("cart.checkout", None)

    def list_orders(self) -> dict:
        """The logged-in employee's orders, newest first: {"orders": [...]}."""
        return self._call("cart.orders", None)
