"""The product catalog and the logged-in employee's cart (methods ``catalog.*`` and ``cart.*``)."""

from __future__ import annotations

from typing import Optional, Union

from ._area import Document, document_argument, members
from .events import EventsMixin, ProgressCallback

__all__ = ["CatalogMixin", "ProductId"]

#: A product id as the catalog gives it: a number or a string.
ProductId = Union[int, str]


class CatalogMixin(EventsMixin):
    """The ``catalog`` and ``cart`` areas of the C API. Cart methods need a logged-in employee
    (:meth:`~carfit.employees.EmployeesMixin.login`); without one they raise UnauthorizedError."""

    __slots__ = ()

    def import_catalog(self, document: Union[Document, str, bytes]) -> Document:
        """Upsert products from a wine.com or plain catalog document (``catalog.import``):
        ``{"imported", "rejected"}``."""
        return self._call("catalog.import", document_argument(document, "pass json.load(open(path)) for a file"))

    def refresh_catalog(
        self, max_age_seconds: Optional[int] = None, progress: Optional[ProgressCallback] = None
    ) -> Document:
        """Fetch ``sources.catalog`` (either catalog shape) and import it (``catalog.refresh``);
        keeps the stored products on failure (:class:`~carfit.UnavailableError` with a
        ``reason``). Conditional and ``max_age_seconds`` as :meth:`refresh_visits`.

        ``progress(done, total)`` is called on this thread with the bytes of a body of more
        than 1 MiB as it downloads, as :meth:`~carfit.visits.VisitsMixin.refresh_visits`
        describes: ``total`` is the declared length, or None until the body is in when the
        server declares none; the last call, once the products are stored, has
        ``done == total``.
        """
        request = members(maxAgeSeconds=max_age_seconds) or None
        return self._with_progress("catalog.refresh", progress, lambda: self._call("catalog.refresh", request))

    def list_catalog(self, category: Optional[str] = None, sort: str = "name") -> Document:
        """Products of a category (all when None) sorted by ``"name"``, ``"-name"`` or
        ``"none"`` (``catalog.list``)."""
        return self._call("catalog.list", members(sort=sort, category=category))

    def product(self, product_id: ProductId) -> Document:
        """One product with its description (``catalog.product``): ``{"product": {...}}``."""
        return self._call("catalog.product", {"id": product_id})

    def add_to_cart(self, product_id: ProductId, quantity: int = 1) -> Document:
        """Add 1-999 of a product to its line, or a new last line (``cart.add``): ``{"cart": {...}}``."""
        return self._call("cart.add", {"productId": product_id, "quantity": quantity})

    def update_cart(self, product_id: ProductId, quantity: int) -> Document:
        """Set a line's quantity, 1-999 (``cart.update``): ``{"cart": {...}}``."""
        return self._call("cart.update", {"productId": product_id, "quantity": quantity})

    def remove_from_cart(self, product_id: ProductId) -> Document:
        """Remove a line (``cart.remove``): ``{"cart": {...}}``."""
        return self._call("cart.remove", {"productId": product_id})

    def get_cart(self) -> Document:
        """The cart (``cart.get``): ``{"cart": {"lines": [...], "totalQuantity": n}}``."""
        return self._call("cart.get")

    def checkout(self) -> Document:
        """Place the cart as an order (``cart.checkout``): ``{"order", "message", "cart"}``;
        the cart is then empty."""
        return self._call("cart.checkout")

    def list_orders(self) -> Document:
        """The logged-in employee's orders, newest first (``cart.orders``): ``{"orders": [...]}``."""
        return self._call("cart.orders")
