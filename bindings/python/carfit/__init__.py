"""carfit: Python binding for libcarfit, the headless core of the CarFit washer app.

>>> from carfit import Core
>>> with Core(now="2020-09-10T07:00:00Z", timeZone="Europe/Copenhagen") as core:
...     core.calendar()["title"]
'September 2020'
"""

from __future__ import annotations

import json
from typing import Any, Dict

from ._lib import LibraryVersionError, find_library, load_library
from ._version import binding_version
from . import errors
from .core import Core
from .events import Event, EventBatch, ProgressCallback
from .errors import *  # noqa: F401,F403  (the exceptions, one per status: errors.__all__)

#: This binding's version, that of the header it was made from (``"1.4.0"``).
__version__ = binding_version()

__all__ = [
    "Core",
    "Event",
    "EventBatch",
    "ProgressCallback",
    "LibraryVersionError",
    "find_library",
    "load_library",
    "schema",
    "status_name",
    "version",
    "version_number",
]
__all__ += errors.__all__


def version_number() -> int:
    """The loaded library's version as ``MAJOR * 10000 + MINOR * 100 + PATCH`` (10400 for 1.4.0)."""
    return int(load_library().carfit_version_number())


def version() -> str:
    """The loaded library's version, e.g. ``"1.4.0"``."""
    text: bytes = load_library().carfit_version()
    return text.decode("ascii")


def status_name(status: int) -> str:
    """The library's name of a status (``"ok"``, ``"bad_json"``, ...; ``"unknown"`` otherwise)."""
    name: bytes = load_library().carfit_status_name(int(status))
    return name.decode("ascii")


def schema() -> Dict[str, Any]:
    """The loaded library's machine-readable contract (``carfit_schema()``), parsed: a JSON Schema
    (draft 2020-12) of every operation's request, response and statuses, the config, the error
    document and the events. A wheel also ships it as the file ``carfit/carfit.schema.json``."""
    text: bytes = load_library().carfit_schema()
    document: Dict[str, Any] = json.loads(text.decode("utf-8"))
    return document
