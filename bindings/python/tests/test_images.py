"""Carousel feed and image pipeline through the real library, against a loopback HTTP server
that counts requests per path and can delay its answers: everything here is observed at the
server or in the cache directory, not assumed."""

from __future__ import annotations

import base64
import ctypes
import json
import os
import struct
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import carfit

PATTERNS_PATH = Path(__file__).resolve().parents[3] / "examples" / "data" / "patterns.json"


# -- image bytes -------------------------------------------------------------------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(size: int = 0, tag: int = 0) -> bytes:
    """A valid 1×1 PNG; with ``size``, padded to exactly that many bytes by a tEXt chunk (``tag``
    makes images of equal size differ)."""
    head = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
    body = _chunk(b"IDAT", zlib.compress(bytes([0, tag % 256, 128, 64])))
    end = _chunk(b"IEND", b"")
    if size:
        pad = size - len(head) - len(body) - len(end) - 12
        assert pad >= 8, size
        body += _chunk(b"tEXt", b"pad\x00" + str(tag).encode().ljust(pad - 4, b"."))
    data = head + body + end
    assert not size or len(data) == size
    return data


def jpeg() -> bytes:
    """A valid 8×8 grey baseline JPEG: one-symbol Huffman tables, DC difference 0, then EOB."""
    dqt = b"\xff\xdb" + struct.pack(">H", 67) + b"\x00" + b"\x01" * 64
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 8, 8, 1) + b"\x01\x11\x00"
    one_code = bytes([1] + [0] * 15)
    dht = b"\xff\xc4" + struct.pack(">H", 2 + 17 + 1 + 17 + 1) + b"\x00" + one_code + b"\x00" + b"\x10" + one_code + b"\x00"
    sos = b"\xff\xda" + struct.pack(">HB", 8, 1) + b"\x01\x00" + b"\x00\x3f\x00"
    return b"\xff\xd8" + dqt + sof + dht + sos + b"\x3f" + b"\xff\xd9"


#: The classic 1×1 transparent GIF.
GIF = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
#: A 1×1 lossless WebP (the image browsers' WebP detection uses).
WEBP = base64.b64decode("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")


# -- the loopback server -----------------------------------------------------------------------


class ImageServer:
    """Serves ``routes`` (path → (status, body, delay seconds)) on 127.0.0.1, counting requests
    per path and recording their order. Delays end early when the server stops."""

    def __init__(self) -> None:
        self.routes: Dict[str, Tuple[int, bytes, float]] = {}
        self.counts: Dict[str, int] = {}
        self.order: List[str] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                with server.lock:
                    server.counts[self.path] = server.counts.get(self.path, 0) + 1
                    server.order.append(self.path)
                    status, body, delay = server.routes.get(self.path, (404, b"not found", 0.0))
                if delay:
                    server.stopping.wait(delay)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:  # the client gave up (cancelled)
                    pass

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def add(self, path: str, body: bytes, status: int = 200, delay: float = 0.0) -> str:
        self.routes[path] = (status, body, delay)
        return self.base + path

    def count(self, path: str) -> int:
        with self.lock:
            return self.counts.get(path, 0)

    def stop(self) -> None:
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


@pytest.fixture()
def server():
    s = ImageServer()
    yield s
    s.stop()


@pytest.fixture()
def cache_dir(tmp_path) -> Path:
    return tmp_path / "images"


def open_core(cache_dir: Path, **images) -> carfit.Core:
    return carfit.Core({"images": {"directory": str(cache_dir), **images}, "http": {"timeoutMs": 5000}})


def wait_idle(core, timeout: float = 10.0) -> dict:
    """Polls images.stats until no prefetch is queued or loading."""
    deadline = time.monotonic() + timeout
    while True:
        stats = core.image_stats()
        if stats["prefetch"] == {"queued": 0, "loading": 0}:
            return stats
        assert time.monotonic() < deadline, stats
        time.sleep(0.02)


def dir_files(cache_dir: Path) -> Dict[str, int]:
    return {p.name: p.stat().st_size for p in cache_dir.iterdir() if p.name.endswith(".img")}


# -- feed --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def patterns() -> list:
    return json.loads(PATTERNS_PATH.read_text(encoding="utf-8"))


