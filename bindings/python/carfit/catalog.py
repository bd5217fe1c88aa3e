"""The product catalog and the logged-in employee's cart (methods ``catalog.*`` and ``cart.*``)."""

from __future__ import annotations

from typing import Optional, Union, cast

from ._area import Document, document_argument, members
from ._generated import (
    CartAddResult,
    CartCheckoutResult,
    CartGetResult,
    CartOrdersResult,
    CartRemoveResult,
    CartUpdateResult,
    CatalogImportResult,
    CatalogListResult,
    CatalogProductResult,
    CatalogRefreshResult,
)
from .events import EventsMixin, ProgressCallback

__all__ = ["CatalogMixin", "ProductId"]

#: A product id as the catalog gives it: a number or a string.
ProductId = Union[int, str]


class CatalogMixin(EventsMixin):
    """The ``catalog`` and ``cart`` areas of the C API. Cart methods need a logged-in employee
    (:meth:`~carfit.employees.EmployeesMixin.login`); without one they raise UnauthorizedError."""

    __slots__ = ()

    def import_catalog(self, document: Union[Document, str, bytes]) -> CatalogImportResult:
        """Upsert products from a wine.com or plain catalog document (``catalog.import``):
        ``{"imported", "rejected"}``."""
        return cast(CatalogImportResult, self._call("catalog.import", document_argument(document, "pass json.load(open(path)) for a file")))

    def refresh_catalog(
        self, max_age_seconds: Optional[int] = None, progress: Optional[ProgressCallback] = None
    ) -> CatalogRefreshResult:
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
        return cast(CatalogRefreshResult, self._with_progress("catalog.refresh", progress, lambda: self._call("catalog.refresh", request)))

    def list_catalog(self, category: Optional[str] = None, sort: str = "name") -> CatalogListResult:
        """Products of a category (all when None) sorted by ``"name"``, ``"-name"`` or
        ``"none"`` (``catalog.list``)."""
        return cast(CatalogListResult, self._call("catalog.list", members(sort=sort, category=category)))

    def product(self, product_id: ProductId) -> CatalogProductResult:
        """One product with its description (``catalog.product``): ``{"product": {...}}``."""
        return cast(CatalogProductResult, self._call("catalog.product", {"id": product_id}))

    def add_to_cart(self, product_id: ProductId, quantity: int = 1) -> CartAddResult:
        """Add 1-999 of a product to its line, or a new last line (``cart.add``): ``{"cart": {...}}``."""
        return cast(CartAddResult, self._call("cart.add", {"productId": product_id, "quantity": quantity}))

    def update_cart(self, product_id: ProductId, quantity: int) -> CartUpdateResult:
        """Set a line's quantity, 1-999 (``cart.update``): ``{"cart": {...}}``."""
        return cast(CartUpdateResult, self._call("cart.update", {"productId": product_id, "quantity": quantity}))

    def remove_from_cart(self, product_id: ProductId) -> CartRemoveResult:
        """Remove a line (``cart.remove``): ``{"cart": {...}}``."""
        return cast(CartRemoveResult, self._call("cart.remove", {"productId": product_id}))

    def get_cart(self) -> CartGetResult:
        """The cart (``cart.get``): ``{"cart": {"lines": [...], "totalQuantity": n}}``."""
        return cast(CartGetResult, self._call("cart.get"))

    def checkout(self) -> CartCheckoutResult:
        """Place the cart as an order (``cart.checkout``): ``{"order", "message", "cart"}``;
        the cart is then empty."""
        return cast(CartCheckoutResult, self._call("cart.checkout"))

    def list_orders(self) -> CartOrdersResult:
        """The logged-in employee's orders, newest first (``cart.orders``): ``{"orders": [...]}``."""
        return cast(CartOrdersResult, self._call("cart.orders"))
