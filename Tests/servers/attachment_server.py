"""A reference upload server for attachments: what `carfit_sync_push` PUTs photos, signatures
and notes to in the tests (and the web app's sample server).

    server = AttachmentServer().start()
    ... server.url("/attachments") ...      # the config's sources.attachments
    server.stop()

``PUT <base>/<id>`` reads the body by its ``Content-Length`` (a chunked body is refused with
411), checks that its SHA-256 is the ``X-Carfit-Sha256`` header (else 422, nothing stored) and
stores it under the id: a PUT of an id already held is the same upload (idempotent, 200 again).
It answers 201 for a new id. ``GET <base>/<id>`` answers the stored bytes. State for tests:
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
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional


class AttachmentServer:
    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.lock = threading.Lock()
        self.stored: Dict[str, Dict[str, Any]] = {}
        self.bodies: Dict[str, bytes] = {}
        self.puts: Dict[str, int] = {}
        self.requests: List[Dict[str, Any]] = []
        self.faults: List[Dict[str, Any]] = []
        self.keep_bodies = True
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
                sha = digest.hexdigest()
                if sha != self.headers.get("X-Carfit-Sha256"):
                    record["outcome"] = "bad_sha256"
                    self._answer(422, b"sha256 mismatch")
                    return
                with server.lock:
                    again = ident in server.stored
                    server.stored[ident] = {"bytes": length, "sha256": sha,
                                            "headers": {k.lower(): v for k, v in self.headers.items()}}
                    if kept is not None:
                        server.bodies[ident] = bytes(kept)
                    server.puts[ident] = server.puts.get(ident, 0) + 1
                record["outcome"] = "stored"
                if fault and fault["kind"] == "drop":
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self._answer(200 if again else 201)

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
