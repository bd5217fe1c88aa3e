"""The core: one open libcarfit ``carfit_core`` and the calls made on it."""

from __future__ import annotations

import ctypes
import json
from typing import Any, Optional, Tuple

from ._area import Document, Request
from ._lib import load_library, take_text
from .errors import InternalError, error_from_response

# Area mixins, one module per area: to add an area, import its mixin here and list it in
# Core's bases.
from .visits import VisitsMixin
from .calendar import CalendarMixin
from .employees import EmployeesMixin
from .catalog import CatalogMixin
from .transactions import TransactionsMixin
from .articles import ArticlesMixin
from .images import ImagesMixin
from .sources import SourcesMixin
from .sync import SyncMixin
from .auth import AuthMixin
from .location import LocationMixin
from .push import PushMixin
from .reminders import RemindersMixin
from .report import ReportMixin
from .events import EventsMixin

__all__ = ["Core", "Request"]


def _encode(request: Request) -> Optional[bytes]:
    """The UTF-8 JSON text of ``request`` for the C API (None stays NULL)."""
    if request is None:
        return None
    if isinstance(request, bytes):
        return request
    if isinstance(request, str):
        return request.encode("utf-8")
    return json.dumps(request, ensure_ascii=False, allow_nan=False).encode("utf-8")


