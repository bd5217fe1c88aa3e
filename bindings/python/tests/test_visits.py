"""visits.import and visits.list through the binding: the sample day end to end, the typed
methods' arguments, the forms of a document, rejections and refusals as Python values, and the
database file's indexes. The list's and the import's rules are specified in Swift
(VisitsServiceTests, VisitsAPITests)."""

from __future__ import annotations

import copy
import json

import pytest

import carfit
from conftest import DAY_CONFIG

EMPLOYEE = "85f99bd7-ffd2-4ca7-1174-08d7984a4cf3"


def test_example_day(loaded):
    result = loaded.list_visits(dates=["2020-09-10"])
    assert [d["date"] for d in result["days"]] == ["2020-09-10"]
    day = result["days"][0]
    cards = day["visits"]
    assert len(cards) == 3
    assert [c["name"] for c in cards] == ["Tone Holtermann", "Kenn Jørgensen", "Mads Kolding"]
    assert [c["state"] for c in cards] == ["Done", "InProgress", "Todo"]
    assert [c["stateColor"] for c in cards] == ["#25A87B", "#F5C709", "#4E77D6"]
    assert [c["startTime"] for c in cards] == ["10:05", "10:40", "11:15"]
    assert [c["startTimeUtc"] for c in cards] == [
        "2020-09-10T08:05:00Z",
        "2020-09-10T08:40:00Z",
        "2020-09-10T09:15:00Z",
    ]
    assert [c["expectedTime"] for c in cards] == ["08:00/10:00", None, None]
    assert cards[0]["tasks"] == "Pudsning indvendig, Pudsning udvendig"
    assert [c["taskMinutes"] for c in cards] == [60, 45, 35]
    assert cards[0]["address"] == "Akademivej 15, 1 th 2800 Kgs. Lyngby"
    assert cards[0]["phone"] == "+4520934021"
    assert (cards[0]["latitude"], cards[0]["longitude"]) == (55.77883, 12.52124)
    assert {c["employeeId"] for c in cards} == {EMPLOYEE}
    assert [c["distanceMeters"] for c in cards] == [None, 489, 489]
    assert [c["distanceKm"] for c in cards] == [None, 0.5, 0.5]
    summary = {"visits": 3, "taskMinutes": 140, "distanceMeters": 978, "distanceKm": 1.0}
    assert day["summary"] == summary
    assert result["summary"] == summary


def test_twelve_hour_config(lib, sample):
    with carfit.Core(DAY_CONFIG, hour24=False) as core:
        core.import_visits(sample)
        cards = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
        assert cards[0]["startTime"] == "10:05 AM"
        assert core.list_visits(dates=["2020-09-10"], hour24=True)["days"][0]["visits"][0]["startTime"] == "10:05"


def test_typed_arguments_are_the_requests_members(loaded):
    """list_visits' keyword arguments reach the request under the header's member names."""
    typed = loaded.list_visits(dates=["2020-09-11", "2020-09-10"], employee_id=EMPLOYEE, hour24=False)
    assert typed == loaded.call("visits.list", {"dates": ["2020-09-11", "2020-09-10"], "employeeId": EMPLOYEE,
                                                "hour24": False})
    assert [d["date"] for d in typed["days"]] == ["2020-09-11", "2020-09-10"]
    assert typed["days"][1]["visits"][0]["startTime"] == "10:05 AM"
    assert loaded.list_visits(dates=["2020-09-10"], employee_id="nobody")["summary"]["visits"] == 0


def test_selection_drives_list(loaded):
    assert [d["date"] for d in loaded.list_visits()["days"]] == ["2020-09-10"]
    loaded.select_day("2020-09-11")
    result = loaded.list_visits()
    assert [d["date"] for d in result["days"]] == ["2020-09-11"]
    assert result["summary"]["visits"] == 2
    loaded.select_day("2020-09-30", mode="toggle")
    loaded.select_day("2020-09-10", mode="toggle")
    result = loaded.list_visits()
    assert [d["date"] for d in result["days"]] == ["2020-09-10", "2020-09-11", "2020-09-30"]
    assert result["summary"]["visits"] == 7
    loaded.select_day("2020-09-11", mode="toggle")
    assert [d["date"] for d in loaded.list_visits()["days"]] == ["2020-09-10", "2020-09-30"]


def test_import_reports_rejected_records(core, sample):
    bad = copy.deepcopy(sample)
    bad["data"][3]["houseOwnerLatitude"] = 91.5
    del bad["data"][5]["startTimeUtc"]
    result = core.import_visits(bad)
    assert result["imported"] == 5
    rejected = {r["index"]: r for r in result["rejected"]}
    assert set(rejected) == {3, 5}
    assert rejected[3]["field"] == "houseOwnerLatitude"
    assert rejected[5]["field"] == "startTimeUtc"
    assert all(r["message"] for r in result["rejected"])


def test_failed_import_changes_nothing(loaded):
    with pytest.raises(carfit.InvalidError):
        loaded.import_visits({"data": {"not": "a list"}})
    assert loaded.list_visits(dates=["2020-09-10"])["summary"]["visits"] == 3


