"""Articles, and the visits and articles refreshes, through the real library, against HTTP
servers started by the tests on 127.0.0.1. The import's and the date text's rules are tested on
the service (Tests/CarFitServicesTests/ArticlesServiceTests.swift, ArticlesAPITests.swift)."""

from __future__ import annotations

import http.server
import json
import socket
import threading
import time
from pathlib import Path

import pytest

import carfit
import carfit.visits
from carfit import CarfitError, Core, InvalidError, UnavailableError  # conftest puts the binding on the path
from carfit.articles import ArticlesMixin

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "examples" / "data"
ARTICLES = json.loads((FIXTURES / "articles.json").read_text())
VISITS = json.loads((FIXTURES / "carfit.json").read_text())
INVALID, UNAVAILABLE = InvalidError, UnavailableError
NOW = "2020-09-10T07:00:00Z"


# ----------------------------------------------------------------------------------------------
# A local HTTP server serving the sample documents and every kind of bad answer
# ----------------------------------------------------------------------------------------------

class Source:
    """What each path answers: (status, content type, body bytes, delay in seconds)."""

    def __init__(self):
        articles = json.dumps(ARTICLES).encode()
        visits = json.dumps(VISITS).encode()
        html = b"<!DOCTYPE html><html><head><title>Sign in to Wi-Fi</title></head><body>Accept the terms</body></html>"
        self.routes = {
            "/articles": (200, "application/json", articles, 0),
            "/visits": (200, "application/json", visits, 0),
            "/articles-as-text": (200, "text/plain", articles, 0),
            "/missing": (404, "text/plain", b"not found", 0),
            "/broken": (500, "application/json", b'{"error": "boom"}', 0),
            "/portal": (200, "text/html; charset=utf-8", html, 0),
            "/portal-unlabelled": (200, "application/json", b"\n  " + html, 0),
            "/truncated-articles": (200, "application/json", articles[: len(articles) // 2], 0),
            "/truncated-visits": (200, "application/json", visits[: len(visits) // 2], 0),
            "/garbage": (200, "application/json", b'{"status": "success", "content": [1, 2,, 3]}', 0),
            "/empty": (200, "application/json", b"", 0),
            "/array": (200, "application/json", b"[]", 0),
            "/no-content": (200, "application/json", b'{"status": "success"}', 0),
            "/no-data": (200, "application/json", b'{"success": true, "code": 200}', 0),
            "/status-error": (200, "application/json", b'{"status": "error", "content": []}', 0),
            "/all-rejected-articles": (200, "application/json", b'{"status": "success", "content": [{"id": 1}]}', 0),
            "/all-rejected-visits": (200, "application/json", b'{"data": [{"startTimeUtc": "yesterday"}]}', 0),
            "/all-rejected-visits-whole": (200, "application/json",
                                           b'{"data": [], "data": [{"startTimeUtc": "yesterday"}]}', 0),
            "/slow": (200, "application/json", articles, 3.0),
        }
        self.release = threading.Event()  # set at teardown: slow handlers stop waiting
        self.hits: dict[str, int] = {}


@pytest.fixture(scope="module")
def server():
    source = Source()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            source.hits[self.path] = source.hits.get(self.path, 0) + 1
            status, ctype, body, delay = source.routes.get(self.path, (404, "text/plain", b"no route", 0))
            if delay and source.release.wait(delay):
                return
            try:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        yield base, source
    finally:
        source.release.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def refused_url():
    """A port bound but never listening: connecting to it is refused, for as long as the test runs."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/articles"
    finally:
        sock.close()


def open_core(articles: str | None = None, visits: str | None = None, **config) -> Core:
    sources = {k: v for k, v in (("articles", articles), ("visits", visits)) if v is not None}
    base = {"now": NOW, "timeZone": "UTC", "hour24": True, "http": {"timeoutMs": 2000}}
    if sources:
        base["sources"] = sources
    base.update(config)
    return Core(base)


def expect_error(kind: type, call, *args) -> CarfitError:
    """The error `call(*args)` raises, which must be of class `kind`."""
    with pytest.raises(CarfitError) as info:
        call(*args)
    assert isinstance(info.value, kind), info.value.response
    assert info.value.code == kind.__name__.replace("Error", "").lower(), info.value.response
    return info.value


# ----------------------------------------------------------------------------------------------
# articles.import and articles.list
# ----------------------------------------------------------------------------------------------

def test_import_and_list_sample():
    with open_core() as core:
        assert core._call("articles.list") == {"articles": [], "updatedAt": None}
        result = core._call("articles.import", ARTICLES)
        assert result == {"imported": 9, "rejected": [], "updatedAt": NOW}
        listed = core._call("articles.list")
        assert listed["updatedAt"] == NOW
        items = listed["articles"]
        assert len(items) == 9
        stamps = [a["dateTime"] for a in items]
        assert stamps == sorted(stamps, reverse=True)
        first = items[0]
        source = ARTICLES["content"][0]
        assert first == {
            "id": 119302,
            "title": source["title"],
            "ingress": source["ingress"],
            "imageUrl": source["image"],
            "dateTime": "2018-05-25T14:13:00Z",
            "published": "25 May 2018, 14:13",
            "tags": [],
            "content": [{"type": "text", "subject": "Q7", "description": source["content"][0]["description"]}],
        }
        assert [a["id"] for a in items] == [119302, 119285, 119282, 119300, 119298, 119289, 119287, 119279, 119276]
        assert items[4]["content"] == []


def test_a_refused_import_is_an_exception_carrying_its_rejections():
    # The rules of the import (what is rejected, what is kept) are tested on the service.
    with open_core() as core:
        error = expect_error(INVALID, core.import_articles, {"status": "success", "content": [{"id": 1}, 2]})
        assert error.field == "content" and error.message
        assert [(r["index"], r["field"]) for r in error.document["rejected"]] == [(0, "title"), (1, None)]
        error = expect_error(INVALID, core.format_article_date, "yesterday")
        assert error.field == "date"


# ----------------------------------------------------------------------------------------------
# articles.refresh
# ----------------------------------------------------------------------------------------------

def test_refresh_imports_the_source(server):
    base, _ = server
    with open_core(articles=base + "/articles") as core:
        assert core._call("articles.refresh") == {"imported": 9, "rejected": [], "updatedAt": NOW}
        listed = core._call("articles.list")
        assert len(listed["articles"]) == 9 and listed["updatedAt"] == NOW
    with open_core(articles=base + "/articles-as-text") as core:
        assert core._call("articles.refresh")["imported"] == 9


FAILURES = [
    ("/missing", "http_status", "404"),
    ("/broken", "http_status", "500"),
    ("/portal", "html", "HTML"),
    ("/portal-unlabelled", "html", "HTML"),
    ("/truncated-articles", "truncated", "breaks off"),
    ("/garbage", "not_json", "not JSON"),
    ("/empty", "empty", "empty"),
    ("/array", "not_document", "not an object"),
    ("/no-content", "not_document", "no content array"),
    ("/status-error", "not_document", "status"),
    ("/all-rejected-articles", "rejected", "only article was rejected"),
]


@pytest.mark.parametrize("path, reason, words", FAILURES)
def test_refresh_failure_keeps_the_cache(server, path, reason, words):
    base, _ = server
    with open_core(articles=base + path, now="2020-09-11T07:00:00Z") as core:
        core._call("articles.import", ARTICLES)
        before = core._call("articles.list")
        error = expect_error(UNAVAILABLE, core._call, "articles.refresh")
        assert error.code == "unavailable"
        assert error.document["reason"] == reason
        assert error.document["url"] == base + path
        assert words in error.message
        assert core._call("articles.list") == before
    if reason == "rejected":
        assert error.document["rejected"][0]["index"] == 0
        assert error.document["documentField"] == "content"
    if reason == "http_status":
        assert error.document["httpStatus"] == int(words)


def test_refresh_refused(refused_url):
    with open_core(articles=refused_url) as core:
        core._call("articles.import", ARTICLES)
        before = core._call("articles.list")
        started = time.monotonic()
        error = expect_error(UNAVAILABLE, core._call, "articles.refresh")
        assert time.monotonic() - started < 1.5
        assert error.document["reason"] == "refused"
        assert "refused" in error.message
        assert core._call("articles.list") == before


def test_refresh_timeout_is_bounded(server):
    base, source = server
    with open_core(articles=base + "/slow", http={"timeoutMs": 300}) as core:
        core._call("articles.import", ARTICLES)
        before = core._call("articles.list")
        started = time.monotonic()
        error = expect_error(UNAVAILABLE, core._call, "articles.refresh")
        elapsed = time.monotonic() - started
        assert 0.25 <= elapsed < 2.0, elapsed
        assert error.document["reason"] == "timeout"
        assert "timed out" in error.message and "300 ms" in error.message
        assert core._call("articles.list") == before


def test_other_calls_proceed_while_a_refresh_waits(server):
    base, _ = server
    with open_core(articles=base + "/slow", http={"timeoutMs": 1500}) as core:
        core._call("articles.import", ARTICLES)
        outcome = {}

        def refresh():
            try:
                core._call("articles.refresh")
            except CarfitError as e:
                outcome["error"] = e

        thread = threading.Thread(target=refresh)
        thread.start()
        time.sleep(0.3)
        started = time.monotonic()
        assert len(core._call("articles.list")["articles"]) == 9
        assert time.monotonic() - started < 0.5
        thread.join(timeout=10)
        assert not thread.is_alive()
        assert outcome["error"].document["reason"] == "timeout"


def test_refresh_without_a_source_is_invalid():
    with open_core(visits="http://127.0.0.1:9/visits") as core:
        error = expect_error(INVALID, core._call, "articles.refresh")
        assert error.field == "sources.articles"


def test_cache_survives_reopening_and_offline_refresh(server, refused_url, tmp_path):
    base, _ = server
    database = str(tmp_path / "cache.sqlite")
    with open_core(articles=base + "/articles", database=database, now="2020-09-10T07:00:00Z") as core:
        core._call("articles.refresh")
        online = core._call("articles.list")
    assert online["updatedAt"] == "2020-09-10T07:00:00Z"
    with open_core(articles=refused_url, database=database, now="2020-09-12T08:00:00Z") as core:
        assert core._call("articles.list") == online
        expect_error(UNAVAILABLE, core._call, "articles.refresh")
        assert core._call("articles.list") == online
    with open_core(articles=base + "/portal", database=database, now="2020-09-13T08:00:00Z") as core:
        expect_error(UNAVAILABLE, core._call, "articles.refresh")
        assert core._call("articles.list") == online
    with open_core(articles=base + "/articles", database=database, now="2020-09-14T08:00:00Z") as core:
        core._call("articles.refresh")
        assert core._call("articles.list")["updatedAt"] == "2020-09-14T08:00:00Z"


# ----------------------------------------------------------------------------------------------
# visits.refresh
# ----------------------------------------------------------------------------------------------

DAYS = {"dates": ["2020-09-10", "2020-09-11", "2020-09-14"]}


def visit_cards(core) -> list:
    return [v for day in core._call("visits.list", DAYS)["days"] for v in day["visits"]]


def test_visits_refresh_imports_like_import(server):
    base, _ = server
    with open_core(visits=base + "/visits", timeZone="Europe/Copenhagen") as fetched, \
            open_core(timeZone="Europe/Copenhagen") as imported:
        result = fetched._call("visits.refresh")
        assert result == imported._call("visits.import", VISITS)
        assert result["imported"] == len(VISITS["data"])
        assert visit_cards(fetched) == visit_cards(imported) and visit_cards(fetched)


VISIT_FAILURES = [
    ("/missing", "http_status"), ("/broken", "http_status"), ("/portal", "html"),
    ("/truncated-visits", "truncated"), ("/garbage", "not_json"), ("/empty", "empty"),
    ("/array", "not_document"), ("/no-data", "not_document"),
    ("/all-rejected-visits", "rejected"), ("/all-rejected-visits-whole", "rejected"),
]


@pytest.mark.parametrize("path, reason", VISIT_FAILURES)
def test_visits_refresh_failure_keeps_the_visits(server, path, reason):
    base, _ = server
    with open_core(visits=base + path) as core:
        core._call("visits.import", VISITS)
        before = core._call("visits.list", DAYS)
        error = expect_error(UNAVAILABLE, core._call, "visits.refresh")
        assert error.document["reason"] == reason
        assert "visits" in error.message
        assert core._call("visits.list", DAYS) == before
        if reason == "rejected":
            assert [(r["index"], r["field"]) for r in error.document["rejected"]] == [(0, "startTimeUtc")]


def test_visits_refresh_refused_and_timeout(server, refused_url):
    base, _ = server
    for url, timeout, reason in ((refused_url, 2000, "refused"), (base + "/slow", 300, "timeout")):
        with open_core(visits=url, http={"timeoutMs": timeout}) as core:
            core._call("visits.import", VISITS)
            before = core._call("visits.list", DAYS)
            assert expect_error(UNAVAILABLE, core._call, "visits.refresh").document["reason"] == reason
            assert core._call("visits.list", DAYS) == before


def test_visits_refresh_without_a_source_is_invalid(server):
    base, _ = server
    with open_core(articles=base + "/articles") as core:
        assert expect_error(INVALID, core._call, "visits.refresh").field == "sources.visits"


def test_visits_survive_reopening_after_a_failed_refresh(server, refused_url, tmp_path):
    base, _ = server
    database = str(tmp_path / "visits.sqlite")
    with open_core(visits=base + "/visits", database=database) as core:
        core._call("visits.refresh")
        before = core._call("visits.list", DAYS)
    with open_core(visits=refused_url, database=database) as core:
        expect_error(UNAVAILABLE, core._call, "visits.refresh")
        assert core._call("visits.list", DAYS) == before


# ----------------------------------------------------------------------------------------------
# The mixin names the right methods
# ----------------------------------------------------------------------------------------------

def test_mixin_methods():
    calls = []

    class Recorder(ArticlesMixin):
        def _call(self, method, request=None):
            calls.append((method, request))
            return {"text": "t"}

    r = Recorder()
    r.import_articles({"content": []})
    r.refresh_articles()
    r.list_articles()
    r.list_articles(hour24=False)
    assert r.format_article_date("2020-01-01T00:00:00Z") == "t"
    r.format_article_date("2020-01-01T00:00:00Z", hour24=True)
    assert calls == [
        ("articles.import", {"content": []}), ("articles.refresh", None), ("articles.list", {}),
        ("articles.list", {"hour24": False}), ("articles.format_date", {"date": "2020-01-01T00:00:00Z"}),
        ("articles.format_date", {"date": "2020-01-01T00:00:00Z", "hour24": True}),
    ]
    # visits.refresh belongs to the visits area.
    assert not hasattr(r, "refresh_visits")
    assert hasattr(carfit.visits.VisitsMixin, "refresh_visits")


def test_mixin_through_the_library(server):
    base, _ = server

    # Core has the mixin once it is wired in; until then, add it here.
    ArticlesCore = Core if issubclass(Core, ArticlesMixin) else type("ArticlesCore", (ArticlesMixin, Core), {})

    with ArticlesCore({"now": NOW, "sources": {"articles": base + "/articles", "visits": base + "/visits"}}) as core:
        assert core.refresh_articles()["imported"] == 9
        assert core.list_articles()["articles"][0]["published"] == "25 May 2018, 14:13"
        assert core.format_article_date("2020-03-16T12:34:00Z", hour24=False) == "16 March, 12:34 PM"
        assert core.refresh_visits()["imported"] == len(VISITS["data"])
