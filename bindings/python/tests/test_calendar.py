"""The calendar state and month documents."""

from __future__ import annotations

import datetime

import pytest

import carfit
from conftest import DAY_CONFIG


def test_opening_month(loaded):
    cal = loaded.calendar()
    assert (cal["year"], cal["month"], cal["title"]) == (2020, 9, "September 2020")
    assert cal["today"] == "2020-09-10"
    assert cal["selected"] == ["2020-09-10"]
    assert cal["firstWeekday"] == "monday"
    assert cal["weekdays"] == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    assert cal["leadingDays"] == 1
    assert len(cal["days"]) == 30
    assert cal["days"][0] == {"date": "2020-09-01", "day": 1, "weekday": "Tue",
                              "isToday": False, "isSelected": False, "visits": 0}
    tenth = cal["days"][9]
    assert tenth["isToday"] and tenth["isSelected"] and tenth["visits"] == 3
    assert cal["days"][10]["visits"] == 2
    assert cal["days"][29]["visits"] == 2
    assert cal["previous"] == {"year": 2020, "month": 8}
    assert cal["next"] == {"year": 2020, "month": 10}


def test_next_and_previous_across_year_end(lib):
    with carfit.Core(now="2020-12-15T12:00:00Z", timeZone="Europe/Copenhagen") as core:
        jan = core.next_month()
        assert (jan["year"], jan["month"], jan["title"]) == (2021, 1, "January 2021")
        assert jan["previous"] == {"year": 2020, "month": 12}
        assert jan["selected"] == ["2020-12-15"]
        dec = core.previous_month()
        assert (dec["year"], dec["month"]) == (2020, 12)
        nov = core.previous_month()
        assert (nov["year"], nov["month"]) == (2020, 11)
        assert core.calendar()["month"] == 11
        assert nov["selected"] == ["2020-12-15"]


def test_new_year_in_local_zone(lib):
    # 23:30 UTC on 31 December is already 1 January in Copenhagen.
    with carfit.Core(now="2020-12-31T23:30:00Z", timeZone="Europe/Copenhagen") as core:
        cal = core.calendar()
    assert cal["today"] == "2021-01-01"
    assert (cal["year"], cal["month"]) == (2021, 1)


def test_select_single_and_toggle(loaded):
    cal = loaded.select_day("2020-09-11")
    assert cal["selected"] == ["2020-09-11"]
    cal = loaded.select_day("2020-09-03", mode="toggle")
    assert cal["selected"] == ["2020-09-03", "2020-09-11"]
    assert [d["day"] for d in cal["days"] if d["isSelected"]] == [3, 11]
    cal = loaded.select_day("2020-09-11", mode="toggle")
    assert cal["selected"] == ["2020-09-03"]
    cal = loaded.select_day("2020-09-10")
    assert cal["selected"] == ["2020-09-10"]


def test_select_in_other_month_displays_it(loaded):
    cal = loaded.select_day("2021-02-14", mode="toggle")
    assert (cal["year"], cal["month"]) == (2021, 2)
    assert cal["selected"] == ["2020-09-10", "2021-02-14"]


def test_select_errors(loaded):
    with pytest.raises(carfit.InvalidError) as info:
        loaded.select_day("2020-02-30")
    assert info.value.field == "date"
    with pytest.raises(carfit.InvalidError) as info:
        loaded.select_day("2020-09-11", mode="many")
    assert info.value.field == "mode"
    with pytest.raises(carfit.InvalidError) as info:
        loaded.call("calendar.select", {})
    assert info.value.field == "date"


def test_month_does_not_change_state(loaded):
    feb = loaded.month(2024, 2)
    assert feb["title"] == "February 2024"
    assert len(feb["days"]) == 29
    assert loaded.calendar()["month"] == 9


@pytest.mark.parametrize("year, month", [(1, 1), (9999, 12)])
def test_month_bounds(loaded, year, month):
    doc = loaded.month(year, month)
    assert (doc["year"], doc["month"]) == (year, month)
    first = datetime.date(year, month, 1)
    assert doc["days"][0]["weekday"] == first.strftime("%a")
    assert doc["leadingDays"] == first.weekday()
    if year == 1:
        assert doc["previous"] is None
        assert doc["next"] == {"year": 1, "month": 2}
    else:
        assert doc["next"] is None
        assert doc["previous"] == {"year": 9999, "month": 11}


def test_first_month_stays(lib):
    with carfit.Core(now="0001-01-01T12:00:00Z") as core:
        doc = core.previous_month()
    assert (doc["year"], doc["month"], doc["previous"]) == (1, 1, None)


def test_last_month_stays(lib):
    with carfit.Core(now="9999-12-31T12:00:00Z") as core:
        doc = core.next_month()
    assert (doc["year"], doc["month"], doc["next"]) == (9999, 12, None)


def test_proleptic_gregorian_1582(loaded):
    doc = loaded.month(1582, 10)
    assert len(doc["days"]) == 31
    assert [d["day"] for d in doc["days"]][:6] == [1, 2, 3, 4, 5, 6]
    assert doc["days"][14]["weekday"] == datetime.date(1582, 10, 15).strftime("%a")


@pytest.mark.parametrize("request_", [{"year": 0, "month": 1}, {"year": 10000, "month": 1},
                                      {"year": 2020, "month": 13}, {"year": 2020}])
def test_month_out_of_range(loaded, request_):
    with pytest.raises(carfit.InvalidError):
        loaded.call("calendar.month", request_)


def test_sunday_first(lib):
    with carfit.Core(DAY_CONFIG, firstWeekday="sunday") as core:
        cal = core.calendar()
    assert cal["weekdays"][0] == "Sun"
    assert cal["leadingDays"] == 2


def test_weekday_and_grid_agree(loaded):
    for year, month in [(2020, 2), (2021, 8), (2000, 1)]:
        doc = loaded.month(year, month)
        for entry in doc["days"]:
            day = datetime.date.fromisoformat(entry["date"])
            assert entry["weekday"] == day.strftime("%a")
            column = (doc["leadingDays"] + entry["day"] - 1) % 7
            assert doc["weekdays"][column] == entry["weekday"]
