"""The employees, session, catalog and cart methods under their former module name.

They live in :mod:`carfit.employees` and :mod:`carfit.catalog`; ``ShopMixin`` keeps
``from carfit.shop import ShopMixin`` working.
"""

from __future__ import annotations

from .catalog import CatalogMixin, ProductId
from .employees import EmployeesMixin

__all__ = ["ShopMixin", "ProductId"]


class ShopMixin(EmployeesMixin, CatalogMixin):
    """:class:`~carfit.employees.EmployeesMixin` and :class:`~carfit.catalog.CatalogMixin` together."""

    __slots__ = ()
