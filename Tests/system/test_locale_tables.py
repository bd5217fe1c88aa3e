"""The locale tables: Sources/CarFitCore/Generated/LocaleData.swift and CollationData.swift
are what scripts/gen-locale-tables writes from the CLDR and ICU data pinned in data/cldr/ (no
network, no Babel, no ICU needed), and the pinned data are of the versions the header names."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "scripts" / "gen-locale-tables"


def test_the_generated_tables_are_current():
    run = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_the_pinned_data_are_babel_2_18_and_icu_72():
    locales = json.loads((ROOT / "data" / "cldr" / "locales.json").read_text(encoding="utf-8"))
    collation = json.loads((ROOT / "data" / "cldr" / "collation.json").read_text(encoding="utf-8"))
    assert (locales["babel"], locales["cldr"]) == ("2.18.0", "47")
    assert sorted(locales["locales"]) == ["da", "de", "en_GB", "en_US", "nb", "sv"]
    assert collation["icu"].split(".")[0] == "72"
    assert sorted(collation["collations"]) == ["da", "nb", "root", "sv"]


def test_a_changed_extract_makes_the_check_fail(tmp_path):
    """The check compares: a copy of the generator over a changed extract reports it stale."""
    copy = tmp_path / "repo"
    (copy / "scripts").mkdir(parents=True)
    (copy / "data" / "cldr").mkdir(parents=True)
    (copy / "Sources" / "CarFitCore" / "Generated").mkdir(parents=True)
    (copy / "scripts" / "gen-locale-tables").write_text(GENERATOR.read_text(encoding="utf-8"), encoding="utf-8")
    for name in ("locales.json", "collation.json"):
        (copy / "data" / "cldr" / name).write_text((ROOT / "data" / "cldr" / name).read_text(encoding="utf-8"),
                                                   encoding="utf-8")
    for name in ("LocaleData.swift", "CollationData.swift"):
        source = ROOT / "Sources" / "CarFitCore" / "Generated" / name
        (copy / "Sources" / "CarFitCore" / "Generated" / name).write_text(source.read_text(encoding="utf-8"),
                                                                         encoding="utf-8")
    script = copy / "scripts" / "gen-locale-tables"
    assert subprocess.run([sys.executable, str(script), "--check"], capture_output=True).returncode == 0
    data = json.loads((copy / "data" / "cldr" / "locales.json").read_text(encoding="utf-8"))
    data["locales"]["da"]["timeShort"] = "HH:mm"
    (copy / "data" / "cldr" / "locales.json").write_text(json.dumps(data), encoding="utf-8")
    assert subprocess.run([sys.executable, str(script), "--check"], capture_output=True).returncode == 1