@pytest.mark.parametrize("document", [
    {"data": [{"startTimeUtc": "yesterday"}]},
    '{"success": true, "data": [{"startTimeUtc": "yesterday"}, 7], "code": 200}',
    b'{"data": [], "data": [{"startTimeUtc": "yesterday"}]}',
])
def test_a_snapshot_of_only_rejected_records_changes_nothing(loaded, document):
    before = loaded.list_visits(dates=["2020-09-10"])
    with pytest.raises(carfit.InvalidError) as info:
        loaded.import_visits(document)
    assert info.value.field == "data"
    rejected = info.value.document["rejected"]
    assert rejected[0]["index"] == 0 and rejected[0]["field"] == "startTimeUtc"
    assert "rejected" in info.value.message and "unchanged" in info.value.message
    assert loaded.list_visits(dates=["2020-09-10"]) == before


def test_non_ascii_round_trip(lib):
    record = {"startTimeUtc": "2020-09-10T08:00:00", "houseOwnerFirstName": "Søren",
              "houseOwnerLastName": "Ærø 🚗", "houseOwnerCity": "København"}
    with carfit.Core(DAY_CONFIG) as core:
        core.import_visits({"data": [record]})
        card = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"][0]
    assert card["name"] == "Søren Ærø 🚗"
    assert card["address"] == "København"


def _index_columns(path):
    """The columns of the visits indexes of the database file at `path`, by index name."""
    import sqlite3

    connection = sqlite3.connect(path)
    try:
        names = [row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'visits' ORDER BY name")]
        return {name: [row[2] for row in connection.execute(f"PRAGMA index_info({name})")] for name in names}
    finally:
        connection.close()


def _day_plan(path):
    import sqlite3

    connection = sqlite3.connect(path)
    try:
        rows = connection.execute(
            "EXPLAIN QUERY PLAN SELECT start_ms, visit_id, employee_id, repetition, card FROM visits "
            "WHERE start_ms >= 0 AND start_ms < 1 AND (NULL IS NULL OR employee_id = NULL) ORDER BY start_ms, seq")
        return " ".join(row[-1] for row in rows)
    finally:
        connection.close()


def _in_day_order(plan):
    return "USING PRIMARY KEY" in plan and "TEMP B-TREE" not in plan


def test_large_snapshot_keeps_the_day_order(lib, sample, tmp_path):
    """A snapshot of thousands of visits is one table in day order (its primary key, no other
    index): a day is read in order from it; a large import that fails leaves it as it was."""
    fresh = str(tmp_path / "fresh.db")
    with carfit.Core(DAY_CONFIG, database=fresh):
        pass
    expected = _index_columns(fresh)
    assert expected == {}
    assert _in_day_order(_day_plan(fresh))

    records = []
    for i in range(2500):
        record = copy.deepcopy(sample["data"][i % len(sample["data"])])
        record["startTimeUtc"] = f"2020-09-{1 + i % 28:02d}T{6 + i % 12:02d}:{i % 60:02d}:00"
        records.append(record)
    path = str(tmp_path / "large.db")
    with carfit.Core(DAY_CONFIG, database=path) as core:
        assert core.import_visits({"data": records})["imported"] == 2500
        day = core.list_visits(dates=["2020-09-10"])
        assert day["summary"]["visits"] == sum(1 for i in range(2500) if i % 28 == 9)
        # A large document that breaks off: refused, and nothing changes.
        text = json.dumps({"data": records[:1500]})
        with pytest.raises(carfit.BadJSONError):
            core.call_text("visits.import", text[: len(text) - 2])
        assert core.list_visits(dates=["2020-09-10"]) == day
    assert _index_columns(path) == expected
    assert _in_day_order(_day_plan(path))


STATES = ["Todo", "InProgress", "Done", "Rejected"]


def test_a_card_names_exactly_the_states_it_may_move_to(lib):
    """`nextStates` is what visits.set_state accepts: every state a card names is taken, every
    other refused, and the changed card names those of its new state."""
    records = [{"visitId": f"v{i}", "startTimeUtc": f"2020-09-10T{8 + i:02d}:00:00Z", "visitState": state,
                "houseOwnerFirstName": f"Owner {i}"}
               for i, state in enumerate(STATES + ["Cancelled", None, "ToDo"])]
    records.append({"startTimeUtc": "2020-09-10T16:00:00Z", "visitState": "Todo", "houseOwnerFirstName": "No id"})
    expected = {"Todo": ["InProgress", "Rejected"], "InProgress": ["Todo", "Done", "Rejected"],
                "Done": [], "Rejected": [], "Cancelled": [], None: []}
    with carfit.Core(DAY_CONFIG) as core:
        core.import_visits({"data": records})
        cards = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
    assert len(cards) == len(records)
    for card in cards:
        want = [] if card["visitId"] is None else expected[card["state"]]
        assert card["nextStates"] == want, card["name"]
        for target in STATES:
            with carfit.Core(DAY_CONFIG) as core:
                core.import_visits({"data": records})
                if target in card["nextStates"]:
                    changed = core.set_visit_state(card["key"], target)["visit"]
                    assert changed["state"] == target
                    assert changed["nextStates"] == expected[target]
                else:
                    with pytest.raises((carfit.ConflictError, carfit.InvalidError)):
                        core.set_visit_state(card["key"], target)
