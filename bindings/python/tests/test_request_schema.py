"""The boundary checks every request against the schema's constraints before the operation runs:
required members, enum and const, minimum and maximum (and the exclusive forms), minLength and
maxLength (in code points), minItems and maxItems, also of an object's members and of an array's
items. A member the schema refuses is `invalid` with its path as `field`, also when the operation
would ignore it; a null optional member reads as absent. Streamed imports check the members they
do not stream the same way, and then store nothing."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

import pytest

import carfit
from contract import SCHEMA
from test_contract import call as call_any, resolve, types_of  # helpers only (no tests)

KEY = "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0"


def refused(core: carfit.Core, method: str, request: Any) -> carfit.CarfitError:
    with pytest.raises(carfit.InvalidError) as info:
        core.call(method, request)
    return info.value


CASES: List[Tuple[str, str, Dict[str, Any], str]] = [
    # required (also of an object member's members, and null where null is not allowed)
    ("required", "visits.set_state", {"state": "Done"}, "key"),
    ("required", "visits.set_state", {"key": None, "state": "Done"}, "key"),
    ("required", "location.report", {"latitude": 55.7, "longitude": 12.5}, "accuracyMeters"),
    ("required", "visits.plan", {"date": "2020-09-10", "start": {"latitude": 55.7}}, "start.longitude"),
    ("required", "calendar.month", {"year": 2020}, "month"),
    # enum
    ("enum", "visits.set_state", {"key": KEY, "state": "Finished"}, "state"),
    ("enum", "visits.attach", {"key": KEY, "kind": "video", "text": "x"}, "kind"),
    ("enum", "catalog.list", {"sort": "price"}, "sort"),
    ("enum", "images.prefetch", {"urls": [], "priority": "urgent"}, "priority"),
    # minimum / maximum, exclusiveMinimum
    ("minimum", "calendar.month", {"year": 0, "month": 1}, "year"),
    ("maximum", "calendar.month", {"year": 2020, "month": 13}, "month"),
    ("maximum", "carousel.generate", {"rows": 1001, "columns": 1}, "rows"),
    ("minimum", "location.report", {"latitude": 55.7, "longitude": 12.5, "accuracyMeters": -1}, "accuracyMeters"),
    ("maximum", "visits.plan", {"date": "2020-09-10", "start": {"latitude": 90.5, "longitude": 12}}, "start.latitude"),
    ("exclusiveMinimum", "visits.plan", {"date": "2020-09-10", "speedKmh": 0}, "speedKmh"),
    ("maximum", "visits.plan", {"date": "2020-09-10", "speedKmh": 300.5}, "speedKmh"),
    ("minimum", "visits.plan", {"date": "2020-09-10", "detourFactor": 0.5}, "detourFactor"),
    ("minimum", "visits.refresh", {"maxAgeSeconds": -1}, "maxAgeSeconds"),
    ("maximum", "events.wait", {"timeoutMs": 60001}, "timeoutMs"),
    # minLength / maxLength
    ("minLength", "visits.attach", {"key": KEY, "kind": "note", "text": ""}, "text"),
    ("maxLength", "visits.set_state", {"key": KEY, "state": "Rejected", "reason": "x" * 1001}, "reason"),
    ("minLength", "auth.set", {"token": ""}, "token"),
    ("maxLength", "auth.set", {"token": "t" * 8193}, "token"),
    # an array's items
    ("items", "images.prefetch", {"urls": ["http://h/a.png", 5]}, "urls[1]"),
    ("items", "visits.list", {"dates": ["2020-09-10", True]}, "dates[1]"),
]


@pytest.mark.parametrize("kind,method,request_,field", CASES, ids=[f"{c[0]}-{c[1]}-{c[3]}" for c in CASES])
def test_each_constraint_kind_is_invalid_with_the_members_path(loaded, kind, method, request_, field):
    error = refused(loaded, method, request_)
    assert error.field == field, error.message
    assert field in error.message


def test_the_bounds_themselves_are_taken(loaded):
    assert loaded.call("calendar.month", {"year": 9999, "month": 12})["title"]
    loaded.call("visits.plan", {"date": "2020-09-10", "speedKmh": 300, "detourFactor": 10,
                                "start": {"latitude": -90, "longitude": 180}})
    loaded.call("visits.plan", {"date": "2020-09-10", "speedKmh": 0.001, "detourFactor": 1})
    loaded.call("events.wait", {"timeoutMs": 0})
    loaded.call("catalog.list", {"sort": "-name"})


def test_lengths_count_code_points(loaded):
    """1000 code points is the longest reason, whatever their UTF-8 length; a character made of
    two code points counts two."""
    loaded.call("visits.set_state", {"key": KEY, "state": "InProgress", "reason": "\U0001F600" * 1000})
    assert refused(loaded, "visits.set_state",
                   {"key": KEY, "state": "Todo", "reason": "\U0001F600" * 1001}).field == "reason"
    assert refused(loaded, "visits.set_state",
                   {"key": KEY, "state": "Todo", "reason": "e\u0301" * 501}).field == "reason"
    loaded.call("visits.set_state", {"key": KEY, "state": "Todo", "reason": "e\u0301" * 500})


def test_a_null_optional_member_reads_as_absent(loaded):
    loaded.call("visits.plan", {"date": "2020-09-10", "speedKmh": None, "start": None, "detourFactor": None})
    loaded.call("catalog.list", {"sort": None})
    loaded.call("events.wait", {"timeoutMs": None, "after": None})
    loaded.call("auth.set", {"token": None})  # required, and null is one of its types


def test_the_schema_is_checked_before_the_operation(core):
    """Nobody is logged in: the cart would answer unauthorized, but the request is refused first."""
    assert refused(core, "cart.add", {"productId": 1, "quantity": 0}).field == "quantity"
    with pytest.raises(carfit.UnauthorizedError):
        core.call("cart.add", {"productId": 1, "quantity": 1})


def test_a_member_the_import_ignores_is_still_checked(core, sample):
    """`file` is a path or null: beside `data`, which the import streams, it is refused, and
    nothing is stored; the same document read whole is refused the same way."""
    request = {"data": sample["data"], "file": {"zz": 1}}
    error = refused(core, "visits.import", request)
    assert error.field == "file"
    assert core.list_visits(dates=["2020-09-10"])["days"][0]["visits"] == []
    # The file member first, and another shape of document (read whole).
    text = '{"file": {"zz": 1}, "data": ' + json.dumps(sample["data"]) + "}"
    assert refused(core, "visits.import", text).field == "file"
    assert refused(core, "visits.import", {"file": 5}).field == "file"
    assert core.list_visits(dates=["2020-09-10"])["days"][0]["visits"] == []
    # A null file reads as absent.
    assert core.call("visits.import", {"data": sample["data"], "file": None})["imported"] == 7


def test_streamed_imports_check_their_other_members(core):
    assert refused(core, "articles.import", {"status": "failure", "content": []}).field == "status"
    assert refused(core, "catalog.import", {"Products": {}}).field == "Products.List"


# -- every constraint of every operation, from the schema alone ------------------------------

RULES = ["enum", "const", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "minLength", "maxLength",
         "minItems", "maxItems"]


def rules_of(schema: Any) -> Dict[str, Any]:
    """The member's constraints, through $ref and the branches of a union."""
    schema = resolve(schema)
    if not isinstance(schema, dict):
        return {}
    found = {key: schema[key] for key in RULES if key in schema}
    for union in ("anyOf", "oneOf", "allOf"):
        for item in schema.get(union, []) or []:
            found.update(rules_of(item))
    return found


