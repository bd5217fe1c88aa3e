"""Every source from its API, offline first: catalog and patterns refresh, conditional requests,
maxAgeSeconds, sources.status, and hostile servers (each refresh's answer, the stored data kept,
the status updated and the host's peak memory), against the loopback fixture server of
Tests/servers/http_fixture.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import carfit

import http_fixture
from conftest import REPO_ROOT as ROOT
from helpers import run_child

DATA = ROOT / "examples" / "data"
VISITS = json.loads((DATA / "carfit.json").read_text())
ARTICLES = json.loads((DATA / "articles.json").read_text())
CATALOG = json.loads((DATA / "catalog.json").read_text())
NOW = "2020-09-10T07:00:00Z"
DAYS = ["2020-09-10", "2020-09-11"]
MIB = 1 << 20


@pytest.fixture(scope="module")
def server():
    running = http_fixture.start(port=0, lifetime=900)
    yield f"http://127.0.0.1:{running.port}"
    running.stop()


def open_core(database=":memory:", **sources):
    config = {"now": NOW, "timeZone": "Europe/Copenhagen", "hour24": True, "database": str(database),
              "sources": sources}
    return carfit.Core(config)


# ----------------------------------------------------------------------------------------------
# Conditional requests and maxAgeSeconds
# ----------------------------------------------------------------------------------------------

def test_an_unchanged_source_answers_not_modified_and_keeps_its_validators(server, tmp_path):
    database = tmp_path / "core.db"
    urls = {"visits": server + "/data/carfit.json", "articles": server + "/data/articles.json",
            "catalog": server + "/data/catalog.json"}
    with open_core(database, **urls) as core:
        assert core.refresh_visits() == {"imported": 7, "rejected": [], "changes": []}
        assert core.refresh_articles()["imported"] == 9
        assert core.refresh_catalog()["imported"] > 0
        before = (core.list_visits(dates=DAYS), core.list_articles(), core.list_catalog())
        assert core.refresh_visits() == {"imported": 0, "notModified": True, "changes": []}
        assert core.refresh_articles() == {"imported": 0, "notModified": True}
        assert core.refresh_catalog() == {"imported": 0, "notModified": True}
        assert (core.list_visits(dates=DAYS), core.list_articles(), core.list_catalog()) == before
        status = core.sources_status()
        assert status["offline"] is False
        assert set(status["sources"]) == {"visits", "articles", "catalog"}
        for name, url in urls.items():
            entry = status["sources"][name]
            assert entry["url"] == url
            assert entry["notModified"] is True
            assert entry["lastError"] is None and entry["consecutiveFailures"] == 0
            assert entry["lastAttemptAt"] == entry["lastSuccessAt"] == NOW
    # The validators survive reopening.
    with open_core(database, **urls) as core:
        assert core.refresh_visits() == {"imported": 0, "notModified": True, "changes": []}
        assert core.sources_status()["sources"]["visits"]["notModified"] is True


def test_a_host_import_drops_the_validators_of_its_area(server):
    with open_core(visits=server + "/data/carfit.json", articles=server + "/data/articles.json",
                   catalog=server + "/data/catalog.json") as core:
        core.refresh_visits()
        core.refresh_articles()
        core.refresh_catalog()
        core.import_visits({"data": VISITS["data"][:1]})
        core.import_articles(ARTICLES)
        core.import_catalog(CATALOG)
        refreshed = core.refresh_visits()
        assert (refreshed["imported"], refreshed["rejected"]) == (7, [])
        # The six visits the host's import had dropped are back (those of today or later: added).
        assert {c["change"] for c in refreshed["changes"]} == {"added"}
        assert core.refresh_articles()["imported"] == 9
        assert core.refresh_catalog()["imported"] > 0
        assert core.sources_status()["sources"]["visits"]["notModified"] is False


@pytest.mark.parametrize("query", ["?encoding=gzip", "?encoding=deflate&chunked=1&chunk=100", "?chunked=1&chunk=7"])
def test_compressed_and_chunked_bodies_import(server, query):
    with open_core(visits=server + "/data/carfit.json" + query) as core:
        assert core.refresh_visits() == {"imported": 7, "rejected": [], "changes": []}


def test_max_age_skips_the_network_while_the_last_success_is_fresh(server):
    with open_core(visits=server + "/data/carfit.json") as core:
        # No success yet: the request is made.
        assert core.refresh_visits(max_age_seconds=3600) == {"imported": 7, "rejected": [], "changes": []}
        status = core.sources_status()
        assert core.refresh_visits(max_age_seconds=60) == {"imported": 0, "fresh": True, "changes": []}
        assert core.sources_status() == status, "no request, no attempt recorded"
        # 0 s: never fresh.
        assert core.refresh_visits(max_age_seconds=0) == {"imported": 0, "notModified": True, "changes": []}
        with pytest.raises(carfit.InvalidError) as bad:
            core.refresh_visits(max_age_seconds=-1)
        assert bad.value.field == "maxAgeSeconds"


def test_a_redirect_chain_of_five_is_followed(server):
    with open_core(visits=server + "/redirect-to?url=/data/carfit.json") as core:
        assert core.refresh_visits()["imported"] == 7


# ----------------------------------------------------------------------------------------------
# Catalog and patterns
# ----------------------------------------------------------------------------------------------

def test_catalog_refresh_imports_either_shape(server, tmp_path):
    with open_core(catalog=server + "/data/catalog.json") as core:
        result = core.refresh_catalog()
        with open_core() as other:
            assert other.import_catalog(CATALOG) == result
            assert other.list_catalog() == core.list_catalog()


def test_patterns_refresh_adds_each_pattern_once(server):
    patterns = json.loads((DATA / "patterns.json").read_text())
    unique = len({p["imageUrl"] for p in patterns})
    with open_core(patterns=server + "/data/patterns.json") as core:
        assert core.refresh_patterns(count=3) == {"added": unique, "pool": unique, "failed": 0}
        assert core.refresh_patterns() == {"added": 0, "pool": unique, "failed": 0}
        assert core.sources_status()["sources"]["patterns"]["lastSuccessAt"] == NOW


def test_patterns_refresh_fails_only_when_every_request_failed(server):
    with open_core(patterns=server + "/status/503") as core:
        core.import_patterns(json.loads((DATA / "patterns.json").read_text()))
        before = core.generate_carousel(rows=2, columns=3, seed=1)
        with pytest.raises(carfit.UnavailableError) as failed:
            core.refresh_patterns(count=4)
        assert failed.value.document["reason"] == "http_status"
        assert failed.value.document["httpStatus"] == 503
        assert core.generate_carousel(rows=2, columns=3, seed=1) == before
        entry = core.sources_status()["sources"]["patterns"]
        assert entry["lastError"]["httpStatus"] == 503 and entry["consecutiveFailures"] == 1
    with open_core(patterns=server + "/data/patterns.json") as core:
        for count in (0, 101):
            with pytest.raises(carfit.InvalidError) as bad:
                core.refresh_patterns(count=count)
            assert bad.value.field == "count"
        assert core.sources_status()["sources"]["patterns"]["lastAttemptAt"] is None


# ----------------------------------------------------------------------------------------------
# The change feed: a source event per attempt, the progress of a large refresh
# ----------------------------------------------------------------------------------------------

def source_events(core, after):
    return [(e["source"], e["status"]) for e in core.events(after=after, timeout=0) if e["kind"] == "source"]


def test_every_refresh_attempt_is_a_source_event_and_no_attempt_none(server):
    with open_core(visits=server + "/data/carfit.json", articles=server + "/status/500",
                   patterns=server + "/data/patterns.json") as core:
        core.refresh_visits()
        core.refresh_visits()
        core.refresh_visits(max_age_seconds=3600)  # fresh: no request
        with pytest.raises(carfit.UnavailableError):
            core.refresh_articles()
        with pytest.raises(carfit.InvalidError):
            core.refresh_catalog()  # not configured: no attempt
        with pytest.raises(carfit.InvalidError):
            core.refresh_patterns(count=0)  # refused before the network
        core.refresh_patterns(count=1)
        assert source_events(core, 0) == [("visits", "ok"), ("visits", "not_modified"), ("articles", "failed"),
                                          ("patterns", "ok")]
        events = list(core.events(timeout=0))
        first_source = next(i for i, e in enumerate(events) if e["kind"] == "source")
        changed = [e["areas"] for e in events[:first_source] if e["kind"] == "changed"]
        # The visits and the attempt's record are committed together, before the event.
        assert any({"visits", "calendar", "sources"} <= set(areas) for areas in changed), changed


@pytest.fixture()
def large_source(tmp_path):
    """A loopback server of one visits document of more than 3 MiB (``/visits.json``)."""
    import functools
    import http.server
    import threading

    records = VISITS["data"] * ((3 * MIB) // len(json.dumps(VISITS["data"])) + 1)
    (tmp_path / "visits.json").write_text(json.dumps({"data": records}))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/visits.json", (tmp_path / "visits.json").stat().st_size
    httpd.shutdown()
    httpd.server_close()


def test_a_large_refresh_reports_its_download_then_its_import_as_one_run(large_source):
    url, size = large_source
    calls = []
    with open_core(visits=url) as core:
        result = core.refresh_visits(progress=lambda done, t: calls.append((done, t)))
        assert result["imported"] > 0
        assert calls and {t for _, t in calls} == {2 * size}, "the body counts twice: download, then import"
        done = [d for d, _ in calls]
        assert done[0] < size, "the first report is of the download"
        assert done == sorted(done) and done[-1] == 2 * size and done.count(2 * size) == 1
        kinds = [e["kind"] for e in core.events(timeout=0)]
        assert kinds[-1] == "source" and "progress" in kinds


# ----------------------------------------------------------------------------------------------
# Hostile servers
# ----------------------------------------------------------------------------------------------

#: path, http config, reason, whether the reason is a network failure (the offline banner).
HOSTILE = [
    ("/drip?bytes=100000&interval_ms=50", {"totalTimeoutMs": 1000}, "timeout", True),
    ("/hang?seconds=30", {"timeoutMs": 500}, "timeout", True),
    ("/short?declared=100000&sent=1000", {}, "truncated", False),
    ("/short-chunked?sent=5000", {}, "truncated", False),
    ("/endless", {"maxBodyBytes": 8 * MIB}, "too_large", False),
    ("/huge", {}, "too_large", False),
    ("/bomb", {"maxBodyBytes": 8 * MIB}, "too_large", False),
    ("/loop", {}, "redirects", False),
    ("/redirect/6", {}, "redirects", False),
    ("/status/500", {}, "http_status", False),
    ("/status/404", {}, "http_status", False),
    ("/silent", {}, "no_response", False),
]


@pytest.mark.parametrize("path, http, reason, network", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_server_leaves_the_visits_and_updates_the_status(server, path, http, reason, network):
    config = {"now": NOW, "timeZone": "Europe/Copenhagen", "hour24": True,
              "sources": {"visits": server + path}, "http": http}
    with carfit.Core(config) as core:
        core.import_visits(VISITS)
        before = core.list_visits(dates=DAYS)
        with pytest.raises(carfit.UnavailableError) as failed:
            core.refresh_visits()
        assert failed.value.document["reason"] == reason, failed.value.message
        assert failed.value.document["url"] == server + path
        assert core.list_visits(dates=DAYS) == before
        status = core.sources_status()
        entry = status["sources"]["visits"]
        assert entry["lastError"]["reason"] == reason
        assert entry["lastError"]["at"] == entry["lastAttemptAt"] == NOW
        assert entry["lastSuccessAt"] is None and entry["consecutiveFailures"] == 1
        assert status["offline"] is network


def test_a_server_that_drips_a_byte_a_second_is_cut_off_after_timeout_ms(server):
    """http.minBytesPerSecond (1024 by default): a byte a second is too slow, so the refresh
    fails with reason timeout after timeoutMs instead of being held until totalTimeoutMs; with
    0 the same server holds it until the whole transfer's limit."""
    drip = server + "/drip?bytes=100&interval_ms=1000"
    config = {"now": NOW, "timeZone": "Europe/Copenhagen", "hour24": True, "sources": {"visits": drip},
              "http": {"timeoutMs": 2000, "totalTimeoutMs": 30_000}}
    with carfit.Core(config) as core:
        core.import_visits(VISITS)
        before = core.list_visits(dates=DAYS)
        started = time.monotonic()
        with pytest.raises(carfit.UnavailableError) as failed:
            core.refresh_visits()
        elapsed = time.monotonic() - started
        assert failed.value.document["reason"] == "timeout", failed.value.message
        assert "fewer than 1024 bytes per second for 2000 ms" in failed.value.message
        assert 1.5 < elapsed < 10, elapsed
        assert core.list_visits(dates=DAYS) == before
        assert core.sources_status()["sources"]["visits"]["lastError"]["reason"] == "timeout"
    config["http"] = {"timeoutMs": 2000, "totalTimeoutMs": 4000, "minBytesPerSecond": 0}
    with carfit.Core(config) as core:
        started = time.monotonic()
        with pytest.raises(carfit.UnavailableError) as failed:
            core.refresh_visits()
        assert failed.value.document["reason"] == "timeout"
        assert "did not finish within 4000 ms" in failed.value.message
        assert time.monotonic() - started >= 3.5


