"""Transactions and insights (section 6 of the contract)."""

from __future__ import annotations

from typing import Any


class TransactionsMixin:
    """Typed methods for transactions.import, transactions.list, transactions.pin and insights.get.

    Mixed into Core, which provides _call(method, request) -> dict.
    """

    _call: Any

    def import_transactions(self, document: dict[str, Any]) -> dict:
        """Upsert {"transactions": [...]} by id; returns {"imported": n, "rejected": [...]}."""
        return self._call("transactions.import", document)

    def list_transactions(self, category: str | None = None) -> dict:
        """One category's transactions (None or "all": every one) with the bar, count and pinned sum."""
        return self._call("transactions.list", {} if category is None else {"category": category})

    def pin_transaction(self, id: int | str, pinned: bool = True) -> dict:
        """Pin or unpin one transaction; returns {"transaction": {...}}."""
        return self._call("transactions.pin", {"id": id, "pinned": pinned})

    def unpin_transaction(self, id: int | str) -> dict:
        """Unpin one transaction; returns {"transaction": {...}}."""
        return self.pin_transaction(id, False)

    def insights(self) -> dict:
        """Per category total, count and share of the pinned transactions, and the grand total."""
        return self._call("insights.get")
