"""Properties of the shipped libcarfit.so itself: exports, SONAME, dependencies, the header,
and loading on a machine without the Swift toolchain."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "include" / "carfit.h"
LIBRARY = Path(os.environ.get("CARFIT_LIBRARY", ROOT / ".build" / "release" / "libcarfit.so"))


def run(*args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs).stdout


def declared_functions():
    return set(re.findall(r"^\w[\w \*]*?\b(carfit_[a-z0-9_]+)\(", HEADER.read_text(), re.M))


def exported_symbols():
    out = run("nm", "-D", "--defined-only", str(LIBRARY))
    # Global symbols only (upper-case type letter); local ones are not exported.
    return {line.split()[2].split("@")[0] for line in out.splitlines()
            if len(line.split()) == 3 and line.split()[1].isupper()}


def test_library_exists():
    assert LIBRARY.is_file(), f"build it first: swift build -c release ({LIBRARY})"


#: The header's functions that are not operations reachable through carfit_call.
NOT_OPERATIONS = {"carfit_open", "carfit_close", "carfit_free", "carfit_version", "carfit_version_number",
                  "carfit_status_name", "carfit_call", "carfit_schema", "carfit_images_data",
                  "carfit_visits_attachment_data"}


def test_exports_exactly_the_header_functions():
    declared = declared_functions()
    # The declarations found are exactly the operations the header names by method, plus the
    # functions that are not operations: no declaration the pattern missed, none it invented.
    methods = set(re.findall(r'\(method "([a-z0-9_]+\.[a-z0-9_]+)"\)', HEADER.read_text()))
    assert len(methods) == 59
    assert declared == {"carfit_" + m.replace(".", "_") for m in methods} | NOT_OPERATIONS
    assert exported_symbols() == declared


def test_no_sqlite_symbol_defined_or_undefined():
    # SQLite is built in with its symbols hidden: a host that loaded another SQLite first can
    # neither capture the library's calls nor be captured by them.
    dynamic = run("nm", "-D", str(LIBRARY))
    assert "sqlite3_" not in dynamic
    assert "carfit_open" in dynamic


def test_soname_and_symlink():
    dynamic = run("readelf", "-d", str(LIBRARY))
    assert "Library soname: [libcarfit.so.1]" in dynamic
    assert (LIBRARY.parent / "libcarfit.so.1").resolve() == LIBRARY.resolve()


def toolchain_root():
    swift = shutil.which("swift")
    assert swift, "swift is not on PATH"
    return Path(os.path.realpath(swift)).parents[2]


def test_needs_only_system_libraries():
    needed = set(re.findall(r"NEEDED\)\s+Shared library: \[([^\]]+)\]", run("readelf", "-d", str(LIBRARY))))
    allowed = {"libjansson.so.4", "libcurl.so.4", "libc.so.6", "libm.so.6",
               "libstdc++.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2", "libdl.so.2", "libpthread.so.0",
               "libutil.so.1", "librt.so.1", "libcrypto.so.3"}
    assert needed <= allowed, needed - allowed
    ldd = run("ldd", str(LIBRARY))
    assert "not found" not in ldd
    assert str(toolchain_root()) not in ldd


# Size budget of the installed (stripped) library.
MAX_STRIPPED_BYTES = 9_961_472  # 9.5 MiB, SQLite and the encryption built in

# What Foundation, CoreFoundation and ICU leave in a symbol table: Swift symbols of the
# Foundation modules (mangled module names), CoreFoundation's C functions, ICU's versioned
# functions and its data.
FORBIDDEN_SYMBOL = re.compile(
    r"\d+(?:Foundation|FoundationEssentials|FoundationInternationalization|FoundationNetworking|"
    r"FoundationXML|_FoundationCollections|_FoundationCShims|_FoundationICU|CoreFoundation)\w"
    r"|^_?_?CF[A-Z]\w+|^_?_?NS[A-Z][a-z]\w*Create"
    r"|^icudt\d+|^_?u(?:cal|col|brk|loc|norm2?|str|trans|dat|num|enum|res|data|char|set|text|tz)_\w+_\d{2}$"
    r"|^_?u_\w+_\d{2}$")


def all_symbols():
    out = run("nm", str(LIBRARY))
    return [line.split()[-1] for line in out.splitlines() if line.split()]


def test_links_neither_foundation_nor_icu():
    symbols = all_symbols()
    assert len(symbols) > 1000, "nm listed too few symbols: is the library stripped?"
    found = sorted({s for s in symbols if FORBIDDEN_SYMBOL.search(s)})
    assert not found, f"Foundation, CoreFoundation or ICU symbols in the library: {found[:20]}"
    ldd = run("ldd", str(LIBRARY))
    assert not re.search(r"libicu|libFoundation|libCoreFoundation|lib_Foundation", ldd), ldd


def test_the_symbol_check_catches_foundation_and_icu():
    for name in ["$s10Foundation4DateV", "$s20FoundationEssentials8CalendarV", "CFStringCreateWithBytes",
                 "icudt76_dat", "ucal_open_76", "u_strToUpper_76", "$s14_FoundationICU4xyzV"]:
        assert FORBIDDEN_SYMBOL.search(name), name
    for name in ["$sSiySiBi64_cfC", "$ss25_foundationSwiftValueType", "carfit_open", "$s10CarFitCore5ClockV",
                 "u_sess", "_ZL19_swift_stdlib_words"]:
        assert not FORBIDDEN_SYMBOL.search(name), name


def test_stripped_library_fits_its_budget(tmp_path):
    """The library as make install leaves it (strip --strip-unneeded) is at most 10 MiB."""
    stripped = tmp_path / "libcarfit.so"
    run(os.environ.get("STRIP", "strip"), "--strip-unneeded", "-o", str(stripped), str(LIBRARY))
    size = stripped.stat().st_size
    assert size <= MAX_STRIPPED_BYTES, f"stripped libcarfit.so is {size} bytes, over {MAX_STRIPPED_BYTES}"


LOAD_AND_CALL = """
import ctypes, json, sys
lib = ctypes.CDLL(sys.argv[1])
lib.carfit_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
lib.carfit_call.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
lib.carfit_free.argtypes = [ctypes.c_void_p]
lib.carfit_close.argtypes = [ctypes.c_void_p]
core, resp = ctypes.c_void_p(), ctypes.c_void_p()
assert lib.carfit_open(b'{"timeZone": "Europe/Copenhagen", "now": "2020-09-10T07:00:00Z"}', ctypes.byref(core), ctypes.byref(resp)) == 0
lib.carfit_free(resp)
assert lib.carfit_call(core, b"calendar.get", None, ctypes.byref(resp)) == 0
doc = json.loads(ctypes.string_at(resp.value))
lib.carfit_free(resp)
lib.carfit_close(core)
print(doc["title"], doc["today"])
"""


def test_loads_without_the_swift_toolchain():
    """Hide the toolchain behind an empty tmpfs in a private mount namespace, then load and call."""
    if shutil.which("unshare") is None:
        pytest.fail("unshare (util-linux) is needed for this test")
    root = toolchain_root()
    script = f'mount -t tmpfs none "{root}" && test -z "$(ls -A "{root}")" && exec "{sys.executable}" -c "$0" "$1"'
    result = subprocess.run(["unshare", "-m", "sh", "-c", script, LOAD_AND_CALL, str(LIBRARY)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "September 2020 2020-09-10"


def test_header_compiles_as_c99_and_cxx(tmp_path):
    source = tmp_path / "use.c"
    source.write_text('#include "carfit.h"\nint main(void) { return carfit_version() == 0; }\n')
    run("gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", f"-I{ROOT / 'include'}", str(source))
    cxx = tmp_path / "use.cpp"
    cxx.write_text('#include "carfit.h"\nint main() { return carfit_version() == nullptr; }\n')
    run("g++", "-std=c++11", "-Wall", "-Werror", "-fsyntax-only", f"-I{ROOT / 'include'}", str(cxx))


def test_version_macros_match_runtime():
    import ctypes
    lib = ctypes.CDLL(str(LIBRARY))
    lib.carfit_version.restype = ctypes.c_char_p
    text = HEADER.read_text()
    major, minor, patch = (re.search(rf"#define CARFIT_VERSION_{k} (\d+)", text).group(1) for k in ("MAJOR", "MINOR", "PATCH"))
    assert re.search(r'#define CARFIT_VERSION "([^"]+)"', text).group(1) == f"{major}.{minor}.{patch}"
    assert lib.carfit_version().decode() == f"{major}.{minor}.{patch}"
