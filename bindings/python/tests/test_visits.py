"""visits.import and visits.list on the bundled sample."""

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


def test_card_members(loaded, sample):
    """Every member of a card, in the header's order, with the value the sample record gives."""
    card = loaded.list_visits(dates=["2020-09-10"])["days"][0]["visits"][1]
    record = next(r for r in sample["data"] if r["visitId"] == card["visitId"])
    assert card == {
        "visitId": "eefa3ba5-0aa8-42a4-a7b3-cd6d3939473e",
        "name": f'{record["houseOwnerFirstName"]} {record["houseOwnerLastName"]}',
        "state": record["visitState"],
        "stateColor": "#F5C709",
        "startTime": "10:40",  # 08:40 UTC in Copenhagen's summer time
        "startTimeUtc": record["startTimeUtc"] + "Z",
        "expectedTime": record["expectedTime"],
        "tasks": ", ".join(t["title"] for t in record["tasks"]),
        "taskMinutes": sum(t["timesInMinutes"] for t in record["tasks"]),
        "address": f'{record["houseOwnerAddress"]} {record["houseOwnerZip"]} {record["houseOwnerCity"]}',
        "phone": record["houseOwnerMobilePhone"],
        "latitude": record["houseOwnerLatitude"],
        "longitude": record["houseOwnerLongitude"],
        "employeeId": record["homeBobEmployeeId"],
        "distanceMeters": 489,
        "distanceKm": 0.5,
        "key": "eefa3ba5-0aa8-42a4-a7b3-cd6d3939473e|1599727200000|0",
        "pending": False,
        "timeUsedMinutes": record["visitTimeUsed"],
        "arrivedAt": None,
        "departedAt": None,
        "suggestion": None,
        "navigation": {
            "geo": "geo:55.77453,12.51967",
            "google": "https://www.google.com/maps/dir/?api=1&destination=55.77453,12.51967",
            "apple": "https://maps.apple.com/?daddr=55.77453,12.51967",
        },
        "attachments": {"photos": 0, "signatures": 0, "notes": 0, "pending": 0},
    }
    assert list(card) == [
        "visitId", "name", "state", "stateColor", "startTime", "startTimeUtc",
        "expectedTime", "tasks", "taskMinutes", "address", "phone", "latitude",
        "longitude", "employeeId", "distanceMeters", "distanceKm", "key", "pending", "timeUsedMinutes",
        "arrivedAt", "departedAt", "suggestion", "navigation",
        "attachments",
    ]
    assert (card["name"], card["tasks"], card["taskMinutes"]) == ("Kenn Jørgensen", "Pudsning udvendig", 45)
    assert (card["address"], card["phone"]) == ("Kornagervej 67 2800 Kgs. Lyngby", "+4520441443")


def test_twelve_hour_override(loaded):
    cards = loaded.list_visits(dates=["2020-09-10"], hour24=False)["days"][0]["visits"]
    assert [c["startTime"] for c in cards] == ["10:05 AM", "10:40 AM", "11:15 AM"]


def test_twelve_hour_config(lib, sample):
    with carfit.Core(DAY_CONFIG, hour24=False) as core:
        core.import_visits(sample)
        cards = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
        assert cards[0]["startTime"] == "10:05 AM"
        assert core.list_visits(dates=["2020-09-10"], hour24=True)["days"][0]["visits"][0]["startTime"] == "10:05"


def test_afternoon_in_twelve_hours(lib, sample):
    for record in sample["data"]:
        record["startTimeUtc"] = record["startTimeUtc"].replace("T08:", "T12:")
    with carfit.Core(DAY_CONFIG) as core:
        core.import_visits(sample)
        card = core.list_visits(dates=["2020-09-10"], hour24=False)["days"][0]["visits"]
        assert "02:05 PM" in [c["startTime"] for c in card]


