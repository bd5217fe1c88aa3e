"""The module layering of docs/ARCHITECTURE.md: each target of Package.swift may depend on, and
its sources may import, only the modules listed for it below. A new target or a new import
fails here until the map (and the document) say it is allowed."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "Sources"

# The platform's modules each layer may use besides the project's own.
PLATFORM = {"Glibc", "Darwin"}

# Target -> the modules it may import (and the targets it may depend on).
ALLOWED = {
    "CJansson": set(),
    "CSQLite": set(),
    "CCarFit": set(),
    "CCurl": set(),
    "CCrypto": set(),
    "CTextScan": set(),
    "CarFitHTTP": {"CCurl", "Synchronization"} | PLATFORM,
    "CarFitCore": {"Glibc", "Darwin"},
    "CarFitSystem": {"Synchronization"} | PLATFORM,
    "CarFitIO": {"CarFitCore", "CarFitSystem", "CJansson", "CCrypto", "CTextScan"} | PLATFORM,
    "CarFitStore": {"CarFitCore", "CarFitIO", "CSQLite"} | PLATFORM,
    "CarFitNet": {"CarFitCore", "CarFitSystem", "CarFitHTTP"} | PLATFORM,
    "CarFitServices": {"CarFitCore", "CarFitSystem", "CarFitIO", "CarFitStore", "CarFitNet", "CarFitHTTP"} | PLATFORM,
    "CarFitAPI": {"CarFitCore", "CarFitIO", "CarFitStore", "CarFitNet", "CarFitHTTP", "CarFitServices"} | PLATFORM,
    "CarFit": {"CarFitCore", "CarFitSystem", "CarFitIO", "CarFitStore", "CarFitNet", "CarFitHTTP", "CarFitServices", "CarFitAPI", "CCarFit"} | PLATFORM,
    "CarFitLink": set(),
}

IMPORT = re.compile(r"^\s*(?:@testable\s+|@_implementationOnly\s+|(?:public|internal|package)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def package_targets():
    """Each non-test target of Package.swift with its declared dependencies."""
    text = (ROOT / "Package.swift").read_text()
    targets = {}
    for match in re.finditer(r"\.(target|systemLibrary)\(\s*name:\s*\"(\w+)\"(.*?)\)\s*,\s*\n", text, re.S):
        body = match.group(3)
        deps = re.search(r"dependencies:\s*\[(.*?)\]", body, re.S)
        targets[match.group(2)] = set(re.findall(r"\"(\w+)\"", deps.group(1))) if deps else set()
    return targets


def imports(target):
    found = {}
    for path in sorted((SOURCES / target).rglob("*.swift")):
        for module in IMPORT.findall(path.read_text()):
            found.setdefault(module, []).append(path.relative_to(ROOT).as_posix())
    return found


def test_every_target_is_in_the_map():
    targets = package_targets()
    assert targets, "no targets found in Package.swift"
    assert set(targets) == set(ALLOWED), "add the new target to ALLOWED and to docs/ARCHITECTURE.md"


def test_package_dependencies_follow_the_layers():
    for target, deps in package_targets().items():
        assert deps <= ALLOWED[target], f"{target} depends on {sorted(deps - ALLOWED[target])}"


def test_source_imports_follow_the_layers():
    checked = 0
    for target, allowed in ALLOWED.items():
        if not (SOURCES / target).is_dir():
            continue
        for module, files in imports(target).items():
            checked += 1
            assert module in allowed, f"{target} imports {module} ({', '.join(files)}), which it may not"
    assert checked > 10


def test_the_domain_imports_no_project_module():
    assert set(imports("CarFitCore")) <= {"Glibc", "Darwin"}


FOUNDATION = {"Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
              "FoundationXML", "CoreFoundation", "_FoundationCollections", "_FoundationCShims", "_FoundationICU"}


def test_no_module_imports_foundation():
    """The library links neither Foundation nor ICU: no source imports any Foundation module and
    the link settings name none of its libraries."""
    for target in ALLOWED:
        if (SOURCES / target).is_dir():
            used = FOUNDATION & set(imports(target))
            assert not used, f"{target} imports {sorted(used)}"
    manifest = (ROOT / "Package.swift").read_text()
    for name in FOUNDATION | {"icu", "ICU"}:
        assert f'linkedLibrary("{name}' not in manifest, name


def test_the_check_catches_a_forbidden_import(tmp_path):
    """The import pattern sees the forms Swift allows."""
    sample = "import CarFitCore\n@testable import CarFitIO\nimport struct CarFitStore.Database\n  import CSQLite\n// import Nope\n"
    assert IMPORT.findall(sample) == ["CarFitCore", "CarFitIO", "CarFitStore", "CSQLite"]


POINTER = re.compile(r"\bUnsafe(?:Mutable)?(?:Raw)?(?:Buffer)?Pointer\b|\bOpaquePointer\b|\bwithUnsafe\w*|"
                     r"unsafeUninitializedCapacity|\bunsafeBitCast\b|\bmalloc\(|\bfree\(")


def test_the_domain_holds_no_pointers():
    """Value types and rules only: pointer code and C memory live in CarFitIO and below."""
    found = []
    for path in sorted((SOURCES / "CarFitCore").rglob("*.swift")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("//", 1)[0]
            if POINTER.search(code):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
    assert POINTER.search("let p: UnsafeMutableRawBufferPointer") and not POINTER.search("p.unsafeLength(order)")


# The domain, the services and the network layer hold no JSON: no JSON value, no request reader
# (`Fields`), no object builder. Requests are read and answers written in CarFitAPI; the
# documents of the back end are read and written in CarFitIO.
BELOW_THE_API = ["CarFitCore", "CarFitServices", "CarFitNet"]
JSON_USE = re.compile(r"\bJSON\b|\bJSONObject\b|\bFields\b|\.obj\(")
STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')


def json_uses(text):
    """The lines of `text` that use a JSON type, outside comments and string literals."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = STRING_LITERAL.sub('""', line).split("//", 1)[0]
        if JSON_USE.search(code):
            found.append((number, line.strip()))
    return found


