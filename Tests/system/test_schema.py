"""include/carfit.schema.json, the machine-readable contract: generated from schema/ by
scripts/gen-schema (every generated file up to date), a valid JSON Schema (draft 2020-12) of
exactly the header's operations, closed responses, and the very text carfit_schema() returns."""
import ast
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "include" / "carfit.h"
SCHEMA_PATH = ROOT / "include" / "carfit.schema.json"
GENERATOR = ROOT / "scripts" / "gen-schema"
LIBRARY = Path(os.environ.get("CARFIT_LIBRARY", ROOT / ".build" / "release" / "libcarfit.so"))
GENERATED = ["include/carfit.schema.json", "Sources/CarFit/Generated/SchemaText.swift",
             "Sources/CarFit/Generated/RequestTypes.swift", "Sources/CarFit/Generated/RequestDescriptions.swift",
             "Sources/CarFitCore/Generated/Status.swift", "Sources/CarFitCore/Generated/VisitTransitions.swift",
             "Sources/CarFitCore/Generated/ConfigMembers.swift", "Sources/CarFit/Generated/Exports.swift",
             "Sources/CarFit/Generated/Operations.swift",
             "bindings/python/carfit/_generated.py", "examples/web/core_api.py", "include/carfit.planner.openapi.json",
             "bindings/python/carfit/errors.py", "README.md", "fuzz/methods.txt", "examples/web/methods.json",
             "bindings/swift/Sources/CarFitKit/Generated/Status.swift",
             "bindings/swift/Sources/CarFitKit/Generated/Types.swift",
             "bindings/swift/Sources/CarFitKit/Generated/Operations.swift"]
#: Hand-written files with a region the generator writes (the statuses).
WITH_REGIONS = ["bindings/python/carfit/errors.py", "README.md", "examples/web/core_api.py"]
#: The generator and the modules it imports.
GENERATOR_FILES = ["scripts/gen-schema", "scripts/contract_model.py", "scripts/gen_java.py", "scripts/gen_swift_kit.py",
                   "scripts/gen_openapi.py"]


@pytest.fixture(scope="module")
def schema():
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def header_operations():
    """The symbols of the header's request operations (plus carfit_images_data), in order."""
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(encoding="utf-8"), flags=re.S)
    return re.findall(r"^int (carfit_[a-z0-9_]+)\(carfit_core \*core, const char \*request,", text, re.M)


def test_every_generated_file_is_up_to_date(tmp_path):
    """Every file the generator writes (whatever it is: the list is the generator's) is the one
    in the repository."""
    subprocess.run([sys.executable, str(GENERATOR), "--out", str(tmp_path)], check=True)
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert set(GENERATED) <= set(written)
    stale = [name for name in written
             if not (ROOT / name).is_file()
             or (tmp_path / name).read_text(encoding="utf-8") != (ROOT / name).read_text(encoding="utf-8")]
    assert stale == [], f"stale (run scripts/gen-schema): {stale}"


def copy_of_the_tree(tmp_path):
    """The generator reads the header and fragments of the tree it lives in: a copy to change."""
    copy = tmp_path / "repo"
    for name in [*GENERATOR_FILES, "include/carfit.h", *WITH_REGIONS]:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes((ROOT / name).read_bytes())
    subprocess.run(["cp", "-r", str(ROOT / "schema"), str(copy / "schema")], check=True)
    return copy


def test_check_fails_when_a_generated_file_is_changed_by_hand(tmp_path):
    copy = copy_of_the_tree(tmp_path)
    for name in GENERATED:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes((ROOT / name).read_bytes())
    shutil.copytree(ROOT / "bindings/java/src/generated", copy / "bindings/java/src/generated")
    check = [sys.executable, str(copy / "scripts/gen-schema"), "--check"]
    assert subprocess.run(check, capture_output=True, text=True).returncode == 0
    for name, old, new in [
            ("Sources/CarFit/Generated/RequestTypes.swift", "maximum: 999.0", "maximum: 9999.0"),
            ("Sources/CarFit/Generated/RequestDescriptions.swift", "keepOrder?", ""),
            ("Sources/CarFitCore/Generated/Status.swift", "case notFound = 3", "case notFound = 33"),
            ("bindings/python/carfit/errors.py", "status = 3\n", "status = 30\n"),
            ("README.md", "| 3 | not_found |", "| 3 | missing |")]:
        original = (copy / name).read_text(encoding="utf-8")
        assert old in original, (name, old)
        (copy / name).write_text(original.replace(old, new, 1), encoding="utf-8")
        run = subprocess.run(check, capture_output=True, text=True)
        assert run.returncode == 1 and f"{name} is stale" in run.stderr, (name, run.stderr)
        (copy / name).write_text(original, encoding="utf-8")
    assert subprocess.run(check, capture_output=True, text=True).returncode == 0


