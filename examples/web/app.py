#!/usr/bin/env python3
"""The CarFit reference app in the browser: static pages and a small JSON API over libcarfit.

Usage (from the repository root, after `swift build -c release`):

    python3 examples/web/app.py                          # http://127.0.0.1:8080/
    python3 examples/web/app.py --port 0                 # any free port (printed at start)
    python3 examples/web/app.py --now 2020-09-10T07:00:00Z --time-zone Europe/Copenhagen
    python3 examples/web/app.py --database carfit.sqlite # keep the data in a file

Without --database the app opens a temporary database filled with the bundled sample data
(examples/data); a --database file that does not exist yet starts with the sample too. It also
serves stand-ins for every source under /sample/ and names them in the core's config (visits,
articles, catalog, patterns and the update server of the washer's changes), so the refresh and
sync controls work without a network; `--offline` (or POST /sample/network) makes them
unreachable, as a lost connection does, to show the offline banner and the pending changes.
The sample update server is the planner's back end: it takes the washer's changes only with
`Authorization: Bearer <token>` (the token of --planner-token, printed at start) and answers
401 without it, so the page's sign-in (auth.set) and the "sign in" banner can be seen; the
other sample sources are public.

The page decides nothing: every rule (days, colours, distances, sums, sorting, the login and the
cart) comes from the core. The server only forwards:

    POST /api/<method>     the request document as the body; answers the core's result, or its
                           error document with the HTTP status of the error's code
    GET  /api/image?url=   the image's bytes through the core's image cache (X-Image-Source says
                           where the core found it: memory, disk or network)
    POST /attach?key=&kind=         the body (a photo, a signature drawn on the page, or a
                           note's text) saved to a temporary file and attached to the visit by
                           the core (visits.attach); answers the attachment
    GET  /attachment/<id>?key=      the core's copy of an attachment of that visit (thumbnails)
    GET  /sample/<file>    the bundled sample documents: the core's sources (see SampleSources)
    POST /sample/visit-updates      the update server the core pushes the washer's changes to
                           (401 without the planner's token)
    POST /sample/locations          the planner the core pushes the washer's positions to
                           (401 without the planner's token)
    GET  /sample/drive.json         a recorded drive through the sample day ("simulate the drive")
    PUT  /sample/attachments/<id>   the upload server the push sends attachments to (checks
                           each body's X-Carfit-Sha256; a PUT of a stored id is the same upload)
    GET  /sample/patterns/random    one new pattern a call (its image at /sample/patterns/<n>.png)
    GET|POST /sample/network        {"offline": bool}: read or set whether the sample sources
                           are reachable (--offline starts them unreachable)
    GET  /, /static/...    the page
"""

from __future__ import annotations

import argparse
import colorsys
import datetime as _dt
import hashlib
import json
import mimetypes
import os
import shutil
import signal
import socket
import struct
import sys
import tempfile
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
SAMPLE_DATA = HERE.parent / "data"
BINDING = HERE.parent.parent / "bindings" / "python"

try:
    import carfit  # noqa: F401  (an installed binding wins)
except ImportError:
    sys.path.insert(0, str(BINDING))

from carfit import CarfitError, Core, load_library  # noqa: E402

#: The operations the page may call; everything else is refused before it reaches the core.
#: methods.json is generated from the contract (scripts/gen-schema): every method but the host's
#: imports, a host file attached, the change feed and the image prefetches.
METHODS = frozenset(json.loads((HERE / "methods.json").read_text(encoding="utf-8"))["methods"])

#: The HTTP status answered for each error code of the core.
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

#: The largest request body read; a larger one is refused unread.
MAX_BODY_BYTES = 1 << 20
#: The largest attachment the page may send (the core's own limit, attachments.maxBytes).
MAX_ATTACHMENT_BYTES = 20 << 20

#: The sample documents: the file name, the method that imports it.
SAMPLES = (
    ("carfit.json", "visits.import"),
    ("articles.json", "articles.import"),
    ("transactions.json", "transactions.import"),
    ("catalog.json", "catalog.import"),
    ("patterns.json", "patterns.import"),
)


#: The states a washer's change may ask for.
STATES = ("Todo", "InProgress", "Done", "Rejected")

#: The side of a generated pattern image, in pixels.
PATTERN_SIZE = 48

#: The most patterns /sample/patterns/random hands out (their numbers stay small).
MAX_PATTERNS = 100_000

#: The token the sample update server wants when --planner-token names none.
SAMPLE_PLANNER_TOKEN = "carfit-sample-token"