#: In a child process (so that a fatal signal shows as its death): serves a large visits
#: document, refreshes from it while another process truncates the downloaded body (in the
#: child's TMPDIR, argv[2]) once it is complete and argv[3] seconds have passed, and prints the
#: outcome and whether the stored visits are as before.
TRUNCATED_BODY = r"""
import json, os, subprocess, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, os.path.join(sys.argv[1], "tests"))
import carfit
from helpers import many_visits, serve
directory, delay = sys.argv[2], float(sys.argv[3])
sample = json.load(open(sys.argv[4]))
body = json.dumps(many_visits(sample, 40000)).encode()
server = serve(body)
watch = "\n".join([
    "import os, sys, time",
    "directory, size, delay = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])",
    "deadline = time.monotonic() + 60",
    "while time.monotonic() < deadline:",
    "    for name in os.listdir(directory):",
    "        path = os.path.join(directory, name)",
    "        try:",
    "            if os.path.getsize(path) == size:",
    "                time.sleep(delay)",
    "                os.truncate(path, size // 3)",
    "                sys.exit(0)",
    "        except OSError:",
    "            pass",
    "    time.sleep(0.001)",
])
days = ["2020-09-10", "2020-09-11", "2020-09-12"]
config = {"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": True,
          "sources": {"visits": f"http://127.0.0.1:{server.server_address[1]}/visits"}}
with carfit.Core(config) as core:
    core.import_visits(sample)
    before = core.list_visits(dates=days)
    watcher = subprocess.Popen([sys.executable, "-c", watch, directory, str(len(body)), str(delay)])
    try:
        outcome = {"ok": core.refresh_visits()["imported"]}
    except carfit.CarfitError as error:
        outcome = {"code": error.code, "reason": error.document.get("reason")}
    watcher.wait()
    after = core.list_visits(dates=days)
    print(json.dumps({"outcome": outcome, "unchanged": after == before,
                      "stored": sum(d["summary"]["visits"] for d in after["days"])}))
server.shutdown()
"""


