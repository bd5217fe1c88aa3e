"""The web app's HTTP API over the core: it forwards the page's calls and decides nothing.

    POST /api/<method>     the request document as the body; answers the core's result, or its
                           error document with the HTTP status of the error's code
    GET  /api/image?url=   the image's bytes through the core's image cache (X-Image-Source says
                           where the core found it: memory, disk or network)
    POST /attach?key=&kind=         the body (a photo, a signature drawn on the page, or a
                           note's text) saved to a temporary file and attached to the visit by
                           the core (visits.attach); answers the attachment
    GET  /attachment/<id>?key=      the core's copy of an attachment of that visit (thumbnails)

Only the methods of methods.json are forwarded (generated from the contract by
scripts/gen-schema: every method but the host's imports, a host file attached, the change feed
and the image prefetches); others answer 404 before they reach the core.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import SplitResult, parse_qs, urlsplit

from carfit import CarfitError, Core

HERE = Path(__file__).resolve().parent

#: The operations the page may call; everything else is refused before it reaches the core.
METHODS = frozenset(json.loads((HERE / "methods.json").read_text(encoding="utf-8"))["methods"])

#: The HTTP status answered for each error code of the core (every status of the header has one:
#: Tests/web/test_app_modules.py).
HTTP_STATUS = {
    "bad_json": 400,
    "invalid": 400,
    "misuse": 400,
    "not_found": 404,
    "conflict": 409,
    "unauthorized": 401,
    "unavailable": 503,
    "storage": 500,
    "internal": 500,
}

#: The largest attachment the page may send (the core's own limit, attachments.maxBytes).
MAX_ATTACHMENT_BYTES = 20 << 20


def error_document(code: str, message: str, field: Optional[str] = None) -> Dict[str, Any]:
    """An error document of the core's shape, for refusals the server makes itself."""
    error: Dict[str, Any] = {"code": code, "message": message}
    if field is not None:
        error["field"] = field
    return {"error": error}


def json_bytes(document: Any) -> bytes:
    return json.dumps(document, ensure_ascii=False).encode("utf-8")


class CoreAPI:
    """The open core behind /api/, /attach and /attachment/. Its routes take the request being
    answered (web_server.Handler: answer, answer_json, refuse, read_body)."""

    def __init__(self, core: Core) -> None:
        self.core = core

    # -- routes ---------------------------------------------------------------------------

    def get(self, request: Any, url: SplitResult) -> None:
        """GET /api/image?url=, /attachment/<id>?key=; other /api/ paths take POST only."""
        if url.path.startswith("/attachment/"):
            self.attachment(request, url.path[len("/attachment/"):], parse_qs(url.query).get("key", [""])[0])
        elif url.path == "/api/image":
            urls = parse_qs(url.query).get("url", [])
            if len(urls) != 1:
                request.refuse(400, "invalid", "Name one image with ?url=.", "url")
                return
            if "/api/" in urlsplit(urls[0]).path:
                # An image of this server's API would have the core call back into it, nested
                # as deep as the URL goes; the API serves no images of its own.
                request.refuse(400, "invalid", "An image URL may not point at an API.", "url")
                return
            status, content_type, body, source = self.image(urls[0])
            request.answer(status, content_type, body, "max-age=3600" if status == 200 else "no-store",
                           {"X-Image-Source": source} if source else None)
        else:
            request.refuse(405, "misuse", "API methods are called with POST.", "method")

    def post(self, request: Any, url: SplitResult) -> None:
        """POST /api/<method> and /attach?key=&kind=."""
        if url.path == "/attach":
            self.attach(request, parse_qs(url.query))
            return
        body = request.read_body()
        if body is not None:
            request.answer_json(*self.call(url.path[len("/api/"):], body))

    # -- the core -------------------------------------------------------------------------

    def call(self, method: str, body: bytes) -> Tuple[int, Dict[str, Any]]:
        """Run an allowed method with the body as its request: (HTTP status, document)."""
        if method not in METHODS:
            return 404, error_document("not_found", f"There is no method {method!r} here.", "method")
        if b"\x00" in body:
            # The C API reads NUL-terminated text: a NUL would silently cut the request short.
            return 400, error_document("bad_json", "The request contains a NUL byte.")
        try:
            return 200, self.core.call(method, body)
        except CarfitError as exc:
            return HTTP_STATUS.get(exc.code, 500), exc.response
        except Exception as exc:  # the server must answer whatever happens
            return 500, error_document("internal", f"{type(exc).__name__}: {exc}")

    def image(self, url: str) -> Tuple[int, str, bytes, str]:
        """The image at url through the core's cache: (HTTP status, content type, body, and
        where the core found it: memory, disk or network; empty on failure)."""
        try:
            data, info = self.core.image(url)
            content_type = str(info.get("contentType") or "application/octet-stream")
            return 200, content_type, data, str(info.get("source") or "")
        except CarfitError as exc:
            return HTTP_STATUS.get(exc.code, 500), "application/json", json_bytes(exc.response), ""
        except Exception as exc:
            document = error_document("internal", f"{type(exc).__name__}: {exc}")
            return 500, "application/json", json_bytes(document), ""

    def attach(self, request: Any, query: Dict[str, List[str]]) -> None:
        """POST /attach?key=&kind=: the body to a temporary file the core copies (visits.attach)."""
        key, kind = query.get("key", [""])[0], query.get("kind", [""])[0]
        body = request.read_body(MAX_ATTACHMENT_BYTES)
        if body is None:
            return
        handle, path = tempfile.mkstemp(prefix="carfit-web-attach-")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(body)
            request.answer_json(200, self.core.attach(key, kind, file=path))
        except CarfitError as exc:
            request.answer_json(HTTP_STATUS.get(exc.code, 500), exc.response)
        finally:
            os.unlink(path)  # the core keeps its own copy

    def attachment(self, request: Any, identifier: str, key: str) -> None:
        """The core's copy of attachment `identifier` of the visit `key`: only files the core
        lists are read."""
        try:
            listed = self.core.attachments(key)["attachments"]
        except CarfitError as exc:
            request.answer_json(HTTP_STATUS.get(exc.code, 500), exc.response)
            return
        found = next((a for a in listed if a["id"] == identifier), None)
        if found is None or not found.get("path"):
            request.refuse(404, "not_found", "There is no such attachment on this device.")
            return
        try:
            data = Path(found["path"]).read_bytes()
        except OSError:
            request.refuse(404, "not_found", "The attachment's copy is gone.")
            return
        # An SVG signature is shown as an image; opened directly it may run nothing.
        request.answer(200, found["contentType"], data, "private, max-age=3600",
                       {"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox"})
