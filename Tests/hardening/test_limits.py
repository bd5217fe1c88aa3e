"""Resource bounds: requests larger than maxRequestBytes, nesting deeper than jansson's limit of
2048, and the stack a call needs, for every operation of the header.

A refused request changes nothing: the stored visits, transactions and calendar state read the
same before and after.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import subprocess
import sys

import pytest

import carfit
from conftest import DAY_CONFIG, REPO_ROOT, WORKER

MiB = 1024 * 1024
HEADER = (REPO_ROOT / "include" / "carfit.h").read_text(encoding="utf-8")
#: The operations the header declares (functions of the operation shape), and the method names
#: it gives them in their comments.
DECLARED = {f"{a}.{v}" for a, v in re.findall(
    r"int carfit_([a-z0-9]+)_([a-z0-9_]+)\(carfit_core \*core, const char \*request, char \*\*response\)", HEADER)}
NAMED = set(re.findall(r'method "([a-z0-9_]+\.[a-z0-9_]+)"', HEADER))
METHODS = sorted(DECLARED | NAMED)


def snapshot(core: carfit.Core) -> tuple:
    """Everything a refused call must leave as it was."""
    return (
        core.list_visits(dates=["2020-09-10", "2020-09-11"]),
        core.list_transactions(),
        core.calendar(),
    )


@pytest.fixture()
def loaded(lib, sample_visits, sample_transactions, tmp_path):
    """A core whose requests may be 1024 bytes at most, on a database holding the samples."""
    database = str(tmp_path / "limits.db")
    with carfit.Core(DAY_CONFIG, database=database) as core:
        core.import_visits(sample_visits)
        core.import_transactions(sample_transactions)
    with carfit.Core(DAY_CONFIG, database=database, maxRequestBytes=1024) as core:
        yield core


def test_the_header_lists_the_operations(lib):
    """Every declared operation has its method name and the other way round, the library
    exports each one, and carfit_call knows each name (an unknown one is misuse on "method")."""
    assert NAMED == DECLARED
    assert len(METHODS) == 59
    for method in METHODS:
        assert hasattr(lib, "carfit_" + method.replace(".", "_")), method
    with carfit.Core(DAY_CONFIG) as core:
        for method in METHODS:
            with pytest.raises(carfit.BadJSONError):
                core.call(method, "{")
        with pytest.raises(carfit.MisuseError) as unknown:
            core.call("visits.lists", "{")
        assert unknown.value.field == "method"


@pytest.mark.parametrize("method", METHODS)
def test_a_request_one_byte_over_the_limit_is_refused(loaded, method):
    before = snapshot(loaded)
    over = b"{}" + b" " * (1024 - 1)  # 1025 bytes
    with pytest.raises(carfit.InvalidError) as refused:
        loaded.call(method, over)
    assert "1025" in refused.value.message and "1024" in refused.value.message
    assert snapshot(loaded) == before


def test_a_request_of_exactly_the_limit_is_read(loaded):
    request = json.dumps({"date": "2020-09-11"}).encode()
    request += b" " * (1024 - len(request))
    assert len(request) == 1024
    assert loaded.call("calendar.select", request)["selected"] == ["2020-09-11"]


def nested(depth: int, opening: str, closing: str) -> bytes:
    """{"data": ... 1 ...} nested `depth` values deep, counted as jansson counts: every value,
    the top object and the innermost 1 included."""
    containers = depth - 2
    return ('{"data": ' + opening * containers + "1" + closing * containers + "}").encode()


def nested_record(depth: int) -> bytes:
    """{"data": [{"a": {"a": ... 1}}]}: a deep record inside the data array, `depth` values deep."""
    containers = depth - 3
    return ('{"data": [' + '{"a": ' * containers + "1" + "}" * containers + "]}").encode()


SHAPES = {
    "arrays": lambda depth: nested(depth, "[", "]"),
    "objects": lambda depth: nested(depth, '{"a": ', "}"),
    "records": nested_record,
}


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("levels", [2049, 2050, 2051, 2052, 100_000])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_nesting_past_the_limit_is_bad_json_and_changes_nothing(lib, sample_visits, sample_transactions,
                                                               method, levels, shape):
    with carfit.Core(DAY_CONFIG) as core:
        core.import_visits(sample_visits)
        core.import_transactions(sample_transactions)
        before = snapshot(core)
        request = SHAPES[shape](levels)
        with pytest.raises(carfit.BadJSONError) as refused:
            core.call(method, request)
        assert "depth" in refused.value.message
        assert snapshot(core) == before


def outcome(method: str, request: bytes) -> tuple:
    """(status, field, members of the answer) of `method` on a fresh core."""
    with carfit.Core(DAY_CONFIG) as core:
        try:
            return 0, None, sorted(core.call(method, request))
        except carfit.CarfitError as exc:
            return exc.status, exc.field, None


#: What each operation answers on a fresh core to {"data": <deep value>}: the status and the field
#: of its error (0, None: it succeeds, reading nothing from "data"). A visits import refuses
#: a "data" that is not an array, and one whose every element is rejected (invalid, "data"). A
#: required member other than "data" is missing (invalid, naming it: the request is checked
#: against the schema before anything else), nobody is logged in for the cart (unauthorized), or no source is configured for a refresh.
AT_DEPTH = {
    "visits.import": (2, "data"), "visits.list": (0, None), "visits.refresh": (2, "sources.visits"),
    "visits.plan": (2, "date"), "visits.set_state": (2, "key"), "visits.acknowledge": (2, "key"),
    "push.receive": (2, "payload"), "push.register": (2, "token"), "push.status": (0, None),
    "reminders.list": (0, None), "report.day": (0, None), "report.durations": (0, None),
    "sync.push": (2, "sources.visitUpdates"), "sync.status": (0, None),
    "auth.set": (2, "token"), "auth.status": (0, None),
    "location.report": (2, "latitude"), "location.status": (0, None),
    "visits.attach": (2, "key"), "visits.attachments": (2, "key"), "visits.detach": (2, "id"),
    "calendar.get": (0, None), "calendar.next": (0, None), "calendar.previous": (0, None),
    "calendar.select": (2, "date"), "calendar.month": (2, "year"),
    "employees.create": (2, "pin"), "employees.list": (0, None), "employees.recover_pin": (2, "email"),
    "session.login": (2, "pin"), "session.logout": (0, None), "session.get": (0, None),
    "catalog.import": (2, "products"), "catalog.refresh": (2, "sources.catalog"), "catalog.list": (0, None),
    "catalog.product": (2, "id"),
    "cart.add": (2, "productId"), "cart.update": (2, "productId"), "cart.remove": (2, "productId"),
    "cart.get": (5, None),
    "cart.checkout": (5, None), "cart.orders": (5, None),
    "transactions.import": (2, "transactions"), "transactions.list": (0, None), "transactions.pin": (2, "id"),
    "insights.get": (0, None),
    "articles.import": (2, "content"), "articles.refresh": (2, "sources.articles"), "articles.list": (0, None),
    "articles.format_date": (2, "date"),
    "patterns.import": (2, "patterns"), "patterns.refresh": (2, "sources.patterns"), "carousel.generate": (2, "rows"),
    "images.prefetch": (2, "urls"), "images.cancel": (2, "urls"), "images.stats": (0, None),
    "sources.status": (0, None),
    "events.wait": (0, None),
    "storage.rekey": (2, "key"),
}


def test_every_operation_has_its_answer_at_depth():
    assert sorted(AT_DEPTH) == METHODS


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_nesting_up_to_the_limit_is_parsed(lib, method, shape):
    """2048 values deep: parsed, then answered by the operation as `AT_DEPTH` says and exactly as
    the same shape only 8 values deep: same status, field, members."""
    deep = outcome(method, SHAPES[shape](2048))
    assert deep[:2] == AT_DEPTH[method], f"{method}: {deep}"
    assert deep == outcome(method, SHAPES[shape](8))


def test_a_thread_with_a_512_kib_stack_survives_the_deepest_requests(lib, tmp_path):
    """jansson parses recursively and needs ~190 KiB of stack for 2048 levels; the library's
    conversion adds to it. Hosts commonly give threads 512 KiB to 8 MiB (glibc: 8 MiB; the JVM,
    Android: 1 MiB). A crash of the child is a failure with its signal."""
    result = subprocess.run([sys.executable, str(WORKER), "deep", str(tmp_path / "deep.db"), "512"],
                            capture_output=True, text=True, timeout=300,
                            env={**os.environ, "CARFIT_LIBRARY": carfit._lib.find_library()})
    assert result.returncode == 0, f"exit {result.returncode}: {result.stderr[-2000:]}"
    statuses = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(statuses) == set(METHODS)
    # Requests at the limit are JSON like any other: read (then answered or refused by the
    # operation: invalid, unauthorized, ...), never bad_json, never internal.
    assert all(set(s) <= {0, 2, 3, 4, 5, 6, 7} for s in statuses.values()), statuses


def available_bytes() -> int:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@pytest.mark.skipif(available_bytes() < 2048 * MiB, reason="needs 2 GiB of free memory for a 513 MiB request")
def test_the_default_limit_is_512_mib(core):
    """A 513 MiB request is refused before it is parsed; 512 MiB exactly (whitespace around {})
    is read. One buffer of 513 MiB + 1 serves both, cut by its NUL terminator, and is passed
    without a copy. Takes ~2 s and 513 MiB of memory; skipped where 2 GiB are not free."""
    lib = core._lib
    size = 513 * MiB
    buffer = ctypes.create_string_buffer(size + 1)
    ctypes.memset(buffer, ord(" "), size)
    buffer[0] = b"{"
    buffer[size] = b"\0"

    def call(length: int) -> tuple:
        buffer[length - 1] = b"}"
        buffer[length] = b"\0"
        response = ctypes.c_void_p()
        status = lib.carfit_call(core._handle, b"calendar.get", ctypes.cast(buffer, ctypes.c_char_p),
                                 ctypes.byref(response))
        document = json.loads(carfit._lib.take_string(lib, response))
        buffer[length - 1] = b" "
        buffer[length] = b" "
        return status, document

    status, document = call(513 * MiB)
    assert status == 2 and document["error"]["code"] == "invalid", document
    assert str(513 * MiB) in document["error"]["message"]
    status, document = call(512 * MiB)
    assert status == 0 and "days" in document, document
    del buffer