def valid_value(schema: Any) -> Any:
    """A value the schema takes (for the required members around the one broken)."""
    rules, types = rules_of(schema), types_of(schema)
    if "const" in rules:
        return rules["const"]
    if "enum" in rules:
        return next(v for v in rules["enum"] if v is not None)
    if "object" in types:
        return {name: valid_value(member) for name, member in (resolve(schema).get("properties") or {}).items()
                if name in resolve(schema).get("required", [])}
    if "array" in types:
        return []
    if "integer" in types or "number" in types:
        low = rules.get("minimum", rules.get("exclusiveMinimum", 0))
        return low + 1 if "exclusiveMinimum" in rules else max(low, min(1, rules.get("maximum", 1)))
    if "string" in types:
        return "x" * max(1, rules.get("minLength", 1))
    if "boolean" in types:
        return True
    return None


def broken_values(schema: Any) -> List[Tuple[str, Any]]:
    """(constraint, a value that breaks it) for each constraint the member states."""
    rules, types = rules_of(schema), types_of(schema)
    whole = "number" not in types
    out: List[Tuple[str, Any]] = []
    if "enum" in rules or "const" in rules:
        out.append(("enum", "not one of them" if "string" in types else 123456789))
    if "minimum" in rules:
        out.append(("minimum", rules["minimum"] - (1 if whole else 0.5)))
    if "exclusiveMinimum" in rules:
        out.append(("exclusiveMinimum", rules["exclusiveMinimum"]))
    if "maximum" in rules:
        out.append(("maximum", rules["maximum"] + (1 if whole else 0.5)))
    if "exclusiveMaximum" in rules:
        out.append(("exclusiveMaximum", rules["exclusiveMaximum"]))
    if rules.get("minLength", 0) > 0:
        out.append(("minLength", "x" * (rules["minLength"] - 1)))
    if "maxLength" in rules:
        out.append(("maxLength", "x" * (rules["maxLength"] + 1)))
    if rules.get("minItems", 0) > 0:
        out.append(("minItems", [valid_value(resolve(schema).get("items"))] * (rules["minItems"] - 1)))
    if "maxItems" in rules:
        out.append(("maxItems", [valid_value(resolve(schema).get("items"))] * (rules["maxItems"] + 1)))
    return out


