"""Visits: the washer's day (methods ``visits.*``)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ._area import AreaMixin, members

__all__ = ["VisitsMixin"]


class VisitsMixin(AreaMixin):
    """The ``visits`` area of the C API."""

    __slots__ = ()

    def import_visits(self, document: Dict[str, Any]) -> Dict[str, Any]:
        """Replace the stored visits with a snapshot (``visits.import``).

        Args:
            document: the visits API document ``{"success": true, "data": [visit, ...],
                "code": 200}``, or just ``{"data": [...]}``.

        Returns:
            ``{"imported": n, "rejected": [{"index", "field", "message"}, ...]}``; rejected
            records are skipped, the others replace the stored snapshot.

        Raises:
            InvalidError: the document has no ``data`` array (field ``"data"``); nothing
                changes.
        """
        return self._call("visits.import", document)

    def list_visits(
        self,
        dates: Optional[List[str]] = None,
        employee_id: Optional[str] = None,
        hour24: Optional[bool] = None,
    ) -> Dict[str, Any]:
        """The cards of some days (``visits.list``).

        Args:
            dates: days as ``"YYYY-MM-DD"``, listed in the order given (each once); None
                means the days selected in the calendar, ascending.
            employee_id: keep only this employee's visits (``homeBobEmployeeId``).
            hour24: override the core's clock style for ``startTime`` (True "14:05",
                False "02:05 PM").

        Returns:
            ``{"days": [{"date", "visits": [card, ...], "summary"}], "summary"}`` where a
            summary is ``{"visits", "taskMinutes", "distanceMeters", "distanceKm"}``.

        Raises:
            InvalidError: a date that does not exist (field ``"dates[i]"``), or a member of
                the wrong type.
        """
        request = members(
            dates=None if dates is None else list(dates),
            employeeId=employee_id,
            hour24=hour24,
        )
        return self._call("visits.list", request)
