"""Every answer of the real server's washer API is one include/carfit.planner.openapi.json
describes: each path the library calls, its successes and its refusals, driven over HTTP and
checked against the document (the status is one the operation lists, the headers it requires are
there and match their schemas, the body matches the answer's schema, no body where it has none).
The requests that should succeed are checked against the document too, so the refusals are
refusals of the server's rules, not of a malformed test."""

from __future__ import annotations

import hashlib
import http.client
import json
import re
import uuid

import pytest

from conftest import ADMIN, REPO_ROOT, Deployment

jsonschema = pytest.importorskip("jsonschema")

OPENAPI = json.loads((REPO_ROOT / "include" / "carfit.planner.openapi.json").read_text(encoding="utf-8"))


def resolve(node: dict) -> dict:
    while "$ref" in node:
        section, name = node["$ref"].split("/")[-2:]
        node = OPENAPI["components"][section][name]
    return node


def validator(schema: dict):
    return jsonschema.Draft202012Validator({**OPENAPI, **schema})


def operation(method: str, path: str) -> tuple[str, dict]:
    for template, item in OPENAPI["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", r"[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path.split("?", 1)[0]) and method.lower() in item:
            return template, item[method.lower()]
    raise AssertionError(f"{method} {path}: no such operation in the document")


def problems(method: str, path: str, status: int, headers: dict, body: bytes) -> list[str]:
    template, op = operation(method, path)
    where = f"{method} {template} -> {status}"
    if str(status) not in op["responses"]:
        return [f"{where}: a status the document does not list ({body[:200]!r})"]
    response = resolve(op["responses"][str(status)])
    found = []
    for name, header in response.get("headers", {}).items():
        header = resolve(header)
        value = headers.get(name.lower())
        if value is None:
            if header.get("required"):
                found.append(f"{where}: header {name} missing")
            continue
        found += [f"{where}: header {name} {value!r}: {e.message}" for e in validator(header["schema"]).iter_errors(value)]
    content = response.get("content", {}).get("application/json")
    if content is None:
        if body:
            found.append(f"{where}: a body the answer has none of")
        return found
    if not headers.get("content-type", "").startswith("application/json"):
        found.append(f"{where}: Content-Type {headers.get('content-type')!r}")
    try:
        document = json.loads(body)
    except ValueError:
        return found + [f"{where}: a body that is not JSON"]
    return found + [f"{where}: body at {list(e.absolute_path)}: {e.message}"
                    for e in validator(content["schema"]).iter_errors(document)]


def request_problems(method: str, path: str, headers: dict, body: bytes) -> list[str]:
    """What the document says is wrong with a request meant to be right."""
    _, op = operation(method, path)
    lowered = {k.lower(): v for k, v in headers.items()}
    found = []
    for parameter in op.get("parameters", []):
        if parameter["in"] != "header":
            continue
        value = lowered.get(parameter["name"].lower())
        if value is None:
            if parameter.get("required"):
                found.append(f"header {parameter['name']} missing")
            continue
        schema = resolve(parameter["schema"])
        typed = int(value) if schema.get("type") == "integer" else value
        found += [f"header {parameter['name']}: {e.message}" for e in validator(parameter["schema"]).iter_errors(typed)]
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    if content is not None:
        found += [f"body: {e.message}" for e in validator(content["schema"]).iter_errors(json.loads(body))]
    return found


class Wire:
    """Requests to one server, each answer checked against the document as it comes."""

    def __init__(self, deployment: Deployment) -> None:
        self.port = deployment.ports[0]
        self.seen: set[tuple[str, str, int]] = set()

    def send(self, method: str, path: str, token: str | None, body: bytes | None = None,
             headers: dict | None = None, valid: bool = False, length: bool = True) -> tuple[int, dict, object]:
        all_headers = dict(headers or {})
        if token is not None:
            all_headers["Authorization"] = f"Bearer {token}"
        if body is not None and "Content-Type" not in all_headers:
            all_headers["Content-Type"] = "application/json"
        if body is not None and length and "Content-Length" not in all_headers:
            all_headers["Content-Length"] = str(len(body))
        if valid:
            assert request_problems(method, path, all_headers, body or b"") == []
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.putrequest(method, path, skip_accept_encoding=True)
            for name, value in all_headers.items():
                connection.putheader(name, value)
            connection.endheaders()
            if body is not None and length:
                connection.send(body)
            answer = connection.getresponse()
            data = answer.read()
            answer_headers = {k.lower(): v for k, v in answer.getheaders()}
            status = answer.status
        finally:
            connection.close()
        assert problems(method, path, status, answer_headers, data) == []
        self.seen.add((method, operation(method, path)[0], status))
        return status, answer_headers, (json.loads(data) if data else None)

    def post(self, path: str, token: str | None, document: object, valid: bool = False):
        return self.send("POST", path, token, json.dumps(document).encode(), valid=valid)


@pytest.fixture
def server(tmp_path, lib):
    deployment = Deployment(tmp_path, f"sqlite:{tmp_path / 'planner.sqlite'}", 1)
    yield deployment
    deployment.close()


def test_every_answer_of_the_washers_api_is_one_the_document_describes(server):
    ada, bea = server.washer("Ada"), server.washer("Bea")
    visits = server.plan(ada, 2)
    server.plan(bea, 1)
    wire = Wire(server)
    unknown = "unknown-token-" + "x" * 30

    # GET /v1/visits: the snapshot, its conditional fetch, and the refusals.
    status, headers, snapshot = wire.send("GET", "/v1/visits", ada["token"])
    assert status == 200 and len(snapshot["data"]) == 2
    status, again, body = wire.send("GET", "/v1/visits", ada["token"], headers={"If-None-Match": headers["etag"]})
    assert (status, again["etag"], body) == (304, headers["etag"], None)
    assert wire.send("GET", "/v1/visits", ada["token"], headers={"If-None-Match": '"other"'})[0] == 200
    for token, expected in [(None, 401), (unknown, 401), (ADMIN, 403)]:
        status, headers, body = wire.send("GET", "/v1/visits", token)
        assert (status, body["error"]["status"]) == (expected, expected)
        assert (expected == 401) == ("www-authenticate" in headers)

    # POST /v1/visit-updates: one applied, one rejected; a bad body; another washer's clientId.
    first = visits[0]
    mutation = {"mutationId": str(uuid.uuid4()), "visitId": first["visitId"], "startTimeUtc": first["startTimeUtc"],
                "state": "InProgress", "at": first["startTimeUtc"], "timeUsedMinutes": None, "reason": None}
    stray = dict(mutation, mutationId=str(uuid.uuid4()), visitId="no-such-visit")
    status, _, answer = wire.post("/v1/visit-updates", ada["token"], {"clientId": "ada-phone", "mutations": [mutation, stray]},
                                  valid=True)
    assert status == 200 and answer["applied"] == [mutation["mutationId"]]
    assert [r["mutationId"] for r in answer["rejected"]] == [stray["mutationId"]]
    status, _, answer = wire.send("POST", "/v1/visit-updates", ada["token"], b"{not json")
    assert status == 400
    status, _, answer = wire.post("/v1/visit-updates", ada["token"], {"clientId": "ada-phone", "mutations": 3})
    assert (status, answer["error"].get("field")) == (400, "mutations")
    assert wire.post("/v1/visit-updates", bea["token"], {"clientId": "ada-phone", "mutations": []})[0] == 403
    assert wire.post("/v1/visit-updates", None, {"clientId": "ada-phone", "mutations": []})[0] == 401

    # POST /v1/locations.
    point = {"id": str(uuid.uuid4()), "latitude": 55.77883, "longitude": 12.52124, "accuracyMeters": 8.0,
             "at": first["startTimeUtc"]}
    status, _, answer = wire.post("/v1/locations", ada["token"], {"clientId": "ada-phone", "points": [point]}, valid=True)
    assert (status, answer) == (200, {"applied": [point["id"]]})
    assert wire.post("/v1/locations", ada["token"], {"clientId": "ada-phone", "points": [dict(point, latitude=91)]})[0] == 400
    assert wire.post("/v1/locations", bea["token"], {"clientId": "ada-phone", "points": []})[0] == 403
    assert wire.post("/v1/locations", unknown, {"clientId": "ada-phone", "points": []})[0] == 401

    # PUT /v1/attachments/{id}.
    content = b"Keys under the mat."
    digest = hashlib.sha256(content).hexdigest()
    upload = {"X-Carfit-Sha256": digest, "X-Carfit-Visit-Id": first["visitId"],
              "X-Carfit-Start-Time-Utc": first["startTimeUtc"], "X-Carfit-Kind": "note", "Content-Type": "text/plain"}
    path = f"/v1/attachments/{uuid.uuid4()}"
    status, _, answer = wire.send("PUT", path, ada["token"], content, upload, valid=True)
    assert status == 201 and answer["attachment"]["sha256"] == digest and answer["attachment"]["bytes"] == len(content)
    status, _, same = wire.send("PUT", path, ada["token"], content, upload, valid=True)
    assert (status, same) == (200, answer)
    other = b"Another note."
    status, _, _ = wire.send("PUT", path, ada["token"], other, dict(upload, **{"X-Carfit-Sha256": hashlib.sha256(other).hexdigest()}))
    assert status == 409
    fresh = f"/v1/attachments/{uuid.uuid4()}"
    assert wire.send("PUT", fresh, ada["token"], content, dict(upload, **{"X-Carfit-Sha256": "0" * 64}))[0] == 422
    bea_visit = server.day()["washers"][1]["visits"][0]
    elsewhere = dict(upload, **{"X-Carfit-Visit-Id": bea_visit["visitId"], "X-Carfit-Start-Time-Utc": bea_visit["startTimeUtc"]})
    assert wire.send("PUT", fresh, ada["token"], content, elsewhere)[0] == 422
    assert wire.send("PUT", fresh, ada["token"], content, dict(upload, **{"X-Carfit-Kind": "video"}))[0] == 400
    assert wire.send("PUT", fresh, ada["token"], content, upload, length=False)[0] == 411
    assert wire.send("PUT", fresh, ada["token"], b"", dict(upload, **{"Content-Length": str(64 * 1024 * 1024 + 1)}),
                     length=False)[0] == 413
    assert wire.send("PUT", fresh, None, content, upload)[0] == 401
    assert wire.send("PUT", fresh, ADMIN, content, upload)[0] == 403

    # POST /v1/devices: registered, unregistered, refused.
    device = {"clientId": "ada-phone", "platform": "fcm", "token": "fcm-token-1"}
    status, _, answer = wire.post("/v1/devices", ada["token"], device, valid=True)
    assert (status, answer) == (200, {"device": {"clientId": "ada-phone", "platform": "fcm", "registered": True}})
    status, _, answer = wire.post("/v1/devices", ada["token"], dict(device, token=None), valid=True)
    assert (status, answer["device"]["registered"]) == (200, False)
    status, _, answer = wire.post("/v1/devices", ada["token"], dict(device, platform="sms"))
    assert (status, answer["error"].get("field")) == (400, "platform")
    assert wire.post("/v1/devices", bea["token"], device)[0] == 403
    assert wire.post("/v1/devices", None, device)[0] == 401

    # Every status the document lists for the washer's API was seen, and nothing else was.
    listed = {(method.upper(), template, int(status)) for template, item in OPENAPI["paths"].items()
              for method, op in item.items() for status in op["responses"]}
    assert wire.seen == listed, (listed - wire.seen, wire.seen - listed)


def test_the_check_finds_an_answer_the_document_does_not_describe():
    """The checks above are not empty: answers that break the document are named."""
    json_headers = {"content-type": "application/json"}
    good = json.dumps({"device": {"clientId": "c", "platform": "fcm", "registered": True}}).encode()
    assert problems("POST", "/v1/devices", 200, json_headers, good) == []
    assert any("does not list" in p for p in problems("POST", "/v1/devices", 418, json_headers, good))
    assert any("registered" in p for p in problems("POST", "/v1/devices", 200, json_headers, b'{"device": {"clientId": "c", "platform": "fcm"}}'))
    assert any("WWW-Authenticate missing" in p for p in problems(
        "GET", "/v1/visits", 401, json_headers, b'{"error": {"status": 401, "message": "Sign in."}}'))
    assert any("none of" in p for p in problems("GET", "/v1/visits", 304, {"etag": '"a"'}, b"{}"))
    assert any("ETag" in p for p in problems("GET", "/v1/visits", 200, json_headers,
                                             b'{"success": true, "message": "", "code": 200, "data": []}'))
