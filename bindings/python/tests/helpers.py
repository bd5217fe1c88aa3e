"""What several of the binding's test files share: a loopback server of one fixed body, a large
visits snapshot made from the sample's records, and child Python processes (one whose line of
JSON output is its answer, and pushers that wait on their stdin).

A child process imports this module too (`sys.path.insert(0, <this directory>)`), so it holds
nothing that needs pytest."""

from __future__ import annotations

import contextlib
import copy
import http.server
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator

TESTS_DIR = Path(__file__).resolve().parent
BINDING_DIR = TESTS_DIR.parent

#: The day of the header's example, which the sample's visits are around.
DAY = "2020-09-10"


def many_visits(sample: dict, count: int, day: str = "2020-09-12") -> dict:
    """`count` visits made from the sample's records, each with its own id, all on `day` (by
    default one the sample has none of)."""
    records = sample["data"]
    visits = []
    for i in range(count):
        visit = copy.deepcopy(records[i % len(records)])
        visit["visitId"] = f"big-{i}"
        visit["startTimeUtc"] = f"{day}T08:00:00Z"
        visit["endTimeUtc"] = f"{day}T09:00:00Z"
        visits.append(visit)
    return {"data": visits}


def serve(body: bytes, content_type: str = "application/json") -> http.server.ThreadingHTTPServer:
    """A loopback HTTP server, already serving, that answers every GET with `body` (its length
    declared). The caller shuts it down."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@contextlib.contextmanager
def serving(body: bytes, path: str = "/visits") -> Iterator[str]:
    """The URL of `path` on a loopback server answering `body` (see `serve`) while the block runs."""
    server = serve(body)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{path}"
    finally:
        server.shutdown()


def run_child(script: str, *args: str, env: dict, timeout: float = 300) -> dict:
    """Runs `script` in a child Python process and answers the JSON it printed; fails when the
    child died (a fatal signal in the library would kill it, not the test run)."""
    result = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True,
                            timeout=timeout, env=env)
    assert result.returncode == 0, f"the host died ({result.returncode}): {result.stderr[-2000:]}"
    return json.loads(result.stdout)


def start_child(script: str, *args) -> subprocess.Popen:
    """A child Python process running `script` (whose `{binding!r}` becomes the binding's
    directory) with `args`, its stdin and stdout piped; the scripts wait on their stdin."""
    code = script.format(binding=str(BINDING_DIR))
    return subprocess.Popen([sys.executable, "-c", code, *map(str, args)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=os.environ.copy())


def pushed_answers(pushers: list) -> list:
    """What each child pusher (see `start_child`) answered after saying "pushing", in order;
    each is then let go and waited for."""
    answers = []
    for p in pushers:
        assert p.stdout.readline().strip() == "pushing"
        answers.append(json.loads(p.stdout.readline()))
        p.stdin.close()
        p.wait()
    return answers
