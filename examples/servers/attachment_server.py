"""The reference upload server for attachments: what `carfit_sync_push` PUTs photos, signatures
and notes to, in the tests, the benchmarks and (its `Uploads`, behind the web app's own HTTP
server) the web app's sample planner.

    server = AttachmentServer().start()
    ... server.url("/attachments") ...      # the config's sources.attachments
    server.stop()

``PUT <base>/<id>`` reads the body by its ``Content-Length`` (a chunked body is refused with
411), checks that its SHA-256 is the ``X-Carfit-Sha256`` header (else 422, nothing stored) and
stores it under the id: a PUT of an id already held is the same upload (idempotent, 200 again).
It answers 201 for a new id; both answers are ``{"stored": id}``. ``GET <base>/<id>`` answers the
stored bytes. State for tests:
``server.stored`` (id -> {"bytes", "sha256", "headers"}), ``server.puts`` (id -> how many PUTs
arrived whole), ``server.requests`` (every PUT's id, declared length and outcome).

Faults, armed with ``server.arm(kind, count=1, **options)``, each for the next ``count`` PUTs:
``"fail"`` (answer ``status``, default 500, without storing), ``"drop"`` (store, then close the
connection without an answer), ``"cut"`` (read half the body, then close the connection),
``"slow"`` (read the body ``chunk`` bytes at a time with ``ms`` between chunks, then store).
Standard library only.
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple


class Uploads:
    """The uploads received whole, by attachment id, and the answer to each PUT."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        #: id -> {"bytes", "sha256", "headers" (lower-case names)} of the last upload received whole.
        self.stored: Dict[str, Dict[str, Any]] = {}
        #: id -> the body (while keep_bodies).
        self.bodies: Dict[str, bytes] = {}
        #: id -> how many PUTs arrived whole.
        self.puts: Dict[str, int] = {}
        self.keep_bodies = True

    def receive(self, ident: str, length: int, sha256: str, headers: Any,
                body: Optional[bytes] = None) -> Tuple[int, bytes]:
        """A PUT whose body (`length` bytes, SHA-256 `sha256`, hex) arrived whole: (HTTP status,
        JSON answer). 422 when `sha256` is not its X-Carfit-Sha256 header (nothing stored); 201
        stored; 200 for an id already held (the same upload again)."""
        if sha256 != headers.get("X-Carfit-Sha256"):
            error = {"code": "invalid", "message": "The body's SHA-256 is not X-Carfit-Sha256.",
                     "field": "X-Carfit-Sha256"}
            return 422, json.dumps({"error": error}).encode()
        with self.lock:
            again = ident in self.stored
            self.stored[ident] = {"bytes": length, "sha256": sha256,
                                  "headers": {k.lower(): v for k, v in headers.items()}}
            if body is not None and self.keep_bodies:
                self.bodies[ident] = body
            self.puts[ident] = self.puts.get(ident, 0) + 1
        return (200 if again else 201), json.dumps({"stored": ident}).encode()


class AttachmentServer(Uploads):
    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__()
        self.requests: List[Dict[str, Any]] = []
        self.faults: List[Dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _answer(self, status: int, body: bytes = b"") -> None:
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802
                ident = self.path.rsplit("/", 1)[-1]
                with server.lock:
                    body = server.bodies.get(ident)
                if body is None:
                    self._answer(404)
                else:
                    self._answer(200, body)

            def do_PUT(self) -> None:  # noqa: N802
                ident = self.path.rsplit("/", 1)[-1]
                fault = server._next_fault()
                record: Dict[str, Any] = {"id": ident, "length": self.headers.get("Content-Length"),
                                          "chunked": "chunked" in (self.headers.get("Transfer-Encoding") or "").lower()}
                with server.lock:
                    server.requests.append(record)
                if record["chunked"] or record["length"] is None:
                    record["outcome"] = "no_length"
                    self._answer(411)
                    return
                length = int(record["length"])
                if fault and fault["kind"] == "fail":
                    self.rfile.read(length)
                    record["outcome"] = "failed"
                    self._answer(int(fault.get("status", 500)))
                    return
                if fault and fault["kind"] == "cut":
                    self.rfile.read(length // 2)
                    record["outcome"] = "cut"
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                digest = hashlib.sha256()
                kept = bytearray() if server.keep_bodies else None
                left = length
                chunk = int(fault.get("chunk", 65536)) if fault else 1 << 20
                while left > 0:
                    data = self.rfile.read(min(chunk, left))
                    if not data:
                        record["outcome"] = "short"
                        return
                    digest.update(data)
                    if kept is not None:
                        kept += data
                    left -= len(data)
                    if fault and fault["kind"] == "slow":
                        time.sleep(int(fault.get("ms", 50)) / 1000)
                status, answer = server.receive(ident, length, digest.hexdigest(), self.headers,
                                                None if kept is None else bytes(kept))
                if status == 422:
                    record["outcome"] = "bad_sha256"
                    self._answer(status, answer)
                    return
                record["outcome"] = "stored"
                if fault and fault["kind"] == "drop":
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self._answer(status, answer)

        self.httpd = ThreadingHTTPServer((host, port), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread: Optional[threading.Thread] = None

    def _next_fault(self) -> Optional[Dict[str, Any]]:
        with self.lock:
            if not self.faults:
                return None
            fault = self.faults[0]
            fault["count"] -= 1
            if fault["count"] <= 0:
                self.faults.pop(0)
            return fault

    def arm(self, kind: str, count: int = 1, **options: Any) -> None:
        with self.lock:
            self.faults.append({"kind": kind, "count": count, **options})

    def url(self, path: str = "/attachments") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def start(self) -> "AttachmentServer":
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    running = AttachmentServer(port=args.port).start()
    print(running.port, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        running.stop()
