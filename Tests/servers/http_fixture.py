#!/usr/bin/env python3
"""A loopback HTTP server for the HTTP layer's tests: the well-behaved answers a real API host
gives, and the hostile ones a broken or malicious host could give. Python's standard library
only.

Run it as `python3 Tests/servers/http_fixture.py --port 0`: it prints the port it listens on as
the first line of its standard output, then serves until its standard input is closed (the
test that started it ended; with --watch-stdin), no request came for --idle seconds, or
--lifetime seconds passed.
Or import it: `start(port=0)` returns a running server (`.port`, `.stop()`).

Endpoints (every loop below is bounded in bytes and in time, and ends when the client goes):

  GET  /data/NAME               examples/data/NAME with ETag and Last-Modified; 304 when
                                If-None-Match matches (or, without it, If-Modified-Since is not
                                older than the file). ?encoding=gzip|deflate compresses the
                                body; ?chunked=1 sends it in chunks of ?chunk=N bytes (1000).
  GET  /redirect/N              302 to /redirect/N-1; /redirect/0 answers 200 {"redirected": true}
  GET  /loop                    302 to itself
  GET  /redirect-to?url=U       302 to U (any scheme)
  GET  /status/N                status N with a small JSON body (none for 1xx, 204, 304)
  GET  /drip?bytes=N&interval_ms=M   Content-Length N, then one byte every M ms
  GET  /stall?bytes=N&seconds=S      Content-Length 2N, N bytes, then silence for S s
  GET  /hang?seconds=S          reads the request, answers nothing for S s, closes
  GET  /silent                  reads the request and closes without answering
  GET  /short?declared=N&sent=M      Content-Length N, M bytes, then closes
  GET  /short-chunked?sent=M    a chunked body of M bytes without its last chunk, then closes
  GET  /endless                 a chunked body that never ends (bounded by --max-endless bytes)
  GET  /huge                    Content-Length of 16 GiB
  GET  /bomb                    gzip: ~1 MB on the wire, 1 GiB of zeros once decoded
  GET  /bad-gzip                Content-Encoding gzip with a body that is not gzip
  GET  /headers?count=N&size=S  N extra headers of S bytes each, then a small body
  GET|POST /echo                JSON: the method, path, headers and body (UTF-8) it got
"""

import argparse
import email.utils
import gzip
import hashlib
import http.server
import json
import os
import socketserver
import sys
import threading
import time
import urllib.parse
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, "..", "..", "examples", "data"))

MAX_SECONDS = 60          # the longest any single answer goes on
MAX_ENDLESS = 8 << 30     # bytes an "endless" body sends at most
MAX_ECHO = 16 << 20       # the largest request body /echo reads
BOMB_DECODED = 1 << 30    # the gzip bomb's decoded size

_bomb_lock = threading.Lock()
_bomb = None