def place(around: Dict[str, Any], path: Tuple[str, ...], inner: Dict[str, Any]) -> Dict[str, Any]:
    """The request `around` (its required members) with the object at `path` replaced by `inner`."""
    if not path:
        return {**around, **inner}
    request = dict(around)
    request[path[0]] = place(dict(around.get(path[0]) or {}), path[1:], inner)
    return request


def constraint_cases() -> List[Any]:
    found = []

    def visit(method: str, schema: Any, path: Tuple[str, ...], around: Dict[str, Any]) -> None:
        node = resolve(schema)
        required = node.get("required", [])
        fillers = {name: valid_value(member) for name, member in (node.get("properties") or {}).items()
                   if name in required}
        for name in required:
            request = {key: value for key, value in fillers.items() if key != name}
            found.append(pytest.param(method, place(around, path, request), ".".join(path + (name,)),
                                      id=f"{method}:{'.'.join(path + (name,))}:required"))
        for name, member in (node.get("properties") or {}).items():
            for kind, value in broken_values(member):
                request = dict(fillers)
                request[name] = value
                found.append(pytest.param(method, place(around, path, request), ".".join(path + (name,)),
                                          id=f"{method}:{'.'.join(path + (name,))}:{kind}"))
            if "object" in types_of(member) and resolve(member).get("properties"):
                visit(method, member, path + (name,), place(around, path, fillers))

    for method, entry in SCHEMA["operations"].items():
        visit(method, entry["request"], (), {})
    return found


CONSTRAINT_CASES = constraint_cases()


def test_the_schema_states_each_kind_the_boundary_checks():
    kinds = {case.id.rsplit(":", 1)[1] for case in CONSTRAINT_CASES}
    assert {"required", "enum", "minimum", "exclusiveMinimum", "maximum", "minLength", "maxLength"} <= kinds
    assert len(CONSTRAINT_CASES) > 30


@pytest.mark.parametrize("method, request_, field", CONSTRAINT_CASES)
def test_every_constraint_of_every_operation_is_invalid_with_its_path(core, method, request_, field):
    with pytest.raises(carfit.InvalidError) as info:
        call_any(core, method, request_)
    assert info.value.field == field, (request_, info.value.response)
