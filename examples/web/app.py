#!/usr/bin/env python3
"""The CarFit reference app in the browser: static pages and a small JSON API over libcarfit.

Usage (from the repository root, after `swift build -c release`):

    python3 examples/web/app.py                          # http://127.0.0.1:8080/
    python3 examples/web/app.py --port 0                 # any free port (printed at start)
    python3 examples/web/app.py --now 2020-09-10T07:00:00Z --time-zone Europe/Copenhagen
    python3 examples/web/app.py --database carfit.sqlite # keep the data in a file

Without --database the app opens a temporary database filled with the bundled sample data
(examples/data); a --database file that does not exist yet starts with the sample too. It also serves those sample files under /sample/ and names them as the core's
visits and articles sources, so the refresh controls work without a network.

The page decides nothing: every rule (days, colours, distances, sums, sorting, the login and the
cart) comes from the core. The server only forwards:

    POST /api/<method>     the request document as the body; answers the core's result, or its
                           error document with the HTTP status of the error's code
    GET  /api/image?url=   the image's bytes through the core's image cache (X-Image-Source says
                           where the core found it: memory, disk or network)
    GET  /sample/<file>    the bundled sample documents
    GET  /, /static/...    the page
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
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
METHODS = frozenset(
    {
        "visits.list",
        "visits.plan",
        "visits.refresh",
        "calendar.get",
        "calendar.next",
        "calendar.previous",
        "calendar.select",
        "calendar.month",
        "articles.list",
        "articles.refresh",
        "articles.format_date",
        "transactions.list",
        "transactions.pin",
        "insights.get",
        "employees.create",
        "employees.list",
        "employees.recover_pin",
        "session.login",
        "session.logout",
        "session.get",
        "catalog.list",
        "catalog.product",
        "cart.add",
        "cart.update",
        "cart.remove",
        "cart.get",
        "cart.checkout",
        "cart.orders",
        "carousel.generate",
        "images.stats",
    }
)

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

#: The sample documents: the file name, the method that imports it.
SAMPLES = (
    ("carfit.json", "visits.import"),
    ("articles.json", "articles.import"),
    ("transactions.json", "transactions.import"),
    ("catalog.json", "catalog.import"),
    ("patterns.json", "patterns.import"),
)


def error_document(code: str, message: str, field: Optional[str] = None) -> Dict[str, Any]:
    """An error document of the core's shape, for refusals the server makes itself."""
    error: Dict[str, Any] = {"code": code, "message": message}
    if field is not None:
        error["field"] = field
    return {"error": error}


class App:
    """The open core and what the handlers need from it."""

    def __init__(self, core: Core) -> None:
        self.core = core

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
        elif path.path.startswith("/sample/"):
            self.sample(path.path[len("/sample/"):])
        elif path.path in ("/", "/index.html"):
            self.static("index.html")
        elif path.path.startswith("/static/"):
            self.static(path.path[len("/static/"):])
        else:
            self.refuse(404, "not_found", "There is no such page.")

    do_HEAD = do_GET

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        if not path.startswith("/api/"):
            self.refuse(404, "not_found", "Only /api/<method> takes POST.")
            return
        body = self.read_body()
        if body is None:
            return
        status, document = self.app.call(path[len("/api/"):], body)
        self.answer_json(status, document)

    def read_body(self) -> Optional[bytes]:
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
        if length > MAX_BODY_BYTES:
            self.refuse(413, "invalid", f"The request is larger than {MAX_BODY_BYTES} bytes.")
            return None
        body = self.rfile.read(length)
        if len(body) != length:
            self.close_connection = True
            return None
        return body

    def sample(self, name: str) -> None:
        if name not in {file for file, _ in SAMPLES}:
            self.refuse(404, "not_found", "There is no such sample document.")
            return
        self.answer(200, "application/json", (SAMPLE_DATA / name).read_bytes())

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
    """The core over database, its sources pointing at this server's sample documents."""
    config: Dict[str, Any] = {
        "database": database,
        "sources": {"visits": f"{base_url}/sample/carfit.json", "articles": f"{base_url}/sample/articles.json"},
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
            server.app = App(core)
            signal.signal(signal.SIGTERM, stop_on_sigterm)
            print(f"CarFit web app on {base_url}/ (Ctrl-C stops it)", flush=True)
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