def test_days_in_order_asked_each_once(loaded):
    result = loaded.list_visits(dates=["2020-09-11", "2020-09-10", "2020-09-11", "2020-09-12"])
    assert [d["date"] for d in result["days"]] == ["2020-09-11", "2020-09-10", "2020-09-12"]
    assert [len(d["visits"]) for d in result["days"]] == [2, 3, 0]
    assert result["days"][2]["summary"]["visits"] == 0
    assert result["summary"]["visits"] == 5
    assert result["summary"]["taskMinutes"] == 140 + 70


def test_repeated_visit_ids_are_kept(loaded):
    day = loaded.list_visits(dates=["2020-09-11"])["days"][0]
    assert len(day["visits"]) == 2
    assert day["visits"][0]["visitId"] == day["visits"][1]["visitId"]
    assert [c["distanceMeters"] for c in day["visits"]] == [None, 0]


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


def test_employee_filter(loaded):
    mine = loaded.list_visits(dates=["2020-09-10"], employee_id=EMPLOYEE)
    assert mine["summary"]["visits"] == 3
    nobody = loaded.list_visits(dates=["2020-09-10"], employee_id="no-such-employee")
    assert nobody["days"][0]["visits"] == []
    assert nobody["summary"]["visits"] == 0
    assert nobody["summary"]["distanceMeters"] == 0


def test_employee_filter_measures_between_kept_cards(lib, sample):
    sample["data"][1]["homeBobEmployeeId"] = "someone-else"  # Kenn, the middle card
    with carfit.Core(DAY_CONFIG) as core:
        core.import_visits(sample)
        everyone = core.list_visits(dates=["2020-09-10"])["days"][0]
        mine = core.list_visits(dates=["2020-09-10"], employee_id=EMPLOYEE)["days"][0]
        theirs = core.list_visits(dates=["2020-09-10"], employee_id="someone-else")["days"][0]
    assert [c["name"] for c in mine["visits"]] == ["Tone Holtermann", "Mads Kolding"]
    assert [c["name"] for c in theirs["visits"]] == ["Kenn Jørgensen"]
    assert everyone["summary"]["distanceMeters"] == 978
    direct = mine["visits"][1]["distanceMeters"]
    # Tone to Mads directly (WGS84 geodesic 595.38 m), not the legs via Kenn.
    assert direct == 595
    assert theirs["visits"][0]["distanceMeters"] is None


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


def test_import_replaces_snapshot(loaded, sample):
    loaded.import_visits({"data": sample["data"][:1]})
    assert loaded.list_visits(dates=["2020-09-10"])["summary"]["visits"] == 1
    assert loaded.list_visits(dates=["2020-09-11"])["summary"]["visits"] == 0


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


def test_an_empty_snapshot_is_a_snapshot(loaded):
    assert loaded.import_visits({"data": []}) == {"imported": 0, "rejected": []}
    assert loaded.list_visits(dates=["2020-09-10"])["summary"]["visits"] == 0


def test_state_spellings(lib):
    records = [
        {"startTimeUtc": f"2020-09-10T0{i}:00:00", "visitState": state}
        for i, state in enumerate(["ToDo", "in_progress", "DONE", "rejected", "Paused"])
    ]
    with carfit.Core(DAY_CONFIG, timeZone="UTC") as core:
        core.import_visits({"data": records})
        cards = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
    assert [c["state"] for c in cards] == ["Todo", "InProgress", "Done", "Rejected", "Paused"]
    assert [c["stateColor"] for c in cards] == ["#4E77D6", "#F5C709", "#25A87B", "#EF6565", "#8E8E93"]


def test_local_day_follows_time_zone(lib):
    record = {"startTimeUtc": "2020-09-10T23:30:00Z"}
    with carfit.Core(DAY_CONFIG) as core:  # Copenhagen: 01:30 on the 11th
        core.import_visits({"data": [record]})
        result = core.list_visits(dates=["2020-09-10", "2020-09-11"])
    assert [len(d["visits"]) for d in result["days"]] == [0, 1]
    assert result["days"][1]["visits"][0]["startTime"] == "01:30"


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
