"""Reminders: time to leave (method ``reminders.list``)."""

from __future__ import annotations

from typing import Optional, cast

from ._area import AreaMixin, members
from ._generated import RemindersListResult

__all__ = ["RemindersMixin"]


class RemindersMixin(AreaMixin):
    """The ``reminders`` area of the C API: when to leave for each open visit of a day."""

    __slots__ = ()

    def reminders(self, date: Optional[str] = None) -> RemindersListResult:
        """When to leave for each open visit of a day (``reminders.list``).

        Args:
            date: ``"YYYY-MM-DD"`` (default: today by the core's clock and zone).

        Returns:
            ``{"date", "reminders": [{"id", "key", "name", "leaveAt", "arriveBy",
            "travelMinutes", "distanceMeters", "late", "title", "body", "deepLink",
            "navigation"}]}``, one for each card of the day in state Todo with coordinates
            and without an arrival, sorted by ``leaveAt`` then ``key``.

        Raises:
            InvalidError: ``date`` is not a day (``field`` ``"date"``).
        """
        return cast(RemindersListResult, self._call("reminders.list", members(date=date)))
