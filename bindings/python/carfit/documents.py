"""Typed shapes of the documents the library answers, under the names the binding's methods use.

Every response type is generated from the schema ``include/carfit.schema.json`` by
``scripts/gen-schema`` into :mod:`carfit._generated` (one ``TypedDict`` per response object,
named after the schema's definition or the operation: ``VisitsListResult``, ``Card``,
``Month``, ...). At run time they are plain dicts decoded from the library's JSON; for type
checkers they list exactly the members the schema names (responses are closed), with the
members the library does not always write marked optional.
"""

from __future__ import annotations

from ._generated import (
    RESULTS,
    Attachment,
    AttachmentCounts,
    AttachmentUploads,
    AuthState,
    LocationReportResult,
    LocationStatusResult,
    VisitsAttachmentsResult,
    VisitsAttachResult,
    Position,
    CalendarDay,
    Card,
    Day,
    ErrorDocument,
    Event,
    ImportResult,
    Month,
    RejectedChange,
    Rejection,
    Summary,
    SyncPushResult,
    SyncStatusResult,
    VisitsListResult,
    VisitsSetStateResult,
)

__all__ = [
    "RESULTS",
    "Rejection",
    "ImportResult",
    "Summary",
    "Card",
    "Day",
    "VisitList",
    "VisitChange",
    "PushResult",
    "RejectedChange",
    "SyncStatus",
    "CalendarDay",
    "Month",
    "Event",
    "ErrorDocument",
    "AuthState",
    "Position",
    "LocationReport",
    "LocationStatus",
    "Attachment",
    "AttachmentCounts",
    "AttachmentUploads",
    "AttachmentResult",
    "AttachmentList",
]

#: The answer of ``visits.list``.
VisitList = VisitsListResult
#: The answer of ``visits.set_state``: the changed card.
VisitChange = VisitsSetStateResult
#: The answer of ``sync.push``.
PushResult = SyncPushResult
#: The answer of ``sync.status``.
SyncStatus = SyncStatusResult
#: The answer of ``location.report``.
LocationReport = LocationReportResult
#: The answer of ``location.status``.
LocationStatus = LocationStatusResult
#: The answer of ``visits.attach`` and ``visits.detach``.
AttachmentResult = VisitsAttachResult
#: The answer of ``visits.attachments``, in the order attached.
AttachmentList = VisitsAttachmentsResult