def error_document(code: str, message: str, field: Optional[str] = None) -> Dict[str, Any]:
    """An error document of the core's shape, for refusals the server makes itself."""
    error: Dict[str, Any] = {"code": code, "message": message}
    if field is not None:
        error["field"] = field
    return {"error": error}


def _instant(text: Any) -> Optional[_dt.datetime]:
    """An ISO 8601 instant (no zone: UTC), or None when text is not one."""
    if not isinstance(text, str) or not 10 <= len(text) <= 64:
        return None
    try:
        value = _dt.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    except ValueError:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=_dt.timezone.utc)


def pattern_colors(number: int) -> Tuple[str, str]:
    """The two colours of generated pattern number, as six hex digits each."""
    hue = (number * 0.618033988749895) % 1.0

    def hex_color(saturation: float, value: float) -> str:
        return "".join(f"{round(c * 255):02X}" for c in colorsys.hsv_to_rgb(hue, saturation, value))

    return hex_color(0.55, 0.9), hex_color(0.6, 0.55)


def pattern_png(number: int) -> bytes:
    """A small striped PNG in pattern number's colours (made here: the sample needs no network)."""
    light, dark = (bytes.fromhex(color) for color in pattern_colors(number))
    width = 4 + number % 5
    rows = []
    for y in range(PATTERN_SIZE):
        row = bytearray(b"\x00")  # filter type 0 for the row
        for x in range(PATTERN_SIZE):
            row += light if ((x + y) // width) % 2 == 0 else dark
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", PATTERN_SIZE, PATTERN_SIZE, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows)))
            + chunk(b"IEND", b""))