def test_import_bare_array_and_object(lib, patterns):
    with carfit.Core() as core:
        assert core.import_patterns(patterns) == {"imported": 12, "rejected": [], "pool": 12}
        # Same image URLs again: updated in place, the pool does not grow.
        assert core.import_patterns({"patterns": patterns[:3]}) == {"imported": 3, "rejected": [], "pool": 12}
        # The raw colourlovers text through carfit_call, as a host would pass the file.
        assert core.call("patterns.import", PATTERNS_PATH.read_bytes())["pool"] == 12


def test_refusals_are_exceptions_and_only_the_import_takes_a_bare_array(lib):
    # What an import keeps and rejects, and the feed's rules, are tested on the service
    # (Tests/CarFitServicesTests/ImagesServiceTests.swift).
    with carfit.Core() as core:
        result = core.import_patterns([{"imageUrl": "http://img.test/a.png", "title": "A", "colors": ["112233"]}, "x"])
        assert [(r["index"], r["field"]) for r in result["rejected"]] == [(1, None)]
        with pytest.raises(carfit.InvalidError) as e:
            core.import_patterns({"data": []})
        assert e.value.field == "patterns" and e.value.message
        with pytest.raises(carfit.BadJSONError):
            core.call("carousel.generate", "[1, 2]")  # only patterns.import takes a bare array


def test_the_pool_persists_and_the_same_seed_gives_the_same_feed(lib, patterns, tmp_path):
    database = str(tmp_path / "feed.sqlite")
    with carfit.Core(database=database) as core:
        core.import_patterns(patterns)
        first = core.generate_carousel(20, 30, seed=7)
    with carfit.Core(database=database) as core:
        assert core.generate_carousel(20, 30, seed=7) == first
    tile = first["rows"][3]["tiles"][4]
    assert set(tile) == {"id", "title", "color", "imageUrl"}
    assert (tile["id"], tile["imageUrl"]) == ("r3c4", patterns[(3 * 30 + 4) % 12]["imageUrl"])


def test_generate_carousel_passes_its_arguments(lib):
    with carfit.Core() as core:
        feed = core.generate_carousel(3, 4)
        assert feed == core.generate_carousel(3, 4, seed=0)
        assert [len(r["tiles"]) for r in feed["rows"]] == [4, 4, 4]
        assert len(core.generate_carousel(1000, 1, seed=-(2**63))["rows"]) == 1000
        with pytest.raises(carfit.InvalidError) as e:
            core.generate_carousel(1, 1001)
        assert e.value.field == "columns"
        with pytest.raises(carfit.InvalidError) as e:
            core.call("carousel.generate", {"rows": 1, "columns": 1, "seed": "7"})
        assert e.value.field == "seed"


# -- loading -----------------------------------------------------------------------------------


def test_network_then_memory_and_content_types(lib, server, cache_dir):
    bodies = {"/a.png": png(), "/b.jpg": jpeg(), "/c.gif": GIF, "/d.webp": WEBP}
    types = {"/a.png": "image/png", "/b.jpg": "image/jpeg", "/c.gif": "image/gif", "/d.webp": "image/webp"}
    with open_core(cache_dir) as core:
        for path, body in bodies.items():
            url = server.add(path, body)
            data, info = core.image(url)
            assert data == body
            assert info == {"url": url, "bytes": len(body), "source": "network", "contentType": types[path]}
            data, info = core.image(url)
            assert data == body and info["source"] == "memory"
            assert server.count(path) == 1
        stats = core.image_stats()
        assert stats["requests"] == {"network": 4, "coalesced": 0, "memoryHits": 4, "diskHits": 0, "failures": 0}
        assert stats["memory"]["count"] == 4 and stats["memory"]["bytes"] == sum(map(len, bodies.values()))
        assert stats["disk"]["count"] == 4 and sum(dir_files(cache_dir).values()) == stats["disk"]["bytes"]


