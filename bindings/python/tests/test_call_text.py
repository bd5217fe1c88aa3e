"""Core.call_text: the result's JSON text as the library wrote it, errors still raised."""

from __future__ import annotations

import json

import pytest

import carfit


def test_call_text_is_the_text_of_call(loaded):
    request = {"dates": ["2020-09-10"]}
    text = loaded.call_text("visits.list", request)
    assert isinstance(text, str)
    assert json.loads(text) == loaded.call("visits.list", request)


def test_call_text_accepts_json_text_and_none(loaded):
    assert json.loads(loaded.call_text("calendar.get")) == loaded.call("calendar.get")
    text = loaded.call_text("visits.list", '{"dates": ["2020-09-10"]}')
    assert json.loads(text) == loaded.call("visits.list", {"dates": ["2020-09-10"]})
    assert json.loads(text)["summary"] == {"visits": 3, "taskMinutes": 140, "distanceMeters": 978, "distanceKm": 1.0}


def test_call_text_raises_typed_errors(loaded):
    with pytest.raises(carfit.InvalidError) as caught:
        loaded.call_text("visits.list", {"dates": ["2020-02-30"]})
    assert caught.value.field == "dates[0]"
    with pytest.raises(carfit.MisuseError):
        loaded.call_text("no.such")
    with pytest.raises(carfit.BadJSONError):
        loaded.call_text("visits.list", "{")


def test_call_text_on_closed_core(lib):
    core = carfit.Core()
    core.close()
    with pytest.raises(carfit.MisuseError):
        core.call_text("calendar.get")
