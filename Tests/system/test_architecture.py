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
    "CSQLite": {"CCrypto"},
    "CCarFit": set(),
    "CCurl": set(),
    "CCrypto": set(),
    "CCipher": {"CCrypto"},
    "CTextScan": set(),
    "CarFitHTTP": {"CCurl", "Synchronization"} | PLATFORM,
    "CarFitCore": {"Glibc", "Darwin"},
    "CarFitSystem": {"CarFitCore", "Synchronization"} | PLATFORM,
    "CarFitIO": {"CarFitCore", "CarFitSystem", "CJansson", "CCrypto", "CCipher", "CTextScan"} | PLATFORM,
    "CarFitStore": {"CarFitCore", "CSQLite"} | PLATFORM,
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


# The C functions the domain's compiled code may call: the C library's math, and what the
# compiler and the standard library's inlined code emit (memory copies, allocation, the stack
# protector, 128-bit division). Clocks, randomness and files reach the domain through types it
# declares (`MonotonicClock`, `RandomNumberGenerator`, `ZoneFiles`), implemented in CarFitSystem.
MATH = {f + suffix for f in ["acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign",
                            "cos", "cosh", "erf", "erfc", "exp", "exp2", "expm1", "fabs", "fdim", "floor", "fma",
                            "fmax", "fmin", "fmod", "frexp", "hypot", "ldexp", "lgamma", "llrint", "llround", "log",
                            "log10", "log1p", "log2", "logb", "lrint", "lround", "modf", "nearbyint", "nextafter",
                            "pow", "remainder", "remquo", "rint", "round", "scalbn", "sin", "sincos", "sinh", "sqrt",
                            "tan", "tanh", "tgamma", "trunc"]
        for suffix in ["", "f", "l"]}
EMITTED = {"memcpy", "memmove", "memset", "memcmp", "bzero", "malloc", "malloc_usable_size", "free", "posix_memalign",
           "__stack_chk_fail", "__divti3", "__udivti3", "__modti3", "__umodti3", "_GLOBAL_OFFSET_TABLE_"}


def c_functions(undefined):
    """The C symbols among `nm -u` names: not Swift's (mangled `$s…`, the runtime's `swift_…`)."""
    return {name for name in undefined
            if not re.match(r"_?\$s|_?swift_|__swift|_swift|\$ss", name) and not name.startswith("$")}


def domain_objects():
    """The compiled objects of CarFitCore, of the release build when there is one."""
    sources = {path.name for path in (SOURCES / "CarFitCore").rglob("*.swift")}
    for config in ["release", "debug"]:
        # Only the objects of today's sources: a file moved away leaves its old object behind.
        objects = sorted(path for path in (ROOT / ".build" / config / "CarFitCore.build").glob("*.swift.o")
                         if path.name[:-len(".o")] in sources)
        if objects:
            return objects
    return []


def test_the_domain_calls_no_system_function():
    """CarFitCore's object files call no C function but math and what the compiler emits."""
    import subprocess
    objects = domain_objects()
    assert len(objects) > 50, "build the library first (make)"
    found = {}
    for path in objects:
        out = subprocess.run(["nm", "-u", str(path)], check=True, capture_output=True, text=True).stdout
        for name in c_functions(line.split()[-1] for line in out.splitlines() if line.strip()):
            if name not in MATH | EMITTED:
                found.setdefault(name, []).append(path.name)
    assert not found, f"CarFitCore calls {found}"


def test_the_system_call_check_sees_one():
    assert c_functions(["$s10CarFitCore5ClockV", "swift_retain", "getentropy", "sin", "clock_gettime"]) == \
        {"getentropy", "sin", "clock_gettime"}
    assert not {"getentropy", "clock_gettime", "open", "read", "getenv"} & (MATH | EMITTED)


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


def test_every_table_entry_is_one_call_of_the_entry_point_named_after_its_method():
    """An entry's body is one line, generated: the API's entry point named after the method
    (`visits.set_state`: `VisitsAPI.setState(core, request)`); the manifest writes none."""
    import json
    table = (SOURCES / "CarFit" / "Generated" / "Operations.swift").read_text()
    entries = re.findall(r'        Operation\((nil|"[a-z_.]+"), "(carfit_\w+)", \.(\w+),\n +\.(object|bytes|written|binary) '
                         r'\{ core, \w+(?:, \w+)? throws\(CarFitError\) in (.*) \}\),?\n', table)
    assert len(entries) == table.count("        Operation(") > 50
    schema = json.loads((ROOT / "include" / "carfit.schema.json").read_text())
    assert [symbol for _, symbol, _, _, _ in entries] == [entry["symbol"] for entry in schema["operations"].values()]
    for method, symbol, locking, kind, body in entries:
        area, verb = symbol[len("carfit_"):].split("_", 1)
        name = re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), verb)
        function = f"{area[:1].upper()}{area[1:]}API.{'`import`' if name == 'import' else name}"
        if kind == "bytes":
            assert body == (f"try {function}(core, bytes, check: check, progress: {{ core.progress({method}, "
                            "total: $0) })"), body
        else:
            assert body == f"try {function}(core, request)", body
    manifest = (SOURCES / "CarFit" / "Manifest.swift").read_text()
    assert "Operation(" not in manifest, "the table is generated (Generated/Operations.swift)"


def test_each_method_name_is_written_in_no_source_file_by_hand():
    """An operation's method name (`"cart.add"`) is written in no hand-written source: exports find
    their operation by their own function name and the operation table and the other generated
    files are written from the schema."""
    import json
    schema = json.loads((ROOT / "include" / "carfit.schema.json").read_text())
    methods = [name for name, entry in schema["operations"].items() if "no method name" not in entry["summary"]]
    assert len(methods) > 40
    texts = {path: path.read_text() for path in SOURCES.rglob("*.swift") if "Generated" not in path.parts}
    table = (SOURCES / "CarFit" / "Generated" / "Operations.swift").read_text()
    for method in methods:
        files = sorted(path.relative_to(ROOT).as_posix() for path, text in texts.items() if f'"{method}"' in text)
        assert files == [], f"{method}: {files}"
        assert f'Operation("{method}", ' in table, method


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


def test_the_boundary_leaves_the_refresh_orchestration_to_the_services():
    """A refresh's bookkeeping, progress and events are RefreshService's: the boundary's core
    reads the request, calls the service and writes the answer."""
    core = (SOURCES / "CarFit" / "Core.swift").read_text(encoding="utf-8")
    assert "RefreshService(" in core
    for orchestration in ("sources.refresh(", "ProgressReporter(clock:", ".source(source:", "withoutActuallyEscaping"):
        assert orchestration not in core, orchestration
    service = (SOURCES / "CarFitServices" / "RefreshService.swift").read_text(encoding="utf-8")
    assert "sources.refresh(" in service and ".source(source:" in service
