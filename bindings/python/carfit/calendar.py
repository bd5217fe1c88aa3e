"""Calendar: the month grid that drives the visits list (methods ``calendar.*``).

Every method answers the month document ``{"year", "month", "title", "today", "selected",
"firstWeekday", "leadingDays", "weekdays", "days": [{"date", "day", "weekday", "isToday",
"isSelected", "visits"}], "previous", "next"}``.
"""

from __future__ import annotations

from typing import cast

from ._area import AreaMixin
from .documents import Month

__all__ = ["CalendarMixin"]


class CalendarMixin(AreaMixin):
    """The ``calendar`` area of the C API."""

    __slots__ = ()

    def calendar(self) -> Month:
        """The displayed month with the selection (``calendar.get``)."""
        return cast(Month, self._call("calendar.get"))

    def next_month(self) -> Month:
        """Display the next month, keeping the selection (``calendar.next``).

        At December 9999 the month stays.
        """
        return cast(Month, self._call("calendar.next"))

    def previous_month(self) -> Month:
        """Display the previous month, keeping the selection (``calendar.previous``).

        At January of year 1 the month stays.
        """
        return cast(Month, self._call("calendar.previous"))

    def select_day(self, date: str, mode: str = "single") -> Month:
        """Select a day (``calendar.select``).

        Args:
            date: the day, ``"YYYY-MM-DD"``.
            mode: ``"single"`` makes it the only selected day; ``"toggle"`` adds or removes
                it. A day that becomes selected in another month also becomes the displayed
                month.

        Raises:
            InvalidError: the date is not a day (field ``"date"``) or the mode is neither
                (field ``"mode"``).
        """
        return cast(Month, self._call("calendar.select", {"date": date, "mode": mode}))

    def month(self, year: int, month: int) -> Month:
        """The document of any month, without changing the state (``calendar.month``).

        Args:
            year: 1 to 9999.
            month: 1 to 12.

        Raises:
            InvalidError: a member out of range (field ``"year"`` or ``"month"``).
        """
        return cast(Month, self._call("calendar.month", {"year": year, "month": month}))
