"""Progress of a refresh's download: a loopback server sends a large articles document with
its length declared, in chunks without one, or cut off, and the change feed's progress events
(and the binding's progress= calls) follow its bytes."""

from __future__ import annotations

import copy
import http.server
import json
import threading
import time
from pathlib import Path

import pytest

import carfit

ROOT = Path(__file__).resolve().parents[3]
ARTICLES = json.loads((ROOT / "examples" / "data" / "articles.json").read_text())
NOW = "2020-09-10T07:00:00Z"
MIB = 1 << 20
PIECE = 64 * 1024


def large_articles(size: int) -> bytes:
    """The sample's articles repeated, each copy with its own id, until the text passes ``size``."""
    document = copy.deepcopy(ARTICLES)
    originals = document["content"]
    one = len(json.dumps(originals).encode("utf-8"))
    content = []
    for round_ in range(size // one + 1):
        for article in originals:
            copied = dict(article)
            copied["id"] = article["id"] + 1_000_000 * (round_ + 1)
            content.append(copied)
    document["content"] = content
    return json.dumps(document).encode("utf-8")


BODY = large_articles(3 * MIB + 512 * 1024)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if self.path == "/small":
            small = json.dumps(ARTICLES).encode("utf-8")
            self.send_header("Content-Length", str(len(small)))
            self.end_headers()
            self.wfile.write(small)
            return
        if self.path == "/chunked":
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(BODY), PIECE):
                piece = BODY[start:start + PIECE]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.flush()
                time.sleep(0.005)
            self.wfile.write(b"0\r\n\r\n")
            return
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        # /broken declares the whole body and closes after 2 MiB of it.
        end = 2 * MIB if self.path == "/broken" else len(BODY)
        for start in range(0, end, PIECE):
            self.wfile.write(BODY[start:min(start + PIECE, end)])
            self.wfile.flush()
            time.sleep(0.005)
        self.close_connection = True


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def open_core(url):
    return carfit.Core({"now": NOW, "timeZone": "Europe/Copenhagen", "hour24": True, "sources": {"articles": url}})


def progress_events(core):
    return [e for e in core.events(timeout=0) if e["kind"] == "progress"]


def test_a_declared_length_is_the_total_of_every_event(server):
    with open_core(server + "/declared") as core:
        calls = []
        result = core.refresh_articles(progress=lambda done, total: calls.append((done, total)))
        assert result["imported"] == BODY.count(b'"ingress"')
        events = progress_events(core)
        assert events, "a 3.5 MiB download reports its progress"
        assert {e["operation"] for e in events} == {"articles.refresh"}
        assert {e["unit"] for e in events} == {"bytes"}
        assert {e["total"] for e in events} == {len(BODY)}
        done = [e["done"] for e in events]
        assert done == sorted(done) and len(set(done)) == len(done)
        assert done[-1] == len(BODY) and done.count(len(BODY)) == 1
        assert calls == [(e["done"], e["total"]) for e in events]


def test_a_chunked_body_reports_without_a_total_until_it_is_in(server):
    with open_core(server + "/chunked") as core:
        calls = []
        core.refresh_articles(progress=lambda done, total: calls.append((done, total)))
        events = progress_events(core)
        assert len(events) >= 2, "reports once 1 MiB arrived, and the complete one"
        assert {e["operation"] for e in events} == {"articles.refresh"}
        *running, last = events
        assert all(e["total"] is None and e["done"] > MIB for e in running)
        assert last["done"] == last["total"] == len(BODY)
        done = [e["done"] for e in events]
        assert done == sorted(done)
        assert calls[-1] == (len(BODY), len(BODY)) and calls[0][1] is None


def test_a_failed_download_ends_without_a_complete_event(server):
    with open_core(server + "/broken") as core:
        core.import_articles(ARTICLES)
        before = core.list_articles()
        after = core._current_seq()
        with pytest.raises(carfit.UnavailableError) as failed:
            core.refresh_articles()
        assert failed.value.document["reason"] == "truncated"
        seen = list(core.events(after=after, timeout=0))
        events = [e for e in seen if e["kind"] == "progress"]
        assert events, "the first 2 MiB were reported"
        assert all(e["done"] < e["total"] == len(BODY) for e in events)
        assert [(e["source"], e["status"]) for e in seen if e["kind"] == "source"] == [("articles", "failed")]
        assert seen[-1]["kind"] == "source", "nothing after the failure"
        assert core.list_articles() == before


def test_a_small_body_reports_nothing(server):
    with open_core(server + "/small") as core:
        assert core.refresh_articles()["imported"] == len(ARTICLES["content"])
        assert progress_events(core) == []
