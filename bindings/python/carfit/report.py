"""Report: time on the job (methods ``report.day`` and ``report.durations``)."""

from __future__ import annotations

from typing import Optional, cast

from ._area import AreaMixin, members
from ._generated import ReportDayResult, ReportDurationsResult

__all__ = ["ReportMixin"]


class ReportMixin(AreaMixin):
    """The ``report`` area of the C API: a day's planned against worked minutes, and the time
    each task takes, learned from the washer's finished visits."""

    __slots__ = ()

    def report_day(self, date: Optional[str] = None) -> ReportDayResult:
        """A day's time report (``report.day``).

        Args:
            date: ``"YYYY-MM-DD"`` (default: today by the core's clock and zone).

        Returns:
            ``{"date", "visits": [{"key", "visitId", "name", "state", "plannedMinutes",
            "startedAt", "finishedAt", "workedMinutes", "arrivedAt", "departedAt",
            "onSiteMinutes", "lateMinutes"}], "totals": {"plannedMinutes", "workedMinutes",
            "onSiteMinutes", "driveMinutes", "done", "rejected", "todo", "inProgress"}}``.

        Raises:
            InvalidError: ``date`` is not a day (``field`` ``"date"``).
        """
        return cast(ReportDayResult, self._call("report.day", members(date=date)))

    def report_durations(self) -> ReportDurationsResult:
        """The time each task title takes (``report.durations``): ``{"tasks": [{"title",
        "samples", "plannedMinutes", "medianMinutes", "p80Minutes"}]}`` over each title's
        newest 50 samples, sorted by title."""
        return cast(ReportDurationsResult, self._call("report.durations"))