def test_check_names_every_generated_file_edited_by_hand(tmp_path):
    """Every file the generator writes (the schema, the library's generated sources and operation
    table, every package's generated part, the regions of hand-written files): a hand edit of any
    is named by --check (what the test of every generated file being up to date compares)."""
    copy = copy_of_the_tree(tmp_path)
    run = subprocess.run([sys.executable, str(copy / "scripts/gen-schema")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    written = generate(copy, tmp_path / "out")
    assert written.returncode == 0, written.stderr
    files = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert set(GENERATED) <= set(files) and any(name.startswith("bindings/java/") for name in files)
    check = [sys.executable, str(copy / "scripts/gen-schema"), "--check"]
    assert subprocess.run(check, capture_output=True, text=True).returncode == 0
    for name in files:
        text = (copy / name).read_text(encoding="utf-8")
        if name in WITH_REGIONS:  # a hand-written file: an edit inside its generated region
            begin = text.index("\n", text.index("BEGIN generated")) + 1
            text = text[:begin] + "\n" + text[begin:]
        else:
            text += " "
        (copy / name).write_text(text, encoding="utf-8")
    run = subprocess.run(check, capture_output=True, text=True)
    named = set(re.findall(r"^gen-schema: (\S+) is stale", run.stderr, re.M))
    assert run.returncode == 1 and named == set(files), sorted(set(files) - named)


def test_the_statuses_are_written_once_in_the_header(tmp_path):
    """A status macro added to the header reaches every generated list of the statuses."""
    copy = copy_of_the_tree(tmp_path)
    header = copy / "include/carfit.h"
    text = header.read_text()
    text = text.replace("#define CARFIT_MISUSE        8", "#define CARFIT_TOO_LATE      8  /* the deadline passed */\n"
                        "#define CARFIT_MISUSE        9")
    text = text.replace("#define CARFIT_INTERNAL      9", "#define CARFIT_INTERNAL      10")
    header.write_text(text)
    # A host that answers over HTTP must be told its HTTP status: the generator says so.
    run = generate(copy, tmp_path / "out")
    assert run.returncode == 1 and "no HTTP status for ['too_late']" in run.stderr, run.stderr
    model = copy / "scripts/contract_model.py"
    model.write_text(model.read_text().replace('HTTP_STATUS = {\n', 'HTTP_STATUS = {\n    "too_late": 504,\n'))
    run = generate(copy, tmp_path / "out")
    assert run.returncode == 0, run.stderr
    out = tmp_path / "out"
    assert '"too_late": 504,' in (out / "examples/web/core_api.py").read_text()
    assert "case tooLate = 8" in (out / "Sources/CarFitCore/Generated/Status.swift").read_text()
    assert "case `internal` = 10" in (out / "Sources/CarFitCore/Generated/Status.swift").read_text()
    errors = (out / "bindings/python/carfit/errors.py").read_text()
    assert "class TooLateError(CarfitError):" in errors and "    8: \"too_late\"," in errors
    assert "| 8 | too_late | the deadline passed |" in (out / "README.md").read_text()
    # The error document's codes too; the web example's HTTP statuses need one for it first.
    contract = json.loads((out / "include/carfit.schema.json").read_text())
    assert "too_late" in contract["$defs"]["errorDocument"]["properties"]["error"]["properties"]["code"]["enum"]
    # An operation may now list it among its errors.
    (copy / "schema/operations/zz.json").write_text(json.dumps({"operations": {"sync.push": {"errors": ["too_late"]}}}))
    run = generate(copy, tmp_path / "out2")
    assert run.returncode == 0, run.stderr


def test_the_error_codes_are_the_headers_statuses(schema):
    """The error document's code lists every status but ok, from the header (schema/ does not
    keep the list)."""
    header = HEADER.read_text(encoding="utf-8")
    macros = re.findall(r"^#define CARFIT_([A-Z_]+)\s+(\d+)\s*/\*", header, re.M)
    names = [name.lower() for name, _ in sorted(macros, key=lambda m: int(m[1])) if not name.startswith("VERSION")]
    assert schema["error"] == {"$ref": "#/$defs/errorDocument"}
    assert schema["$defs"]["errorDocument"]["properties"]["error"]["properties"]["code"]["enum"] == names[1:]
    base = json.loads((ROOT / "schema/base.json").read_text(encoding="utf-8"))
    assert "enum" not in base["error"]["properties"]["error"]["properties"]["code"]


def test_push_receive_refresh_error_is_the_error_document(schema):
    """A refresh's failure in push.receive is checked as the error document (closed, its code one
    of the statuses), not as any object."""
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator({**schema, "$ref": "#/operations/push.receive/response"})
    answer = {"duplicate": False, "gap": False, "refreshed": False, "changes": [], "notifications": [],
              "refreshError": {"error": {"code": "unavailable", "message": "The server did not answer.",
                                         "reason": "timeout", "url": "http://127.0.0.1:9/visits"}}}
    assert list(validator.iter_errors(answer)) == []
    assert list(validator.iter_errors({**answer, "refreshError": None})) == []
    for wrong in [{"error": {"code": "gone", "message": "x"}}, {"error": {"code": "unavailable"}},
                  {"error": {"code": "unavailable", "message": "x", "extra": 1}}, {"error": "text"}]:
        assert list(validator.iter_errors({**answer, "refreshError": wrong})), wrong


def test_the_visit_state_machine_is_written_once(schema):
    """$defs/visitState's nextStates is the state machine: the library's transitions are
    generated from it and a card's nextStates lists its targets."""
    machine = schema["$defs"]["visitState"]
    assert machine["nextStates"]["Todo"] == ["InProgress", "Rejected"]
    assert schema["$defs"]["card"]["properties"]["nextStates"]["items"] == {"$ref": "#/$defs/visitState"}
    generated = (ROOT / "Sources/CarFitCore/Generated/VisitTransitions.swift").read_text(encoding="utf-8")
    for state, targets in machine["nextStates"].items():
        lower = lambda name: name[:1].lower() + name[1:]
        assert f"case .{lower(state)}?: [{', '.join('.' + lower(t) for t in targets)}]" in generated
    hand = (ROOT / "Sources/CarFitCore/Sync/VisitTransition.swift").read_text(encoding="utf-8")
    assert ".inProgress?, .done" not in hand and "case (.todo?" not in hand, "the rules are not restated by hand"


def test_the_request_descriptions_and_checks_come_from_the_schema(schema):
    """Each operation's generated description names its request members as the schema does,
    and the generated checks state each constraint of the schema's requests."""
    descriptions = (ROOT / "Sources/CarFit/Generated/RequestDescriptions.swift").read_text()
    checks = (ROOT / "Sources/CarFit/Generated/RequestTypes.swift").read_text()
    for key, entry in schema["operations"].items():
        line = re.search(rf'^        "{re.escape(key)}": "(.*)",$', descriptions, re.M)
        assert line, key
        members = list(entry["request"].get("properties", {}))
        for member in members:
            assert re.search(rf"\b{re.escape(member)}\b", line.group(1)), (key, member)
        if not members and "array" not in str(entry["request"].get("type")):
            assert line.group(1) == "none", key
        assert f'"{entry["symbol"]}": [' in checks
    assert '"visits.plan": "date, employeeId?, start{latitude, longitude}?, startTime?, speedKmh?, detourFactor?, keepOrder?, durations?"' \
        in descriptions
    assert '"visits.import": "data[] or file"' in descriptions
    for table in ("Sources/CarFit/Manifest.swift", "Sources/CarFit/Generated/Operations.swift"):
        manifest = (ROOT / table).read_text()
        assert "request:" not in manifest, "the manifest's entries take their request from the schema"
    plan = checks[checks.index('"carfit_visits_plan": ['):]
    plan = plan[:plan.index("],\n        \"")]
    assert 'RequestMember(["speedKmh"], types: 68, exclusiveMinimum: 0.0, maximum: 300.0)' in plan
    assert 'RequestMember(["start", "latitude"], types: 4, required: true, minimum: -90.0, maximum: 90.0)' in plan


def generate(copy, out):
    return subprocess.run([sys.executable, str(copy / "scripts/gen-schema"), "--out", str(out)],
                          capture_output=True, text=True)


def test_a_fragment_may_extend_an_operation_of_another_but_not_contradict_it(tmp_path):
    copy = copy_of_the_tree(tmp_path)
    extension = copy / "schema/operations/zz-extension.json"
    extension.write_text(json.dumps({"operations": {"sync.push": {
        "response": {"properties": {"locations": {"type": "object", "properties": {"pushed": {"type": "integer"}},
                                                  "additionalProperties": False}}},
        "errors": ["unauthorized"]}}}))
    run = generate(copy, tmp_path / "out")
    assert run.returncode == 0, run.stderr
    push = json.loads((tmp_path / "out/include/carfit.schema.json").read_text())["operations"]["sync.push"]
    assert "locations" in push["response"]["properties"] and "pushed" in push["response"]["properties"]
    assert push["errors"][:2] == ["bad_json", "invalid"] and "unauthorized" in push["errors"]
    assert push["symbol"] == "carfit_sync_push"

    extension.write_text(json.dumps({"operations": {"sync.push": {"symbol": "carfit_sync_pull"}}}))
    run = generate(copy, tmp_path / "out2")
    assert run.returncode == 1 and "sync.push/symbol: fragments disagree" in run.stderr
    extension.write_text(json.dumps({"operations": {"sync.push": {"request": {"properties": {"ifDue": {"type": "string"}}}}}}))
    run = generate(copy, tmp_path / "out3")
    assert run.returncode == 1 and "fragments disagree" in run.stderr


def test_the_generator_refuses_a_header_operation_without_a_schema(tmp_path):
    copy = copy_of_the_tree(tmp_path)
    header = copy / "include/carfit.h"
    header.write_text(header.read_text().replace(
        "#ifdef __cplusplus\n}",
        "int carfit_road_report(carfit_core *core, const char *request, char **response);\n\n#ifdef __cplusplus\n}"))
    run = generate(copy, tmp_path / "out")
    assert run.returncode == 1 and "carfit_road_report is declared in the header" in run.stderr


def test_a_new_areas_fragment_adds_its_operation_and_extends_card_config_and_events(tmp_path):
    copy = copy_of_the_tree(tmp_path)
    header = copy / "include/carfit.h"
    header.write_text(header.read_text().replace(
        "#ifdef __cplusplus\n}",
        "int carfit_road_report(carfit_core *core, const char *request, char **response);\n\n#ifdef __cplusplus\n}"))
    (copy / "schema/operations/road.json").write_text(json.dumps({
        "operations": {"road.report": {
            "symbol": "carfit_road_report", "locking": "serialized", "summary": "Report a position.",
            "request": {"type": "object", "properties": {"latitude": {"type": "number"}}},
            "response": {"type": "object", "properties": {"stored": {"type": "boolean"}},
                         "required": ["stored"], "additionalProperties": False},
            "errors": ["bad_json", "invalid"]}},
        "$defs": {"card": {"properties": {"arrivedAt": {"type": ["string", "null"]}}, "required": ["arrivedAt"]},
                  "event": {"oneOf": [{"type": "object", "properties": {"seq": {"type": "integer"},
                                                                        "kind": {"const": "arrival"}},
                                       "additionalProperties": False}]}},
        "config": {"properties": {"demo": {"type": "object", "additionalProperties": False}}}}))
    run = generate(copy, tmp_path / "out")
    assert run.returncode == 0, run.stderr
    schema = json.loads((tmp_path / "out/include/carfit.schema.json").read_text())
    assert list(schema["operations"])[-1] == "road.report"
    card = schema["$defs"]["card"]
    assert "arrivedAt" in card["properties"] and "arrivedAt" in card["required"] and "key" in card["properties"]
    assert card["additionalProperties"] is False
    assert "demo" in schema["config"]["properties"] and "database" in schema["config"]["properties"]
    kinds = [k["properties"]["kind"]["const"] for k in schema["$defs"]["event"]["oneOf"]]
    assert kinds[-1] == "arrival" and "changed" in kinds
    python = (tmp_path / "out/bindings/python/carfit/_generated.py").read_text()
    assert '"carfit_road_report": OPERATION' in python and "class RoadReportResult(TypedDict)" in python
    assert '"carfit_road_report": [' in (tmp_path / "out/Sources/CarFit/Generated/RequestTypes.swift").read_text()
    # Its entry of the library's operation table: the schema's locking, the entry point named after the method.
    table = (tmp_path / "out/Sources/CarFit/Generated/Operations.swift").read_text()
    assert ('        Operation("road.report", "carfit_road_report", .serialized,\n'
            '                  .object { core, request throws(CarFitError) in try RoadAPI.report(core, request) }),\n') in table
    assert table.index('"road.report"') > table.index('"storage.rekey"')


def test_each_operation_says_its_locking_and_a_body_that_fits_it(tmp_path):
    """The operation table's locking and body kind are the schema entry's "locking" and "output",
    checked by the generator and kept out of the published contract."""
    copy = copy_of_the_tree(tmp_path)
    day = copy / "schema/operations/day.json"
    original = day.read_text()
    for old, new, error in [
            ('"locking": "serialized",\n      "output": "written",', '"output": "written",',
             "visits.list: locking must be one of"),
            ('"locking": "serialized",\n      "output": "written",', '"locking": "locked",\n      "output": "written",',
             "visits.list: locking must be one of"),
            ('"locking": "serialized",\n      "output": "written",', '"locking": "selfLocking",\n      "output": "written",',
             "visits.list: locking selfLocking does not fit its body"),
            ('"locking": "serialized",\n      "output": "written",', '"locking": "serialized",\n      "output": "text",',
             "visits.list: output must be one of"),
            ('"locking": "streamed",', '"locking": "streamed",\n      "output": "written",',
             "visits.import: locking streamed does not fit its body")]:
        assert old in original, old
        day.write_text(original.replace(old, new, 1))
        run = generate(copy, tmp_path / "out")
        assert run.returncode == 1 and error in run.stderr, (new, run.stderr)
    day.write_text(original)
    run = generate(copy, tmp_path / "out")
    assert run.returncode == 0, run.stderr
    schema = json.loads((tmp_path / "out/include/carfit.schema.json").read_text())
    assert all(set(entry) == {"symbol", "summary", "request", "response", "errors"}
               for entry in schema["operations"].values())
    table = (tmp_path / "out/Sources/CarFit/Generated/Operations.swift").read_text()
    assert ('Operation("visits.list", "carfit_visits_list", .serialized,\n'
            '                  .written { core, request throws(CarFitError) in try VisitsAPI.list(core, request) })') in table
    assert ('Operation(nil, "carfit_images_data", .selfLocking,\n'
            '                  .binary { core, request throws(CarFitError) in try ImagesAPI.data(core, request) })') in table


def test_it_is_a_valid_draft_2020_12_schema(schema):
    jsonschema = pytest.importorskip("jsonschema")
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    for entry in schema["operations"].values():
        jsonschema.Draft202012Validator.check_schema(dict(entry["request"], **{"$defs": schema["$defs"]}))


def test_its_top_level_and_version(schema):
    assert {"$schema", "title", "version", "operations", "config", "error", "event", "$defs"} <= set(schema)
    version = ".".join(re.search(rf"^#define CARFIT_VERSION_{p} (\d+)$", HEADER.read_text(), re.M).group(1)
                       for p in ("MAJOR", "MINOR", "PATCH"))
    assert schema["version"] == version


def test_the_operations_are_exactly_the_headers_in_order(schema):
    symbols = [entry["symbol"] for entry in schema["operations"].values()]
    assert symbols == header_operations()
    for key, entry in schema["operations"].items():
        area, _, verb = entry["symbol"][len("carfit_"):].partition("_")
        assert key == f"{area}.{verb}"
        assert set(entry) == {"symbol", "summary", "request", "response", "errors"}
        assert entry["summary"]
        assert "bad_json" in entry["errors"] and not {"misuse", "internal", "ok"} & set(entry["errors"])


def walk(node, where="#"):
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from walk(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, f"{where}/{i}")


def described(schema, node):
    """A member's description: its own, else (a bare $ref) that of the definition it names."""
    if not isinstance(node, dict):
        return ""
    text = node.get("description")
    if isinstance(text, str) and text.strip():
        return text
    if isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/"):
        target = schema
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        return described(schema, target)
    return ""


def undescribed(schema, node, where):
    """The paths of the members under node (its properties, and those of what it nests: items,
    compositions, variants) without a description."""
    if not isinstance(node, dict):
        return []
    out = []
    for name, member in (node.get("properties") or {}).items():
        if not described(schema, member):
            out.append(f"{where}/properties/{name}")
        out += undescribed(schema, member, f"{where}/properties/{name}")
    for key in ("items", "additionalProperties"):
        out += undescribed(schema, node.get(key), f"{where}/{key}")
    for key in ("allOf", "anyOf", "oneOf", "prefixItems"):
        for i, part in enumerate(node.get(key) or []):
            out += undescribed(schema, part, f"{where}/{key}/{i}")
    return out


def test_every_operation_member_and_definition_is_described(schema):
    """Every operation has a summary, and every request, response, event and config member and
    every definition (and each of its members) a description, which the bindings carry as their
    doc comments."""
    missing = [f"#/operations/{key}/summary" for key, entry in schema["operations"].items()
               if not str(entry.get("summary", "")).strip()]
    for key, entry in schema["operations"].items():
        missing += undescribed(schema, entry["request"], f"#/operations/{key}/request")
        missing += undescribed(schema, entry["response"], f"#/operations/{key}/response")
    for root in ("config", "error", "event"):
        missing += undescribed(schema, schema[root], f"#/{root}")
    for name, definition in schema["$defs"].items():
        if not described(schema, definition):
            missing.append(f"#/$defs/{name}")
        missing += undescribed(schema, definition, f"#/$defs/{name}")
    assert missing == [], f"{len(missing)} without a description (add one in schema/): {missing}"


def test_every_ref_resolves_inside_the_document(schema):
    for where, node in walk(schema):
        if "$ref" in node:
            assert node["$ref"].startswith("#/$defs/"), where
            assert node["$ref"][len("#/$defs/"):] in schema["$defs"], where


def test_response_objects_config_and_error_are_closed(schema):
    used = set()
    roots = [schema["error"], schema["config"], schema["event"]] + [e["response"] for e in schema["operations"].values()]
    stack = list(roots)
    while stack:
        node = stack.pop()
        for where, item in walk(node):
            if "$ref" in item and item["$ref"] not in used:
                used.add(item["$ref"])
                stack.append(schema["$defs"][item["$ref"].rsplit("/", 1)[1]])
            types = item.get("type")
            if types == "object" or (isinstance(types, list) and "object" in types):
                # Closed by additionalProperties, or, composing definitions (allOf), by unevaluatedProperties.
                if "allOf" in item:
                    assert item.get("unevaluatedProperties") is False and "additionalProperties" not in item, where
                else:
                    assert "additionalProperties" in item and item["additionalProperties"] is not True, where
    # Requests stay open: unknown members are ignored.
    for key, entry in schema["operations"].items():
        assert entry["request"].get("additionalProperties", True) is not False, key


def test_an_object_composing_definitions_stays_closed(schema):
    """An object that composes shared members (allOf) is closed by unevaluatedProperties: a
    member none of its parts names is refused, the composed ones are not."""
    jsonschema = pytest.importorskip("jsonschema")
    composed = [(where, node) for where, node in walk(schema) if "allOf" in node and node.get("type") == "object"]
    assert len(composed) >= 2
    for where, node in composed:
        errors = list(jsonschema.Draft202012Validator(dict(node, **{"$defs": schema["$defs"]})).iter_errors({"notAMember": 1}))
        assert [e for e in errors if e.validator == "unevaluatedProperties" and "notAMember" in e.message], where
    attachment = {"id": "0f8fad5b-d9cb-469f-a165-70867728950e", "key": "k", "kind": "note",
                  "contentType": "text/plain; charset=utf-8", "bytes": 2, "sha256": "0" * 64,
                  "at": "2020-09-10T08:05:00Z", "uploaded": False}

    def errors(name, instance):
        return list(jsonschema.Draft202012Validator(dict(schema, **{"$ref": f"#/$defs/{name}"})).iter_errors(instance))
    assert errors("attachment", attachment) == [] and errors("listedAttachment", dict(attachment, path=None)) == []
    assert errors("attachment", dict(attachment, path=None)) and errors("listedAttachment", attachment)


def test_carfit_schema_returns_the_installed_text():
    lib = ctypes.CDLL(str(LIBRARY))
    lib.carfit_schema.restype = ctypes.c_void_p
    lib.carfit_schema.argtypes = []
    first, second = lib.carfit_schema(), lib.carfit_schema()
    assert first and first == second, "carfit_schema() must return one static string"
    assert ctypes.string_at(first) == SCHEMA_PATH.read_bytes()


def test_the_fuzzers_and_the_web_apps_methods_come_from_the_schema(schema):
    """fuzz/methods.txt: every method carfit_call reaches, sorted; the web app's list: those less
    the ones a fragment marks "web": false (never the host's imports or the change feed)."""
    reached = [key for key, entry in schema["operations"].items()
               if entry["symbol"] not in ("carfit_images_data", "carfit_visits_attachment_data")]
    listed = [line for line in (ROOT / "fuzz" / "methods.txt").read_text(encoding="utf-8").splitlines()
              if line and not line.startswith("#")]
    assert listed == sorted(reached)
    web = json.loads((ROOT / "examples" / "web" / "methods.json").read_text(encoding="utf-8"))["methods"]
    assert web == [key for key in reached if key in web] and set(web) < set(reached)
    assert not [key for key in web if key.endswith(".import") or key in ("events.wait", "visits.attach")]
    assert {"visits.list", "cart.add", "session.login", "sources.status"} <= set(web)


def header_sections():
    """Each function symbol of the header -> the text of its section (the section's prose and
    every function comment in it), where its shared shapes are documented."""
    text = HEADER.read_text(encoding="utf-8")
    found = {}
    for section in re.split(r"\n/\* -{20,}", text):
        for symbol in re.findall(r"^int (carfit_[a-z0-9_]+)\(", section, re.M):
            found[symbol] = section
    return found


def members_of(schema, node, seen=()):
    """The member names of an object schema: its properties, those of what it composes
    ($ref, allOf) and of its variants (oneOf, anyOf), with their schemas."""
    if not isinstance(node, dict):
        return {}
    if isinstance(node.get("$ref"), str):
        if node["$ref"] in seen:
            return {}
        target = schema
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        return {**members_of(schema, target, seen + (node["$ref"],)), **node.get("properties", {})}
    out = dict(node.get("properties", {}))
    for key in ("allOf", "oneOf", "anyOf"):
        for part in node.get(key, []):
            out.update(members_of(schema, part, seen))
    return out


def test_the_headers_documentation_names_every_member_of_the_model(schema):
    """The header's per-function documentation agrees with the model: each operation's comment
    names its method, and its section documents every request member and every response member
    (as "name", or as a member list's `name  text` line). A member of a shared definition
    whose description scopes it to another operation ("visits.import: ...") is that one's."""
    sections = header_sections()
    missing = []
    for key, entry in schema["operations"].items():
        section = sections.get(entry["symbol"])
        assert section is not None, entry["symbol"]
        if key not in ("images.data", "visits.attachment_data"):  # bytes out: no method name
            assert f'{entry["symbol"]} (method "{key}")' in section, key
        for where in ("request", "response"):
            for name, member in members_of(schema, entry[where]).items():
                scope = re.match(r"^([a-z]+\.[a-z_]+): ", (member or {}).get("description", ""))
                if scope and scope.group(1) != key:
                    continue
                if f'"{name}"' not in section and not re.search(rf"^ \*\s+{re.escape(name)}\s{{2,}}\S", section, re.M):
                    missing.append(f"{key} {where} {name}")
    assert missing == []


def test_the_config_checks_are_generated_from_the_schema(schema, tmp_path):
    """The config's members and the bounds of its numbers are the schema's: generated into
    ConfigMembers.swift, which the config reader uses (it writes no bound of its own)."""
    generated = (ROOT / "Sources/CarFitCore/Generated/ConfigMembers.swift").read_text(encoding="utf-8")
    for name, member in schema["config"]["properties"].items():
        assert f'"{name}"' in generated.split("public static let root", 1)[1].split("\n", 1)[0]
        for inner in member.get("properties", {}):
            assert f'"{inner}"' in generated
    assert "public static let httpTimeoutMs: ClosedRange<Int64> = 1...600_000" in generated
    reader = (ROOT / "Sources/CarFitAPI/ConfigAPI.swift").read_text(encoding="utf-8")
    assert not re.search(r"\bin: -?[0-9]", reader), "a bound written by hand"
    assert not (ROOT / "Sources/CarFitCore/Config/ConfigMembers.swift").exists()
    # A fragment that adds a member or moves a bound changes the generated checks.
    copy = copy_of_the_tree(tmp_path)
    (copy / "schema/operations/zz-config.json").write_text(json.dumps({"config": {"properties": {
        "http": {"properties": {"retries": {"type": ["integer", "null"], "minimum": 0, "maximum": 9}}}}}}))
    run = generate(copy, tmp_path / "out")
    assert run.returncode == 0, run.stderr
    out = (tmp_path / "out/Sources/CarFitCore/Generated/ConfigMembers.swift").read_text()
    assert '"minBytesPerSecond", "retries"]' in out
    assert "public static let httpRetries: ClosedRange<Int64> = 0...9" in out


def test_every_operations_export_is_generated_from_the_header():
    """Adding an operation writes no export by hand: each request operation of the header has
    its one-line export in the generated file, and no hand-written file declares one."""
    generated = (ROOT / "Sources/CarFit/Generated/Exports.swift").read_text(encoding="utf-8")
    exported = re.findall(r"^@c public func (carfit_[a-z0-9_]+)\(", generated, re.M)
    assert exported == header_operations()
    for path in (ROOT / "Sources/CarFit/Exports").glob("*.swift"):
        text = path.read_text(encoding="utf-8")
        assert "Boundary.export(core, request, response)" not in text, path.name


SWIFT_TYPES = ROOT / "bindings" / "swift" / "Sources" / "CarFitKit" / "Generated" / "Types.swift"
PYTHON_TYPES = ROOT / "bindings" / "python" / "carfit" / "_generated.py"
JAVA_TYPES = ROOT / "bindings" / "java" / "src" / "generated" / "java" / "io" / "carfit"


def words(text):
    return " ".join(text.split())


def doc_blocks(lines, marker):
    """The text of each run of comment lines starting with ``marker`` ("///", "#:"), joined."""
    blocks, run = [], []
    for line in lines + [""]:
        stripped = line.strip()
        if stripped.startswith(marker):
            run.append(stripped[len(marker):].strip())
        elif run:
            blocks.append(words(" ".join(run)))
            run = []
    return blocks


def java_unescaped(text):
    return (text.replace("&lt;", "<").replace("&gt;", ">").replace("&#64;", "@").replace("*&#47;", "*/")
            .replace("&amp;", "&"))


def test_every_binding_documents_its_types_and_members_without_placeholders():
    """Each generated type and member of the Swift, Java and Python packages has a doc comment, none
    empty and none a placeholder (the member's name instead of its description)."""
    problems = []
    swift = SWIFT_TYPES.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(swift):
        if line.strip() == "///":
            problems.append(f"Types.swift:{i + 1}: empty doc comment")
        if re.match(r"\s*public (struct|var|typealias) ", line) and not swift[i - 1].strip().startswith("/// "):
            problems.append(f"Types.swift:{i + 1}: no doc comment: {line.strip()}")
    for path in sorted(JAVA_TYPES.glob("*.java")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if 'the member "' in line or re.fullmatch(r"\s*\* @param \w+\s*", line) or re.search(r"/\*\*\s*\*/", line):
                problems.append(f"{path.name}:{i + 1}: placeholder or empty doc: {line.strip()}")
            if re.match(r"\s*public (static )?(record|enum|sealed interface) ", line) and not lines[i - 1].strip().endswith("*/"):
                problems.append(f"{path.name}:{i + 1}: no doc comment: {line.strip()}")
    python = PYTHON_TYPES.read_text(encoding="utf-8")
    module = ast.parse(python)
    for node in module.body:
        if isinstance(node, ast.ClassDef):
            doc = ast.get_docstring(node)
            if not doc or "A member object" in doc:
                problems.append(f"_generated.py: class {node.name}: no docstring")
    lines = python.splitlines()
    inside = False
    for i, line in enumerate(lines):
        if line.startswith("class "):
            inside = True
        elif line and not line.startswith(" "):
            inside = False
        elif inside and re.match(r"    \w+: ", line) and not lines[i - 1].startswith("    #: "):
            problems.append(f"_generated.py:{i + 1}: member without a #: comment: {line.strip()}")
    assert problems == []


def test_the_bindings_doc_comments_are_the_schemas_descriptions(schema):
    """The doc comment of each member of a definition is its description in the schema, in all
    three packages (read alike through scripts/contract_model.py)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import contract_model
    swift = set(doc_blocks(SWIFT_TYPES.read_text(encoding="utf-8").splitlines(), "///"))
    python = set(doc_blocks(PYTHON_TYPES.read_text(encoding="utf-8").splitlines(), "#:"))
    java = set()
    for path in JAVA_TYPES.glob("*.java"):
        for line in path.read_text(encoding="utf-8").splitlines():
            found = re.match(r"\s*\* @param \w+ (.*)", line)
            if found:
                java.add(java_unescaped(words(found.group(1))))
    missing = []
    for name, definition in schema["$defs"].items():
        for member, value in (definition.get("properties") or {}).items():
            text = contract_model.description(schema, value)
            assert text, f"$defs/{name}/{member}"
            for package, docs in (("swift", swift), ("python", python), ("java", java)):
                if words(text) not in docs:
                    missing.append(f"{package}: $defs/{name}/{member}")
    assert missing == []


def test_every_closed_enum_is_an_enum_in_swift_and_java(schema):
    """Every closed string enum of the contract (contract_model.closed_enums) is an enum in the
    Swift kit and in the Java package, of the same name (a definition's at the top level, one
    written in place nested in the type of its member: VisitsSetStateRequest.State) and with the
    schema's values in order; a request's member of one is typed with it in Swift."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import contract_model
    swift = SWIFT_TYPES.read_text(encoding="utf-8")
    java = "\n".join(path.read_text(encoding="utf-8") for path in sorted(JAVA_TYPES.glob("*.java")))

    swift_enums = {}
    for match in re.finditer(r"public enum (\w+): String, Codable, Sendable, CaseIterable, Hashable \{\n(.*?)\n *\}", swift, re.S):
        swift_enums.setdefault(match.group(1), []).append(re.findall(r'^ *case \S+ = "([^"]*)"$', match.group(2), re.M))
    java_enums = {}
    for match in re.finditer(r"public enum (\w+) \{\n(.*?);\n", java, re.S):
        java_enums.setdefault(match.group(1), []).append(re.findall(r'SerializedName\("([^"]*)"\)', match.group(2)))
    known = contract_model.closed_enums(schema)
    assert len(known) >= 20 and any(path == "operations/calendar.select/request/mode" for path, _ in known)
    for path, t in known:
        parts = path.split("/")
        if parts[0] == "$defs" and len(parts) == 2:
            name = contract_model.definition_name("#/" + path)
        elif parts[-1] == "items":
            name = contract_model.element_type_name(contract_model.type_name(parts[-2]))
        else:
            name = contract_model.type_name(parts[-1])
        values = list(t.values)
        assert values in swift_enums.get(name, []), f"{path}: no Swift enum {name} of {values}"
        assert values in java_enums.get(name, []), f"{path}: no Java enum {name} of {values}"
        if parts[0] == "operations" and parts[2] == "request" and len(parts) == 4:
            owner = contract_model.type_name(parts[1]) + "Request"
            assert re.search(rf"^    public var {parts[3]}: {owner}\.{name}\??$", swift, re.M), path
    # No Swift enum is left without a closed enum of the contract behind it.
    every = sorted(tuple(t.values) for _, t in known)
    for name, found in swift_enums.items():
        for values in found:
            assert tuple(values) in every, name


def test_enum_cases_are_spelt_alike_from_the_values_words(tmp_path):
    """Both packages spell an enum's cases from the words contract_model.value_words finds, and
    a value that is no identifier (a MIME type, a leading digit or dash, a keyword, nothing) still
    makes a case: Swift lowerCamel (escaped or prefixed where it must), Java UPPER_SNAKE; a name
    an earlier value took gets "_" appended in both. The Swift declaration compiles."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import contract_model
    import gen_java
    import gen_swift_kit
    values = ["InProgress", "not_modified", "image/svg+xml", "text/plain; charset=utf-8", "2x", "default",
              "USD", "name", "-name", "", "self"]
    swift = [gen_swift_kit.identifier(c) for c in contract_model.enum_case_names(values, gen_swift_kit.case_name)]
    assert swift == ["inProgress", "notModified", "imageSvgXml", "textPlainCharsetUtf8", "_2x", "`default`",
                     "usd", "name", "name_", "empty", "`self`"]
    java = contract_model.enum_case_names(values, gen_java.enum_constant)
    assert java == ["IN_PROGRESS", "NOT_MODIFIED", "IMAGE_SVG_XML", "TEXT_PLAIN_CHARSET_UTF_8", "V_2X", "DEFAULT",
                    "USD", "NAME", "NAME_", "V_", "SELF"]
    assert contract_model.type_name("first_weekday") == contract_model.type_name("firstWeekday") == "FirstWeekday"
    assert contract_model.element_type_name("Fields") == "Field"
    lines = gen_swift_kit.enum_lines("Odd", "Values that are no identifiers.", values, "")
    assert lines[1] == "public enum Odd: String, Codable, Sendable, CaseIterable, Hashable {"
    assert '    case textPlainCharsetUtf8 = "text/plain; charset=utf-8"' in lines
    swiftc = shutil.which("swiftc")
    if swiftc is None:
        pytest.skip("no swiftc to compile the declaration")
    source = tmp_path / "Odd.swift"
    source.write_text("\n".join(lines) + '\nlet odd: [Odd] = [.`default`, ._2x, .empty, .name_, .`self`]\n'
                      '_ = odd.map(\\.rawValue)\n', encoding="utf-8")
    run = subprocess.run([swiftc, "-typecheck", str(source)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_the_types_are_decided_once_in_the_model(schema):
    """What type each schema is comes from scripts/contract_model.py (type_of), and the three
    packages map it alike: a closed string enum a definition names is an enum of that name in
    Swift and Java with the schema's values in order; "X or null" is X, optional; a value of two
    JSON types is each package's any-JSON type."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import contract_model
    swift = SWIFT_TYPES.read_text(encoding="utf-8")
    python = PYTHON_TYPES.read_text(encoding="utf-8")

    def member(definition, name):
        return contract_model.type_of(schema, schema["$defs"][definition]["properties"][name])

    enums = {name: contract_model.type_of(schema, {"$ref": f"#/$defs/{name}"}) for name in schema["$defs"]}
    enums = {name: t for name, t in enums.items() if t.target.kind == "enum"}
    assert "visitState" in enums
    for name, t in enums.items():
        values = list(t.target.values)
        assert values == [v for v in schema["$defs"][name]["enum"] if v is not None]
        block = swift[swift.index(f"public enum {t.name}: String, Codable, Sendable, CaseIterable, Hashable {{"):]
        block = block[:block.index("\n}")]
        assert re.findall(r'case \w+ = "([^"]*)"', block) == values, t.name
        java = (JAVA_TYPES / f"{t.name}.java").read_text(encoding="utf-8")
        assert f"public enum {t.name} {{" in java
        assert re.findall(r'SerializedName\("([^"]*)"\)', java) == values, t.name

    states = member("card", "nextStates")
    assert states.kind == "array" and states.item.kind == "ref" and states.item.name == "VisitState"
    assert "    public var nextStates: [VisitState]\n" in swift
    assert "java.util.List<VisitState> nextStates," in (JAVA_TYPES / "Card.java").read_text(encoding="utf-8")

    arrived = member("card", "arrivedAt")
    assert arrived.kind == "union" and arrived.nullable and arrived.single.kind == "ref"
    assert "    public var arrivedAt: String?\n" in swift and "    arrivedAt: Optional[str]\n" in python

    suggestion = member("card", "suggestion")  # an enum that says no JSON type: its values' type
    assert suggestion.kind == "enum" and suggestion.nullable and "null" in suggestion.types
    assert "    suggestion: Optional[str]\n" in python and "    public var suggestion: Card.Suggestion?\n" in swift

    product = contract_model.type_of(schema, {"$ref": "#/$defs/productId"}).target
    assert product.kind == "union" and [v.kind for v in product.variants] == ["integer", "string"]
    assert "    productId: Union[int, str]\n" in python and "    public var productId: JSONValue\n" in swift
