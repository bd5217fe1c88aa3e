"""Sources: the refresh state of every configured source, offline first (method ``sources.status``)."""

from __future__ import annotations

from typing import cast

from ._area import AreaMixin
from ._generated import SourcesStatusResult

__all__ = ["SourcesMixin"]


class SourcesMixin(AreaMixin):
    """The ``sources`` area of the C API."""

    __slots__ = ()

    def sources_status(self) -> SourcesStatusResult:
        """Each configured source's last attempt, success and error (``sources.status``):
        ``{"offline": bool, "sources": {name: {"url", "lastAttemptAt", "lastSuccessAt",
        "lastError": None or {"reason", "message", "at", "httpStatus"}, "consecutiveFailures",
        "notModified"}}}``. ``offline`` is the "no connection" banner: the latest network
        failure of any source came after the last success."""
        return cast(SourcesStatusResult, self._call("sources.status"))
