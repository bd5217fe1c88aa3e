"""Location: the washer on the road (methods ``location.report`` and ``location.status``)."""

from __future__ import annotations

from typing import Optional, cast

from ._area import AreaMixin, members
from .documents import LocationReport, LocationStatus

__all__ = ["LocationMixin"]


class LocationMixin(AreaMixin):
    """The ``location`` area of the C API: report positions, read the position and the trail."""

    __slots__ = ()

    def report_location(self, latitude: float, longitude: float, accuracy_meters: float,
                        at: Optional[str] = None) -> LocationReport:
        """Report the device's position (``location.report``).

        Args:
            latitude: -90 to 90.
            longitude: -180 to 180.
            accuracy_meters: the device's accuracy radius, 0 to 10000; a report less accurate
                than the config's ``road.maxAccuracyMeters`` is answered and changes nothing
                else.
            at: an ISO 8601 instant with ``Z`` or an offset (default: the core's clock); never
                older than the newest accepted report.

        Returns:
            ``{"stored", "arrived": [keys], "departed": [keys], "position"}``: whether the
            report joined the trail, the card keys it arrived at (at most one) and left, and
            the position after it (None before any counting report).

        Raises:
            InvalidError: a number missing, not finite or out of range, or ``at`` not an
                instant with a zone or older than the newest accepted report; ``field`` names
                it. Nothing is changed.
        """
        for name, value in (("latitude", latitude), ("longitude", longitude), ("accuracy_meters", accuracy_meters)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"{name} must be a number, not {type(value).__name__}")
        request = members(latitude=latitude, longitude=longitude, accuracyMeters=accuracy_meters, at=at)
        return cast(LocationReport, self._call("location.report", request))

    def location_status(self) -> LocationStatus:
        """The position and the trail (``location.status``): ``{"position", "trail":
        {"stored", "pending"}, "lastPushAt"}``."""
        return cast(LocationStatus, self._call("location.status"))
