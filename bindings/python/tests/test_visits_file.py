"""visits.import with {"file": path}: the library reads the file itself."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

import carfit
from carfit import _lib
from conftest import DAY_CONFIG, SAMPLE_PATH
from helpers import many_visits, run_child

DAYS = ["2020-09-10", "2020-09-11"]


def test_file_import_equals_the_document_import(lib, core, sample):
    from_file = core.import_visits_file(SAMPLE_PATH)
    listed = core.list_visits(dates=DAYS)
    assert from_file == {"imported": 7, "rejected": [], "changes": []}
    with carfit.Core(DAY_CONFIG) as other:
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


#: In a child process (so that a fatal signal shows as its death): stores the sample, starts
#: another process that waits argv[4] seconds and then changes the big file argv[2] as
#: argv[3] says (a truncation or a shorter rewrite), imports the big file meanwhile, and prints
#: the outcome with the stored visits before and after.
CHANGED_DURING_IMPORT = r"""
import json, subprocess, sys
sys.path.insert(0, sys.argv[5])
import carfit
database, big, how, delay = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
days = ["2020-09-10", "2020-09-11", "2020-09-12"]
change = {
    "truncate": "import os; os.truncate(sys.argv[1], os.path.getsize(sys.argv[1]) // 3)",
    "rewrite": "open(sys.argv[1], 'w').write('{\"data\": [')",
}[how]
with carfit.Core({"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": True,
                  "database": database}) as core:
    core.import_visits_file(sys.argv[6])
    before = core.list_visits(dates=days)
    changer = subprocess.Popen([sys.executable, "-c", f"import sys, time; time.sleep({delay}); {change}", big])
    try:
        outcome = {"ok": core.import_visits_file(big)["imported"]}
    except carfit.CarfitError as error:
        outcome = {"code": error.code, "field": error.field}
    changer.wait()
    after = core.list_visits(dates=days)
    print(json.dumps({"outcome": outcome, "unchanged": after == before,
                      "stored": sum(d["summary"]["visits"] for d in after["days"])}))
"""


@pytest.mark.parametrize("how", ["truncate", "rewrite"])
def test_a_file_changed_by_another_process_during_the_import_never_kills_the_host(lib, sample, tmp_path, how):
    """The file is read, not mapped: another process truncating or rewriting it while it is
    imported makes the import fail (bad_json; invalid, field file) or complete, the stored data
    whole either way, and the host alive (a mapping would have died of SIGBUS)."""
    document = many_visits(sample, 40_000)
    text = json.dumps(document)
    big = tmp_path / "big.json"
    env = {**os.environ, "CARFIT_LIBRARY": str(_lib.find_library())}
    binding = Path(carfit.__file__).resolve().parents[1]
    outcomes = set()
    for delay in (0.05, 0.2, 0.5):
        big.write_text(text)
        database = tmp_path / f"{how}-{delay}.db"
        answer = run_child(CHANGED_DURING_IMPORT, str(database), str(big), how, str(delay), str(binding),
                           str(SAMPLE_PATH), env=env)
        outcome = answer["outcome"]
        if "ok" in outcome:
            # An import is a snapshot: the big file's visits replace the sample's.
            assert outcome["ok"] == 40_000 and answer["stored"] == 40_000
        else:
            assert outcome in ({"code": "bad_json", "field": None}, {"code": "invalid", "field": "file"}), outcome
            assert answer["unchanged"], answer
        outcomes.add("ok" if "ok" in outcome else outcome["code"])
    assert outcomes != {"ok"}, "the file never changed during an import: the test proves nothing"