def test_not_an_image_is_invalid_and_not_cached(lib, server, cache_dir):
    url = server.add("/page.png", b"<html>not an image</html>")
    with open_core(cache_dir) as core:
        for attempt in (1, 2):
            with pytest.raises(carfit.InvalidError) as e:
                core.image(url)
            assert e.value.field == "url"
            assert server.count("/page.png") == attempt
        stats = core.image_stats()
        assert stats["requests"]["failures"] == 2
        assert stats["memory"]["count"] == 0 and stats["disk"]["count"] == 0
        assert dir_files(cache_dir) == {}


def test_http_errors_are_unavailable_and_not_cached(lib, server, cache_dir):
    missing = server.base + "/missing.png"
    broken = server.add("/broken.png", png(), status=500)
    with open_core(cache_dir) as core:
        for attempt in (1, 2):
            with pytest.raises(carfit.UnavailableError) as e:
                core.image(missing)
            assert (e.value.document["reason"], e.value.document["httpStatus"]) == ("http_status", 404)
            with pytest.raises(carfit.UnavailableError) as e:
                core.image(broken)
            assert e.value.document["httpStatus"] == 500
            assert server.count("/missing.png") == attempt and server.count("/broken.png") == attempt
        # Once the server has it, the next request fetches it: the failure was not remembered.
        server.add("/missing.png", png(tag=9))
        assert core.image(missing)[1]["source"] == "network"
        with pytest.raises(carfit.UnavailableError):
            core.image("http://127.0.0.1:9/refused.png")  # discard port: nothing listens
        assert core.image_stats()["requests"]["failures"] == 5


def test_bad_requests(lib, server, cache_dir):
    with open_core(cache_dir) as core:
        for request, field in [({}, "url"), ({"url": 5}, "url"), ({"url": "file:///etc/passwd"}, "url")]:
            response = ctypes.c_void_p()
            data, length = ctypes.c_void_p(), ctypes.c_size_t(7)
            status = core._lib.carfit_images_data(core._handle, json.dumps(request).encode(), ctypes.byref(data),
                                                  ctypes.byref(length), ctypes.byref(response))
            assert status == 2 and data.value is None and length.value == 0
            assert core._take(response)["error"]["field"] == field
        with pytest.raises(carfit.InvalidError) as e:
            core.prefetch_images([server.base + "/a.png", "nope"])
        assert e.value.field == "urls[1]"
        assert core.image_stats()["prefetch"]["queued"] == 0  # a refused call queues nothing
        with pytest.raises(carfit.InvalidError) as e:
            core.prefetch_images([server.base + "/a.png"], priority="urgent")
        assert e.value.field == "priority"
        with pytest.raises(carfit.InvalidError) as e:
            core.call("images.prefetch", {})
        assert e.value.field == "urls"
        with pytest.raises(carfit.MisuseError):
            core.call("images.data", {"url": server.base + "/a.png"})  # no method name


def test_null_out_parameters_and_closed_core_are_misuse(lib, server, cache_dir):
    url = server.add("/a.png", png())
    request = json.dumps({"url": url}).encode()
    fn = lib.carfit_images_data
    core = open_core(cache_dir)
    response = ctypes.c_void_p()
    data, length = ctypes.c_void_p(), ctypes.c_size_t()
    assert fn(core._handle, request, None, ctypes.byref(length), ctypes.byref(response)) == 8
    assert core._take(response)["error"]["field"] == "bytes"
    assert fn(core._handle, request, ctypes.byref(data), None, ctypes.byref(response)) == 8
    assert core._take(response)["error"]["field"] == "length"
    assert fn(None, request, ctypes.byref(data), ctypes.byref(length), None) == 8
    assert server.count("/a.png") == 0
    handle = core._handle
    core.close()
    assert fn(handle, request, ctypes.byref(data), ctypes.byref(length), ctypes.byref(response)) == 8
    assert data.value is None
    lib.carfit_free(response)


# -- coalescing --------------------------------------------------------------------------------