class SampleSources:
    """The app's own stand-ins for the servers the core's sources name, under /sample/.

    - the visits snapshot (carfit.json) as the update server's changes left it;
    - the update server of the washer's changes (POST /sample/visit-updates), the planner's
      back end: a request without "Authorization: Bearer <token>" (the planner's token) is
      answered 401 and changes nothing; otherwise each mutationId is
      applied once, to every record of its visit (visitId and startTimeUtc as an instant); one
      seen before gets its first answer again and changes nothing; a visit the snapshot does
      not have is rejected;
    - the planner's positions (POST /sample/locations): each point id is applied once; one seen
      before is named applied again and changes nothing;
    - a pattern source that answers one new pattern a call, as colourlovers' patterns/random
      does, with an image this server draws;
    - whether all of it is reachable: offline, every request is reset unanswered, as a lost
      connection does (the core counts that as no connection; an HTTP error status it does not).
    """

    def __init__(self, offline: bool = False, token: str = SAMPLE_PLANNER_TOKEN) -> None:
        self.lock = threading.Lock()
        self.offline = offline
        #: The planner's token the update server wants.
        self.token = token
        self.visits: Dict[str, Any] = json.loads((SAMPLE_DATA / "carfit.json").read_bytes())
        #: mutationId -> its first answer: None when applied, else the reason it was rejected.
        self.answers: Dict[str, Optional[str]] = {}
        #: The mutations applied, in order.
        self.applied: List[Dict[str, Any]] = []
        #: How many times a mutation came again after its first answer.
        self.resent = 0
        self.patterns_served = 0
        #: The positions applied, by point id, in order.
        self.points: Dict[str, Dict[str, Any]] = {}
        #: Attachment id -> {"bytes", "sha256", "kind", "puts"} of every upload received whole.
        self.uploads: Dict[str, Dict[str, Any]] = {}

    def upload(self, identifier: str, body: bytes, headers: Any) -> Tuple[int, Dict[str, Any]]:
        """One attachment PUT: 201 stored, 200 the same upload again, 422 a body whose SHA-256
        is not its X-Carfit-Sha256 (nothing stored)."""
        digest = hashlib.sha256(body).hexdigest()
        if digest != headers.get("X-Carfit-Sha256"):
            return 422, error_document("invalid", "The body's SHA-256 is not X-Carfit-Sha256.", "X-Carfit-Sha256")
        with self.lock:
            known = self.uploads.get(identifier)
            if known is None:
                self.uploads[identifier] = {"bytes": len(body), "sha256": digest,
                                            "kind": headers.get("X-Carfit-Kind"), "puts": 1}
                return 201, {"stored": identifier}
            known["puts"] += 1
            return 200, {"stored": identifier}

    def visits_document(self) -> bytes:
        with self.lock:
            return _json_bytes(self.visits)

    def state(self) -> Dict[str, Any]:
        """What the update server has seen: the applied mutations in order, and resends."""
        with self.lock:
            return {"offline": self.offline, "applied": list(self.applied), "resent": self.resent,
                    "uploads": {k: dict(v) for k, v in self.uploads.items()}}

    def push(self, body: bytes, authorization: Optional[str] = None) -> Tuple[int, Dict[str, Any]]:
        """One request of the push protocol: (HTTP status, answer); 401 without the token."""
        if authorization != f"Bearer {self.token}":
            return 401, error_document("unauthorized", "Sign in to the planner: the token is missing or wrong.")
        try:
            document = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return 400, error_document("bad_json", "The request is not JSON.")
        mutations = document.get("mutations") if isinstance(document, dict) else None
        if not isinstance(mutations, list) or not all(
                isinstance(m, dict) and isinstance(m.get("mutationId"), str) for m in mutations):
            return 400, error_document("invalid", "Send {\"mutations\": [{\"mutationId\", ...}]}.", "mutations")
        applied: List[str] = []
        rejected: List[Dict[str, str]] = []
        with self.lock:
            for mutation in mutations:
                identifier = mutation["mutationId"]
                if identifier in self.answers:
                    self.resent += 1
                    reason = self.answers[identifier]
                else:
                    reason = self._apply(mutation)
                    self.answers[identifier] = reason
                if reason is None:
                    applied.append(identifier)
                else:
                    rejected.append({"mutationId": identifier, "reason": reason})
        return 200, {"applied": applied, "rejected": rejected}

    def push_points(self, body: bytes, authorization: Optional[str] = None) -> Tuple[int, Dict[str, Any]]:
        """One request of positions, {"clientId", "points": [{"id", ...}]}: (HTTP status, answer);
        401 without the token."""
        if authorization != f"Bearer {self.token}":
            return 401, error_document("unauthorized", "Sign in to the planner: the token is missing or wrong.")
        try:
            document = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return 400, error_document("bad_json", "The request is not JSON.")
        points = document.get("points") if isinstance(document, dict) else None
        if not isinstance(points, list) or not all(isinstance(p, dict) and isinstance(p.get("id"), str) for p in points):
            return 400, error_document("invalid", "Send {\"points\": [{\"id\", ...}]}.", "points")
        with self.lock:
            for point in points:
                self.points.setdefault(point["id"], point)
        return 200, {"applied": [point["id"] for point in points]}

    def _apply(self, mutation: Dict[str, Any]) -> Optional[str]:
        """Apply one new mutation to the snapshot: None, or why it was rejected."""
        state, start = mutation.get("state"), _instant(mutation.get("startTimeUtc"))
        if state not in STATES:
            return "The state is not Todo, InProgress, Done or Rejected."
        if not isinstance(mutation.get("visitId"), str) or start is None:
            return "The visit is not named by visitId and startTimeUtc."
        records = [record for record in self.visits.get("data") or []
                   if isinstance(record, dict) and record.get("visitId") == mutation["visitId"]
                   and _instant(record.get("startTimeUtc")) == start]
        if not records:
            return "There is no such visit."
        for record in records:
            record["visitState"] = state
            minutes = mutation.get("timeUsedMinutes")
            if state == "Done" and isinstance(minutes, int) and not isinstance(minutes, bool):
                record["visitTimeUsed"] = minutes
        self.applied.append(mutation)
        return None

    def next_pattern(self, base_url: str) -> Optional[bytes]:
        """The next pattern, as a patterns/random answer; None once MAX_PATTERNS are out."""
        with self.lock:
            if self.patterns_served >= MAX_PATTERNS:
                return None
            self.patterns_served += 1
            number = self.patterns_served
        return _json_bytes([{
            "id": number,
            "title": f"Sample pattern {number}",
            "colors": list(pattern_colors(number)),
            "imageUrl": f"{base_url}/sample/patterns/{number}.png",
        }])


class App:
    """The open core, the sample sources, and what the handlers need from them."""

    def __init__(self, core: Core, sources: SampleSources, base_url: str) -> None:
        self.core = core
        self.sources = sources
        self.base_url = base_url

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
            return HTTP_STATUS.get(exc.code, 500), "application/json", _json_bytes(exc.response), ""
        except Exception as exc:
            document = error_document("internal", f"{type(exc).__name__}: {exc}")
            return 500, "application/json", _json_bytes(document), ""


def _json_bytes(document: Any) -> bytes:
    return json.dumps(document, ensure_ascii=False).encode("utf-8")


