"""The dynamic symbol table of the shipped libcarfit.so holds exactly the functions that
include/carfit.h declares: every name nm -D lists (global or local, function or data) is
declared there, and every declared function is exported."""
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "include" / "carfit.h"
LIBRARY = Path(os.environ.get("CARFIT_LIBRARY", ROOT / ".build" / "release" / "libcarfit.so"))

#: A function declaration of the header: a return type at the start of a line, then the name.
DECLARATION = re.compile(r"^[A-Za-z_][\w \*]*?\b(carfit_[a-z0-9_]+)\s*\(", re.M)


def header_functions() -> set:
    """The names of the functions the header declares (comments removed first)."""
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    return set(DECLARATION.findall(text))


def dynamic_symbols() -> dict:
    """Every defined symbol of the dynamic symbol table: name -> nm type letter."""
    out = subprocess.run(["nm", "-D", "--defined-only", str(LIBRARY)],
                         check=True, capture_output=True, text=True).stdout
    symbols = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3:
            symbols[fields[2].split("@")[0]] = fields[1]
    return symbols


@pytest.fixture(scope="module")
def symbols():
    if not LIBRARY.is_file():
        pytest.fail(f"build the library first: swift build -c release ({LIBRARY})")
    return dynamic_symbols()


def test_header_declarations_are_found():
    declared = header_functions()
    # The parse itself: lifecycle functions and one operation of every area are there.
    for name in ("carfit_open", "carfit_close", "carfit_free", "carfit_version", "carfit_version_number",
                 "carfit_status_name", "carfit_call", "carfit_visits_import", "carfit_calendar_get",
                 "carfit_employees_create", "carfit_session_login", "carfit_catalog_list", "carfit_cart_add",
                 "carfit_transactions_pin", "carfit_insights_get", "carfit_articles_list",
                 "carfit_patterns_import", "carfit_carousel_generate", "carfit_images_data"):
        assert name in declared, name


def test_every_dynamic_symbol_is_a_header_function(symbols):
    extra = sorted(set(symbols) - header_functions())
    assert extra == [], f"{len(extra)} symbols exported beyond the header: {extra[:10]}"


def test_every_header_function_is_exported(symbols):
    missing = sorted(header_functions() - set(symbols))
    assert missing == [], f"declared but not exported: {missing}"


def test_exports_are_global_functions(symbols):
    not_text = {name: kind for name, kind in symbols.items() if kind != "T"}
    assert not_text == {}, "every export is a global function (nm type T)"
