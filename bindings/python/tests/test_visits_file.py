"""visits.import with {"file": path}: the library reads the file itself."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

import carfit

SAMPLE_PATH = Path(__file__).resolve().parents[3] / "examples" / "data" / "carfit.json"

DAYS = ["2020-09-10", "2020-09-11"]


def test_file_import_equals_the_document_import(lib, core, sample):
    from_file = core.import_visits_file(SAMPLE_PATH)
    listed = core.list_visits(dates=DAYS)
    assert from_file == {"imported": 7, "rejected": []}
    with carfit.Core({"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": True}) as other:
        assert other.import_visits(sample) == from_file
        assert other.list_visits(dates=DAYS) == listed


def test_file_import_reports_rejected_records(core, sample, tmp_path):
    bad = copy.deepcopy(sample)
    bad["data"][3]["houseOwnerLatitude"] = 91.5
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    result = core.import_visits_file(str(path))
    assert result["imported"] == 6
    assert [r["index"] for r in result["rejected"]] == [3]


@pytest.mark.parametrize("make, words", [
    (lambda d: d / "missing.json", "No such file"),
    (lambda d: d, "not a regular file"),
])
def test_unreadable_file_is_invalid_and_changes_nothing(loaded, tmp_path, make, words):
    before = loaded.list_visits(dates=DAYS)
    with pytest.raises(carfit.InvalidError) as caught:
        loaded.import_visits_file(make(tmp_path))
    assert caught.value.field == "file"
    assert words in caught.value.message
    assert loaded.list_visits(dates=DAYS) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_file_without_permission_names_the_reason(loaded, tmp_path):
    path = tmp_path / "secret.json"
    path.write_text("{}")
    path.chmod(0)
    with pytest.raises(carfit.InvalidError) as caught:
        loaded.import_visits_file(path)
    assert "Permission denied" in caught.value.message


@pytest.mark.parametrize("text, error", [
    ("", carfit.InvalidError),
    ('{"data": [1, 2,', carfit.BadJSONError),
    ('{"success": true}', carfit.InvalidError),
])
def test_a_file_that_is_not_a_visits_document_changes_nothing(loaded, tmp_path, text, error):
    before = loaded.list_visits(dates=DAYS)
    path = tmp_path / "doc.json"
    path.write_text(text)
    with pytest.raises(error):
        loaded.import_visits_file(path)
    assert loaded.list_visits(dates=DAYS) == before