def test_no_json_below_the_api():
    found = []
    files = 0
    for target in BELOW_THE_API:
        for path in sorted((SOURCES / target).rglob("*.swift")):
            files += 1
            found += [f"{path.relative_to(ROOT)}:{n}: {line}" for n, line in json_uses(path.read_text())]
    assert files > 100
    assert not found, "\n".join(found)


def test_the_json_check_sees_json_and_not_prose():
    assert json_uses('return .obj(["a": 1])') and json_uses("func list(_ request: Fields) -> JSON {")
    assert json_uses("var extra: JSONObject")
    assert not json_uses('throw CarFitError(.invalid, "The text is not JSON.")')
    assert not json_uses("/// Reads the JSON document.")


def test_every_manifest_entry_is_one_call_of_the_api_or_a_refresh():
    """An entry's body is one line: the area's API function, or the core's refresh of a source."""
    manifest = (SOURCES / "CarFit" / "Manifest.swift").read_text()
    bodies = re.findall(r"\.(?:object|bytes|written|binary) \{ core, \w+(?:, \w+)? throws\(CarFitError\) in (.*) \}\),?\n", manifest)
    assert len(bodies) == manifest.count("        Operation(") > 50
    for body in bodies:
        assert re.fullmatch(r"(?:try )?(?:\w+API\.\w+\(.*\)(?: \{ .* \})?|core\.refresh\(\.\w+, request\))", body), body



def test_each_method_name_is_written_in_one_source_file():
    """An operation's method name (`"cart.add"`) is written once, in the manifest: exports find
    their operation by their own function name and the generated files are written from the
    schema."""
    import json
    schema = json.loads((ROOT / "include" / "carfit.schema.json").read_text())
    methods = [name for name, entry in schema["operations"].items() if "no method name" not in entry["summary"]]
    assert len(methods) > 40
    texts = {path: path.read_text() for path in SOURCES.rglob("*.swift") if "Generated" not in path.parts}
    for method in methods:
        files = sorted(path.relative_to(ROOT).as_posix() for path, text in texts.items() if f'"{method}"' in text)
        assert files == ["Sources/CarFit/Manifest.swift"], f"{method}: {files}"


# The washer's work has one owner: only SyncStore writes these tables (besides the migrations),
# and only OutboxService uses SyncStore.
OUTBOX_TABLES = ("local_changes", "visit_local", "sync_state", "sync_rejected", "visit_conflicts", "visits_removed")
WRITE = re.compile(r"\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+(\w+)", re.I)


def test_only_the_outbox_store_writes_the_outbox_tables():
    writers = {}
    for path in sorted(SOURCES.rglob("*.swift")):
        relative = path.relative_to(ROOT).as_posix()
        for table in WRITE.findall(path.read_text()):
            if table in OUTBOX_TABLES:
                writers.setdefault(relative, set()).add(table)
    assert "Sources/CarFitStore/SyncStore.swift" in writers
    others = {p: t for p, t in writers.items() if p not in ("Sources/CarFitStore/SyncStore.swift", "Sources/CarFitStore/Schema.swift")}
    assert others == {}, f"only SyncStore writes the outbox's tables: {others}"


def test_only_the_outbox_service_uses_the_outbox_store():
    users = []
    for path in sorted(SOURCES.rglob("*.swift")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("Sources/CarFitStore/") or relative == "Sources/CarFitServices/OutboxService.swift":
            continue
        code = "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("//"))
        if re.search(r"\bSyncStore\b", code):
            users.append(relative)
    assert users == [], f"the outbox's store is OutboxService's alone: {users}"
    # Inside the store layer, nothing but SyncStore itself names it (a snapshot reaches the
    # outbox through the hooks its owner hands in).
    store_users = [p.relative_to(ROOT).as_posix() for p in sorted((SOURCES / "CarFitStore").glob("*.swift"))
                   if p.name != "SyncStore.swift" and re.search(r"\bSyncStore\(", p.read_text())]
    assert store_users == []