def test_a_refresh_body_truncated_during_its_import_never_kills_the_host(lib, tmp_path):
    """The downloaded body is read, not mapped: another process truncating it while it is
    imported makes the refresh fail as unavailable or complete, the stored visits whole, and
    the host alive (a mapping would have died of SIGBUS)."""
    binding = Path(carfit.__file__).resolve().parents[1]
    outcomes = set()
    for delay in (0.0, 0.05, 0.3):
        directory = tmp_path / f"tmp-{delay}"
        directory.mkdir()
        env = {**os.environ, "TMPDIR": str(directory), "CARFIT_LIBRARY": str(carfit._lib.find_library())}
        answer = run_child(TRUNCATED_BODY, str(binding), str(directory), str(delay), str(DATA / "carfit.json"), env=env)
        outcome = answer["outcome"]
        if "ok" in outcome:
            assert outcome["ok"] == 40_000 and answer["stored"] == 40_000
        else:
            assert outcome["code"] == "unavailable", outcome
            assert answer["unchanged"], answer
        outcomes.add("ok" if "ok" in outcome else outcome["reason"])
    assert outcomes != {"ok"}, "the body never changed during an import: the test proves nothing"


def test_consecutive_refreshes_share_one_kept_alive_connection():
    """Four refreshes of one core from one origin that keeps connections alive (HTTP/1.1) open
    one connection between them, not one each."""
    import http.server
    import socketserver
    import threading
    body = json.dumps(VISITS).encode()
    connections = []

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 30

        def log_message(self, *args):
            pass

        def setup(self):
            connections.append(self.client_address)
            super().setup()

        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with open_core(visits=origin + "/visits", articles=origin + "/articles") as core:
            for _ in range(4):
                assert core.refresh_visits() == {"imported": 7, "rejected": [], "changes": []}
            assert len(connections) == 1, connections
    finally:
        server.shutdown()
        server.server_close()


