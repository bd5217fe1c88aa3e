"""The location area through the binding: marshalling of reports and their answers, typed
errors, the card members, the plan's keep_order, and the points pushed to the reference sync
server (examples/servers/sync_server.py) once each through lost answers and failures."""

from __future__ import annotations


import pytest

import carfit

from conftest import DAY_CONFIG as CONFIG
from helpers import DAY, pushed_answers, start_child
from sync_server import SyncServer


def card(core, name_part):
    for c in core.list_visits(dates=[DAY])["days"][0]["visits"]:
        if name_part in c["name"]:
            return c
    raise AssertionError(name_part)


def test_a_report_and_the_status_marshal_both_ways(lib, sample):
    with carfit.Core(CONFIG) as core:
        assert core.location_status() == {"position": None, "trail": {"stored": 0, "pending": 0}, "lastPushAt": None}
        answer = core.report_location(55.7, 12.5, 8.5, at="2020-09-10T09:00:00+02:00")
        assert answer == {"stored": True, "arrived": [], "departed": [],
                          "position": {"latitude": 55.7, "longitude": 12.5, "accuracyMeters": 8.5,
                                       "at": "2020-09-10T07:00:00Z"}}
        assert core.report_location(55.7, 12.5, 3)["position"]["at"] == "2020-09-10T07:00:00Z"
        assert core.location_status()["trail"] == {"stored": 1, "pending": 1}


def test_refusals_are_typed_and_name_their_field(lib):
    with carfit.Core(CONFIG) as core:
        core.report_location(55.7, 12.5, 5)
        with pytest.raises(carfit.InvalidError) as e:
            core.report_location(91, 12.5, 5)
        assert e.value.field == "latitude"
        with pytest.raises(carfit.InvalidError) as e:
            core.report_location(55.7, 12.5, 5, at="2020-09-10T06:59:59Z")
        assert e.value.field == "at"
        with pytest.raises(carfit.BadJSONError):
            core.call("location.report", '{"latitude": 1e999, "longitude": 0, "accuracyMeters": 1}')
        with pytest.raises(TypeError):
            core.report_location("55.7", 12.5, 5)  # type: ignore[arg-type]
        assert core.location_status()["trail"]["stored"] == 1


def test_cards_carry_the_arrival_the_suggestion_and_navigation(lib, sample):
    with carfit.Core(CONFIG) as core:
        core.import_visits(sample)
        mads = card(core, "Mads")
        assert (mads["arrivedAt"], mads["departedAt"], mads["suggestion"]) == (None, None, None)
        lat, lon = mads["latitude"], mads["longitude"]
        assert mads["navigation"] == {"geo": f"geo:{lat},{lon}",
                                      "google": f"https://www.google.com/maps/dir/?api=1&destination={lat},{lon}",
                                      "apple": f"https://maps.apple.com/?daddr={lat},{lon}"}
        core.report_location(lat, lon, 5, at="2020-09-10T07:00:00Z")
        assert core.report_location(lat, lon, 5, at="2020-09-10T07:01:00Z")["arrived"] == [mads["key"]]
        mads = card(core, "Mads")
        assert (mads["arrivedAt"], mads["suggestion"]) == ("2020-09-10T07:01:00Z", "start")
        events = core.wait_events(after=0, timeout=0)["events"]
        assert {"kind": "arrival", "key": mads["key"], "at": "2020-09-10T07:01:00Z"} in [
            {k: v for k, v in e.items() if k != "seq"} for e in events]


def test_keep_order_reaches_the_plan(lib, sample):
    with carfit.Core(CONFIG) as core:
        core.import_visits(sample)
        plan = core.plan_day(DAY, keep_order=True)
        assert plan["optimized"] is False


def open_core(database, server, **extra):
    config = dict(CONFIG, database=str(database),
                  sources={"visitUpdates": server.url(), "locations": server.url("/locations")}, **extra)
    return carfit.Core(config)


def walk(core, count, day=DAY):
    """`count` reports 30 m apart, one a second from 06:00Z: each is stored."""
    for i in range(count):
        core.report_location(55.6 + i * 0.0003, 12.5, 5, at=f"{day}T06:{i // 60:02d}:{i % 60:02d}Z")


def test_points_are_pushed_once_through_a_lost_answer_and_a_500(sync_server, tmp_path):
    with open_core(tmp_path / "l.db", sync_server) as core:
        walk(core, 3)
        sync_server.control({"drop": {"count": 1}})
        with pytest.raises(carfit.UnavailableError):
            core.push()
        assert core.location_status()["trail"]["pending"] == 3
        sync_server.control({"fail": {"count": 1, "status": 500}})
        with pytest.raises(carfit.UnavailableError) as e:
            core.push()
        assert e.value.document["reason"] == "http_status"
        assert core.sync_status()["consecutiveFailures"] == 2
        answer = core.push()
        assert answer["locations"] == {"pushed": 3, "pending": 0}
        assert (answer["pushed"], answer["pending"]) == (0, 0)
        state = sync_server.state()
        assert sorted(state["points"].values()) == [1, 1, 1]
        assert sorted(state["pointsResent"].values()) == [1, 1, 1]
        status = core.location_status()
        assert status["trail"] == {"stored": 3, "pending": 0}
        assert status["lastPushAt"] == "2020-09-10T07:00:00Z"
        bodies = [r for r in state["requests"] if r["path"] == "/locations"]
        assert [r["points"] for r in bodies] == [3, 3, 3]


