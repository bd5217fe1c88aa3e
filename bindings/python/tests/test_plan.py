"""visits.plan through the binding: the sample day end to end, the named export and
carfit_call agreeing, and refusals raised with their field. The plan's rules (order, times,
windows, skipped visits, refusals of every member) are specified in Swift (PlanTests,
VisitsServiceTests, VisitsAPITests)."""

from __future__ import annotations

import ctypes
import json

import pytest

import carfit


EMPLOYEE = "85f99bd7-ffd2-4ca7-1174-08d7984a4cf3"
DAY = "2020-09-10"


# ---------------------------------------------------------------------------- the sample day


def test_sample_day(loaded):
    plan = loaded.plan_day(DAY)
    assert plan["date"] == DAY
    assert plan["startTime"] == "10:40"  # the earliest open visit, 08:40Z in Copenhagen
    assert [s["name"] for s in plan["stops"]] == ["Kenn Jørgensen", "Mads Kolding"]
    first, second = plan["stops"]
    assert (first["arrival"], first["departure"]) == ("10:40", "11:25")
    assert first["distanceMeters"] == 0
    # 489 m x 1.3 at 30 km/h = 1.27 min after 11:25.
    assert (second["arrival"], second["departure"]) == ("11:26", "12:01")
    assert second["distanceMeters"] == 489
    assert [s["waitMinutes"] for s in plan["stops"]] == [0, 0]
    assert [s["lateMinutes"] for s in plan["stops"]] == [0, 0]
    assert plan["distanceMeters"] == 489
    assert plan["originalDistanceMeters"] == 489
    assert plan["lateStops"] == 0
    assert plan["skipped"] == [{"visitId": "799d7830-a5ff-4a0b-b571-9052df6a2e64", "reason": "state Done",
                                "name": "Tone Holtermann"}]


def test_named_export_and_call_agree(loaded, lib):
    request = json.dumps({"date": DAY, "startTime": "09:00"}).encode()
    response = ctypes.c_void_p()
    status = lib.carfit_visits_plan(loaded._handle, request, ctypes.byref(response))
    text = ctypes.string_at(response.value).decode()
    lib.carfit_free(response)
    assert status == 0
    assert json.loads(text) == loaded.call("visits.plan", {"date": DAY, "startTime": "09:00"})


def test_typed_arguments_are_the_requests_members(loaded):
    """plan_day's keyword arguments reach the request under the header's member names."""
    typed = loaded.plan_day(DAY, employee_id=EMPLOYEE, start=(55.77, 12.52), start_time="07:30", speed_kmh=15,
                            detour_factor=1, keep_order=True)
    assert typed == loaded.call("visits.plan", {
        "date": DAY, "employeeId": EMPLOYEE, "start": {"latitude": 55.77, "longitude": 12.52}, "startTime": "07:30",
        "speedKmh": 15, "detourFactor": 1, "keepOrder": True})
    assert typed["startTime"] == "07:30" and typed["optimized"] is False
    assert typed != loaded.plan_day(DAY)


# ---------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("request_, field", [
    ({}, "date"),
    ({"date": DAY, "start": {"latitude": 55.7}}, "start.longitude"),
    ({"date": DAY, "detourFactor": "1.3"}, "detourFactor"),
])
def test_refusals_name_the_field_and_change_nothing(loaded, request_, field):
    before = loaded.list_visits(dates=[DAY])
    with pytest.raises(carfit.InvalidError) as info:
        loaded.call("visits.plan", request_)
    assert info.value.field == field, info.value.document
    assert info.value.code == "invalid"
    assert info.value.message
    assert loaded.list_visits(dates=[DAY]) == before


def test_not_an_object_is_bad_json(loaded):
    with pytest.raises(carfit.BadJSONError):
        loaded.call("visits.plan", "[1, 2]")
