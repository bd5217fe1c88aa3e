"""The base of the area mixins that give :class:`carfit.Core` its typed methods."""

from __future__ import annotations

from typing import Any, Dict, Optional

__all__ = ["AreaMixin", "members"]


class AreaMixin:
    """Base of every area mixin.

    A mixin adds methods for one area of the C API (``visits``, ``calendar``, ...) and runs
    them through :meth:`_call`, which :class:`carfit.Core` implements.
    """

    __slots__ = ()

    def _call(self, method: str, request: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """Run the operation ``method`` with ``request``; implemented by :class:`carfit.Core`."""
        raise NotImplementedError


def members(**values: Any) -> Dict[str, Any]:
    """The request object of ``values``, leaving out the members that are None."""
    return {key: value for key, value in values.items() if value is not None}
