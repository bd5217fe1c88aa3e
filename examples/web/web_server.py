"""The web app's HTTP server: it reads each request, hands it to the part that owns its path,
and writes the answers.

    /api/..., /attach, /attachment/...    the API over the core (core_api.CoreAPI)
    /app/settings                         the app's language, currency and planner (the same)
    /sample/...                           the sample sources (sample_sources.SampleSources)
    /, /static/...                        the page (static_files)

Bodies are read by their Content-Length only (a chunked body is refused with 411, a larger one
than the route takes with 413, unread); a refusal closes the connection.
"""

from __future__ import annotations

import os
import socket
import struct
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Optional
from urllib.parse import urlsplit

import static_files
from core_api import CoreAPI, error_document, json_bytes
from sample_sources import SampleSources

#: The largest request body read unless a route takes more; a larger one is refused unread.
MAX_BODY_BYTES = 1 << 20


class Server(ThreadingHTTPServer):
    """The HTTP server; request threads do not keep the process alive."""

    daemon_threads = True
    verbose: bool = False
    api: CoreAPI
    samples: SampleSources

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that went away mid-answer is not the server's fault; keep serving quietly.
        if self.verbose:
            super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    """One request: the API, an image, a sample document or a static file."""

    server: Server  # type: ignore[assignment]
    server_version = "CarFitWeb/1.0"
    protocol_version = "HTTP/1.1"
    #: A client that stops sending does not hold a thread for ever.
    timeout = 30

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        if self.server.verbose:
            super().log_message(format, *args)

    # -- routes -------------------------------------------------------------------------------

    def do_GET(self) -> None:
        if (self.headers.get("Content-Length") or "0") != "0" or self.headers.get("Transfer-Encoding"):
            self.close_connection = True  # a body is not read here: no next request follows it
        url = urlsplit(self.path)
        if url.path.startswith(("/api/", "/attachment/")):
            self.server.api.get(self, url)
        elif url.path.startswith("/sample/"):
            self.server.samples.get(self, url.path[len("/sample/"):])
        elif url.path.startswith("/app/"):
            self.server.api.app(self, "GET", url.path)
        elif url.path in ("/", "/index.html"):
            static_files.serve(self, "index.html")
        elif url.path.startswith("/static/"):
            static_files.serve(self, url.path[len("/static/"):])
        else:
            self.refuse(404, "not_found", "There is no such page.")

    do_HEAD = do_GET

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        if url.path.startswith("/sample/"):
            self.server.samples.post(self, url.path[len("/sample/"):])
        elif url.path == "/attach" or url.path.startswith("/api/"):
            self.server.api.post(self, url)
        elif url.path.startswith("/app/"):
            self.server.api.app(self, "POST", url.path)
        else:
            self.refuse(404, "not_found", "Only /api/<method> takes POST.")

    def do_PUT(self) -> None:
        path = urlsplit(self.path).path
        if path.startswith("/sample/"):
            self.server.samples.put(self, path[len("/sample/"):])
        else:
            self.refuse(405, "misuse", "Only /sample/attachments/<id> takes PUT.")

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

    def answer_json(self, status: int, document: Any, extra: Optional[Dict[str, str]] = None) -> None:
        self.answer(status, "application/json; charset=utf-8", json_bytes(document), extra=extra)

    def refuse(self, status: int, code: str, message: str, field: Optional[str] = None) -> None:
        """An error document, after which the connection closes (the body may be unread)."""
        self.close_connection = True
        self.answer_json(status, error_document(code, message, field))

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

    def drop_connection(self) -> None:
        """Reset the connection without an answer, as a lost network does: the core sees a
        connection failure (no connection), not an HTTP error status."""
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            os.close(self.connection.detach())  # closed now, with a reset rather than a FIN
        except OSError:
            pass

