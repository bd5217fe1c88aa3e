"""Time on the job and time to leave through the binding: the answers' shapes, the config's
report and reminders members (strict), typed refusals, the plan's durations, and the washer's
facts surviving kill -9."""

from __future__ import annotations

import json
import os
import signal

import pytest

import carfit

from conftest import DAY_CONFIG as CONFIG
from helpers import start_child

START = "2020-09-10T08:00:00Z"
KEY = "a|1599724800000|0"
DOC = {"data": [
    {"visitId": "a", "startTimeUtc": START, "visitState": "Todo", "houseOwnerFirstName": "Ann",
     "houseOwnerAddress": "Street 1", "houseOwnerLatitude": 55.7, "houseOwnerLongitude": 12.5,
     "tasks": [{"title": "Wash", "timesInMinutes": 20}, {"title": " Wax ", "timesInMinutes": 10}]},
    {"visitId": "b", "startTimeUtc": "2020-09-10T09:00:00Z", "visitState": "Todo", "houseOwnerFirstName": "Bo",
     "houseOwnerAddress": "Street 2", "houseOwnerLatitude": 55.71, "houseOwnerLongitude": 12.5,
     "tasks": [{"title": "Wash", "timesInMinutes": 30}]},
]}


def at(instant: str) -> dict:
    return {**CONFIG, "now": instant}


def test_the_report_the_durations_and_the_reminders_marshal(lib, tmp_path):
    db = str(tmp_path / "r.db")
    with carfit.Core({**at("2020-09-10T08:01:00Z"), "database": db}) as core:
        core.import_visits(DOC)
        core.set_visit_state(KEY, "InProgress")
    with carfit.Core({**at("2020-09-10T08:46:30Z"), "database": db}) as core:
        core.set_visit_state(KEY, "Done")
        report = core.report_day("2020-09-10")
        assert report["date"] == "2020-09-10"
        first = report["visits"][0]
        assert (first["key"], first["startedAt"], first["finishedAt"], first["workedMinutes"]) == (
            KEY, "2020-09-10T08:01:00Z", "2020-09-10T08:46:30Z", 46)
        assert report["totals"] == {"plannedMinutes": 60, "workedMinutes": 46, "onSiteMinutes": 0, "driveMinutes": 0,
                                    "done": 1, "rejected": 0, "todo": 1, "inProgress": 0}
        assert core.report_durations() == {"tasks": [
            {"title": "Wash", "samples": 1, "plannedMinutes": 20, "medianMinutes": 30.3, "p80Minutes": 30.3},
            {"title": "Wax", "samples": 1, "plannedMinutes": 10, "medianMinutes": 15.2, "p80Minutes": 15.2}]}
        reminders = core.reminders()
        assert reminders["date"] == "2020-09-10"
        (only,) = reminders["reminders"]
        assert only["key"] == "b|1599728400000|0" and only["title"] == "Time to leave"
        assert only["distanceMeters"] == 1113 and only["travelMinutes"] == 3
        assert only["leaveAt"] == "2020-09-10T08:52:00Z" and only["late"] is False
        assert only["deepLink"] == "carfit://visit/b%7C1599728400000%7C0"
        assert only["body"] == "Bo at 11:00, Street 2"


def test_a_learned_plan_and_its_refusal(lib):
    with carfit.Core({**CONFIG, "report": {"minSamples": 1}}) as core:
        core.import_visits(DOC)
        assert core.plan_day("2020-09-10", durations="planned")["stops"][0]["serviceMinutes"] == 30
        with pytest.raises(carfit.InvalidError) as e:
            core.plan_day("2020-09-10", durations="guessed")
        assert e.value.field == "durations"


@pytest.mark.parametrize("config, field", [
    ({"report": {"keepDays": 0}}, "report.keepDays"),
    ({"report": {"minSamples": 51}}, "report.minSamples"),
    ({"report": {"keepdays": 5}}, "report.keepdays"),
    ({"reminders": {"speedKmh": 0}}, "reminders.speedKmh"),
    ({"reminders": {"bufferMinutes": 241}}, "reminders.bufferMinutes"),
    ({"reminders": {"detourFactor": 0.5}}, "reminders.detourFactor"),
    ({"reminders": {"positionMaxAgeSeconds": 86401}}, "reminders.positionMaxAgeSeconds"),
])
def test_the_config_members_are_strict(lib, config, field):
    with pytest.raises(carfit.InvalidError) as e:
        carfit.Core({**CONFIG, **config})
    assert e.value.field == field


def test_a_date_that_is_no_day_is_refused(lib):
    with carfit.Core(CONFIG) as core:
        for call in (core.report_day, core.reminders):
            with pytest.raises(carfit.InvalidError) as e:
                call("2020-13-01")
            assert e.value.field == "date"


CHILD = """
import json, sys
sys.path.insert(0, {binding!r})
import carfit
core = carfit.Core(json.loads(sys.argv[1]))
core.import_visits(json.loads(sys.argv[2]))
core.set_visit_state("a|1599724800000|0", "InProgress")
print("ready", flush=True)
sys.stdin.readline()
"""


def test_the_facts_survive_kill_9(lib, tmp_path):
    db = str(tmp_path / "k.db")
    child = start_child(CHILD, json.dumps({**at("2020-09-10T08:02:00Z"), "database": db}), json.dumps(DOC))
    assert child.stdout.readline().strip() == "ready"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    with carfit.Core({**at("2020-09-10T08:10:00Z"), "database": db}) as core:
        assert core.report_day("2020-09-10")["visits"][0]["startedAt"] == "2020-09-10T08:02:00Z"
        core.import_visits({"data": [DOC["data"][1]]})
        # a's start still waits for the update server: its card stays listed (removed), and
        # reported, with its facts.
        listed = core.call("visits.list", {"dates": ["2020-09-10"]})["days"][0]["visits"]
        assert [(v["key"], v["removed"]) for v in listed] == [("a|1599724800000|0", True), ("b|1599728400000|0", False)]
        report = core.report_day("2020-09-10")["visits"]
        assert [v["key"] for v in report] == ["a|1599724800000|0", "b|1599728400000|0"]
        assert report[0]["startedAt"] == "2020-09-10T08:02:00Z"
    with carfit.Core({**at("2020-09-10T08:10:00Z"), "database": db}) as core:
        # The facts outlive a snapshot without the visit: they come back with it.
        core.import_visits(DOC)
        assert core.report_day("2020-09-10")["visits"][0]["startedAt"] == "2020-09-10T08:02:00Z"