def gzip_bomb():
    """BOMB_DECODED zeros, gzip-compressed at level 9 (about 1 MB), made on first use and kept
    in memory: one 1 MiB block compressed with a full flush is the same every time, so the
    stream is built by repeating it rather than compressing a whole GiB."""
    global _bomb
    with _bomb_lock:
        if _bomb is None:
            block = bytes(1 << 20)
            compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
            first = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
            repeated = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
            tail = compressor.flush(zlib.Z_FINISH)
            count = BOMB_DECODED // len(block)
            crc = 0
            for _ in range(count):
                crc = zlib.crc32(block, crc)
            header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
            trailer = crc.to_bytes(4, "little") + (BOMB_DECODED & 0xFFFFFFFF).to_bytes(4, "little")
            _bomb = header + first + repeated * (count - 1) + tail + trailer
        return _bomb


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "carfit-fixture"
    timeout = 30  # an idle kept-alive connection is closed after this many seconds

    def log_message(self, format, *args):  # quiet
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass

    # ---- plumbing

    def query(self):
        parsed = urllib.parse.urlsplit(self.path)
        return parsed.path, dict(urllib.parse.parse_qsl(parsed.query))

    def number(self, params, name, default, low, high):
        try:
            value = int(params.get(name, default))
        except ValueError:
            value = default
        return max(low, min(high, value))

    def answer(self, status, body=b"", headers=(), content_type="application/json"):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if status >= 200 and status not in (204, 304):
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and status >= 200 and status not in (204, 304):
            self.wfile.write(body)

    def json(self, status, value, headers=()):
        self.answer(status, json.dumps(value).encode(), headers)

    def close_after(self):
        self.close_connection = True

    def request_body(self):
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        try:
            n = int(length)
        except ValueError:
            return b""
        return self.rfile.read(max(0, min(n, MAX_ECHO)))

    # ---- routes

    def do_GET(self):
        self.server.touch()
        path, params = self.query()
        routes = {
            "/loop": self.loop, "/redirect-to": self.redirect_to, "/drip": self.drip,
            "/stall": self.stall, "/hang": self.hang, "/silent": self.silent, "/short": self.short,
            "/short-chunked": self.short_chunked, "/endless": self.endless, "/huge": self.huge,
            "/bomb": self.bomb, "/bad-gzip": self.bad_gzip, "/headers": self.many_headers,
            "/echo": self.echo,
        }
        if path in routes:
            return routes[path](params)
        if path.startswith("/data/"):
            return self.data(path[len("/data/"):], params)
        if path.startswith("/redirect/"):
            return self.redirect(path[len("/redirect/"):])
        if path.startswith("/status/"):
            return self.status(path[len("/status/"):])
        self.json(404, {"error": "not found", "path": path})

    def do_POST(self):
        self.server.touch()
        path, params = self.query()
        if path == "/echo":
            return self.echo(params)
        if path.startswith("/status/"):
            self.request_body()
            return self.status(path[len("/status/"):])
        self.request_body()
        self.json(404, {"error": "not found", "path": path})

    def data(self, name, params):
        if "/" in name or name.startswith(".") or not name:
            return self.json(404, {"error": "not found"})
        file = os.path.join(DATA, name)
        try:
            with open(file, "rb") as f:
                body = f.read()
            mtime = int(os.stat(file).st_mtime)
        except OSError:
            return self.json(404, {"error": "not found"})
        etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        last_modified = email.utils.formatdate(mtime, usegmt=True)
        validators = [("ETag", etag), ("Last-Modified", last_modified), ("Cache-Control", "no-cache")]
        if self.not_modified(etag, mtime):
            return self.answer(304, headers=validators)
        encoding = params.get("encoding")
        if encoding == "gzip":
            body = gzip.compress(body)
            validators.append(("Content-Encoding", "gzip"))
        elif encoding == "deflate":
            body = zlib.compress(body)
            validators.append(("Content-Encoding", "deflate"))
        if params.get("chunked") == "1":
            chunk = self.number(params, "chunk", 1000, 1, 1 << 20)
            self.send_response(200)
            for header in validators:
                self.send_header(*header)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(body), chunk):
                piece = body[start:start + chunk]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
            return
        self.answer(200, body, validators)

    def not_modified(self, etag, mtime):
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None:
            tags = [t.strip() for t in if_none_match.split(",")]
            return "*" in tags or etag in tags or ("W/" + etag) in tags
        since = self.headers.get("If-Modified-Since")
        if since is not None:
            try:
                parsed = email.utils.parsedate_to_datetime(since)
            except (TypeError, ValueError):
                return False
            return parsed is not None and mtime <= parsed.timestamp()
        return False

    def redirect(self, rest):
        try:
            n = int(rest)
        except ValueError:
            return self.json(404, {"error": "not found"})
        if n <= 0:
            return self.json(200, {"redirected": True})
        self.answer(302, b"{}", [("Location", "/redirect/%d" % (n - 1))])

    def loop(self, params):
        self.answer(302, b"{}", [("Location", "/loop")])

    def redirect_to(self, params):
        self.answer(302, b"{}", [("Location", params.get("url", "/"))])

    def status(self, rest):
        try:
            code = int(rest)
        except ValueError:
            code = 0
        if not 100 <= code <= 599:
            return self.json(404, {"error": "not found"})
        if code < 200:
            # An interim answer alone is not a response: close after it.
            self.send_response(code)
            self.end_headers()
            self.close_after()
            return
        self.json(code, {"status": code})

    def drip(self, params):
        n = self.number(params, "bytes", 100, 0, 1 << 20)
        interval = self.number(params, "interval_ms", 100, 1, 10_000) / 1000
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(n))
        self.end_headers()
        self.wfile.flush()
        deadline = time.monotonic() + MAX_SECONDS
        for _ in range(n):
            if time.monotonic() > deadline:
                break
            time.sleep(interval)
            self.wfile.write(b"x")
            self.wfile.flush()
        self.close_after()

    def stall(self, params):
        n = self.number(params, "bytes", 100, 0, 1 << 20)
        seconds = self.number(params, "seconds", 30, 0, MAX_SECONDS)
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(2 * n))
        self.end_headers()
        self.wfile.write(b"x" * n)
        self.wfile.flush()
        self.server.sleep(seconds)
        self.close_after()

    def hang(self, params):
        self.server.sleep(self.number(params, "seconds", 30, 0, MAX_SECONDS))
        self.close_after()

    def silent(self, params):
        self.close_after()

    def short(self, params):
        declared = self.number(params, "declared", 1000, 0, 1 << 30)
        sent = self.number(params, "sent", 100, 0, declared)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(declared))
        self.end_headers()
        self.wfile.write(b"x" * sent)
        self.wfile.flush()
        self.close_after()

    def short_chunked(self, params):
        sent = self.number(params, "sent", 100, 1, 1 << 20)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.write(b"%x\r\n%s\r\n" % (sent, b"x" * sent))
        self.wfile.flush()
        self.close_after()

    def endless(self, params):
        chunk = b"[" * 65536
        frame = b"%x\r\n%s\r\n" % (len(chunk), chunk)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        sent = 0
        deadline = time.monotonic() + MAX_SECONDS
        while sent < self.server.max_endless and time.monotonic() < deadline:
            self.wfile.write(frame)
            sent += len(chunk)
        self.close_after()

    def huge(self, params):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(16 << 30))
        self.end_headers()
        block = bytes(65536)
        deadline = time.monotonic() + MAX_SECONDS
        sent = 0
        while sent < self.server.max_endless and time.monotonic() < deadline:
            self.wfile.write(block)
            sent += len(block)
        self.close_after()

    def bomb(self, params):
        body = gzip_bomb()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        view = memoryview(body)
        for start in range(0, len(body), 65536):
            self.wfile.write(view[start:start + 65536])

    def bad_gzip(self, params):
        self.answer(200, b"this is not gzip at all, not even close" * 10, [("Content-Encoding", "gzip")])

    def many_headers(self, params):
        count = self.number(params, "count", 10, 0, 5_000)
        size = self.number(params, "size", 100, 1, 8000)
        self.send_response(200)
        value = "v" * size
        for i in range(count):
            self.send_header("X-Filler-%d" % i, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def echo(self, params):
        body = self.request_body()
        self.json(200, {
            "method": self.command,
            "path": self.path,
            "headers": {name: value for name, value in self.headers.items()},
            "body": body.decode("utf-8", "replace"),
        })


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port, max_endless=MAX_ENDLESS):
        super().__init__(("127.0.0.1", port), Handler)
        self.max_endless = max_endless
        self.last_request = time.monotonic()
        self.stopping = threading.Event()

    @property
    def port(self):
        return self.server_address[1]

    def touch(self):
        self.last_request = time.monotonic()

    def sleep(self, seconds):
        """Waits up to `seconds`, less when the server stops."""
        self.stopping.wait(seconds)

    def stop(self):
        self.stopping.set()
        self.shutdown()
        self.server_close()


