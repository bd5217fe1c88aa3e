"""Sync: the washer's updates sent to the update server (methods ``sync.push`` and
``sync.status``)."""

from __future__ import annotations

from typing import Optional, cast

from ._area import AreaMixin, members
from .documents import PushResult, SyncStatus

__all__ = ["SyncMixin"]


class SyncMixin(AreaMixin):
    """The ``sync`` area of the C API: push the outbox, read where it stands."""

    __slots__ = ()

    def push(self, if_due: Optional[bool] = None) -> PushResult:
        """Send the pending changes to ``sources.visitUpdates`` (``sync.push``), oldest first,
        500 a request; each change is applied once by a server that records mutation ids.

        Args:
            if_due: True to do nothing while the backoff after a failure lasts, while
                another push of the database runs, or after a push the server refused (401
                or 403) until :meth:`auth_set` sets a token: the answer then has
                ``"skipped"`` (``"backoff"``, ``"busy"`` or ``"unauthorized"``).

        Returns:
            ``{"pushed", "rejected", "pending"}`` (plus ``"skipped"`` and ``"nextAttemptAt"``
            for a skipped ``if_due`` push).

        Raises:
            InvalidError: no update server is configured (field ``"sources.visitUpdates"``).
            UnavailableError: a request failed; every change it carried stays pending, and
                ``error.document["reason"]`` says why.
            UnauthorizedError: the update server answered 401 or 403 (reason
                ``"unauthorized"``, ``"httpStatus"``); every change stays pending and the
                backoff does not grow.
        """
        return cast(PushResult, self._call("sync.push", members(ifDue=if_due)))

    def sync_status(self) -> SyncStatus:
        """Where the washer's updates are (``sync.status``): ``{"clientId", "pending",
        "lastAttemptAt", "lastSuccessAt", "lastError", "consecutiveFailures",
        "nextAttemptAt", "rejected"}``."""
        return cast(SyncStatus, self._call("sync.status"))
