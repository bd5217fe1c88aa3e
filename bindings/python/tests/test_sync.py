"""The washer's updates through the binding: the outbox pushed to the reference sync server
(examples/servers/sync_server.py) exactly once through faults, crashes and concurrent pushers,
and snapshots that never overwrite pending work. Which state changes are allowed, what a
refused one leaves and the time used are specified in Swift (VisitTransitionTests,
SyncServiceTests)."""

from __future__ import annotations

import signal
import textwrap

import pytest

import carfit

from conftest import DAY_CONFIG as CONFIG
from helpers import DAY, pushed_answers, start_child
from sync_server import SyncServer

#: The states a washer may ask for.
STATES = ("Todo", "InProgress", "Done", "Rejected")
#: The changes the transition rules allow, (from, to).
ALLOWED = {("Todo", "InProgress"), ("Todo", "Rejected"), ("InProgress", "Done"), ("InProgress", "Rejected"),
           ("InProgress", "Todo")}

def synthetic(count: int, state: str = "Todo") -> dict:
    """`count` visits on the example day, each with its own id, one minute apart."""
    return {"data": [{"visitId": f"v{i:05d}", "startTimeUtc": f"2020-09-10T{6 + i // 600:02d}:{(i // 10) % 60:02d}:{i % 10:02d}Z",
                      "visitState": state, "houseOwnerFirstName": f"Owner {i}"} for i in range(count)]}


def cards(core) -> list:
    return core.list_visits(dates=[DAY])["days"][0]["visits"]


def open_core(database, server=None, **extra):
    config = dict(CONFIG, database=str(database), **extra)
    if server is not None:
        config["sources"] = {"visitUpdates": server.url(), "visits": server.url("/visits")}
    return carfit.Core(config)


def test_a_push_with_nothing_to_send_publishes_no_change(sync_server, tmp_path):
    """Nothing stored changes: the change feed stays quiet (its first push prepares statements
    that delete old points and write nothing)."""
    with open_core(tmp_path / "q.db", sync_server) as core:
        core.refresh_visits()
        after = max([e["seq"] for e in core.events(timeout=0)], default=0)
        for _ in range(2):
            assert core.push() == {"pushed": 0, "rejected": 0, "pending": 0}
        assert list(core.events(after=after, timeout=0)) == []
        core.set_visit_state(next(c["key"] for c in cards(core) if c["state"] == "Todo"), "InProgress")
        core.push()
        assert [e["areas"][:1] for e in core.events(after=after, timeout=0)][:1] == [["visits"]]


def test_push_applies_once_and_the_change_shows_until_the_next_snapshot(sync_server, tmp_path):
    with open_core(tmp_path / "p.db", sync_server) as core:
        core.refresh_visits()
        key = cards(core)[2]["key"]
        started = core.set_visit_state(key, "InProgress")["visit"]
        assert started == cards(core)[2] and started["distanceMeters"] == 489
        core.set_visit_state(key, "Done")
        assert core.push() == {"pushed": 2, "rejected": 0, "pending": 0}
        card = cards(core)[2]
        assert (card["state"], card["pending"]) == ("Done", False)
        state = sync_server.state()
        assert sorted(state["applied"].values()) == [1, 1]
        assert state["clientIds"] == [core.sync_status()["clientId"]]
        core.refresh_visits()
        assert cards(core)[2]["state"] == "Done"
        assert core.push() == {"pushed": 0, "rejected": 0, "pending": 0}


def test_a_snapshot_never_overwrites_pending_work(sync_server, tmp_path):
    with open_core(tmp_path / "s.db", sync_server) as core:
        core.refresh_visits()
        key = cards(core)[2]["key"]
        core.set_visit_state(key, "InProgress")
        core.refresh_visits()  # the server has not seen the change
        card = cards(core)[2]
        assert (card["state"], card["pending"]) == ("InProgress", True)
        plan = core.plan_day(DAY)
        assert [s["state"] for s in plan["stops"] if s["name"] == card["name"]] == ["InProgress"]
        core.push()
        core.set_visit_state(key, "Done")
        assert card["name"] not in [s["name"] for s in core.plan_day(DAY)["stops"]]


def test_an_answer_lost_after_applying_is_resent_and_applied_once(sync_server, tmp_path):
    with open_core(tmp_path / "d.db", sync_server) as core:
        core.refresh_visits()
        core.set_visit_state(cards(core)[2]["key"], "InProgress")
        sync_server.control({"drop": {"count": 1}})
        with pytest.raises(carfit.UnavailableError):
            core.push()
        assert core.sync_status()["pending"] == 1
        assert core.push() == {"pushed": 1, "rejected": 0, "pending": 0}
        state = sync_server.state()
        assert list(state["applied"].values()) == [1] and list(state["resent"].values()) == [1]