def start(port=0, idle=None, lifetime=600, max_endless=MAX_ENDLESS):
    """Starts a server on 127.0.0.1 in background threads and returns it; it stops by itself
    after `lifetime` seconds, or `idle` seconds without a request when given."""
    server = Server(port, max_endless)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()

    def watchdog():
        started = time.monotonic()
        while not server.stopping.wait(0.5):
            now = time.monotonic()
            if now - started > lifetime or (idle is not None and now - server.last_request > idle):
                server.stop()
                return

    threading.Thread(target=watchdog, daemon=True).start()
    return server


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--idle", type=float, default=120, help="stop after this many seconds without a request")
    parser.add_argument("--lifetime", type=float, default=1800, help="stop after this many seconds in any case")
    parser.add_argument("--max-endless", type=int, default=MAX_ENDLESS, help="bytes an endless body sends at most")
    parser.add_argument("--watch-stdin", action="store_true", help="stop when standard input is closed")
    args = parser.parse_args()
    server = start(args.port, args.idle, args.lifetime, args.max_endless)
    print(server.port, flush=True)

    def stdin_watch():
        # The parent closing our standard input (or ending) stops the server.
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except (OSError, ValueError):
            pass
        if not server.stopping.is_set():
            server.stop()

    if args.watch_stdin:
        threading.Thread(target=stdin_watch, daemon=True).start()
    server.stopping.wait()


if __name__ == "__main__":
    main()
