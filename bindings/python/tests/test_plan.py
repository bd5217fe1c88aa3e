"""The day plan through the built library: visits.plan on the bundled sample and on generated
days. Checks the times on hand-computed days, the field of every refusal (and that a refused
call changes nothing), and that a plan is never longer than the start-time order."""

from __future__ import annotations

import ctypes
import json
import math
import random

import pytest

import carfit


EMPLOYEE = "85f99bd7-ffd2-4ca7-1174-08d7984a4cf3"
DAY = "2020-09-10"



def minutes(text: str) -> int:
    hours, mins = text.split(":")
    return int(hours) * 60 + int(mins)


def visit(i, start_utc, lat, lon, state="ToDo", expected=None, task_minutes=30, employee="w1"):
    return {
        "visitId": f"v{i}", "homeBobEmployeeId": employee, "startTimeUtc": start_utc,
        "visitState": state, "expectedTime": expected,
        "houseOwnerFirstName": "Owner", "houseOwnerLastName": str(i),
        "houseOwnerLatitude": lat, "houseOwnerLongitude": lon,
        "tasks": [{"title": "Wash", "timesInMinutes": task_minutes}],
    }


def generated_day(n, seed, windows=False, employee="w1"):
    """n open visits around Copenhagen on 2020-09-10, start times 07:00-17:00 UTC in order."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        minute = 7 * 60 + i * 600 // max(n, 1)
        expected = None
        if windows and rng.random() < 0.5:
            h = max(7, minute // 60 - rng.randint(0, 1))
            expected = f"{h:02d}:00/{h + 2:02d}:00"
        out.append(visit(i, f"2020-09-10T{minute // 60:02d}:{minute % 60:02d}:00Z",
                         round(rng.uniform(55.6, 55.8), 6), round(rng.uniform(12.4, 12.6), 6),
                         state=rng.choice(["ToDo", "InProgress"]), expected=expected,
                         task_minutes=rng.randint(10, 60), employee=employee))
    return out


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


def test_response_members(loaded):
    plan = loaded.plan_day(DAY)
    assert set(plan) >= {"date", "stops", "distanceMeters", "originalDistanceMeters", "lateStops", "skipped",
                         "originalLateStops", "startTime", "savedMeters", "optimized"}
    assert set(plan["stops"][0]) >= {"visitId", "name", "arrival", "departure", "waitMinutes",
                                     "lateMinutes", "distanceMeters", "window", "expectedTime"}


def test_start_point_and_time(loaded):
    plan = loaded.plan_day(DAY, start=(55.77, 12.52), start_time="07:30", speed_kmh=15, detour_factor=1)
    first, second = plan["stops"]
    assert plan["startTime"] == "07:30"
    assert first["distanceMeters"] > 0
    # Travel at 15 km/h without detour is metres / 250 per minute.
    assert minutes(first["arrival"]) == 450 + round(first["distanceMeters"] / 250)
    assert plan["distanceMeters"] == first["distanceMeters"] + second["distanceMeters"]
    assert plan["originalDistanceMeters"] >= plan["distanceMeters"]


def test_other_days_and_employees(loaded):
    assert [s["visitId"] for s in loaded.plan_day("2020-09-30")["stops"]] == [
        "ec94deca-d66a-4d62-b049-72414870de00"] * 2
    assert loaded.plan_day(DAY, employee_id=EMPLOYEE)["stops"] != []
    nobody = loaded.plan_day(DAY, employee_id="nobody")
    assert (nobody["stops"], nobody["skipped"], nobody["startTime"]) == ([], [], None)
    empty = loaded.plan_day("2021-01-01")
    assert empty["stops"] == [] and empty["distanceMeters"] == 0 and empty["originalDistanceMeters"] == 0


def test_named_export_and_call_agree(loaded, lib):
    request = json.dumps({"date": DAY, "startTime": "09:00"}).encode()
    response = ctypes.c_void_p()
    status = lib.carfit_visits_plan(loaded._handle, request, ctypes.byref(response))
    text = ctypes.string_at(response.value).decode()
    lib.carfit_free(response)
    assert status == 0
    assert json.loads(text) == loaded.call("visits.plan", {"date": DAY, "startTime": "09:00"})


# ---------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("request_, field", [
    ({}, "date"),
    ({"date": None}, "date"),
    ({"date": 20200910}, "date"),
    ({"date": "2020-02-30"}, "date"),
    ({"date": DAY, "employeeId": 7}, "employeeId"),
    ({"date": DAY, "start": [55.7, 12.5]}, "start"),
    ({"date": DAY, "start": {"latitude": 55.7}}, "start.longitude"),
    ({"date": DAY, "start": {"longitude": 12.5}}, "start.latitude"),
    ({"date": DAY, "start": {"latitude": -90.5, "longitude": 12.5}}, "start.latitude"),
    ({"date": DAY, "start": {"latitude": 55.7, "longitude": 181}}, "start.longitude"),
    ({"date": DAY, "startTime": "24:00"}, "startTime"),
    ({"date": DAY, "startTime": "7.30"}, "startTime"),
    ({"date": DAY, "speedKmh": 0}, "speedKmh"),
    ({"date": DAY, "speedKmh": 301}, "speedKmh"),
    ({"date": DAY, "speedKmh": 1e-300}, "speedKmh"),
    ({"date": DAY, "detourFactor": 0.9}, "detourFactor"),
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


# ---------------------------------------------------------------------------- windows and times


def test_waiting_lateness_and_skipped_reasons(lib):
    # Stops a few metres apart along a street, driven from its end (start order is the one
    # shortest order, travel under a second) from 08:00 local (UTC on this core), 60 + 60 + 15 minutes of work: the
    # second waits for its 09:30 window, the third misses its 10:00 end.
    with carfit.Core(now="2020-09-10T05:00:00Z", timeZone="UTC") as utc:
        visits = [
            visit(1, "2020-09-10T08:00:00Z", 55.7, 12.5, task_minutes=60),
            visit(2, "2020-09-10T08:05:00Z", 55.7, 12.5001, expected="09:30/11:00", task_minutes=60),
            visit(3, "2020-09-10T08:10:00Z", 55.7, 12.5002, expected="08:00/10:00", task_minutes=15),
            visit(4, "2020-09-10T08:20:00Z", 55.7, 12.5, state="Done"),
            visit(5, "2020-09-10T08:30:00Z", 55.7, 12.5, state="Rejected"),
            visit(6, "2020-09-10T08:40:00Z", None, None),
            visit(7, "2020-09-10T08:50:00Z", 55.7, 12.5, state="Paused"),
            visit(8, "2020-09-10T09:50:00Z", 55.7, 12.5003, expected="soon", task_minutes=0),
        ]
        utc.import_visits({"data": visits})
        plan = utc.plan_day(DAY, start=(55.7, 12.4999))
    assert [s["visitId"] for s in plan["stops"]] == ["v1", "v2", "v3", "v8"]
    assert [s["arrival"] for s in plan["stops"]] == ["08:00", "09:30", "10:30", "10:45"]
    assert [s["departure"] for s in plan["stops"]] == ["09:00", "10:30", "10:45", "10:45"]
    assert [s["waitMinutes"] for s in plan["stops"]] == [0, 30, 0, 0]
    assert [s["lateMinutes"] for s in plan["stops"]] == [0, 0, 30, 0]
    assert [s["window"] for s in plan["stops"]] == [None, "09:30/11:00", "08:00/10:00", None]
    assert plan["stops"][3]["expectedTime"] == "soon"  # malformed: no window
    assert plan["lateStops"] == 1 and plan["originalLateStops"] == 1
    assert [(s["visitId"], s["reason"]) for s in plan["skipped"]] == [
        ("v4", "state Done"), ("v5", "state Rejected"), ("v6", "no coordinates"), ("v7", "state Paused")]
    assert plan["skipped"][0]["name"] == "Owner 4"


def test_as_short_with_fewer_late_stops(lib):
    # All at one place: every order is as short; the start-time order is late at v3, and the
    # planner finds an order without a late stop.
    with carfit.Core(now="2020-09-10T05:00:00Z", timeZone="UTC") as core:
        core.import_visits({"data": [
            visit(1, "2020-09-10T08:00:00Z", 55.7, 12.5, task_minutes=60),
            visit(2, "2020-09-10T08:05:00Z", 55.7, 12.5, expected="09:30/11:00", task_minutes=60),
            visit(3, "2020-09-10T08:10:00Z", 55.7, 12.5, expected="08:00/10:00", task_minutes=15),
        ]})
        plan = core.plan_day(DAY)
    assert plan["originalLateStops"] == 1
    assert plan["lateStops"] == 0
    assert plan["distanceMeters"] == plan["originalDistanceMeters"] == 0


def test_times_past_midnight_keep_counting(lib):
    with carfit.Core(now="2020-09-10T05:00:00Z", timeZone="UTC") as core:
        core.import_visits({"data": [visit(1, "2020-09-10T22:00:00Z", 55.7, 12.5, task_minutes=90),
                                     visit(2, "2020-09-10T23:00:00Z", 55.7, 12.5, task_minutes=90)]})
        plan = core.plan_day(DAY)
    assert [(s["arrival"], s["departure"]) for s in plan["stops"]] == [("22:00", "23:30"), ("23:30", "25:00")]


def test_identical_places(lib):
    with carfit.Core(now="2020-09-10T05:00:00Z", timeZone="UTC") as core:
        core.import_visits({"data": [visit(i, f"2020-09-10T{8 + i // 6:02d}:{i % 6 * 10:02d}:00Z", 55.7, 12.5)
                                     for i in range(30)]})
        plan = core.plan_day(DAY, start=(55.7, 12.5))
    assert [s["visitId"] for s in plan["stops"]] == [f"v{i}" for i in range(30)]
    assert plan["distanceMeters"] == 0 and plan["originalDistanceMeters"] == 0


# ---------------------------------------------------------------------------- generated days


@pytest.mark.parametrize("n, windows, start", [
    (5, False, None), (9, False, (55.7, 12.5)), (9, True, None), (12, False, None),
    (30, False, (55.7, 12.5)), (30, True, (55.65, 12.45)), (120, True, None), (200, False, None),
])
def test_never_longer_than_the_start_time_order(lib, n, windows, start):
    with carfit.Core(now="2020-09-10T05:00:00Z", timeZone="UTC") as core:
        visits = generated_day(n, seed=n * 7 + windows, windows=windows)
        core.import_visits({"data": visits})
        plan = core.plan_day(DAY, start=start)
        again = core.plan_day(DAY, start=start)
    assert plan == again, "plans are deterministic"
    stops = plan["stops"]
    assert sorted(s["visitId"] for s in stops) == sorted(v["visitId"] for v in visits)
    assert plan["distanceMeters"] == sum(s["distanceMeters"] for s in stops)
    assert plan["distanceMeters"] <= plan["originalDistanceMeters"]
    assert plan["savedMeters"] == plan["originalDistanceMeters"] - plan["distanceMeters"]
    assert plan["lateStops"] <= plan["originalLateStops"]
    assert plan["lateStops"] == sum(1 for s in stops if s["lateMinutes"] > 0)
    if n >= 9:
        assert plan["distanceMeters"] < plan["originalDistanceMeters"]
    if start is None:
        assert stops[0]["distanceMeters"] == 0
    by_id = {v["visitId"]: v for v in visits}
    clock = minutes(plan["startTime"])
    for s in stops:
        arrival, departure = minutes(s["arrival"]), minutes(s["departure"])
        assert arrival >= clock - 1  # times only move forward (to the rounding of a minute)
        assert departure == arrival + s["serviceMinutes"]
        assert s["serviceMinutes"] == by_id[s["visitId"]]["tasks"][0]["timesInMinutes"]
        if s["window"]:
            opens, closes = (minutes(t) for t in s["window"].split("/"))
            assert arrival >= opens
            assert s["lateMinutes"] == max(0, arrival - closes)
        else:
            assert s["waitMinutes"] == 0 and s["lateMinutes"] == 0
        clock = departure


def test_small_days_are_optimal(lib):
    """Up to 8 stops without windows: no order is shorter (all orders tried here)."""
    import itertools

    with carfit.Core(now="2020-09-10T05:00:00Z", timeZone="UTC") as core:
        for seed in range(3):
            visits = generated_day(7, seed=100 + seed)
            core.import_visits({"data": visits})
            plan = core.plan_day(DAY)
            # The stops' pairwise metres, as the plan measures them, from plans of two stops.
            ids = [v["visitId"] for v in visits]
            metres = {}
            for a, b in itertools.combinations(range(7), 2):
                pair = [dict(visits[a], visitId="a"), dict(visits[b], visitId="b")]
                core.import_visits({"data": pair})
                d = core.plan_day(DAY)["stops"][1]["distanceMeters"]
                metres[a, b] = metres[b, a] = d
            best = min(sum(metres[o[k], o[k + 1]] for k in range(6)) for o in itertools.permutations(range(7)))
            assert plan["distanceMeters"] == best, seed
            assert sorted(s["visitId"] for s in plan["stops"]) == sorted(ids)


def test_a_thousand_and_one_stops_keep_their_order(lib):
    with carfit.Core(now="2020-09-10T05:00:00Z", timeZone="UTC") as core:
        visits = generated_day(1001, seed=5)
        core.import_visits({"data": visits})
        plan = core.plan_day(DAY)
    assert plan["optimized"] is False
    assert [s["visitId"] for s in plan["stops"]] == [v["visitId"] for v in visits]
    assert plan["distanceMeters"] == plan["originalDistanceMeters"] > 0
