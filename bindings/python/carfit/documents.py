"""Typed shapes of the documents hosts read most: visits imports and day lists, the calendar.

They are ``TypedDict``s: at run time plain dicts decoded from the library's JSON, for type
checkers a list of the members the header documents. ``total=False`` because the library may
add members (hosts ignore what they do not know) and some members are null or absent.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict

from ._area import Document

__all__ = [
    "Rejection",
    "ImportResult",
    "Summary",
    "Card",
    "Day",
    "VisitList",
    "CalendarDay",
    "Month",
]


class Rejection(TypedDict, total=False):
    """A record an import skipped: its index in the document, the member and why."""

    index: int
    field: str
    message: str


class ImportResult(TypedDict, total=False):
    """The answer of an import: how many records were stored and which were skipped."""

    imported: int
    rejected: List[Rejection]


class Summary(TypedDict, total=False):
    """The totals of a day, or of every listed day."""

    visits: int
    taskMinutes: int
    distanceMeters: int
    distanceKm: float


class Card(TypedDict, total=False):
    """One visit card of ``visits.list``."""

    visitId: Optional[str]
    name: Optional[str]
    state: Optional[str]
    stateColor: str
    startTime: str
    startTimeUtc: str
    expectedTime: Optional[str]
    tasks: List[str]
    taskMinutes: int
    address: Optional[str]
    phone: Optional[str]
    latitude: Optional[float]
    longitude: Optional[float]
    employeeId: Optional[str]
    distanceMeters: Optional[int]
    distanceKm: Optional[float]
    key: str
    pending: bool
    timeUsedMinutes: Optional[int]
    attachments: "AttachmentCounts"


class AttachmentCounts(TypedDict, total=False):
    """A card's ``attachments``: how many of each kind, and how many wait for the upload."""

    photos: int
    signatures: int
    notes: int
    pending: int


class Attachment(TypedDict, total=False):
    """A photo, signature or note attached to a visit (``visits.attach``); ``path`` (the
    core's copy, None once evicted) only in ``visits.attachments``, ``failed`` only once the
    upload server refused it for good."""

    id: str
    key: str
    kind: str
    contentType: str
    bytes: int
    sha256: str
    at: str
    uploaded: bool
    failed: str
    path: Optional[str]


class AttachmentResult(TypedDict, total=False):
    """The answer of ``visits.attach`` and ``visits.detach``."""

    attachment: Attachment


class AttachmentList(TypedDict, total=False):
    """The answer of ``visits.attachments``, in the order attached."""

    attachments: List[Attachment]


class AttachmentUploads(TypedDict, total=False):
    """The attachments' part of a ``sync.push`` answer."""

    uploaded: int
    pending: int
    failed: int


class VisitChange(TypedDict, total=False):
    """The answer of ``visits.set_state``: the changed card."""

    visit: Card


class PushResult(TypedDict, total=False):
    """The answer of ``sync.push``; ``skipped`` (``"backoff"`` or ``"busy"``) and
    ``nextAttemptAt`` only when an ``if_due`` push made no request."""

    pushed: int
    rejected: int
    pending: int
    skipped: str
    nextAttemptAt: str
    attachments: AttachmentUploads


class RejectedChange(TypedDict, total=False):
    """A change the update server rejected, as ``sync.status`` lists it."""

    mutationId: str
    visitId: Optional[str]
    startTimeUtc: str
    state: str
    reason: str
    at: str


class SyncStatus(TypedDict, total=False):
    """The answer of ``sync.status``."""

    clientId: str
    pending: int
    lastAttemptAt: Optional[str]
    lastSuccessAt: Optional[str]
    lastError: Optional[Dict[str, Any]]
    consecutiveFailures: int
    nextAttemptAt: Optional[str]
    rejected: List[RejectedChange]


class Day(TypedDict, total=False):
    """One day of ``visits.list``: its cards in start order and its summary."""

    date: str
    visits: List[Card]
    summary: Summary


class VisitList(TypedDict, total=False):
    """The answer of ``visits.list``."""

    days: List[Day]
    summary: Summary


class CalendarDay(TypedDict, total=False):
    """One day of the month grid."""

    date: str
    day: int
    weekday: str
    isToday: bool
    isSelected: bool
    visits: int


class Month(TypedDict, total=False):
    """The month document every ``calendar.*`` method answers."""

    year: int
    month: int
    title: str
    today: str
    selected: List[str]
    firstWeekday: str
    leadingDays: int
    weekdays: List[str]
    days: List[CalendarDay]
    previous: Optional[Document]
    next: Optional[Document]