class Core(VisitsMixin, CalendarMixin, EmployeesMixin, CatalogMixin, TransactionsMixin, ArticlesMixin,
           ImagesMixin, SourcesMixin, SyncMixin, AuthMixin, LocationMixin, PushMixin, RemindersMixin,
           ReportMixin, EventsMixin):
    """An open libcarfit core: database, clock, calendar state and caches.

    ``Core(config, **kwargs)`` opens a core; keyword arguments are merged into ``config``
    (``Core(now="2020-09-10T07:00:00Z", timeZone="Europe/Copenhagen")``). Config members, all
    optional (defaults in parentheses):

    - ``database``: SQLite file path, created with its schema if absent (``":memory:"``);
    - ``now``: a fixed instant for the core's clock, ``"2020-09-10T07:00:00Z"`` (the system
      clock);
    - ``timeZone``: IANA zone of local days and times (``"UTC"``);
    - ``hour24``: True/False for 24h/12h times (from the locale: LC_ALL, LC_TIME, LANG);
    - ``firstWeekday``: ``"monday"`` or ``"sunday"`` (``"monday"``; with ``locale``, the
      locale's first day of the week);
    - ``locale``: the language of times, dates, month titles, weekday names, the texts beside
      amounts (``priceText``, ``amountText``, ``sumText``) and the order of names: ``"en"`` or
      ``"en-US"``, ``"en-GB"``, ``"da"``, ``"nb"`` or ``"no"``, ``"sv"``, ``"de"`` (case-insensitive,
      ``-`` or ``_``; none: the English texts of 1.3);
    - ``currency``: ``"USD"``, ``"DKK"``, ``"NOK"``, ``"SEK"``, ``"EUR"`` or ``"GBP"`` (``"USD"``);
    - ``sources``: http or https URLs each area's refresh fetches from, ``{"visits": url,
      "articles": url, "catalog": url, "patterns": url, "visitUpdates": url, "locations": url,
      "attachments": url, "devices": url}`` (none; ``attachments`` is the base URL attachments
      are PUT under; ``devices`` receives the device's push registration);
    - ``http``: limits on every transfer, a dict of ``timeoutMs`` 1..600000 (10000:
      connecting and each wait for data), ``totalTimeoutMs`` 1..3600000 (120000: the whole
      transfer), ``maxBodyBytes`` 1..2**40 (268435456: the body once decoded) and
      ``minBytesPerSecond`` 0..2**40 (1024: a transfer slower than this for ``timeoutMs``
      fails with reason ``"timeout"``; 0 turns the check off);
    - ``images``: ``{"directory": path, "memoryBytes": n, "diskBytes": n, "concurrency":
      1..64}`` (a temporary directory of the core, 32 MiB, 256 MiB, 4);
    - ``maxRequestBytes``: the largest request accepted, in bytes (536870912);
    - ``importThreads``: 0..64 threads a large visits import parses on besides the calling
      thread; 0 parses on the calling thread alone (one per processor, at most 8);
    - ``auth``: ``{"origins": ["https://planner.example:8443", ...]}``, the origins whose
      source requests carry the token of :meth:`auth_set` (the origins of ``sources.visits``
      and ``sources.visitUpdates``);
    - ``road``: positions, arrivals and departures, ``{"arrivalRadiusMeters": 75,
      "dwellSeconds": 60, "maxAccuracyMeters": 100, "minDistanceMeters": 20,
      "minIntervalSeconds": 300, "autoStart": False, "trailDays": 7}`` (these defaults).
    - ``attachments``: ``{"directory": path, "maxBytes": n, "quotaBytes": n}``: where attached
      photos, signatures and notes are kept (the database path + "-attachments"; none in
      memory), the largest file (20 MiB) and all files together (1 GiB);
    - ``report``: time on the job, ``{"keepDays": 90, "minSamples": 5}`` (these defaults): how
      long the washer's facts are kept, and the samples a task title needs before a learned plan
      uses its median;
    - ``reminders``: time to leave, ``{"bufferMinutes": 5, "speedKmh": 30, "detourFactor": 1.3,
      "positionMaxAgeSeconds": 900}`` (these defaults);
    - ``zoneinfo``: the directory of time zone files (TZif) ``timeZone`` names one of
      (``$TZDIR``, else ``"/usr/share/zoneinfo"``);
    - ``encryption``: ``{"key": 64 hexadecimal digits}``, a 256-bit key the host keeps in the
      platform's keystore: the database, its WAL and journal and the attached files are stored
      encrypted (see ``storage.rekey`` to change it). An encrypted database opened without its
      key raises :class:`~carfit.UnauthorizedError` with ``reason`` "key_required" or
      "wrong_key", and no file is touched.

    The config is strict: a member not listed here (also inside ``sources``, ``http``,
    ``images``, ``auth``, ``road``, ``report`` and ``reminders``) raises :class:`~carfit.InvalidError` naming it in ``field``, with the nearest
    known member in the message (``Core(timezone=...)``: "did you mean timeZone?").

    Use it as a context manager, or call :meth:`close`. A non-zero status of any call raises
    the :class:`~carfit.CarfitError` subclass of that status. One core may be used from
    several threads; the library serialises the calls.
    """

    def __init__(self, config: Request = None, **kwargs: Any) -> None:
        """Open a core with ``config`` (dict, JSON text, or None) merged with ``kwargs``.

        Raises:
            BadJSONError: ``config`` is JSON text that does not parse, or is not an object.
            InvalidError: a config member is unknown or wrong (named in ``field``).
            StorageError: the database cannot be opened or created (field ``"database"``);
                the message names the file and the obstacle (a missing directory, no
                permission, a read-only file or disk, not a database, a full disk).
        """
        self._handle: Optional[ctypes.c_void_p] = None
        self._lib: ctypes.CDLL = load_library()
        self.open_info: Document = {}

        if kwargs:
            if not isinstance(config, (dict, type(None))):
                raise TypeError("keyword config members need config to be a dict or None")
            config = {**(config or {}), **kwargs}

        handle = ctypes.c_void_p()
        response = ctypes.c_void_p()
        status = self._lib.carfit_open(_encode(config), ctypes.byref(handle), ctypes.byref(response))
        document = self._take(response)
        if status != 0:
            # The header leaves *core NULL on failure; close defensively all the same.
            if handle.value:
                self._lib.carfit_close(handle)
            raise error_from_response(status, document)
        self._handle = handle
        self.open_info = document or {}

    # -- lifecycle ----------------------------------------------------------------------------

    def close(self) -> None:
        """Close the core (waits for a call in progress). Closing again is a no-op.

        Afterwards every call raises :class:`~carfit.MisuseError`; stored data stays in the
        database.
        """
        handle, self._handle = getattr(self, "_handle", None), None
        if handle is not None and handle.value:
            self._lib.carfit_close(handle)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self._handle is None

    def __enter__(self) -> "Core":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may already be gone
            pass

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"database={self.open_info.get('database')!r}"
        return f"<carfit.Core {state}>"

    # -- calls --------------------------------------------------------------------------------

    def _take(self, ptr: ctypes.c_void_p) -> Optional[Document]:
        """Copy the response text at ``ptr``, free it with carfit_free, and parse it.

        Returns None when the library gave no response (a NULL pointer).
        """
        text = take_text(self._lib, ptr)
        if text is None:
            return None
        document: Document = json.loads(text)
        return document

    def _call_bytes(self, symbol: str, request: Document) -> Tuple[bytes, Document]:
        """A function with bytes out (``symbol``): the bytes (copied, then freed with
        carfit_free) and the answer; a failure raises its error."""
        data_ptr = ctypes.c_void_p()
        length = ctypes.c_size_t(0)
        response = ctypes.c_void_p()
        status = getattr(self._lib, symbol)(
            self._handle, _encode(request), ctypes.byref(data_ptr), ctypes.byref(length), ctypes.byref(response)
        )
        try:
            data = ctypes.string_at(data_ptr.value, length.value) if data_ptr.value else b""
        finally:
            if data_ptr.value:
                self._lib.carfit_free(data_ptr.value)
        document = self._take(response)
        if status != 0:
            raise error_from_response(status, document)
        if document is None:
            raise InternalError(9, {"message": f"{symbol} returned no response."})
        return data, document

    def _carfit_call(self, method: str, request: Request) -> Tuple[int, ctypes.c_void_p]:
        """``carfit_call`` itself: the status and the response pointer, which the caller takes
        (copies and frees)."""
        response = ctypes.c_void_p()
        status = self._lib.carfit_call(
            self._handle,
            None if method is None else method.encode("utf-8"),
            _encode(request),
            ctypes.byref(response),
        )
        return status, response

    def _call(self, method: str, request: Request = None) -> Document:
        """Run the operation ``method`` (``"<area>.<verb>"``) through ``carfit_call``.

        ``request`` is a dict (sent as JSON), JSON text, or None (``{}``). Returns the parsed
        result; a non-zero status raises the typed error built from the error document. A
        closed core is passed on as NULL, and the library answers with a misuse error.
        """
        status, response = self._carfit_call(method, request)
        document = self._take(response)
        if status != 0:
            raise error_from_response(status, document)
        if document is None:
            raise InternalError(9, {"message": f"{method} returned no response."})
        return document

    def call(self, method: str, request: Request = None) -> Document:
        """Run any operation by its method name, e.g. ``core.call("visits.list", {...})``.

        Returns the result document; raises the :class:`~carfit.CarfitError` subclass of a
        non-zero status.
        """
        return self._call(method, request)

    def call_text(self, method: str, request: Request = None) -> str:
        """Like :meth:`call`, but return the result's JSON text as the library wrote it.

        The text is not parsed (useful for a host that forwards it, and for measuring the call
        itself); errors still raise the :class:`~carfit.CarfitError` subclass of the status.
        """
        status, response = self._carfit_call(method, request)
        text = take_text(self._lib, response)
        if status != 0:
            raise error_from_response(status, None if text is None else json.loads(text))
        if text is None:
            raise InternalError(9, {"message": f"{method} returned no response."})
        return text
