"""include/carfit.planner.openapi.json, the planner's washer API: generated from schema/planner
(its schemas naming the contract's definitions), a valid OpenAPI 3.1 document, every path and
status of the washer's API, installed beside the schema. That the library's requests are what
it describes is checked in bindings/python/tests/test_planner_wire.py."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OPENAPI = ROOT / "include" / "carfit.planner.openapi.json"
CONTRACT = ROOT / "include" / "carfit.schema.json"


@pytest.fixture(scope="module")
def api():
    return json.loads(OPENAPI.read_text(encoding="utf-8"))


def test_it_is_a_valid_openapi_3_1_document(api):
    validator = pytest.importorskip("openapi_spec_validator")
    assert api["openapi"].startswith("3.1.")
    validator.validate(api)
    # A broken copy is refused (the validator is really at work).
    broken = json.loads(json.dumps(api))
    broken["paths"]["/v1/visits"]["get"]["responses"]["200"]["content"]["application/json"]["schema"] = {
        "$ref": "#/components/schemas/nothing"}
    with pytest.raises(Exception):
        validator.validate(broken)


def test_every_schema_is_a_valid_json_schema(api):
    jsonschema = pytest.importorskip("jsonschema")
    for name, schema in api["components"]["schemas"].items():
        jsonschema.Draft202012Validator.check_schema(schema)


def test_the_washers_api_every_path_method_and_status(api):
    operations = {(path, method): op for path, item in api["paths"].items() for method, op in item.items()}
    statuses = {key: sorted(op["responses"]) for key, op in operations.items()}
    assert statuses == {
        ("/v1/visits", "get"): ["200", "304", "401", "403"],
        ("/v1/visit-updates", "post"): ["200", "400", "401", "403"],
        ("/v1/locations", "post"): ["200", "400", "401", "403"],
        ("/v1/attachments/{id}", "put"): ["200", "201", "400", "401", "403", "409", "411", "413", "422"],
        ("/v1/devices", "post"): ["200", "400", "401", "403"],
    }
    assert api["security"] == [{"washerToken": []}]
    assert api["components"]["securitySchemes"]["washerToken"] == {
        **api["components"]["securitySchemes"]["washerToken"], "type": "http", "scheme": "bearer"}
    unauthorized = api["components"]["responses"]["Unauthorized"]
    assert "WWW-Authenticate" in unauthorized["headers"]
    visits = operations[("/v1/visits", "get")]
    assert [p["name"] for p in visits["parameters"]] == ["If-None-Match"]
    assert visits["responses"]["200"]["headers"]["ETag"]["required"] is True
    assert "content" not in visits["responses"]["304"]
    upload = {p["name"]: p for p in operations[("/v1/attachments/{id}", "put")]["parameters"]}
    assert upload["X-Carfit-Sha256"]["required"] is True and upload["X-Carfit-Visit-Id"]["required"] is False


def test_the_error_body_names_status_message_and_a_field(api):
    jsonschema = pytest.importorskip("jsonschema")
    check = jsonschema.Draft202012Validator(api["components"]["schemas"]["errorBody"])
    assert check.is_valid({"error": {"status": 400, "message": "mutations must be an array.", "field": "mutations"}})
    assert check.is_valid({"error": {"status": 401, "message": "Sign in."}})
    assert not check.is_valid({"error": {"message": "no status"}})
    assert not check.is_valid({"error": {"status": 401, "message": "x", "code": "unauthorized"}})


def test_its_schemas_are_the_contracts_definitions(api):
    """A shape the library's contract has (an instant, the visit states and their machine) is
    the contract's own, copied by the generator: said once."""
    contract = json.loads(CONTRACT.read_text(encoding="utf-8"))
    for name in ("instant", "visitState"):
        assert api["components"]["schemas"][name] == contract["$defs"][name]
    mutation = api["components"]["schemas"]["mutation"]["properties"]
    assert mutation["state"]["$ref"] == "#/components/schemas/visitState"
    assert mutation["startTimeUtc"]["$ref"] == "#/components/schemas/instant"
    text = OPENAPI.read_text(encoding="utf-8")
    assert "#/$defs/" not in text


def test_make_install_puts_it_beside_the_schema():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"\$\(INSTALL\) -m 644 \$\(OPENAPI\) '\$\(DESTDIR\)\$\(SCHEMADIR\)/carfit.planner.openapi.json'", makefile)
    assert "OPENAPI := $(HERE)/include/carfit.planner.openapi.json" in makefile
