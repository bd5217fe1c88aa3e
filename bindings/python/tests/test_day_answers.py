"""The day list served from the answers a core keeps (asked again, or written again right after
a change of its day) is always the answer a core without any kept answer gives: on randomised
databases, across changes made by the same core, by another core on the same file, and by
another process."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import subprocess
import sys

import carfit

from conftest import BINDING_DIR, DAY_CONFIG

DAYS = [f"2020-09-{d:02d}" for d in range(8, 13)]
STATES = ["Todo", "InProgress", "Done", "Rejected"]


def document(rng: random.Random, count: int) -> dict:
    """`count` visits over DAYS with few ids, washers and minutes, so that keys repeat."""
    records = []
    for i in range(count):
        day = dt.date.fromisoformat(rng.choice(DAYS))
        start = dt.datetime(day.year, day.month, day.day, 5 + rng.randrange(12), 5 * rng.randrange(12))
        record = {"visitId": rng.choice([f"v{rng.randrange(count)}", f"v{i}", f"v{i}"]),
                  "startTimeUtc": start.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "visitState": rng.choice(["ToDo", "InProgress", "Done", "Rejected"]),
                  "homeBobEmployeeId": rng.choice(["w1", "w2", "w3"]),
                  "houseOwnerFirstName": rng.choice(["Åse", "Bo", "Jens"]), "houseOwnerLastName": f"L{i}",
                  "houseOwnerAddress": f"Vej {i}", "houseOwnerZip": "2100", "houseOwnerCity": "København",
                  "tasks": [{"title": "Vask", "timesInMinutes": rng.choice([15, 30, 45])}]}
        if rng.random() < 0.8:
            record["houseOwnerLatitude"] = round(rng.uniform(55.6, 55.8), 5)
            record["houseOwnerLongitude"] = round(rng.uniform(12.4, 12.6), 5)
        records.append(record)
    return {"data": records}


def requests(rng: random.Random) -> list:
    """The requests a host asks: single days (its day view), one washer's day, several days."""
    out = [{"dates": [d]} for d in DAYS]
    out += [{"dates": [rng.choice(DAYS)], "employeeId": "w2"}, {"dates": [DAYS[1]], "hour24": False},
            {"dates": [DAYS[0], DAYS[3]]}]
    return out


def fresh(path: str, request: dict) -> str:
    """The answer of a core that has kept nothing."""
    with carfit.Core(DAY_CONFIG, database=path) as core:
        return core.call_text("visits.list", request)


def change_state(core, rng: random.Random, day: str) -> bool:
    """Sets a card of `day` to another state the rules accept; False when none could change."""
    cards = core.call("visits.list", {"dates": [day]})["days"][0]["visits"]
    rng.shuffle(cards)
    for card in cards:
        for target in rng.sample(STATES, len(STATES)):
            if target == card["state"]:
                continue
            try:
                core.call("visits.set_state", {"key": card["key"], "state": target})
                return True
            except (carfit.ConflictError, carfit.InvalidError):
                continue
    return False


OTHER_PROCESS = """
import json, random, sys
sys.path.insert(0, sys.argv[1])
import carfit
path, day, seed = sys.argv[2], sys.argv[3], int(sys.argv[4])
rng = random.Random(seed)
with carfit.Core(json.loads(sys.argv[5]), database=path) as core:
    cards = core.call("visits.list", {"dates": [day]})["days"][0]["visits"]
    rng.shuffle(cards)
    for card in cards:
        for target in ["InProgress", "Done", "Rejected", "Todo"]:
            if target == card["state"]:
                continue
            try:
                core.call("visits.set_state", {"key": card["key"], "state": target})
                print("changed")
                sys.exit(0)
            except (carfit.ConflictError, carfit.InvalidError):
                continue
print("unchanged")
"""


def in_other_process(path: str, day: str, seed: int) -> None:
    done = subprocess.run([sys.executable, "-c", OTHER_PROCESS, str(BINDING_DIR), path, day, str(seed),
                           json.dumps(DAY_CONFIG)], capture_output=True, text=True, env=dict(os.environ), timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() in ("changed", "unchanged")


def check(core, path: str, asked: list) -> None:
    """Every request, asked twice of the long-lived core, answers as a core without a cache does."""
    for request in asked:
        expected = fresh(path, request)
        assert core.call_text("visits.list", request) == expected, request
        assert core.call_text("visits.list", request) == expected, request


def test_kept_answers_match_fresh_ones(lib, tmp_path):
    for seed in range(2):
        rng = random.Random(seed)
        path = str(tmp_path / f"answers-{seed}.sqlite")
        with carfit.Core(DAY_CONFIG, database=path) as a, carfit.Core(DAY_CONFIG, database=path) as b:
            a.import_visits(document(rng, 120))
            asked = requests(rng)
            check(a, path, asked)
            for step in range(8):
                day = rng.choice(DAYS)
                # The host shows the day, then a change comes from one of three places.
                a.call_text("visits.list", {"dates": [day]})
                a.call_text("visits.list", {"dates": [day]})
                where = step % 4
                if where == 0:
                    change_state(a, rng, day)
                elif where == 1:
                    change_state(b, rng, day)
                elif where == 2:
                    in_other_process(path, day, rng.randrange(1 << 30))
                else:
                    b.import_visits(document(rng, 60 + rng.randrange(60)))
                # The re-render right after the change, then every request.
                assert a.call_text("visits.list", {"dates": [day]}) == fresh(path, {"dates": [day]})
                check(a, path, asked)


def test_renewed_answer_shows_the_change(lib, tmp_path):
    path = str(tmp_path / "renew.sqlite")
    with carfit.Core(DAY_CONFIG, database=path) as core:
        core.import_visits({"data": [{"visitId": "a", "startTimeUtc": "2020-09-10T08:00:00Z", "visitState": "ToDo",
                                      "houseOwnerFirstName": "A"}]})
        request = {"dates": ["2020-09-10"]}
        for _ in range(2):
            assert json.loads(core.call_text("visits.list", request))["days"][0]["visits"][0]["state"] == "Todo"
        key = core.call("visits.list", request)["days"][0]["visits"][0]["key"]
        core.call("visits.set_state", {"key": key, "state": "InProgress"})
        assert json.loads(core.call_text("visits.list", request))["days"][0]["visits"][0]["state"] == "InProgress"