def test_offline_until_a_source_answers_again(server):
    database_sources = {"visits": "http://127.0.0.1:1/visits", "articles": server + "/data/articles.json"}
    with open_core(**database_sources) as core:
        with pytest.raises(carfit.UnavailableError):
            core.refresh_visits()
        with pytest.raises(carfit.UnavailableError):
            core.refresh_visits()
        status = core.sources_status()
        assert status["offline"] is True
        assert status["sources"]["visits"]["consecutiveFailures"] == 2
        assert status["sources"]["visits"]["lastError"]["reason"] == "refused"
        assert status["sources"]["articles"]["lastAttemptAt"] is None
        core.refresh_articles()
        assert core.sources_status()["offline"] is False


PEAK = textwrap.dedent("""
    import json, resource, sys
    sys.path.insert(0, sys.argv[1])
    import carfit
    url, http = sys.argv[2], json.loads(sys.argv[3])
    config = {"now": "2020-09-10T07:00:00Z", "sources": {"visits": url}, "http": http} if url else {}
    with carfit.Core(config) as core:
        outcome = None
        if url:
            try:
                core.refresh_visits()
            except carfit.UnavailableError as error:
                outcome = error.document["reason"]
    print(json.dumps({"outcome": outcome, "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
""")


def peak(url, http=None):
    """The peak memory (KiB) of a child Python process that opens a core and, given a URL,
    refreshes the visits from it (the default config but for `http`); and the refresh's reason."""
    result = subprocess.run([sys.executable, "-c", PEAK, str(ROOT / "bindings" / "python"), url or "",
                             json.dumps(http or {})], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    return answer["outcome"], answer["maxrss_kib"]


@pytest.fixture(scope="module")
def baseline_peak():
    """The peak memory (KiB) of a child that only opens a core."""
    return peak(None)[1]


#: The hostile servers with the default limits, except where the default would only make the
#: test wait (a slow drip is cut off by the whole transfer's limit, 120 s by default).
PEAK_CASES = [(path, {k: v for k, v in http.items() if k != "maxBodyBytes"}, reason)
              for path, http, reason, _ in HOSTILE]


@pytest.mark.parametrize("path, http, reason", PEAK_CASES, ids=[c[0] for c in PEAK_CASES])
def test_a_refresh_cut_off_by_a_hostile_server_raises_the_hosts_peak_memory_by_less_than_256_mib(
        server, baseline_peak, path, http, reason):
    outcome, refreshed = peak(server + path, http)
    assert outcome == reason
    assert (refreshed - baseline_peak) * 1024 < 256 * MIB, f"{(refreshed - baseline_peak) / 1024:.0f} MiB over the baseline"


# ----------------------------------------------------------------------------------------------
# A real web server: nginx serving examples/data with its own ETags and Last-Modified
# ----------------------------------------------------------------------------------------------

NGINX_CONFIG = """
daemon off;
master_process off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    types {{ application/json json; }}
    server {{
        listen 127.0.0.1:{port};
        root {root};
    }}
}}
"""


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def nginx(tmp_path_factory):
    import shutil
    import time
    import urllib.request
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if binary is None:
        pytest.skip("!!! nginx is not installed (scripts/ensure-deps test installs nginx-light): "
                    "the conditional requests were not tried against a real web server")
    folder = tmp_path_factory.mktemp("nginx")
    root = folder / "www"
    shutil.copytree(DATA, root)
    port = free_port()
    (folder / "nginx.conf").write_text(NGINX_CONFIG.format(dir=folder, port=port, root=root))
    process = subprocess.Popen([binary, "-p", str(folder), "-c", str(folder / "nginx.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while True:
        try:
            urllib.request.urlopen(base + "/carfit.json", timeout=1).read()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"nginx did not start: {process.stderr.read().decode()[-2000:]}")
            time.sleep(0.05)
    yield base, root
    process.terminate()
    process.wait(timeout=10)


def test_nginx_answers_304_for_an_unchanged_file_and_200_once_it_changes(nginx, tmp_path):
    import os
    base, root = nginx
    database = tmp_path / "nginx.db"
    urls = {"visits": base + "/carfit.json", "articles": base + "/articles.json", "catalog": base + "/catalog.json"}
    with open_core(database, **urls) as core:
        assert core.refresh_visits() == {"imported": 7, "rejected": [], "changes": []}
        assert core.refresh_articles()["imported"] == 9
        assert core.refresh_catalog()["imported"] > 0
        assert core.refresh_visits() == {"imported": 0, "notModified": True, "changes": []}
        assert core.refresh_articles() == {"imported": 0, "notModified": True}
        assert core.refresh_catalog() == {"imported": 0, "notModified": True}
    with open_core(database, **urls) as core:
        assert core.refresh_visits() == {"imported": 0, "notModified": True, "changes": []}
        # A new snapshot: nginx's ETag (mtime and size) changes, the body is imported again.
        changed = dict(VISITS, data=VISITS["data"][:2])
        (root / "carfit.json").write_text(json.dumps(changed))
        stat = (root / "carfit.json").stat()
        os.utime(root / "carfit.json", (stat.st_atime + 10, stat.st_mtime + 10))
        refreshed = core.refresh_visits()
        assert (refreshed["imported"], refreshed["rejected"]) == (2, [])
        assert {c["change"] for c in refreshed["changes"]} == {"removed"}
        assert core.sources_status()["sources"]["visits"]["notModified"] is False
        assert core.refresh_visits() == {"imported": 0, "notModified": True, "changes": []}
