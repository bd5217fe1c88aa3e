"""Transactions and spending insights (methods ``transactions.*`` and ``insights.get``)."""

from __future__ import annotations

import warnings
from typing import Dict, Optional, Union, cast

from ._area import AreaMixin, Document, document_argument, members
from ._generated import (
    InsightsGetResult,
    TransactionsImportResult,
    TransactionsListResult,
    TransactionsPinResult,
)

__all__ = ["TransactionsMixin", "TransactionId"]

#: A transaction id as the source gives it: a number or a string.
TransactionId = Union[int, str]


class TransactionsMixin(AreaMixin):
    """The ``transactions`` and ``insights`` areas of the C API."""

    __slots__ = ()

    def import_transactions(self, document: Union[Document, str, bytes]) -> TransactionsImportResult:
        """Upsert ``{"transactions": [...]}`` by id (``transactions.import``):
        ``{"imported": n, "rejected": [...]}``."""
        return cast(TransactionsImportResult, self._call("transactions.import", document_argument(document, "pass json.load(open(path)) for a file")))

    def list_transactions(self, category: Optional[str] = None) -> TransactionsListResult:
        """One category's transactions (None or ``"all"``: every one) with the bar, the count
        and the pinned sum (``transactions.list``)."""
        return cast(TransactionsListResult, self._call("transactions.list", members(category=category)))

    def pin_transaction(self, transaction_id: Optional[TransactionId] = None, pinned: bool = True,
                        **deprecated: TransactionId) -> TransactionsPinResult:
        """Pin or unpin one transaction (``transactions.pin``): ``{"transaction": {...}}``.

        The keyword ``id=`` of earlier versions still works, with a DeprecationWarning.

        Raises:
            NotFoundError: no transaction has that id.
        """
        transaction_id = _legacy_id("pin_transaction", transaction_id, deprecated)
        return cast(TransactionsPinResult, self._call("transactions.pin", {"id": transaction_id, "pinned": pinned}))

    def unpin_transaction(self, transaction_id: Optional[TransactionId] = None,
                          **deprecated: TransactionId) -> TransactionsPinResult:
        """Unpin one transaction: :meth:`pin_transaction` with ``pinned=False``."""
        return self.pin_transaction(_legacy_id("unpin_transaction", transaction_id, deprecated), False)

    def insights(self) -> InsightsGetResult:
        """Per category total, count and share of the pinned transactions, and the grand total
        (``insights.get``)."""
        return cast(InsightsGetResult, self._call("insights.get"))


def _legacy_id(method: str, transaction_id: Optional[TransactionId], deprecated: Dict[str, TransactionId]) -> TransactionId:
    """The transaction id of a call that may still use the keyword ``id=``."""
    legacy = deprecated.pop("id", None)
    if deprecated:
        raise TypeError(f"{method}() got an unexpected keyword argument {next(iter(deprecated))!r}")
    if legacy is not None:
        if transaction_id is not None:
            raise TypeError(f"{method}() got both transaction_id and id")
        warnings.warn(f"{method}(id=...) is deprecated; use transaction_id=...", DeprecationWarning, stacklevel=3)
        return legacy
    if transaction_id is None:
        raise TypeError(f"{method}() missing the transaction id")
    return transaction_id
