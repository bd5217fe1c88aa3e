"""The fixture server itself: it must send what the HTTP tests rely on (validators and 304s,
encodings, redirects) and its hostile answers must be as hostile as they claim (a bomb of
~1 MB that inflates to 1 GiB, a body shorter than its length), while every answer ends."""

import gzip
import http.client
import os
import sys
import time
import zlib

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import http_fixture  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "data")


@pytest.fixture(scope="module")
def server():
    running = http_fixture.start(port=0, idle=60, max_endless=64 << 20)
    yield running
    running.stop()


def get(server, path, headers=None, method="GET", body=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def sample(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


def test_sample_files_carry_validators_and_answer_304(server):
    status, headers, body = get(server, "/data/articles.json")
    assert status == 200 and body == sample("articles.json")
    etag, modified = headers["ETag"], headers["Last-Modified"]
    assert etag.startswith('"') and modified.endswith("GMT")
    assert get(server, "/data/articles.json", {"If-None-Match": etag})[0] == 304
    assert get(server, "/data/articles.json", {"If-Modified-Since": modified})[0] == 304
    assert get(server, "/data/articles.json", {"If-None-Match": '"other"'})[0] == 200
    assert get(server, "/data/articles.json", {"If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"})[0] == 200


def test_encodings_and_chunks(server):
    status, headers, body = get(server, "/data/carfit.json?encoding=gzip")
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == sample("carfit.json")
    status, headers, body = get(server, "/data/carfit.json?encoding=deflate")
    assert zlib.decompress(body) == sample("carfit.json")
    status, headers, body = get(server, "/data/carfit.json?chunked=1&chunk=10")
    assert headers["Transfer-Encoding"] == "chunked" and body == sample("carfit.json")


def test_redirects(server):
    status, headers, _ = get(server, "/redirect/3")
    assert status == 302 and headers["Location"] == "/redirect/2"
    assert get(server, "/redirect/0")[0] == 200
    assert get(server, "/loop")[1]["Location"] == "/loop"


def test_the_bomb_is_small_on_the_wire_and_a_gibibyte_decoded(server):
    status, headers, body = get(server, "/bomb")
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert len(body) < 2 << 20
    inflater = zlib.decompressobj(31)
    decoded = 0
    for start in range(0, len(body), 65536):
        piece = inflater.decompress(body[start:start + 65536])
        assert piece.count(0) == len(piece)
        decoded += len(piece)
    decoded += len(inflater.flush())
    assert inflater.eof and decoded == 1 << 30


def test_a_short_body_is_short(server):
    with pytest.raises(http.client.IncompleteRead):
        get(server, "/short?declared=1000&sent=10")


def test_endless_bodies_end_at_the_servers_bound(server):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request("GET", "/endless")
    response = connection.getresponse()
    received = 0
    with pytest.raises(http.client.IncompleteRead):
        while True:
            piece = response.read(1 << 20)
            if not piece:
                break
            received += len(piece)
    connection.close()


def test_echo_returns_what_it_got(server):
    status, _, body = get(server, "/echo", {"Content-Type": "application/json", "X-Test": "1"}, "POST", b'{"a": 1}')
    import json
    echo = json.loads(body)
    assert echo["method"] == "POST" and echo["body"] == '{"a": 1}' and echo["headers"]["X-Test"] == "1"


def test_statuses(server):
    for code in (204, 404, 500):
        assert get(server, "/status/%d" % code)[0] == code


def test_the_server_stops_by_itself_when_idle():
    idle = http_fixture.start(port=0, idle=0.5)
    time.sleep(2)
    assert idle.stopping.is_set()
