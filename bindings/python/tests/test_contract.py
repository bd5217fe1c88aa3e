"""The request half of the schema, generated from include/carfit.schema.json: for every
operation and every request member whose JSON type the schema declares, a request holding a
value of another type is answered CARFIT_INVALID naming that member; a request that is not a
JSON object is CARFIT_BAD_JSON. (The response half is checked on every call of every test:
see contract.py.)"""

from __future__ import annotations

import ctypes
import json
from typing import Any, Dict, List, Tuple

import pytest

import carfit
from contract import SCHEMA

#: A value of each JSON type, tried in this order for the first type the member refuses.
SAMPLES: List[Tuple[str, Any]] = [("string", "x"), ("integer", 12345), ("number", 1.5), ("boolean", True),
                                  ("array", []), ("object", {})]


def resolve(schema: Any) -> Any:
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        node: Any = SCHEMA
        for part in schema["$ref"][2:].split("/"):
            node = node[part]
        schema = node
    return schema


def types_of(schema: Any) -> List[str]:
    schema = resolve(schema)
    if not isinstance(schema, dict):
        return []
    if "type" in schema:
        return [schema["type"]] if isinstance(schema["type"], str) else list(schema["type"])
    for union in ("anyOf", "oneOf"):
        if union in schema:
            out: List[str] = []
            for item in schema[union]:
                found = types_of(item)
                if not found:
                    return []
                out += found
            return out
    return []


def wrong_value(types: List[str]) -> Any:
    allowed = set(types) | ({"integer"} if "number" in types else set())
    return next(value for name, value in SAMPLES if name not in allowed)


def members(schema: Any, path: Tuple[str, ...] = ()) -> List[Tuple[Tuple[str, ...], List[str], List[str]]]:
    """(path, types, item types of a plain-value array) of each typed request member."""
    out = []
    for name, member in (resolve(schema).get("properties") or {}).items():
        types = types_of(member)
        if not types:
            continue
        items = types_of(resolve(member).get("items")) if "array" in types else []
        if {"array", "object"} & set(items):
            items = []
        out.append((path + (name,), types, items))
        if "object" in types:
            out += members(member, path + (name,))
    return out


def cases() -> List[Any]:
    found = []
    for method, entry in SCHEMA["operations"].items():
        for path, types, items in members(entry["request"]):
            found.append(pytest.param(method, path, wrong_value(types), None, id=f"{method}:{'.'.join(path)}"))
            if items:
                found.append(pytest.param(method, path, [wrong_value(items)], 0, id=f"{method}:{'.'.join(path)}[0]"))
    return found


def nest(path: Tuple[str, ...], value: Any) -> Dict[str, Any]:
    for key in reversed(path):
        value = {key: value}
    return value


def call(core: carfit.Core, method: str, request: Any) -> None:
    if method in ("images.data", "visits.attachment_data"):
        symbol = SCHEMA["operations"][method]["symbol"]
        data, length, response = ctypes.c_void_p(), ctypes.c_size_t(0), ctypes.c_void_p()
        status = getattr(core._lib, symbol)(core._handle, request if isinstance(request, bytes) else
                                            json.dumps(request).encode(), ctypes.byref(data), ctypes.byref(length),
                                            ctypes.byref(response))
        document = core._take(response)
        if data.value:
            core._lib.carfit_free(data.value)
        if status:
            raise carfit.error_class(status)(status, (document or {}).get("error"), document)
        return
    core.call(method, request)


def test_every_operation_has_typed_request_members():
    # The generated cases reach every operation that reads a member, through the schema alone.
    typed = {method for method, entry in SCHEMA["operations"].items() if members(entry["request"])}
    assert {"visits.list", "visits.plan", "cart.add", "events.wait", "images.data"} <= typed


@pytest.mark.parametrize("method, path, value, item", cases())
def test_a_member_of_a_refused_type_is_invalid(core, method, path, value, item):
    with pytest.raises(carfit.InvalidError) as info:
        call(core, method, nest(path, value))
    field = ".".join(path) + ("" if item is None else f"[{item}]")
    assert info.value.field == field, info.value.response


@pytest.mark.parametrize("method", sorted(SCHEMA["operations"]))
@pytest.mark.parametrize("text", ["5", '"x"', "true", "null", "[1]"])
def test_a_request_that_is_no_object_is_bad_json(core, method, text):
    if text == "[1]" and "array" in types_of(SCHEMA["operations"][method]["request"]):
        pytest.skip(f"{method} takes an array too")
    with pytest.raises(carfit.BadJSONError):
        call(core, method, text.encode())


def test_the_binding_reads_the_loaded_librarys_schema(lib):
    assert carfit.schema() == SCHEMA
    assert carfit.schema()["version"] == carfit.version()


@pytest.mark.parametrize("method", sorted(SCHEMA["operations"]))
def test_a_null_optional_member_reads_as_absent(core, method):
    # The schemas allow null for every optional member: the library must not refuse one.
    request = SCHEMA["operations"][method]["request"]
    required = set(resolve(request).get("required", []))
    for alternative in resolve(request).get("anyOf", []):  # one of several members is required
        required |= set(alternative.get("required", []))
    nulls = [path[0] for path, types, _ in members(request) if len(path) == 1 and path[0] not in required]
    assert all("null" in types for path, types, _ in members(request) if len(path) == 1 and path[0] in nulls)
    if not nulls:
        pytest.skip(f"{method} has no optional member")
    try:
        call(core, method, {name: None for name in nulls})
    except carfit.InvalidError as error:
        assert error.field not in nulls, error.response
    except carfit.CarfitError:
        pass  # another status (nobody logged in, no source configured, ...) is not about the nulls