def test_points_go_oldest_first_1000_a_request_and_a_partial_answer_keeps_the_rest(sync_server, tmp_path):
    with open_core(tmp_path / "big.db", sync_server) as core:
        walk(core, 2300)
        sync_server.control({"partial": {"count": 1, "name": 400}})
        assert core.push()["locations"] == {"pushed": 400, "pending": 1900}
        assert core.push()["locations"] == {"pushed": 1900, "pending": 0}
        state = sync_server.state()
        sizes = [r["points"] for r in state["requests"] if r["path"] == "/locations"]
        # The 600 the partial answer left unnamed lead the next request, oldest first.
        assert sizes == [1000, 1000, 900]
        assert set(state["points"].values()) == {1} and len(state["points"]) == 2300
        assert state["pointsResent"] == {}
        ats = state["pointOrder"]
        assert len(ats) == 2300 and ats == sorted(ats)


def test_pushed_points_older_than_trail_days_are_removed_at_the_next_push(sync_server, tmp_path):
    database = tmp_path / "old.db"
    with open_core(database, sync_server, now="2020-09-01T07:00:00Z") as core:
        walk(core, 2, day="2020-09-01")
        core.report_location(55.0, 12.0, 5, at="2020-09-01T08:00:00Z")
        assert core.push()["locations"] == {"pushed": 3, "pending": 0}
    with open_core(database, sync_server, now="2020-09-08T07:30:00Z") as core:
        core.report_location(55.1, 12.0, 5, at="2020-09-08T07:30:00Z")
        assert core.location_status()["trail"] == {"stored": 4, "pending": 1}
        assert core.push()["locations"] == {"pushed": 1, "pending": 0}
        # 2020-09-01T06:00Z and 06:00:01Z are more than 7 days old; 08:00Z is not yet.
        assert core.location_status()["trail"] == {"stored": 2, "pending": 0}


def test_locations_alone_may_be_configured(sync_server, tmp_path):
    with carfit.Core(dict(CONFIG, sources={"locations": sync_server.url("/locations")})) as core:
        walk(core, 1)
        assert core.push() == {"pushed": 0, "rejected": 0, "pending": 0, "locations": {"pushed": 1, "pending": 0}}


PUSHER = """
import json, sys
sys.path.insert(0, {binding!r})
import carfit
database, url = sys.argv[1], sys.argv[2]
core = carfit.Core({{"database": database, "now": "2020-09-10T07:00:00Z", "sources": {{"locations": url}}}})
print("pushing", flush=True)
try:
    print(json.dumps(core.push()["locations"]), flush=True)
except carfit.CarfitError as error:
    print(json.dumps({{"error": error.code}}), flush=True)
sys.stdin.read()
"""


def pusher(database, url):
    return start_child(PUSHER, database, url)


def test_two_processes_pushing_one_trail_never_send_a_point_twice_at_once(lib, tmp_path):
    database = tmp_path / "two.db"
    with SyncServer(idle_timeout=120) as server:
        with open_core(database, server) as core:
            walk(core, 2500)
        server.control({"delay": {"ms": 300, "count": 2}})
        pushers = [pusher(database, server.url("/locations")) for _ in range(2)]
        answers = pushed_answers(pushers)
        assert sum(a["pushed"] for a in answers) == 2500
        state = server.state()
        assert state["overlaps"] == [] and len(state["points"]) == 2500
        assert set(state["points"].values()) == {1} and state["pointsResent"] == {}


def test_kill_9_during_a_push_then_every_point_is_applied_once(lib, tmp_path):
    import signal
    import time
    database = tmp_path / "k.db"
    with SyncServer(idle_timeout=120) as server:
        with open_core(database, server) as core:
            walk(core, 30)
        server.control({"delay": {"ms": 1500, "count": 1}})
        p = pusher(database, server.url("/locations"))
        assert p.stdout.readline().strip() == "pushing"
        time.sleep(0.5)  # the request waits at the server
        p.send_signal(signal.SIGKILL)
        p.wait()
        with open_core(database, server) as core:
            assert core.location_status()["trail"]["pending"] == 30
            assert core.push()["locations"] == {"pushed": 30, "pending": 0}
        time.sleep(1.2)  # the killed process's request is handled by now
        state = server.state()
        assert len(state["points"]) == 30 and set(state["points"].values()) == {1}
