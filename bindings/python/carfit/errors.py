"""Exceptions raised for libcarfit's non-zero statuses, one class per status."""

from __future__ import annotations

from typing import Any, Dict, Optional, Type

__all__ = [
    "CarfitError",
    "BadJSONError",
    "InvalidError",
    "NotFoundError",
    "ConflictError",
    "UnauthorizedError",
    "UnavailableError",
    "StorageError",
    "MisuseError",
    "InternalError",
    "error_class",
    "error_from_response",
]

# Status names as fixed by the header; used when the library's answer carries no code.
_NAMES = {
    0: "ok",
    1: "bad_json",
    2: "invalid",
    3: "not_found",
    4: "conflict",
    5: "unauthorized",
    6: "unavailable",
    7: "storage",
    8: "misuse",
    9: "internal",
}


class CarfitError(Exception):
    """A libcarfit call returned a non-zero status.

    Attributes:
        status:   the status code (int).
        code:     its name, e.g. ``"invalid"``.
        message:  the library's one-sentence explanation.
        field:    the offending request member as a dotted path (``"dates[0]"``), or None.
        document: the error object, i.e. the ``"error"`` member of the response, with every
                  member the library put there (``line``, ``column``, ``position`` for
                  bad JSON).
        response: the whole response document, ``{"error": {...}}``.
    """

    status: int = -1

    def __init__(
        self,
        status: int,
        document: Optional[Dict[str, Any]] = None,
        response: Optional[Dict[str, Any]] = None,
    ) -> None:
        self.status = int(status)
        self.document: Dict[str, Any] = dict(document or {})
        self.response: Dict[str, Any] = (
            response if response is not None else {"error": self.document}
        )
        self.code: str = str(self.document.get("code") or _NAMES.get(self.status, "unknown"))
        self.message: str = str(self.document.get("message") or f"libcarfit status {self.status}")
        field = self.document.get("field")
        self.field: Optional[str] = None if field is None else str(field)
        super().__init__(self.message)

    def __str__(self) -> str:
        where = f" [{self.field}]" if self.field else ""
        return f"{self.code}{where}: {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status}, document={self.document!r})"


class BadJSONError(CarfitError):
    """Status 1: the request is not valid JSON, or not an object."""

    status = 1

    @property
    def line(self) -> Optional[int]:
        """Line of the syntax error, as jansson reports it."""
        return self.document.get("line")

    @property
    def column(self) -> Optional[int]:
        """Column of the syntax error, as jansson reports it."""
        return self.document.get("column")

    @property
    def position(self) -> Optional[int]:
        """Byte position of the syntax error, as jansson reports it."""
        return self.document.get("position")


class InvalidError(CarfitError):
    """Status 2: a member is missing, of the wrong type, or out of range."""

    status = 2


class NotFoundError(CarfitError):
    """Status 3: the id, email, product, ... does not exist."""

    status = 3


class ConflictError(CarfitError):
    """Status 4: a uniqueness rule would break."""

    status = 4


class UnauthorizedError(CarfitError):
    """Status 5: wrong PIN, nobody logged in, locked out; or a source answered 401 or 403
    (``document["reason"] == "unauthorized"``, see :meth:`Core.auth_set`)."""

    status = 5


class UnavailableError(CarfitError):
    """Status 6: a network source failed; cached data is untouched."""

    status = 6


class StorageError(CarfitError):
    """Status 7: the database failed (cannot open, disk full, locked, damaged).

    The message names the file and what is in the way: a missing directory, no permission, a
    read-only file or disk, a file that is not a database, a full disk, another program's
    lock. Nothing was changed.
    """

    status = 7


class MisuseError(CarfitError):
    """Status 8: NULL or closed core, NULL argument, unknown method."""

    status = 8


class InternalError(CarfitError):
    """Status 9: a bug in libcarfit; the message says what."""

    status = 9


_BY_STATUS: Dict[int, Type[CarfitError]] = {
    cls.status: cls
    for cls in (
        BadJSONError,
        InvalidError,
        NotFoundError,
        ConflictError,
        UnauthorizedError,
        UnavailableError,
        StorageError,
        MisuseError,
        InternalError,
    )
}


def error_class(status: int) -> Type[CarfitError]:
    """The exception class of a status; :class:`CarfitError` for a value that is not one."""
    return _BY_STATUS.get(int(status), CarfitError)


def error_from_response(status: int, response: Optional[Dict[str, Any]]) -> CarfitError:
    """Build the exception for ``status`` from the library's response document.

    ``response`` is the parsed ``{"error": {...}}`` document, or None when the library gave
    no response text.
    """
    document: Dict[str, Any] = {}
    if isinstance(response, dict):
        inner = response.get("error")
        if isinstance(inner, dict):
            document = inner
    return error_class(status)(status, document, response)