@pytest.mark.parametrize("kind", ["not_json", "wrong_shape", "truncated", "empty"])
def test_a_malformed_answer_keeps_everything_pending(sync_server, tmp_path, kind):
    with open_core(tmp_path / "m.db", sync_server) as core:
        core.refresh_visits()
        core.set_visit_state(cards(core)[2]["key"], "InProgress")
        sync_server.control({"malformed": {"count": 1, "kind": kind}})
        with pytest.raises(carfit.UnavailableError):
            core.push()
        status = core.sync_status()
        assert status["pending"] == 1 and status["consecutiveFailures"] == 1
        assert cards(core)[2]["pending"] is True
        skipped = core.push(if_due=True)
        assert skipped["skipped"] == "backoff" and skipped["nextAttemptAt"] == status["nextAttemptAt"]
        assert core.push()["pushed"] == 1
        assert list(sync_server.state()["applied"].values()) == [1]


def test_a_rejected_change_is_undone_and_listed(sync_server, tmp_path):
    with open_core(tmp_path / "r.db", sync_server) as core:
        core.refresh_visits()
        key = cards(core)[2]["key"]
        core.set_visit_state(key, "Rejected", reason="Gate locked")
        # The server's visit moves on before the push: the change no longer applies.
        document = sync_server.snapshot()
        for record in document["data"]:
            if record["visitId"] == cards(core)[2]["visitId"]:
                record["visitState"] = "Done"
        sync_server.control({"visits": document})
        assert core.push() == {"pushed": 0, "rejected": 1, "pending": 0}
        card = cards(core)[2]
        assert (card["state"], card["pending"]) == ("Todo", False)
        rejected = core.sync_status()["rejected"]
        assert [r["state"] for r in rejected] == ["Rejected"] and rejected[0]["reason"]


def test_a_large_outbox_goes_in_requests_of_500(lib, tmp_path):
    document = synthetic(1200)
    with SyncServer(visits=document, idle_timeout=120) as server, open_core(tmp_path / "big.db", server) as core:
        core.refresh_visits()
        for card in cards(core):
            core.set_visit_state(card["key"], "InProgress")
        assert core.push() == {"pushed": 1200, "rejected": 0, "pending": 0}
        sizes = [r["mutations"] for r in server.state()["requests"] if r["method"] == "POST"]
        assert sizes == [500, 500, 200]
        assert set(server.state()["applied"].values()) == {1}


CHILD = textwrap.dedent("""
    import json, os, sys
    sys.path.insert(0, {binding!r})
    import carfit
    database, url, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    core = carfit.Core({{"database": database, "now": "2020-09-10T07:00:00Z",
                        "sources": {{"visitUpdates": url}}}})
    if mode == "change":
        days = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
        core.set_visit_state(days[2]["key"], "InProgress")
        print("changed", flush=True)
    else:
        print("pushing", flush=True)
        try:
            print(json.dumps(core.push()), flush=True)
        except carfit.CarfitError as error:
            print(json.dumps({{"error": error.code}}), flush=True)
    sys.stdin.read()
""")


def child(database, url, mode):
    return start_child(CHILD, database, url, mode)


@pytest.mark.parametrize("moment", ["after_change", "during_push", "applied_before_answer"])
def test_kill_9_then_reopen_and_push_applies_each_change_once(sync_server, tmp_path, moment):
    database = tmp_path / "k.db"
    with open_core(database, sync_server) as core:
        core.refresh_visits()
    writer = child(database, sync_server.url(), "change")
    assert writer.stdout.readline().strip() == "changed"
    if moment == "after_change":
        writer.send_signal(signal.SIGKILL)
    else:
        writer.kill()
    writer.wait()
    if moment != "after_change":
        sync_server.control({"delay": {"ms": 3000, "count": 1}} if moment == "during_push" else {"drop": {"count": 1}})
        pusher = child(database, sync_server.url(), "push")
        assert pusher.stdout.readline().strip() == "pushing"
        if moment == "during_push":
            import time
            time.sleep(0.5)  # the request is at the server, waiting
        else:
            pusher.stdout.readline()  # the dropped answer: the push failed after the server applied
        pusher.send_signal(signal.SIGKILL)
        pusher.wait()
    with open_core(database, sync_server) as core:
        assert core.sync_status()["pending"] == 1
        assert core.push()["pending"] == 0
        assert cards(core)[2]["state"] == "InProgress"
    assert list(sync_server.state()["applied"].values()) == [1]
    if moment != "during_push":
        # A killed pusher's request may still be at the server when the entry is resent (the
        # process sending it died); otherwise no id is ever in two requests at once.
        assert sync_server.state()["overlaps"] == []


