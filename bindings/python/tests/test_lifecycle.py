"""Opening, closing, library discovery and the utilities."""

from __future__ import annotations

import ctypes
import re
import threading
from pathlib import Path

import pytest

import carfit
from carfit import _lib
from conftest import DAY_CONFIG, REPO_ROOT


def header_macros() -> dict:
    """The header's CARFIT_VERSION* macros: name -> value text."""
    header = (REPO_ROOT / "include" / "carfit.h").read_text(encoding="utf-8")
    return dict(re.findall(r"^#define (CARFIT_VERSION\w*) (\S+)$", header, re.M))


def header_version() -> str:
    macros = header_macros()
    return "%s.%s.%s" % (macros["CARFIT_VERSION_MAJOR"], macros["CARFIT_VERSION_MINOR"], macros["CARFIT_VERSION_PATCH"])


def test_version_matches_header(lib):
    macros = header_macros()
    assert macros["CARFIT_VERSION"] == '"%s"' % header_version()
    assert carfit.version() == header_version()
    assert carfit.__version__ == header_version()


def test_version_number_matches_header(lib):
    macros = header_macros()
    major, minor, patch = (int(macros["CARFIT_VERSION_" + part]) for part in ("MAJOR", "MINOR", "PATCH"))
    assert int(macros["CARFIT_VERSION_NUMBER"]) == major * 10000 + minor * 100 + patch
    assert lib.carfit_version_number() == major * 10000 + minor * 100 + patch


@pytest.mark.parametrize(
    "status, name",
    [
        (0, "ok"),
        (1, "bad_json"),
        (2, "invalid"),
        (3, "not_found"),
        (4, "conflict"),
        (5, "unauthorized"),
        (6, "unavailable"),
        (7, "storage"),
        (8, "misuse"),
        (9, "internal"),
        (10, "unknown"),
        (-1, "unknown"),
        (2**31 - 1, "unknown"),
        (-(2**31), "unknown"),
    ],
)
def test_status_names(lib, status, name):
    assert carfit.status_name(status) == name


def test_library_found_in_repository(lib):
    path = Path(_lib.find_library())
    assert path.name == "libcarfit.so"
    assert path.is_file()


def test_candidate_paths_prefer_release(tmp_path):
    paths = list(_lib.candidate_paths(tmp_path))
    assert paths[0] == tmp_path / ".build" / "release" / "libcarfit.so"
    assert paths[1] == tmp_path / ".build" / "debug" / "libcarfit.so"
    assert paths[2] == tmp_path.parent / ".build" / "release" / "libcarfit.so"


def test_env_var_wins(monkeypatch, tmp_path):
    target = tmp_path / "elsewhere" / "libcarfit.so"
    monkeypatch.setenv(_lib.ENV_VAR, str(target))
    assert _lib.find_library() == str(target)


def test_owned_strings_are_not_char_p(lib):
    """Responses come back as addresses (freed by us), never as c_char_p (leaked)."""
    out = ctypes.POINTER(ctypes.c_void_p)
    assert lib.carfit_open.argtypes == [ctypes.c_char_p, out, out]
    assert lib.carfit_call.argtypes[3] == out
    assert lib.carfit_call.restype is ctypes.c_int
    assert lib.carfit_free.argtypes == [ctypes.c_void_p]
    assert lib.carfit_close.restype is None
    for name in ("carfit_visits_list", "carfit_calendar_get"):
        fn = getattr(lib, name)
        assert fn.argtypes == [ctypes.c_void_p, ctypes.c_char_p, out]
        assert fn.restype is ctypes.c_int


def test_open_and_close(lib):
    core = carfit.Core()
    assert core.open_info == {"version": header_version(), "database": ":memory:"}
    assert not core.closed
    core.close()
    assert core.closed
    core.close()  # idempotent


def test_kwargs_merge_into_config(lib):
    with carfit.Core({"timeZone": "UTC"}, now="2020-09-10T07:00:00Z", timeZone="Europe/Copenhagen") as core:
        cal = core.calendar()
    assert cal["today"] == "2020-09-10"
    assert cal["title"] == "September 2020"


def test_context_manager_closes(lib):
    with carfit.Core(DAY_CONFIG) as core:
        assert core.calendar()["today"] == "2020-09-10"
    assert core.closed
    with pytest.raises(carfit.MisuseError):
        core.calendar()


def test_closed_core_is_misuse(core):
    core.close()
    with pytest.raises(carfit.MisuseError) as info:
        core.list_visits()
    assert info.value.status == 8
    assert info.value.code == "misuse"


def test_call_on_closed_handle_is_misuse(lib):
    """The C handle itself, used after carfit_close, is refused by the library."""
    core = carfit.Core(DAY_CONFIG)
    handle = ctypes.c_void_p(core._handle.value)
    core.close()
    response = ctypes.c_void_p()
    status = lib.carfit_call(handle, b"calendar.get", None, ctypes.byref(response))
    document = core._take(response)
    assert status == 8
    assert document["error"]["code"] == "misuse"


def test_null_response_pointer_is_allowed(core, lib):
    assert lib.carfit_call(core._handle, b"calendar.get", None, None) == 0


def test_direct_function_matches_call(loaded, lib):
    response = ctypes.c_void_p()
    status = lib.carfit_visits_list(loaded._handle, b'{"dates":["2020-09-10"]}', ctypes.byref(response))
    assert status == 0
    assert loaded._take(response) == loaded.call("visits.list", {"dates": ["2020-09-10"]})


def test_del_closes(lib):
    core = carfit.Core()
    handle = ctypes.c_void_p(core._handle.value)
    del core
    response = ctypes.c_void_p()
    assert lib.carfit_call(handle, b"calendar.get", None, ctypes.byref(response)) == 8
    lib.carfit_free(response)


def test_file_database_survives_reopen(lib, sample, tmp_path):
    db = tmp_path / "carfit.db"
    with carfit.Core(DAY_CONFIG, database=str(db)) as core:
        assert core.open_info["database"] == str(db)
        assert core.import_visits(sample)["imported"] == 7
    assert db.exists()
    with carfit.Core(DAY_CONFIG, database=str(db)) as core:
        day = core.list_visits(dates=["2020-09-10"])["days"][0]
        assert [card["name"] for card in day["visits"]] == [
            "Tone Holtermann",
            "Kenn Jørgensen",
            "Mads Kolding",
        ]
        assert core.calendar()["days"][9]["visits"] == 3


def test_two_cores_on_one_file(lib, sample, tmp_path):
    db = str(tmp_path / "shared.db")
    with carfit.Core(DAY_CONFIG, database=db) as a, carfit.Core(DAY_CONFIG, database=db) as b:
        a.import_visits(sample)
        assert b.list_visits(dates=["2020-09-11"])["summary"]["visits"] == 2


def test_threads_share_one_core(loaded):
    errors = []

    def work():
        try:
            for _ in range(200):
                assert loaded.list_visits(dates=["2020-09-10"])["summary"]["visits"] == 3
                loaded.calendar()
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
