"""The binding itself: its one table of C signatures against the header, the version check at
load, the typed surface, and the argument checks that stop a silent misreading."""

from __future__ import annotations

import ctypes
import inspect
import pydoc
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

import carfit
from carfit import _lib
from carfit.visits import VisitsMixin
from conftest import REPO_ROOT

HEADER = REPO_ROOT / "include" / "carfit.h"


def header_declarations() -> dict:
    """name -> (return type text, [parameter texts]) of every function the header declares."""
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(encoding="utf-8"), flags=re.S)
    found = {}
    for ret, name, params in re.findall(r"^([A-Za-z_][\w \*]*?)\s*\b(carfit_[a-z0-9_]+)\(([^)]*)\);", text, re.M):
        params = " ".join(params.split())
        found[name] = (ret.strip(), [] if params in ("", "void") else [p.strip() for p in params.split(",")])
    return found


#: C types of the header -> the ctypes type the table must give them. Pointers the library
#: fills (out-parameters) are pointers to c_void_p: the binding frees what they receive.
CTYPES = {
    "int": ctypes.c_int,
    "void": None,
    "const char *": ctypes.c_char_p,
    "carfit_core *": ctypes.c_void_p,
    "void *": ctypes.c_void_p,
    "char * *": ctypes.POINTER(ctypes.c_void_p),
    "unsigned char * *": ctypes.POINTER(ctypes.c_void_p),
    "carfit_core * *": ctypes.POINTER(ctypes.c_void_p),
    "size_t *": ctypes.POINTER(ctypes.c_size_t),
}


def ctype_of(declaration: str, parameter: bool = True):
    """The ctypes type for a parameter declaration (its name dropped) or a return type."""
    tokens = declaration.replace("*", " * ").split()
    if parameter:
        tokens = tokens[:-1]
    return CTYPES[" ".join(tokens)]


def test_header_parse_finds_the_functions():
    declared = header_declarations()
    assert {"carfit_open", "carfit_images_data", "carfit_version_number", "carfit_call"} <= set(declared)
    assert declared["carfit_images_data"][1][2] == "unsigned char **bytes"


def test_function_table_equals_the_header_both_ways():
    declared = header_declarations()
    assert sorted(set(_lib.FUNCTIONS) - set(declared)) == []
    assert sorted(set(declared) - set(_lib.FUNCTIONS)) == []


@pytest.mark.parametrize("name", sorted(header_declarations()))
def test_function_table_signature_matches_the_header(name):
    ret, params = header_declarations()[name]
    restype, argtypes = _lib.FUNCTIONS[name]
    assert restype is ctype_of(ret, parameter=False)
    assert list(argtypes) == [ctype_of(p) for p in params]


def test_loaded_library_declares_every_function(lib):
    for name, (restype, argtypes) in _lib.FUNCTIONS.items():
        fn = getattr(lib, name)
        assert fn.restype is restype and fn.argtypes == list(argtypes), name


def test_operations_are_the_operation_shaped_functions():
    assert "carfit_visits_refresh" in _lib.OPERATIONS and "carfit_images_data" not in _lib.OPERATIONS
    assert "carfit_visits_attachment_data" not in _lib.OPERATIONS
    # Not operations: open, close, free, version, version_number, status_name, call, schema,
    # images_data and visits_attachment_data (bytes out).
    assert len(_lib.OPERATIONS) == len(set(_lib.OPERATIONS)) == len(_lib.FUNCTIONS) - 10


# -- version check at load --------------------------------------------------------------------

def fake_library(tmp_path: Path, version: str) -> str:
    """A shared library reporting ``version`` through carfit_version and carfit_version_number."""
    if not shutil.which("cc"):
        pytest.skip("no C compiler")
    major, minor, patch = (int(p) for p in version.split("."))
    source = tmp_path / f"fake{major}.c"
    source.write_text(
        f'const char *carfit_version(void) {{ return "{version}"; }}\n'
        f"int carfit_version_number(void) {{ return {major * 10000 + minor * 100 + patch}; }}\n"
    )
    library = tmp_path / f"libfake{major}.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return str(library)


def test_a_library_of_another_major_version_is_refused(tmp_path):
    path = fake_library(tmp_path, "2.0.0")
    with pytest.raises(carfit.LibraryVersionError) as info:
        _lib.open_library(path)
    message = str(info.value)
    assert "libcarfit 2.0.0" in message and f"binding {carfit.__version__}" in message and path in message


def test_a_library_of_the_same_major_version_is_accepted(tmp_path):
    major = carfit.__version__.split(".")[0]
    lib = _lib.open_library(fake_library(tmp_path, f"{major}.99.0"))
    assert _lib.library_version(lib) == (int(major) * 10000 + 9900, f"{major}.99.0")


def test_binding_version_is_the_headers():
    macros = dict(re.findall(r"^#define CARFIT_VERSION_(MAJOR|MINOR|PATCH) (\d+)$", HEADER.read_text(), re.M))
    assert carfit.__version__ == "%s.%s.%s" % (macros["MAJOR"], macros["MINOR"], macros["PATCH"])
    assert carfit.version_number() == int(macros["MAJOR"]) * 10000 + int(macros["MINOR"]) * 100 + int(macros["PATCH"])


def test_packaged_library_comes_after_the_environment_variable(monkeypatch, tmp_path):
    packaged = tmp_path / "libcarfit.so"
    packaged.write_bytes(b"")
    monkeypatch.setattr(_lib, "PACKAGED_LIBRARY", packaged)
    monkeypatch.delenv(_lib.ENV_VAR, raising=False)
    assert _lib.find_library() == str(packaged)
    monkeypatch.setenv(_lib.ENV_VAR, "/elsewhere/libcarfit.so")
    assert _lib.find_library() == "/elsewhere/libcarfit.so"


