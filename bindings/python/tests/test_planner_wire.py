"""Every request the library sends to a planner is one include/carfit.planner.openapi.json
describes: a loopback planner on the reference update server's rules (examples/servers/
sync_server.py) records each request a core makes (the snapshot and its conditional fetch,
state changes, positions, an attachment, the device's registration, all with the washer's
token) and each is checked against the document: its path and method, its security, its
required headers and their schemas, its body's schema. The answers the planner gave are checked
against the document too."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import carfit
from conftest import DAY_CONFIG, REPO_ROOT

jsonschema = pytest.importorskip("jsonschema")

OPENAPI = json.loads((REPO_ROOT / "include" / "carfit.planner.openapi.json").read_text(encoding="utf-8"))
TOKEN = "washer-token-0123456789abcdef0123456789"


class RecordingPlanner:
    """The washer's API on loopback: the snapshot with an ETag, updates and positions judged by
    the reference update server (SyncServer, not started: handed each body), attachments kept by
    their SHA-256, registrations kept. Every request and answer is recorded."""

    def __init__(self, visits: dict) -> None:
        from sync_server import BadRequest, SyncServer, Unauthorized

        self.rules = SyncServer(visits=visits, token=TOKEN)
        self.exchanges: list = []
        self.attachments: dict = {}
        planner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def answer(self, status: int, body: dict | None, headers: dict | None = None) -> None:
                data = b"" if body is None else json.dumps(body).encode()
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                if body is not None:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                planner.exchanges[-1].update(status=status, answer=body, answer_headers=headers or {})

            def receive(self) -> bytes:
                length = self.headers.get("Content-Length")
                body = self.rfile.read(int(length)) if length else b""
                planner.exchanges.append({"method": self.command, "path": self.path,
                                          "headers": {k: v for k, v in self.headers.items()}, "body": body})
                return body

            def refuse(self, status: int, message: str, extra: dict | None = None) -> None:
                self.answer(status, {"error": {"status": status, "message": message}}, extra)

            def authorised(self) -> bool:
                if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                    self.refuse(401, "Sign in.", {"WWW-Authenticate": "Bearer"})
                    return False
                return True

            def do_GET(self):  # noqa: N802
                self.receive()
                if not self.authorised():
                    return
                if self.path != "/v1/visits":
                    return self.refuse(404, "No such path.")
                snapshot = dict(planner.rules.snapshot(), message="", code=200, success=True)
                tag = '"' + hashlib.sha256(json.dumps(snapshot, sort_keys=True).encode()).hexdigest() + '"'
                if self.headers.get("If-None-Match") == tag:
                    return self.answer(304, None, {"ETag": tag})
                self.answer(200, snapshot, {"ETag": tag})

            def do_POST(self):  # noqa: N802
                body = self.receive()
                if not self.authorised():
                    return
                if self.path == "/v1/devices":
                    sent = json.loads(body)
                    return self.answer(200, {"device": {"clientId": sent["clientId"], "platform": sent["platform"],
                                                        "registered": sent["token"] is not None}})
                if self.path not in ("/v1/visit-updates", "/v1/locations"):
                    return self.refuse(404, "No such path.")
                try:
                    status, answer = planner.rules.push(body, authorization=self.headers.get("Authorization"))
                except Unauthorized as exc:
                    return self.refuse(401, str(exc), {"WWW-Authenticate": "Bearer"})
                except BadRequest as exc:
                    return self.refuse(400, str(exc))
                self.answer(status, json.loads(answer))

            def do_PUT(self):  # noqa: N802
                body = self.receive()
                if not self.authorised():
                    return
                ident = self.path.rsplit("/", 1)[-1]
                digest = hashlib.sha256(body).hexdigest()
                if digest != self.headers.get("X-Carfit-Sha256"):
                    return self.refuse(422, "The body's SHA-256 is not X-Carfit-Sha256.")
                again = ident in planner.attachments
                planner.attachments[ident] = body
                self.answer(200 if again else 201, {"attachment": {
                    "id": ident, "visitId": self.headers.get("X-Carfit-Visit-Id"),
                    "startTimeUtc": self.headers.get("X-Carfit-Start-Time-Utc"), "kind": self.headers.get("X-Carfit-Kind"),
                    "contentType": self.headers.get("Content-Type"), "bytes": len(body), "sha256": digest}})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"

    def __enter__(self) -> "RecordingPlanner":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(10)


def validator(pointer_or_schema) -> "jsonschema.Draft202012Validator":
    """A validator of a schema of the document, its $refs resolved inside the document."""
    schema = pointer_or_schema if isinstance(pointer_or_schema, dict) else {"$ref": pointer_or_schema}
    return jsonschema.Draft202012Validator({**OPENAPI, **schema})


def operation_of(method: str, path: str):
    """(path template, operation, path parameters) the document gives a request, or None."""
    for template, item in OPENAPI["paths"].items():
        pattern = "^" + re.sub(r"\\\{([^}]+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$"
        found = re.match(pattern, path.split("?", 1)[0])
        if found and method.lower() in item:
            return template, item[method.lower()], found.groupdict()
    return None


def problems_of_request(exchange: dict) -> list:
    """What the document says is wrong with a recorded request (empty: nothing)."""
    found = operation_of(exchange["method"], exchange["path"])
    if found is None:
        return [f"{exchange['method']} {exchange['path']}: no such operation"]
    template, operation, path_values = found
    where = f"{exchange['method']} {template}"
    problems = []
    headers = {name.lower(): value for name, value in exchange["headers"].items()}
    if OPENAPI["security"] == [{"washerToken": []}] and not re.match(r"^Bearer \S+$", headers.get("authorization", "")):
        problems.append(f"{where}: no bearer token")
    for parameter in operation.get("parameters", []):
        value = path_values.get(parameter["name"]) if parameter["in"] == "path" else headers.get(parameter["name"].lower())
        if value is None:
            if parameter.get("required"):
                problems.append(f"{where}: required {parameter['in']} parameter {parameter['name']} missing")
            continue
        schema = parameter["schema"]
        resolved = schema
        while "$ref" in resolved:
            resolved = OPENAPI["components"]["schemas"][resolved["$ref"].rsplit("/", 1)[-1]]
        typed = int(value) if resolved.get("type") == "integer" and value.isdigit() else value
        for error in validator(schema).iter_errors(typed):
            problems.append(f"{where}: {parameter['name']} {value!r}: {error.message}")
    body = operation.get("requestBody")
    if body is not None:
        if body.get("required") and not exchange["body"]:
            problems.append(f"{where}: no body")
        content = body["content"]
        if "application/json" in content:
            if not headers.get("content-type", "").startswith("application/json"):
                problems.append(f"{where}: Content-Type {headers.get('content-type')!r}")
            document = json.loads(exchange["body"])
            for error in validator(content["application/json"]["schema"]).iter_errors(document):
                problems.append(f"{where}: body at {list(error.absolute_path)}: {error.message}")
    elif exchange["body"]:
        problems.append(f"{where}: a body the operation does not take")
    return problems


def problems_of_answer(exchange: dict) -> list:
    _, operation, _ = operation_of(exchange["method"], exchange["path"])
    where = f"{exchange['method']} {exchange['path']} -> {exchange['status']}"
    response = operation["responses"].get(str(exchange["status"]))
    if response is None:
        return [f"{where}: a status the document does not list"]
    if "$ref" in response:
        response = OPENAPI["components"]["responses"][response["$ref"].rsplit("/", 1)[-1]]
    problems = [f"{where}: header {name} missing" for name, header in response.get("headers", {}).items()
                if header.get("required") and name not in exchange["answer_headers"]]
    content = response.get("content", {}).get("application/json")
    if content is None:
        return problems + ([f"{where}: a body the answer has none of"] if exchange["answer"] is not None else [])
    return problems + [f"{where}: answer at {list(e.absolute_path)}: {e.message}"
                       for e in validator(content["schema"]).iter_errors(exchange["answer"])]


def test_every_request_the_library_sends_is_one_the_openapi_document_describes(lib, sample, tmp_path):
    with RecordingPlanner(sample) as planner:
        sources = {"visits": planner.url("/v1/visits"), "visitUpdates": planner.url("/v1/visit-updates"),
                   "locations": planner.url("/v1/locations"), "attachments": planner.url("/v1/attachments"),
                   "devices": planner.url("/v1/devices")}
        config = dict(DAY_CONFIG, database=str(tmp_path / "wire.db"), sources=sources)
        with carfit.Core(config) as core:
            core.auth_set(TOKEN)
            core.refresh_visits()
            core.refresh_visits()  # the snapshot again: If-None-Match, 304
            cards = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
            todo = next(c for c in cards if "InProgress" in c["nextStates"])
            started = core.set_visit_state(todo["key"], "InProgress")["visit"]
            core.set_visit_state(started["key"], "Done")
            running = next(c for c in cards if c["state"] == "InProgress")
            core.set_visit_state(running["key"], "Rejected", reason="Nobody home")
            core.report_location(55.77883, 12.52124, 12.5)
            core.attach(todo["key"], "note", text="Washed the windows; the gate code is 1234.")
            core.register_push("fcm", "device-token-1")
            result = core.push()
            assert result["pushed"] >= 3, result
    exchanges = planner.exchanges
    kinds = {(e["method"], operation_of(e["method"], e["path"])[0]) for e in exchanges}
    assert kinds == {("GET", "/v1/visits"), ("POST", "/v1/visit-updates"), ("POST", "/v1/locations"),
                     ("PUT", "/v1/attachments/{id}"), ("POST", "/v1/devices")}, kinds
    assert 304 in [e["status"] for e in exchanges], "the conditional fetch was made"
    problems = [p for e in exchanges for p in problems_of_request(e) + problems_of_answer(e)]
    assert problems == []


def test_the_check_finds_a_request_the_document_does_not_describe():
    """The checks above are not empty: requests that break the document are named."""
    good = {"method": "POST", "path": "/v1/devices", "headers": {"Authorization": f"Bearer {TOKEN}",
            "Content-Type": "application/json"}, "body": b'{"clientId": "c", "platform": "fcm", "token": "t"}'}
    assert problems_of_request(good) == []
    for change, expected in [
            ({"headers": {"Content-Type": "application/json"}}, "no bearer token"),
            ({"body": b'{"clientId": "c", "platform": "sms", "token": "t"}'}, "body at ['platform']"),
            ({"body": b'{"clientId": "c", "token": "t"}'}, "'platform' is a required property"),
            ({"path": "/v1/device"}, "no such operation")]:
        found = problems_of_request({**good, **change})
        assert any(expected in p for p in found), (change, found)
    upload = {"method": "PUT", "path": "/v1/attachments/a1", "body": b"x",
              "headers": {"Authorization": f"Bearer {TOKEN}", "Content-Length": "1", "X-Carfit-Kind": "note",
                          "X-Carfit-Start-Time-Utc": "2020-09-10T08:05:00Z", "X-Carfit-Sha256": "A" * 64}}
    assert any("X-Carfit-Sha256" in p for p in problems_of_request(upload))
    del upload["headers"]["X-Carfit-Kind"]
    assert any("X-Carfit-Kind missing" in p for p in problems_of_request(upload))
