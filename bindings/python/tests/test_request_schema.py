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
