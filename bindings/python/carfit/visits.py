"""Visits: the washer's day (methods ``visits.import``, ``visits.list``, ``visits.refresh``,
``visits.plan``, ``visits.set_state``, ``visits.acknowledge``, ``visits.attach``,
``visits.attachments`` and ``visits.detach``)."""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, Mapping, Optional, Sequence, Tuple, Union, cast

from ._area import Document, document_argument, members, string_list
from ._generated import VisitsPlanResult
from .events import EventsMixin, ProgressCallback
from .documents import AttachmentList, AttachmentResult, ImportResult, VisitChange, VisitList

__all__ = ["VisitsMixin", "Point"]

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


class VisitsMixin(EventsMixin):
    """The ``visits`` area of the C API: import, list, refresh from the source, plan a day."""

    __slots__ = ()

    def import_visits(
        self, document: Union[Document, str, bytes], progress: Optional[ProgressCallback] = None
    ) -> ImportResult:
        """Replace the stored visits with a snapshot (``visits.import``).

        Args:
            document: the visits API document ``{"success": true, "data": [visit, ...],
                "code": 200}``, or just ``{"data": [...]}``, as a dict or as JSON text. To
                import a file, use :meth:`import_visits_file`: a string that looks like a
                path raises ``ValueError`` here.
            progress: ``progress(done, total)``, called on this thread with the bytes read
                while a document of more than 1 MiB is imported (the import runs on a thread
                of the binding meanwhile); the last call, once it succeeded, has
                ``done == total``.

        Returns:
            ``{"imported": n, "rejected": [{"index", "field", "message"}, ...]}``; rejected
            records are skipped, the others replace the stored snapshot.

        Raises:
            InvalidError: the document has no ``data`` array, or has records of which none
                is valid (``error.document["rejected"]`` lists them as a result would); field
                ``"data"``; nothing changes. An empty ``data`` array is a snapshot with no
                visits.
            ValueError: ``document`` is a string that looks like a file path.
        """
        request = document_argument(document, "to import a file, use import_visits_file(path)")
        return cast(ImportResult, self._with_progress("visits.import", progress, lambda: self._call("visits.import", request)))

    def import_visits_file(
        self, path: Union[str, "os.PathLike[str]"], progress: Optional[ProgressCallback] = None
    ) -> ImportResult:
        """Replace the stored visits with the snapshot in a file (``visits.import`` with
        ``{"file": path}``): the library reads the file itself, streaming, so Python never
        holds it.

        Args:
            path: the file's path; a relative path is taken from the current directory.
            progress: as for :meth:`import_visits`.

        Returns:
            As :meth:`import_visits`.

        Raises:
            InvalidError: the file cannot be read (field ``"file"``, the system's reason in
                the message), or the document is refused as by :meth:`import_visits`;
                nothing changes.
        """
        request = {"file": os.path.abspath(os.fspath(path))}
        return cast(ImportResult, self._with_progress("visits.import", progress, lambda: self._call("visits.import", request)))

    def list_visits(
        self,
        dates: Optional[Iterable[str]] = None,
        employee_id: Optional[str] = None,
        hour24: Optional[bool] = None,
    ) -> VisitList:
        """The cards of some days (``visits.list``).

        Args:
            dates: a list of days as ``"YYYY-MM-DD"``, listed in the order given (each once);
                None means the days selected in the calendar, ascending. A single string is
                refused with ``TypeError`` (write ``dates=["2020-09-10"]``).
            employee_id: keep only this employee's visits (``homeBobEmployeeId``).
            hour24: override the core's clock style for ``startTime`` (True "14:05",
                False "02:05 PM").

        Returns:
            ``{"days": [{"date", "visits": [card, ...], "summary"}], "summary"}`` where a
            summary is ``{"visits", "taskMinutes", "distanceMeters", "distanceKm"}``.

        Raises:
            InvalidError: a date that does not exist (field ``"dates[i]"``), or a member of
                the wrong type.
            TypeError: ``dates`` is a single string.
        """
        request = members(dates=string_list("dates", dates), employeeId=employee_id, hour24=hour24)
        return cast(VisitList, self._call("visits.list", request))

    def refresh_visits(
        self, max_age_seconds: Optional[int] = None, progress: Optional[ProgressCallback] = None
    ) -> ImportResult:
        """Fetch ``sources.visits`` and import it (``visits.refresh``), conditionally: an
        unchanged source answers ``{"imported": 0, "notModified": True}``.

        Args:
            max_age_seconds: when the last success is younger than this, no request is made
                and the answer is ``{"imported": 0, "fresh": True}``.
            progress: ``progress(done, total)`` is called on this thread for a body of more
                than 1 MiB, as for :meth:`import_visits`, in one run over twice the body's
                size: its download is the first half, its import the second. ``total`` is
                known from the body's declared length; a server that declares none gets
                calls with ``total`` None once more than 1 MiB arrived, until the body is in.
                The last call, once the visits are stored, has ``done == total``.

        Raises:
            UnavailableError: the source failed; the stored visits are kept, and
                ``error.document["reason"]`` says why (``"refused"``, ``"timeout"``,
                ``"http_status"``, ...).
        """
        request = members(maxAgeSeconds=max_age_seconds) or None
        return cast(ImportResult, self._with_progress("visits.refresh", progress, lambda: self._call("visits.refresh", request)))

    def plan_day(
        self,
        date: str,
        employee_id: Optional[str] = None,
        start: Optional[Point] = None,
        start_time: Optional[str] = None,
        speed_kmh: Optional[float] = None,
        detour_factor: Optional[float] = None,
        keep_order: Optional[bool] = None,
        durations: Optional[str] = None,
    ) -> VisitsPlanResult:
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
            keep_order: True to keep the stops in start-time order and compute only their
                times (live arrival estimates). For today, the plan starts from the position
                reported today (without ``start``) and at the later of now and the first
                start (without ``start_time``).
            durations: ``"planned"`` (default: each stop's taskMinutes) or ``"learned"``
                (each task's learned median from :meth:`report_durations` when its title has
                at least ``report.minSamples`` samples, else its planned minutes, rounded up
                per stop).

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
            keepOrder=keep_order,
            durations=durations,
        )
        return cast(VisitsPlanResult, self._call("visits.plan", request))

    def set_visit_state(self, key: str, state: str, reason: Optional[str] = None) -> VisitChange:
        """The washer changes a visit's state (``visits.set_state``): kept at once, in one
        transaction with its outbox entry, and sent later by :meth:`push`.

        Args:
            key: the card's ``key``.
            state: ``"InProgress"``, ``"Done"``, ``"Rejected"`` or ``"Todo"``: one of the
                card's ``nextStates`` (the states the core accepts from the one it shows).
            reason: optional text kept with a Rejected change (at most 1000 characters).

        Returns:
            ``{"visit": card}`` with the new state, ``"pending": True`` and, for Done, the
            minutes since the start in ``"timeUsedMinutes"``.

        Raises:
            NotFoundError: no stored visit has the key.
            ConflictError: the rules refuse the change (the message names both states).
            InvalidError: an unknown state, a reason too long, or a visit without a visitId.
        """
        return cast(VisitChange, self._call("visits.set_state", members(key=key, state=state, reason=reason)))

    def acknowledge(self, key: str) -> VisitChange:
        """The washer has seen the card's conflict (``visits.acknowledge``): an update the server
        rejected leaves the card. Local only: nothing is sent.

        Args:
            key: the card's ``key``.

        Returns:
            ``{"visit": card}`` with ``"conflict": None``; a removed card whose conflict was its
            last work leaves the day list at once (the answer is its card as last shown).

        Raises:
            NotFoundError: no listed visit has the key.
            ConflictError: the card has no conflict (``field`` ``"key"``).
        """
        return cast(VisitChange, self._call("visits.acknowledge", members(key=key)))

    def attach(
        self,
        key: str,
        kind: str,
        file: Optional[Union[str, "os.PathLike[str]"]] = None,
        text: Optional[str] = None,
    ) -> AttachmentResult:
        """Attach a photo, a signature or a note to a visit (``visits.attach``). The core
        copies the file into its attachments directory (whole or not at all) and uploads it
        with the next :meth:`push`; the caller may delete its file afterwards.

        Args:
            key: the card's ``key``.
            kind: ``"photo"`` (JPEG, PNG, WebP or HEIC), ``"signature"`` (PNG or SVG) or
                ``"note"``; content is told by the first bytes, not the name.
            file: the path of the file to attach.
            text: a note's text (1 to 10,000 characters) instead of a file.

        Returns:
            ``{"attachment": {"id", "key", "kind", "contentType", "bytes", "sha256", "at",
            "uploaded"}}``.

        Raises:
            NotFoundError: no stored visit has the key.
            InvalidError: a wrong kind, content, size or text (``error.field`` names it).
            ConflictError: the attachments not yet uploaded would pass the quota
                (``error.document["reason"] == "quota"``).
        """
        path = os.fspath(file) if file is not None else None
        return cast(AttachmentResult, self._call("visits.attach", members(key=key, kind=kind, file=path, text=text)))

    def attachments(self, key: str) -> AttachmentList:
        """A visit's attachments in the order attached (``visits.attachments``), each with
        the ``path`` of the core's copy (None once evicted after its upload)."""
        return cast(AttachmentList, self._call("visits.attachments", members(key=key)))

    def attachment_data(self, attachment_id: str) -> Tuple[bytes, Dict[str, Any]]:
        """The original bytes of an attachment's copy, whatever the encryption
        (``carfit_visits_attachment_data``): ``(data, {"id", "bytes", "contentType"})``.

        Raises:
            NotFoundError: no attachment has the id, or its copy was removed after its upload.
            StorageError: the copy cannot be read or does not decrypt.
        """
        data, document = self._call_bytes("carfit_visits_attachment_data", {"id": attachment_id})
        return data, document

    def detach(self, attachment_id: str) -> AttachmentResult:
        """Remove an attachment not yet uploaded, and its copy (``visits.detach``).

        Raises:
            NotFoundError: no attachment has the id.
            ConflictError: it was uploaded already.
        """
        return cast(AttachmentResult, self._call("visits.detach", members(id=attachment_id)))