def test_concurrent_requests_share_one_download(lib, server, cache_dir):
    body = png(5000, tag=1)
    url = server.add("/slow.png", body, delay=0.6)
    n = 12
    results: List[Tuple[bytes, dict]] = [None] * n  # type: ignore[list-item]
    errors: List[BaseException] = []
    with open_core(cache_dir) as core:
        start = threading.Barrier(n)

        def load(i: int) -> None:
            try:
                start.wait(timeout=5)
                results[i] = core.image(url)
            except BaseException as exc:  # noqa: BLE001 (reported below)
                errors.append(exc)

        threads = [threading.Thread(target=load, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=15)
        assert not errors and all(not t.is_alive() for t in threads)
        assert server.count("/slow.png") == 1
        assert all(data == body for data, _ in results)
        assert {info["source"] for _, info in results} <= {"network", "memory"}
        requests = core.image_stats()["requests"]
        assert requests["network"] == 1
        assert requests["coalesced"] + requests["memoryHits"] == n - 1
        assert requests["coalesced"] >= n // 2  # the delay keeps most of them waiting


def test_load_joins_a_prefetch_in_progress(lib, server, cache_dir):
    body = png(3000, tag=2)
    url = server.add("/pre.png", body, delay=0.5)
    with open_core(cache_dir) as core:
        assert core.prefetch_images([url]) == {"queued": 1}
        deadline = time.monotonic() + 5
        while server.count("/pre.png") == 0:  # the prefetch has reached the server
            assert time.monotonic() < deadline
            time.sleep(0.01)
        data, info = core.image(url)
        assert data == body and info["source"] == "network"
        assert server.count("/pre.png") == 1
        stats = wait_idle(core)
        assert stats["requests"]["coalesced"] == 1 and stats["requests"]["network"] == 1
        # Prefetching what memory holds queues nothing.
        assert core.prefetch_images([url]) == {"queued": 0}


def test_core_calls_go_on_while_an_image_loads(lib, server, cache_dir, patterns):
    url = server.add("/slow.png", png(), delay=1.0)
    with open_core(cache_dir) as core:
        core.import_patterns(patterns)
        loader = threading.Thread(target=core.image, args=(url,))
        loader.start()
        while server.count("/slow.png") == 0:
            time.sleep(0.01)
        began = time.monotonic()
        core.generate_carousel(10, 10, seed=3)
        core.image_stats()
        core.calendar()
        assert time.monotonic() - began < 0.5, "the core's lock must not be held during a download"
        loader.join(timeout=10)
        assert not loader.is_alive()


# -- prefetch order and cancel -----------------------------------------------------------------


def test_prefetch_runs_by_priority_then_order(lib, server, cache_dir):
    server.add("/l1.png", png(tag=1), delay=0.4)  # holds the only slot while the rest queue
    urls = {name: server.add(f"/{name}.png", png(tag=i)) for i, name in enumerate(["l2", "l3", "n1", "n2", "h1", "h2"])}
    with open_core(cache_dir, concurrency=1) as core:
        assert core.prefetch_images([server.base + "/l1.png", urls["l2"], urls["l3"]], priority="low") == {"queued": 3}
        deadline = time.monotonic() + 5
        while server.count("/l1.png") == 0:  # the first low one has started: the others wait
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert core.prefetch_images([urls["n1"], urls["n2"]]) == {"queued": 2}
        assert core.prefetch_images([urls["h1"], urls["h2"]], priority="high") == {"queued": 2}
        stats = wait_idle(core)
    assert server.order == ["/l1.png", "/h1.png", "/h2.png", "/n1.png", "/n2.png", "/l2.png", "/l3.png"]
    assert stats["requests"]["network"] == 7 and stats["memory"]["count"] == 7


def test_prefetch_respects_concurrency(lib, server, cache_dir):
    active = {"now": 0, "max": 0}
    lock = threading.Lock()
    urls = [server.add(f"/c{i}.png", png(tag=i), delay=0.15) for i in range(10)]
    handler_class = server.httpd.RequestHandlerClass
    original, original_send = handler_class.do_GET, handler_class.send_response

    # A request counts from its arrival until its answer starts (send_response, before any byte
    # reaches the client): the client cannot have begun another in that slot before then, while
    # the handler's own end (after the client already has the answer) is not the client's.
    def counting(handler):
        handler._counted = True
        with lock:
            active["now"] += 1
            active["max"] = max(active["max"], active["now"])
        try:
            original(handler)
        finally:
            answered(handler)

    def answered(handler):
        if getattr(handler, "_counted", False):
            handler._counted = False
            with lock:
                active["now"] -= 1

    def sending(handler, *args, **kwargs):
        answered(handler)
        return original_send(handler, *args, **kwargs)

    handler_class.do_GET = counting
    handler_class.send_response = sending
    with open_core(cache_dir, concurrency=3) as core:
        assert core.prefetch_images(urls) == {"queued": 10}
        wait_idle(core)
    assert active["max"] == 3
    assert all(server.count(f"/c{i}.png") == 1 for i in range(10))


def test_cancelled_prefetches_never_download(lib, server, cache_dir):
    gate = server.add("/gate.png", png(tag=1), delay=0.5)
    a, b, c = (server.add(f"/{n}.png", png(tag=i)) for i, n in enumerate("abc"))
    with open_core(cache_dir, concurrency=1) as core:
        assert core.prefetch_images([gate, a, b, c]) == {"queued": 4}
        while server.count("/gate.png") == 0:
            time.sleep(0.01)
        assert core.cancel_images([b, c, server.base + "/never-queued.png", gate]) == {"cancelled": 2}
        assert core.cancel_images([b]) == {"cancelled": 0}
        wait_idle(core)
        time.sleep(0.2)
        assert (server.count("/gate.png"), server.count("/a.png")) == (1, 1)
        assert (server.count("/b.png"), server.count("/c.png")) == (0, 0)
        assert core.image(b)[1]["source"] == "network"  # cancelled means not loaded, not refused


# -- eviction and persistence ------------------------------------------------------------------


def test_neither_level_ever_holds_more_than_its_limit(lib, server, cache_dir):
    size = 1000
    urls = [server.add(f"/e{i}.png", png(size, tag=i)) for i in range(12)]
    big = server.add("/big.png", png(4000, tag=99))  # over the memory limit, under the disk's
    with open_core(cache_dir, memoryBytes=3000, diskBytes=5500) as core:
        for url in urls:
            core.image(url)
            stats = core.image_stats()
            assert stats["memory"]["bytes"] <= 3000 and stats["disk"]["bytes"] <= 5500
            assert sum(dir_files(cache_dir).values()) <= 5500
        stats = core.image_stats()
        assert stats["memory"] == {"count": 3, "bytes": 3000, "limit": 3000}
        assert (stats["disk"]["count"], stats["disk"]["bytes"]) == (5, 5000)
        assert len(dir_files(cache_dir)) == 5
        # Most recent three in memory, the two before on disk only, older ones gone.
        assert core.image(urls[11])[1]["source"] == "memory"
        assert core.image(urls[7])[1]["source"] == "disk"
        assert core.image(urls[2])[1]["source"] == "network"
        assert server.count("/e2.png") == 2
        _, info = core.image(big)
        assert info["source"] == "network"
        stats = core.image_stats()
        assert stats["memory"]["bytes"] <= 3000 and stats["disk"]["bytes"] <= 5500
        assert core.image(big)[1]["source"] == "disk"  # too big for memory, kept on disk
        assert sum(dir_files(cache_dir).values()) == core.image_stats()["disk"]["bytes"] <= 5500


def test_disk_cache_survives_reopening_in_lru_order(lib, server, cache_dir):
    urls = {n: server.add(f"/{n}.png", png(1000, tag=i)) for i, n in enumerate("abcd")}
    config = dict(memoryBytes=0, diskBytes=3000)
    with open_core(cache_dir, **config) as core:
        for n in "abc":
            assert core.image(urls[n])[1]["source"] == "network"
            time.sleep(0.02)  # distinct modification times
        assert core.image(urls["a"])[1]["source"] == "disk"  # a is now the most recent
        time.sleep(0.02)
    with open_core(cache_dir, **config) as core:
        stats = core.image_stats()
        assert (stats["disk"]["count"], stats["disk"]["bytes"]) == (3, 3000)
        assert core.image(urls["d"])[1]["source"] == "network"  # evicts b, the oldest
        time.sleep(0.02)
        assert core.image(urls["c"])[1]["source"] == "disk"
        assert core.image(urls["a"])[1]["source"] == "disk"
        assert core.image(urls["b"])[1]["source"] == "network"
        assert core.image_stats()["requests"]["diskHits"] == 2
    assert {n: server.count(f"/{n}.png") for n in "abcd"} == {"a": 1, "b": 2, "c": 1, "d": 1}


def test_reopening_with_a_smaller_limit_evicts(lib, server, cache_dir):
    urls = [server.add(f"/s{i}.png", png(1000, tag=i)) for i in range(4)]
    with open_core(cache_dir) as core:
        for url in urls:
            core.image(url)
            time.sleep(0.02)
    assert len(dir_files(cache_dir)) == 4
    with open_core(cache_dir, diskBytes=2000) as core:
        assert core.image_stats()["disk"]["bytes"] == 2000
        assert len(dir_files(cache_dir)) == 2
        assert core.image(urls[3])[1]["source"] == "disk"
        assert core.image(urls[0])[1]["source"] == "network"


def test_temporary_directory_is_removed_on_close(lib, server, tmp_path, monkeypatch):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))  # where a core without images.directory caches
    url = server.add("/t.png", png())
    core = carfit.Core()
    core.image(url)
    made = list(temporary.iterdir())
    assert len(made) == 1 and made[0].name.startswith("carfit-images-")
    assert [p.stat().st_size for p in made[0].iterdir()] == [len(png())]
    core.close()
    assert list(temporary.iterdir()) == []