# -- the typed surface ------------------------------------------------------------------------

def test_package_is_typed():
    assert (Path(carfit.__file__).parent / "py.typed").is_file()


def public_methods():
    return [(name, fn) for name, fn in inspect.getmembers(carfit.Core, inspect.isfunction)
            if not name.startswith("_")]


def test_every_public_method_is_annotated_in_one_style():
    for name, fn in public_methods():
        hints = fn.__annotations__
        assert "return" in hints, name
        for arg, hint in hints.items():
            # One style: Document, the TypedDicts, or precise types; never bare dict or Any.
            assert hint not in ("dict", "Any", "Dict[str, Any]"), f"{name}.{arg}: {hint}"


def test_modules_are_named_after_areas():
    from carfit import articles, calendar, catalog, employees, images, transactions, visits

    assert {"import_visits", "import_visits_file", "list_visits", "refresh_visits", "plan_day"} <= set(vars(visits.VisitsMixin))
    assert "refresh_visits" not in vars(articles.ArticlesMixin)
    assert {"login", "create_employee"} <= set(vars(employees.EmployeesMixin))
    assert {"add_to_cart", "list_catalog"} <= set(vars(catalog.CatalogMixin))
    assert {"pin_transaction", "insights"} <= set(vars(transactions.TransactionsMixin))
    assert {"generate_carousel", "image"} <= set(vars(images.ImagesMixin))
    assert "select_day" in vars(calendar.CalendarMixin)


def test_help_lists_every_config_member():
    header = HEADER.read_text(encoding="utf-8")
    takes = header[header.index("carfit_open — open a core."):header.index("int carfit_open(")]
    config_members = re.findall(r'^ \*\s{10,}"(\w+)"', takes, re.M)
    assert "importThreads" in config_members and "timeZone" in config_members
    text = pydoc.render_doc(carfit.Core, renderer=pydoc.plaintext)
    for member in config_members:
        assert f"``{member}``" in text or member in text, member
    assert "importThreads" in text
    for member in ("visits", "articles", "catalog", "patterns", "visitUpdates", "timeoutMs", "totalTimeoutMs",
                   "maxBodyBytes", "directory", "memoryBytes", "diskBytes", "concurrency"):
        assert f'"{member}"' in takes, member
        assert member in text, member
    assert "did you mean timeZone?" in text


# -- arguments checked in Python --------------------------------------------------------------

class Recorder(carfit.Core):
    """A Core whose calls are recorded instead of sent."""

    def __init__(self):  # no library core: only the request building is tested
        self.calls = []

    def _call(self, method, request=None):
        self.calls.append((method, request))
        return {}

    def close(self):
        pass


def test_dates_as_one_string_is_a_type_error():
    r = Recorder()
    with pytest.raises(TypeError, match=r"dates=\['2020-09-10'\]"):
        r.list_visits(dates="2020-09-10")
    with pytest.raises(TypeError):
        r.prefetch_images("https://example.com/a.png")
    assert r.calls == []
    r.list_visits(dates=("2020-09-10",))
    assert r.calls == [("visits.list", {"dates": ["2020-09-10"]})]


@pytest.mark.parametrize("path", ["/path/file.json", "visits.json", "data/visits", " /tmp/x.json\n"])
def test_a_path_passed_as_the_document_is_refused(path):
    r = Recorder()
    with pytest.raises(ValueError, match="import_visits_file"):
        r.import_visits(path)
    with pytest.raises(ValueError, match="json.load"):
        r.import_transactions(path)
    assert r.calls == []


def test_json_text_still_passes_as_the_document(core):
    assert core.import_visits('{"data": []}') == {"imported": 0, "rejected": [], "changes": []}
    with pytest.raises(carfit.BadJSONError):
        core.import_visits("not json")


def test_import_visits_file_sends_the_absolute_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = Recorder()
    r.import_visits_file("visits.json")
    r.import_visits_file(Path("/data/visits.json"))
    assert r.calls == [("visits.import", {"file": str(tmp_path / "visits.json")}),
                       ("visits.import", {"file": "/data/visits.json"})]


def test_pin_transaction_takes_transaction_id_and_still_the_old_keyword():
    r = Recorder()
    r.pin_transaction(3)
    r.pin_transaction(transaction_id=4, pinned=False)
    with pytest.warns(DeprecationWarning, match="transaction_id"):
        r.pin_transaction(id=5)
    with pytest.warns(DeprecationWarning):
        r.unpin_transaction(id=6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r.unpin_transaction(7)
    with pytest.raises(TypeError):
        r.pin_transaction(1, id=2)
    with pytest.raises(TypeError):
        r.pin_transaction(idd=2)
    assert [request for _, request in r.calls] == [
        {"id": 3, "pinned": True}, {"id": 4, "pinned": False}, {"id": 5, "pinned": True},
        {"id": 6, "pinned": False}, {"id": 7, "pinned": False},
    ]
    assert "id" not in inspect.signature(carfit.Core.pin_transaction).parameters


def test_visits_mixin_methods():
    r = Recorder()
    r.refresh_visits()
    r.plan_day("2020-09-10", start=(55.7, 12.5))
    assert r.calls == [("visits.refresh", None),
                       ("visits.plan", {"date": "2020-09-10", "start": {"latitude": 55.7, "longitude": 12.5}})]
    assert issubclass(carfit.Core, VisitsMixin)
