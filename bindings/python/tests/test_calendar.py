"""The calendar through the binding: the month document's shape, the typed methods' arguments,
refusals as exceptions, the first weekday from the configuration. The calendar's rules are
tested on the service (Tests/CarFitServicesTests/CalendarServiceTests.swift)."""

from __future__ import annotations

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



def test_the_typed_methods_pass_their_arguments(loaded):
    # The calendar's rules (months, the selection, the grid, the range) are tested on the service.
    assert (loaded.next_month()["month"], loaded.previous_month()["month"]) == (10, 9)
    cal = loaded.select_day("2020-09-03", mode="toggle")
    assert cal["selected"] == ["2020-09-03", "2020-09-10"]
    assert loaded.select_day("2020-09-11")["selected"] == ["2020-09-11"]
    feb = loaded.month(2024, 2)
    assert (feb["year"], feb["month"], len(feb["days"])) == (2024, 2, 29)
    assert loaded.calendar()["month"] == 9
    assert loaded.month(1, 1)["previous"] is None


def test_refusals_name_their_field(loaded):
    with pytest.raises(carfit.InvalidError) as info:
        loaded.select_day("2020-02-30")
    assert info.value.field == "date" and info.value.code == "invalid" and info.value.message
    with pytest.raises(carfit.InvalidError) as info:
        loaded.select_day("2020-09-11", mode="many")
    assert info.value.field == "mode"
    with pytest.raises(carfit.InvalidError) as info:
        loaded.month(2020, 13)
    assert info.value.field == "month"


def test_the_core_is_opened_with_its_first_weekday(lib):
    with carfit.Core(DAY_CONFIG, firstWeekday="sunday") as core:
        assert core.calendar()["weekdays"][0] == "Sun"
