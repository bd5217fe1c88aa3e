#!/usr/bin/env python3
"""A loopback planner for the authentication tests: two origins (two ports of one process)
that record every request with the Authorization header it carried, and answer like the
planner's back end would. Python's standard library only.

Run it as `python3 Tests/servers/auth_server.py [--watch-stdin]`: it prints its two ports on the
first line of its standard output ("PORT_A PORT_B"), then serves until its standard input is
closed (with --watch-stdin), no request came for --idle seconds, or --lifetime seconds passed.
Or import it: `start()` returns a running pair (`.ports`, `.url(i, path)`, `.requests()`,
`.stop()`).

Endpoints, on either port:

  GET  /data/NAME             examples/data/NAME
  GET  /status/N[/...]        status N (100-599) with a small JSON body
  GET  /redirect?to=URL       302 to URL
  GET  /image.png             a 1x1 PNG
  POST /updates               a push answered as a real server would answer its first try:
                              {"applied": [every mutationId], "rejected": []}
  POST /locations             the planner's positions: {"applied": [every point id]}
  PUT  /attachments/ID        an attachment's upload: 201 {"stored": ID}
  any  /token/REST            as /REST when the request carries "Authorization: Bearer T" for
                              the token T set through /_control; 401 otherwise
  GET  /_requests             what was recorded: [{"port", "method", "path", "authorization"}]
                              (null when the header was absent), oldest first; not recorded
  POST /_control              {"token": T} sets the token /token/ wants; {"clear": true}
                              forgets the recorded requests. Not recorded.
"""

import argparse
import base64
import http.server
import json
import os
import socketserver
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, "..", "..", "examples", "data"))
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
MAX_BODY = 16 << 20


class Shared:
    """What both ports share: the recorded requests and the token /token/ wants."""

    def __init__(self):
        self.lock = threading.Lock()
        self.recorded = []
        self.token = None
        self.last_request = time.monotonic()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "carfit-auth-fixture"
    timeout = 30

    def log_message(self, format, *args):  # quiet
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass

    @property
    def shared(self):
        return self.server.shared

    def answer(self, status, body=b"", content_type="application/json", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def json(self, status, value):
        self.answer(status, json.dumps(value).encode())

    def body(self):
        try:
            n = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            n = 0
        return self.rfile.read(max(0, min(n, MAX_BODY)))

    def do_GET(self):
        self.route(b"")

    def do_POST(self):
        self.route(self.body())

    def do_PUT(self):
        self.route(self.body())

    def route(self, body):
        parsed = urllib.parse.urlsplit(self.path)
        path, params = parsed.path, dict(urllib.parse.parse_qsl(parsed.query))
        shared = self.shared
        with shared.lock:
            shared.last_request = time.monotonic()
        if path == "/_requests":
            with shared.lock:
                return self.json(200, {"requests": list(shared.recorded)})
        if path == "/_control":
            try:
                control = json.loads(body or b"{}")
            except ValueError:
                return self.json(400, {"error": "not JSON"})
            with shared.lock:
                if control.get("clear"):
                    shared.recorded.clear()
                if "token" in control:
                    shared.token = control["token"]
            return self.json(200, {"ok": True})
        with shared.lock:
            shared.recorded.append({"port": self.server.server_address[1], "method": self.command, "path": self.path,
                                    "authorization": self.headers.get("Authorization")})
            token = shared.token
        if path.startswith("/token/"):
            if token is None or self.headers.get("Authorization") != f"Bearer {token}":
                return self.answer(401, b'{"error": "unauthorized"}', headers=[("WWW-Authenticate", "Bearer")])
            path = path[len("/token"):]
        if path.startswith("/data/") and self.command == "GET":
            name = os.path.basename(path[len("/data/"):])
            try:
                with open(os.path.join(DATA, name), "rb") as f:
                    return self.answer(200, f.read())
            except OSError:
                return self.json(404, {"error": "no such file"})
        if path.startswith("/status/"):
            try:
                status = int(path.split("/")[2])
            except (ValueError, IndexError):
                status = 400
            status = max(200, min(599, status))
            return self.json(status, {"status": status})
        if path == "/redirect":
            self.send_response(302)
            self.send_header("Location", params.get("to", "/"))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path == "/image.png":
            return self.answer(200, PNG, content_type="image/png")
        if path == "/updates" and self.command == "POST":
            try:
                document = json.loads(body)
                ids = [m["mutationId"] for m in document["mutations"]]
            except (ValueError, KeyError, TypeError):
                return self.json(400, {"error": "not a push"})
            return self.json(200, {"applied": ids, "rejected": []})
        if path == "/locations" and self.command == "POST":
            try:
                ids = [p["id"] for p in json.loads(body)["points"]]
            except (ValueError, KeyError, TypeError):
                return self.json(400, {"error": "not a positions push"})
            return self.json(200, {"applied": ids})
        if path.startswith("/attachments/") and self.command == "PUT":
            return self.json(201, {"stored": path[len("/attachments/"):]})
        return self.json(404, {"error": "no such path"})


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, shared):
        super().__init__(("127.0.0.1", 0), Handler)
        self.shared = shared


class Pair:
    """Two servers (origins A and B) sharing one record."""

    def __init__(self):
        self.shared = Shared()
        self.servers = [Server(self.shared), Server(self.shared)]
        self.stopping = threading.Event()

    @property
    def ports(self):
        return [s.server_address[1] for s in self.servers]

    def url(self, index, path):
        return f"http://127.0.0.1:{self.ports[index]}{path}"

    def requests(self):
        with self.shared.lock:
            return list(self.shared.recorded)

    def clear(self):
        with self.shared.lock:
            self.shared.recorded.clear()

    def set_token(self, token):
        with self.shared.lock:
            self.shared.token = token

    def stop(self):
        if self.stopping.is_set():
            return
        self.stopping.set()
        for s in self.servers:
            s.shutdown()
            s.server_close()


def start(idle=None, lifetime=900):
    pair = Pair()
    for s in pair.servers:
        threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()

    def watchdog():
        started = time.monotonic()
        while not pair.stopping.wait(0.5):
            now = time.monotonic()
            with pair.shared.lock:
                last = pair.shared.last_request
            if now - started > lifetime or (idle is not None and now - last > idle):
                pair.stop()
                return

    threading.Thread(target=watchdog, daemon=True).start()
    return pair


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--idle", type=float, default=300)
    parser.add_argument("--lifetime", type=float, default=1800)
    parser.add_argument("--watch-stdin", action="store_true", help="stop when standard input is closed")
    args = parser.parse_args()
    pair = start(args.idle, args.lifetime)
    print(*pair.ports, flush=True)

    def stdin_watch():
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except (OSError, ValueError):
            pass
        pair.stop()

    if args.watch_stdin:
        threading.Thread(target=stdin_watch, daemon=True).start()
    pair.stopping.wait()


if __name__ == "__main__":
    main()