class Handler(BaseHTTPRequestHandler):
    """One request: the API, an image, a sample document or a static file."""

    server_version = "CarFitWeb/1.0"
    protocol_version = "HTTP/1.1"
    #: A client that stops sending does not hold a thread for ever.
    timeout = 30

    @property
    def app(self) -> App:
        return self.server.app  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(format, *args)

    # -- answers ------------------------------------------------------------------------------

    def answer(self, status: int, content_type: str, body: bytes, cache: str = "no-store",
               extra: Optional[Dict[str, str]] = None) -> None:
        self.send_response(status)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def answer_json(self, status: int, document: Any) -> None:
        self.answer(status, "application/json; charset=utf-8", _json_bytes(document))

    def refuse(self, status: int, code: str, message: str, field: Optional[str] = None) -> None:
        """An error document, after which the connection closes (the body may be unread)."""
        self.close_connection = True
        self.answer_json(status, error_document(code, message, field))

    # -- routes -------------------------------------------------------------------------------

    def do_GET(self) -> None:
        if (self.headers.get("Content-Length") or "0") != "0" or self.headers.get("Transfer-Encoding"):
            self.close_connection = True  # a body is not read here: no next request follows it
        path = urlsplit(self.path)
        if path.path == "/api/image":
            urls = parse_qs(path.query).get("url", [])
            if len(urls) != 1:
                self.refuse(400, "invalid", "Name one image with ?url=.", "url")
                return
            if "/api/" in urlsplit(urls[0]).path:
                # An image of this server's API would have the core call back into it, nested
                # as deep as the URL goes; the API serves no images of its own.
                self.refuse(400, "invalid", "An image URL may not point at an API.", "url")
                return
            status, content_type, body, source = self.app.image(urls[0])
            self.answer(status, content_type, body, "max-age=3600" if status == 200 else "no-store",
                        {"X-Image-Source": source} if source else None)
        elif path.path.startswith("/api/"):
            self.refuse(405, "misuse", "API methods are called with POST.", "method")
        elif path.path.startswith("/attachment/"):
            self.attachment(path.path[len("/attachment/"):], parse_qs(path.query).get("key", [""])[0])
        elif path.path.startswith("/sample/"):
            self.sample("GET", path.path[len("/sample/"):])
        elif path.path in ("/", "/index.html"):
            self.static("index.html")
        elif path.path.startswith("/static/"):
            self.static(path.path[len("/static/"):])
        else:
            self.refuse(404, "not_found", "There is no such page.")

    do_HEAD = do_GET

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        if path.startswith("/sample/"):
            self.sample("POST", path[len("/sample/"):])
            return
        if path == "/attach":
            self.attach(parse_qs(urlsplit(self.path).query))
            return
        if not path.startswith("/api/"):
            self.refuse(404, "not_found", "Only /api/<method> takes POST.")
            return
        body = self.read_body()
        if body is None:
            return
        status, document = self.app.call(path[len("/api/"):], body)
        self.answer_json(status, document)

    def do_PUT(self) -> None:
        path = urlsplit(self.path).path
        prefix = "/sample/attachments/"
        if not path.startswith(prefix) or "/" in path[len(prefix):] or not path[len(prefix):]:
            self.refuse(405, "misuse", "Only /sample/attachments/<id> takes PUT.")
            return
        if self.app.sources.offline:
            self.drop_connection()
            return
        body = self.read_body(MAX_ATTACHMENT_BYTES)
        if body is not None:
            self.answer_json(*self.app.sources.upload(path[len(prefix):], body, self.headers))

    def attach(self, query: Dict[str, List[str]]) -> None:
        """POST /attach?key=&kind=: the body to a temporary file the core copies (visits.attach)."""
        key, kind = query.get("key", [""])[0], query.get("kind", [""])[0]
        body = self.read_body(MAX_ATTACHMENT_BYTES)
        if body is None:
            return
        handle, path = tempfile.mkstemp(prefix="carfit-web-attach-")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(body)
            self.answer_json(200, self.app.core.attach(key, kind, file=path))
        except CarfitError as exc:
            self.answer_json(HTTP_STATUS.get(exc.code, 500), exc.response)
        finally:
            os.unlink(path)  # the core keeps its own copy

    def attachment(self, identifier: str, key: str) -> None:
        """The core's copy of attachment `identifier` of the visit `key`: only files the core
        lists are read."""
        try:
            listed = self.app.core.attachments(key)["attachments"]
        except CarfitError as exc:
            self.answer_json(HTTP_STATUS.get(exc.code, 500), exc.response)
            return
        found = next((a for a in listed if a["id"] == identifier), None)
        if found is None or not found.get("path"):
            self.refuse(404, "not_found", "There is no such attachment on this device.")
            return
        try:
            data = Path(found["path"]).read_bytes()
        except OSError:
            self.refuse(404, "not_found", "The attachment's copy is gone.")
            return
        # An SVG signature is shown as an image; opened directly it may run nothing.
        self.answer(200, found["contentType"], data, "private, max-age=3600",
                    {"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox"})

    def read_body(self, limit: int = MAX_BODY_BYTES) -> Optional[bytes]:
        """The request body, or None once a refusal has been answered."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            self.refuse(411, "invalid", "Send the request with a Content-Length.")
            return None
        text = self.headers.get("Content-Length") or "0"
        try:
            length = int(text)
        except ValueError:
            self.refuse(400, "invalid", "The Content-Length is not a number.")
            return None
        if length < 0:
            self.refuse(400, "invalid", "The Content-Length is negative.")
            return None
        if length > limit:
            self.refuse(413, "invalid", f"The request is larger than {limit} bytes.")
            return None
        body = self.rfile.read(length)
        if len(body) != length:
            self.close_connection = True
            return None
        return body

    def sample(self, method: str, name: str) -> None:
        """The sample sources: the network switch always answers; the rest only online."""
        sources = self.app.sources
        if name == "network":
            self.network(method)
            return
        if sources.offline:
            self.drop_connection()
            return
        if method == "POST":
            if name not in ("visit-updates", "locations"):
                self.refuse(405, "misuse", "Only /sample/visit-updates, /sample/locations and /sample/network take POST.")
                return
            body = self.read_body()
            if body is not None:
                authorization = self.headers.get("Authorization")
                status, document = (sources.push(body, authorization) if name == "visit-updates"
                                    else sources.push_points(body, authorization))
                self.answer(status, "application/json; charset=utf-8", _json_bytes(document),
                            extra={"WWW-Authenticate": "Bearer"} if status == 401 else None)
        elif name == "locations":
            with sources.lock:
                self.answer_json(200, {"points": list(sources.points.values())})
        elif name == "visit-updates":
            self.answer_json(200, sources.state())
        elif name == "carfit.json":
            self.answer(200, "application/json", sources.visits_document())
        elif name == "patterns/random":
            pattern = sources.next_pattern(self.app.base_url)
            if pattern is None:
                self.refuse(404, "not_found", "Every sample pattern has been handed out.")
            else:
                self.answer(200, "application/json", pattern)
        elif (number := _pattern_number(name)) is not None:
            self.answer(200, "image/png", pattern_png(number), "max-age=3600")
        elif name == "drive.json":
            self.answer(200, "application/json", (SAMPLE_DATA / name).read_bytes())
        elif name in {file for file, _ in SAMPLES}:
            self.answer(200, "application/json", (SAMPLE_DATA / name).read_bytes())
        else:
            self.refuse(404, "not_found", "There is no such sample document.")

    def network(self, method: str) -> None:
        """GET: {"offline": bool}; POST {"offline": bool}: set it."""
        sources = self.app.sources
        if method == "POST":
            body = self.read_body()
            if body is None:
                return
            try:
                document = json.loads(body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                self.refuse(400, "bad_json", "The request is not JSON.")
                return
            offline = document.get("offline") if isinstance(document, dict) else None
            if not isinstance(offline, bool):
                self.refuse(400, "invalid", "Send {\"offline\": true} or {\"offline\": false}.", "offline")
                return
            with sources.lock:
                sources.offline = offline
        self.answer_json(200, {"offline": sources.offline})

    def drop_connection(self) -> None:
        """Reset the connection without an answer, as a lost network does: the core sees a
        connection failure (no connection), not an HTTP error status."""
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            os.close(self.connection.detach())  # closed now, with a reset rather than a FIN
        except OSError:
            pass

    def static(self, name: str) -> None:
        root = STATIC.resolve()
        target = (root / name).resolve()
        if root not in target.parents or not target.is_file():
            self.refuse(404, "not_found", "There is no such file.")
            return
        content_type = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if content_type.startswith("text/") or content_type.endswith("javascript"):
            content_type += "; charset=utf-8"
        self.answer(200, content_type, target.read_bytes())


def _pattern_number(name: str) -> Optional[int]:
    """The number of a generated pattern image "patterns/<n>.png", or None."""
    prefix, suffix = "patterns/", ".png"
    if not (name.startswith(prefix) and name.endswith(suffix)):
        return None
    digits = name[len(prefix):-len(suffix)]
    if not digits.isascii() or not digits.isdigit() or len(digits) > 6 or digits.startswith("0"):
        return None
    number = int(digits)
    return number if 1 <= number <= MAX_PATTERNS else None


class Server(ThreadingHTTPServer):
    """The HTTP server; request threads do not keep the process alive."""

    daemon_threads = True
    app: App
    verbose: bool = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that went away mid-answer is not the server's fault; keep serving quietly.
        if self.verbose:
            super().handle_error(request, client_address)


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Serve the CarFit reference app over libcarfit.")
    p.add_argument("--port", type=int, default=8080, help="port to listen on, 0 for any (%(default)s)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (%(default)s)")
    p.add_argument("--now", help="fixed instant for the core's clock (default: the system clock)")
    p.add_argument("--time-zone", help="IANA zone of local days and times (default: the core's, UTC)")
    p.add_argument("--database", help="SQLite file to keep the data in; a file that does not exist yet is "
                   "created with the sample data (default: a temporary database with the sample data)")
    p.add_argument("--offline", action="store_true", help="start with the sample sources unreachable "
                   "(POST /sample/network {\"offline\": false} brings them back)")
    p.add_argument("--planner-token", default=SAMPLE_PLANNER_TOKEN,
                   help="the token the sample update server wants (%(default)s); sign in with it on the page")
    p.add_argument("--verbose", action="store_true", help="log every request")
    return p.parse_args(argv)


def library_present() -> bool:
    """Whether the binding finds and loads libcarfit (CARFIT_LIBRARY, the build folder, or the
    system's library)."""
    try:
        load_library()
    except OSError:
        return False
    return True


def stop_on_sigterm(signum: int, frame: Any) -> None:
    """SIGTERM stops the app as Ctrl-C does, so the temporary database is removed."""
    raise KeyboardInterrupt


def open_core(args: argparse.Namespace, base_url: str, database: str) -> Core:
    """The core over database, its sources pointing at this server's sample sources."""
    config: Dict[str, Any] = {
        "database": database,
        "sources": {
            "visits": f"{base_url}/sample/carfit.json",
            "articles": f"{base_url}/sample/articles.json",
            "catalog": f"{base_url}/sample/catalog.json",
            "patterns": f"{base_url}/sample/patterns/random",
            "visitUpdates": f"{base_url}/sample/visit-updates",
            "locations": f"{base_url}/sample/locations",
            "attachments": f"{base_url}/sample/attachments",
        },
        "http": {"timeoutMs": 5000},
    }
    if args.now:
        config["now"] = args.now
    if args.time_zone:
        config["timeZone"] = args.time_zone
    return Core(config)


def fill_with_samples(core: Core) -> None:
    """Import every bundled sample document."""
    for name, method in SAMPLES:
        core.call(method, (SAMPLE_DATA / name).read_bytes())


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    if not library_present():
        print("build the library first: swift build -c release", file=sys.stderr)
        return 2
    if ":" in args.host:
        Server.address_family = socket.AF_INET6
    try:
        server = Server((args.host, args.port), Handler)
    except OSError as exc:
        print(f"cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    server.verbose = args.verbose
    host, port = server.server_address[:2]
    base_url = f"http://{'[' + host + ']' if ':' in str(host) else host}:{port}"

    scratch = None if args.database else tempfile.mkdtemp(prefix="carfit-web-")
    try:
        database = args.database or os.path.join(scratch, "carfit.sqlite")  # type: ignore[arg-type]
        fresh = not os.path.exists(database)
        try:
            core = open_core(args, base_url, database)
        except CarfitError as exc:
            print(f"cannot open the core: {exc}", file=sys.stderr)
            server.server_close()
            return 1
        with core:
            if fresh:
                fill_with_samples(core)
            server.app = App(core, SampleSources(offline=args.offline, token=args.planner_token), base_url)
            signal.signal(signal.SIGTERM, stop_on_sigterm)
            print(f"CarFit web app on {base_url}/ (Ctrl-C stops it)", flush=True)
            print(f"The sample planner's token (sign in with it to send changes): {args.planner_token}", flush=True)
            thread = threading.Thread(target=server.serve_forever, name="carfit-web", daemon=True)
            thread.start()
            try:
                thread.join()
            except KeyboardInterrupt:
                pass
            finally:
                server.shutdown()
                server.server_close()
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
