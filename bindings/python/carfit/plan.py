"""The washer's day plan (method ``visits.plan``)."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence, Union

from ._area import AreaMixin, members

__all__ = ["PlanMixin"]

#: A start point: ``(latitude, longitude)`` or ``{"latitude": .., "longitude": ..}``.
Point = Union[Sequence[float], Mapping[str, float]]


def _point(start: Optional[Point]) -> Optional[Dict[str, Any]]:
    """The request's ``start`` object of a pair or a mapping (None stays absent)."""
    if start is None:
        return None
    if isinstance(start, Mapping):
        return dict(start)
    latitude, longitude = start
    return {"latitude": latitude, "longitude": longitude}


class PlanMixin(AreaMixin):
    """The day plan of the ``visits`` area of the C API."""

    __slots__ = ()

    def plan_day(
        self,
        date: str,
        employee_id: Optional[str] = None,
        start: Optional[Point] = None,
        start_time: Optional[str] = None,
        speed_kmh: Optional[float] = None,
        detour_factor: Optional[float] = None,
    ) -> Dict[str, Any]:
        """The order to drive a day's open visits in, with arrival times (``visits.plan``).

        Args:
            date: the day, ``"YYYY-MM-DD"``.
            employee_id: plan only this employee's visits (``homeBobEmployeeId``).
            start: where the washer sets out, ``(latitude, longitude)``; without it the
                first stop's travel is 0.
            start_time: ``"HH:mm"`` local time of setting out; default: the start time of
                the day's earliest stop.
            speed_kmh: driving speed, more than 0 and at most 300 (default 30).
            detour_factor: road length over geodesic length, 1 to 10 (default 1.3).

        Returns:
            ``{"date", "startTime", "stops": [{"visitId", "name", "arrival", "departure",
            "waitMinutes", "lateMinutes", "distanceMeters", "travelMinutes",
            "serviceMinutes", "window", "expectedTime", "state", "latitude", "longitude"}],
            "distanceMeters", "originalDistanceMeters", "savedMeters", "lateStops",
            "originalLateStops", "optimized", "skipped": [{"visitId", "reason"}]}``.

        Raises:
            InvalidError: a member is missing, of the wrong type or out of range; ``field``
                names it (``"date"``, ``"start.latitude"``, ``"speedKmh"``, ...).
        """
        request = members(
            date=date,
            employeeId=employee_id,
            start=_point(start),
            startTime=start_time,
            speedKmh=speed_kmh,
            detourFactor=detour_factor,
        )
        return self._call("visits.plan", request)