# -- threads and closing -----------------------------------------------------------------------


def test_many_callers_at_once(lib, server, cache_dir, patterns):
    urls = [server.add(f"/m{i}.png", png(800, tag=i), delay=0.01 * (i % 3)) for i in range(20)]
    errors: List[BaseException] = []
    with open_core(cache_dir, memoryBytes=6000, diskBytes=9000, concurrency=4) as core:
        core.import_patterns(patterns)

        def worker(k: int) -> None:
            try:
                for j in range(30):
                    url = urls[(k * 7 + j) % len(urls)]
                    if j % 10 == 0:
                        core.prefetch_images(urls[j % 5::5], priority=("low", "normal", "high")[j % 3])
                    elif j % 10 == 5:
                        core.cancel_images(urls[::3])
                    elif j % 10 == 7:
                        core.generate_carousel(5, 5, seed=k)
                    else:
                        data, info = core.image(url)
                        assert data == png(800, tag=urls.index(url))
                    stats = core.image_stats()
                    assert stats["memory"]["bytes"] <= 6000 and stats["disk"]["bytes"] <= 9000
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert not errors, errors[:3]
        wait_idle(core)
        assert sum(dir_files(cache_dir).values()) <= 9000


def test_close_cancels_queue_and_waits_for_transfers(lib, server, cache_dir):
    urls = [server.add(f"/z{i}.png", png(tag=i), delay=3.0) for i in range(6)]
    core = open_core(cache_dir, concurrency=2)
    assert core.prefetch_images(urls) == {"queued": 6}
    outcome: List[BaseException] = []

    def blocked_load() -> None:
        try:
            core.image(urls[0])  # joins the prefetch in progress
        except carfit.CarfitError as exc:
            outcome.append(exc)

    # Both prefetch slots have reached the server before the load starts, so the load joins
    # the transfer of urls[0] instead of racing the queue for it.
    deadline = time.monotonic() + 5
    while sum(server.count(f"/z{i}.png") for i in range(6)) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    loader = threading.Thread(target=blocked_load)
    loader.start()
    while core.image_stats()["requests"]["coalesced"] < 1:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    began = time.monotonic()
    core.close()
    assert time.monotonic() - began < 2.0, "close cancels transfers rather than waiting them out"
    loader.join(timeout=5)
    assert not loader.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], carfit.MisuseError)
    time.sleep(0.2)
    assert sum(server.count(f"/z{i}.png") for i in range(6)) == 2, "queued prefetches never start"
    assert dir_files(cache_dir) == {}
    with pytest.raises(carfit.MisuseError):
        core.image_stats()


def test_open_fails_cleanly_on_an_unusable_directory(lib, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(carfit.StorageError) as e:
        carfit.Core({"images": {"directory": str(blocker / "sub")}})
    assert e.value.field == "images.directory"