def test_two_processes_pushing_one_database_never_overlap(lib, tmp_path):
    document = synthetic(600)
    database = tmp_path / "two.db"
    with SyncServer(visits=document, idle_timeout=120) as server:
        with open_core(database, server) as core:
            core.refresh_visits()
            for card in cards(core):
                core.set_visit_state(card["key"], "InProgress")
        server.control({"delay": {"ms": 300, "count": 2}})
        pushers = [child(database, server.url(), "push") for _ in range(2)]
        answers = pushed_answers(pushers)
        assert sum(a["pushed"] for a in answers) == 600
        state = server.state()
        assert state["overlaps"] == [] and len(state["applied"]) == 600
        assert set(state["applied"].values()) == {1}


FAULTS = [
    {"drop": {"count": 1}},
    {"fail": {"count": 1, "status": 503}},
    {"malformed": {"count": 1, "kind": "wrong_shape"}},
    {"malformed": {"count": 1, "kind": "not_json", "apply": False}},
    {"partial": {"count": 1, "name": 1}},
    {"partial": {"count": 1, "name": 1, "apply": "all"}},
]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_interleavings_lose_nothing_apply_once_and_converge(lib, tmp_path, seed):
    """Changes, imports of the server's snapshot, refreshes and pushes with faults, in a random
    order: no mutation is ever applied twice, none is lost, and once everything is pushed and
    a fresh snapshot stored, every card shows the server's state and nothing is pending."""
    import random

    rng = random.Random(seed)
    database = tmp_path / "prop.db"
    made = 0
    with SyncServer(visits=synthetic(12), idle_timeout=120) as server, open_core(database, server) as core:
        core.refresh_visits()
        for _ in range(120):
            action = rng.choice(["change", "change", "change", "import", "refresh", "push", "push_fault", "reopen"])
            if action == "change":
                card = rng.choice(cards(core))
                target = rng.choice(STATES)
                try:
                    core.set_visit_state(card["key"], target)
                    made += 1
                    assert (card["state"], target) in ALLOWED
                except carfit.ConflictError:
                    assert (card["state"], target) not in ALLOWED
            elif action == "import":
                core.import_visits(server.snapshot())
            elif action == "refresh":
                core.refresh_visits()
            elif action in ("push", "push_fault"):
                if action == "push_fault":
                    server.control(rng.choice(FAULTS))
                try:
                    core.push()
                except carfit.UnavailableError:
                    pass
                server.control({"reset": True})
            else:
                core.close()
                core = open_core(database, server)
            state = server.state()
            assert set(state["applied"].values()) <= {1}
            assert state["overlaps"] == []
        while core.push()["pending"]:
            pass
        state = server.state()
        delivered = set(state["applied"]) | {r["mutationId"] for r in state["rejected"]}
        assert len(delivered) == made and set(state["applied"].values()) <= {1}
        core.import_visits(server.snapshot())
        shown = {c["visitId"]: (c["state"], c["pending"]) for c in cards(core)}
        assert shown == {r["visitId"]: (r["visitState"], False) for r in server.snapshot()["data"]}
        core.close()


@pytest.mark.parametrize("path, status, reason, http_status", [
    (None, carfit.UnavailableError, "refused", None),
    ("/status/500", carfit.UnavailableError, "http_status", 500),
    ("/status/503", carfit.UnavailableError, "http_status", 503),
])
def test_a_refresh_and_a_push_name_the_same_failure_alike(lib, tmp_path, path, status, reason, http_status):
    """The network's failures have one classification: the same URL failing the same way gives a
    refresh and a push the same status, reason, httpStatus and url."""
    import http_fixture
    running = http_fixture.start(port=0, lifetime=300)
    try:
        url = f"http://127.0.0.1:{running.port}{path}" if path else "http://127.0.0.1:1/u"
        with open_core(tmp_path / "f.db", sources={"visits": url, "visitUpdates": url}) as core:
            core.import_visits({"data": [{"visitId": "a", "startTimeUtc": "2020-09-10T08:00:00Z", "visitState": "Todo"}]})
            core.set_visit_state(next(c["key"] for c in cards(core) if c["state"] == "Todo"), "InProgress")
            with pytest.raises(status) as refreshed:
                core.refresh_visits()
            with pytest.raises(status) as pushed:
                core.push()
            for error in (refreshed.value, pushed.value):
                assert error.document["reason"] == reason
                assert error.document["url"] == url
                assert error.document.get("httpStatus") == http_status
            last = core.sync_status()["lastError"]
            assert (last["reason"], last["httpStatus"]) == (reason, http_status)
            assert core.sync_status()["pending"] == 1
    finally:
        running.stop()
