"""The contract held both ways in every test: each response, error document and event the
binding's tests see is validated against include/carfit.schema.json, and so is each request
the library accepts and each config carfit_open accepts.

``install()`` wraps the binding's one call path (``Core._carfit_call``, ``Core.__init__`` and
``Core.image``); what breaks the contract is collected in ``VIOLATIONS`` (calls may run on
other threads) and the conftest fails the test that caused it.
"""

from __future__ import annotations

import ctypes
import functools
import json
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional

try:
    import jsonschema
except ImportError as exc:  # pragma: no cover
    raise ImportError("the tests validate every response against include/carfit.schema.json with jsonschema: "
                      "run scripts/ensure-deps test (Debian: apt-get install python3-jsonschema; "
                      "else pip install jsonschema)") from exc

import carfit
import carfit.core as core_module

SCHEMA_PATH = Path(__file__).resolve().parents[3] / "include" / "carfit.schema.json"
SCHEMA: Dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
#: The statuses by value, as generated from the header's macros.
STATUS_NAMES = [carfit.errors.STATUS_NAMES[value] for value in sorted(carfit.errors.STATUS_NAMES)]

VIOLATIONS: List[str] = []
_lock = threading.Lock()


@functools.lru_cache(maxsize=None)
def validator(pointer: str) -> jsonschema.Draft202012Validator:
    """A validator of the schema at ``pointer`` ("#/operations/visits.list/response"), its
    $refs resolved inside the whole document."""
    return jsonschema.Draft202012Validator(dict(SCHEMA, **{"$ref": pointer}))


def problems(pointer: str, instance: Any) -> List[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:300]}"
            for e in validator(pointer).iter_errors(instance)]


def note(what: str, found: List[str]) -> None:
    if found:
        with _lock:
            VIOLATIONS.append(f"{what}: " + "; ".join(found[:5]))


def check_call(method: Optional[str], request: Any, status: int, text: Optional[str]) -> None:
    """Checks one finished call of ``method`` against the schema."""
    operation = SCHEMA["operations"].get(method) if method else None
    if text is None:
        return
    try:
        document = json.loads(text)
    except ValueError as exc:
        note(f"{method}: the response is not JSON", [str(exc)])
        return
    if status == 0:
        if operation is None:
            note(f"{method}: answered ok but the schema has no such operation", [text[:200]])
            return
        note(f"{method} response", problems(f"#/operations/{method}/response", document))
        if isinstance(request, (dict, list)):
            note(f"{method} accepted a request its schema refuses", problems(f"#/operations/{method}/request", request))
        return
    note(f"{method} error document (status {status})", problems("#/error", document))
    name = STATUS_NAMES[status] if 0 <= status < len(STATUS_NAMES) else "unknown"
    code = document.get("error", {}).get("code") if isinstance(document, dict) else None
    if code != name:
        note(f"{method}: status {status} with code {code!r}", [text[:200]])
    if operation is not None and name not in operation["errors"] + ["misuse", "internal"]:
        note(f"{method}: status {name} is not among its errors {operation['errors']}", [text[:200]])


def install() -> None:
    """Wraps the binding's call path once."""
    Core = core_module.Core
    if getattr(Core, "_contract_checked", False):
        return
    original_call = Core._carfit_call
    original_init = Core.__init__
    original_image = Core.image

    @functools.wraps(original_call)
    def _carfit_call(self: Any, method: str, request: Any) -> Any:
        status, response = original_call(self, method, request)
        text = ctypes.string_at(response.value).decode("utf-8", "replace") if response.value else None
        parsed = request
        if status != 0:
            parsed = None  # only accepted requests are checked
        elif isinstance(request, (str, bytes)):
            try:
                parsed = json.loads(request) if request else {}
            except (ValueError, RecursionError):
                parsed = None
        elif request is None:
            parsed = {}
        check_call(method, parsed, status, text)
        return status, response

    @functools.wraps(original_init)
    def __init__(self: Any, config: Any = None, **kwargs: Any) -> None:
        original_init(self, config, **kwargs)
        merged = config
        if isinstance(config, (str, bytes)):
            try:
                merged = json.loads(config) if config else {}
            except (ValueError, RecursionError):
                return
        if kwargs:
            merged = {**(merged or {}), **kwargs}
        note("carfit_open accepted a config the schema refuses", problems("#/config", merged or {}))

    @functools.wraps(original_image)
    def image(self: Any, url: str) -> Any:
        try:
            data, document = original_image(self, url)
        except carfit.CarfitError as error:
            response = getattr(error, "response", None)
            if isinstance(response, dict):
                check_call("images.data", {"url": url}, error.status, json.dumps(response))
            raise
        check_call("images.data", {"url": url}, 0, json.dumps(document))
        return data, document

    Core._carfit_call = _carfit_call  # type: ignore[method-assign]
    Core.__init__ = __init__  # type: ignore[method-assign]
    Core.image = image  # type: ignore[method-assign]
    Core._contract_checked = True  # type: ignore[attr-defined]


def take_violations() -> List[str]:
    with _lock:
        found = list(VIOLATIONS)
        VIOLATIONS.clear()
    return found
