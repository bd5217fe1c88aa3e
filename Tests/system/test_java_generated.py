"""The generated half of the JVM package (bindings/java/src/generated): up to date with the
schema, and produced for a new operation, definition or event kind without a hand edit: the
records, the typed method and the event variant appear, and the package still compiles."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JAVA_OUT = "bindings/java/src/generated/java/io/carfit"
JARS = [Path("/usr/share/java/jna.jar"), Path("/usr/share/java/gson.jar")]


def test_gen_schema_check_finds_every_generated_file_up_to_date():
    run = subprocess.run([sys.executable, str(ROOT / "scripts/gen-schema"), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    listed = [line for line in (ROOT / "bindings/java/src/generated/GENERATED.txt").read_text().splitlines()
              if line and not line.startswith("#")]
    assert sorted(p.name for p in (ROOT / JAVA_OUT).iterdir()) == sorted(listed)
    assert {"Operations.java", "Status.java", "Event.java", "VisitsListRequest.java", "VisitsSetStateResponse.java",
            "InvalidException.java", "NotFoundException.java"} <= set(listed)


def test_the_statuses_come_from_the_headers_macros():
    status = (ROOT / JAVA_OUT / "Status.java").read_text()
    header = (ROOT / "include/carfit.h").read_text()
    for name in ["OK", "BAD_JSON", "INVALID", "NOT_FOUND", "CONFLICT", "UNAUTHORIZED", "UNAVAILABLE", "STORAGE",
                 "MISUSE", "INTERNAL"]:
        value = header.split(f"#define CARFIT_{name} ", 1)[1].split()[0]
        assert f"    {name}({value}, \"{name.lower()}\")" in status


def tree_with_a_new_operation(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    for name in ["scripts/gen-schema", "scripts/contract_model.py", "scripts/gen_openapi.py", "scripts/gen_java.py", "scripts/gen_swift_kit.py", "include/carfit.h",
                 "bindings/python/carfit/errors.py", "README.md", "examples/web/core_api.py"]:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, copy / name)
    shutil.copytree(ROOT / "schema", copy / "schema")
    header = copy / "include/carfit.h"
    header.write_text(header.read_text().replace(
        "#ifdef __cplusplus\n}",
        "int carfit_road_report(carfit_core *core, const char *request, char **response);\n\n#ifdef __cplusplus\n}"))
    (copy / "schema/operations/road.json").write_text(json.dumps({
        "operations": {"road.report": {
            "symbol": "carfit_road_report", "locking": "serialized", "summary": "Report a position.",
            "request": {"type": "object", "required": ["at", "mode"],
                        "properties": {"at": {"$ref": "#/$defs/instant"},
                                       "mode": {"type": "string", "enum": ["walk", "drive"]},
                                       "note": {"type": ["string", "null"]},
                                       "stop": {"type": "object", "properties": {"lat": {"type": "number"}}}}},
            "response": {"type": "object", "required": ["legs", "byKind"], "additionalProperties": False,
                         "properties": {"legs": {"type": "array", "items": {"$ref": "#/$defs/roadLeg"}},
                                        "byKind": {"type": "object", "additionalProperties": {"type": "integer"}},
                                        "last": {"oneOf": [{"$ref": "#/$defs/roadLeg"}, {"type": "null"}]}}},
            "errors": ["bad_json", "invalid"]}},
        "$defs": {"roadMembers": {"properties": {"meters": {"type": "integer"}}, "required": ["meters"]},
                  "roadLeg": {"type": "object", "allOf": [{"$ref": "#/$defs/roadMembers"}],
                              "properties": {"class": {"type": "string"}}, "unevaluatedProperties": False},
                  "event": {"oneOf": [{"type": "object", "required": ["seq", "kind", "leg"],
                                       "properties": {"seq": {"type": "integer"}, "kind": {"const": "road"},
                                                      "leg": {"$ref": "#/$defs/roadLeg"}},
                                       "additionalProperties": False}]}}}))
    return copy


def test_a_new_operation_gets_its_records_and_typed_method(tmp_path):
    copy = tree_with_a_new_operation(tmp_path)
    run = subprocess.run([sys.executable, str(copy / "scripts/gen-schema"), "--out", str(tmp_path / "out")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    out = tmp_path / "out" / JAVA_OUT
    request = (out / "RoadReportRequest.java").read_text()
    assert "String at," in request and "RoadReportRequest.Mode mode," in request and "String note," in request
    assert "RoadReportRequest.Stop stop)" in request and '@com.google.gson.annotations.SerializedName("drive") DRIVE' in request
    response = (out / "RoadReportResponse.java").read_text()
    assert "java.util.List<RoadLeg> legs," in response and "java.util.Map<String, Long> byKind," in response
    assert "RoadLeg last)" in response
    leg = (out / "RoadLeg.java").read_text()  # the composed members first, then its own; a keyword renamed
    assert leg.index("long meters") < leg.index('@com.google.gson.annotations.SerializedName("class") String class_')
    operations = (out / "Operations.java").read_text()
    assert "public final RoadReportResponse roadReport(RoadReportRequest request)" in operations
    assert '"road.report"' in operations
    assert "public record Road(" in (out / "Event.java").read_text()

    if not shutil.which("javac") or not all(jar.is_file() for jar in JARS):
        pytest.skip("no javac, JNA or Gson (scripts/ensure-deps test installs them)")
    classes = tmp_path / "classes"
    sources = sorted(str(p) for p in (ROOT / "bindings/java/src/main/java/io/carfit").glob("*.java"))
    sources += sorted(str(p) for p in out.glob("*.java"))
    compiled = subprocess.run(["javac", "--release", "17", "-Xlint:all,-serial", "-Werror", "-cp",
                               ":".join(map(str, JARS)), "-d", str(classes), *sources], capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr[-3000:]
