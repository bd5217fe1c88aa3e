"""Washers' cores (the real library, through the Python binding) against the planner's back end
(server/): import, work, push, hear of the planner's changes by push and refresh; every mutation,
point, attachment and registration arrives once through lost answers, concurrent pushers, a
kill -9 of the server mid-burst and of a core mid-push; on SQLite, and on PostgreSQL with two
server processes behind one washer."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import carfit

from conftest import BINDING_DIR, LosingProxy, today

#: A 1x1 PNG.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360f8cf00000301010018dd8db40000000049454e44ae426082")


def cards(core) -> list[dict]:
    days = core.list_visits(dates=[today()])["days"]
    return days[0]["visits"] if days else []


def open_core(deployment, path, token, **overrides):
    config = deployment.core_config(path)
    config.update(overrides)
    core = carfit.Core(config)
    core.auth_set(token)
    return core


def push_until_done(core, attempts: int = 200) -> list[dict]:
    """Pushes until nothing is pending (failures while a server restarts are retried)."""
    answers = []
    for _ in range(attempts):
        try:
            answer = core.push()
        except carfit.UnavailableError:
            time.sleep(0.1)
            continue
        answers.append(answer)
        attachments = answer.get("attachments", {}).get("pending", 0)
        locations = answer.get("locations", {}).get("pending", 0)
        if answer["pending"] == 0 and attachments == 0 and locations == 0:
            return answers
    raise AssertionError(f"still pending after {attempts} pushes: {core.sync_status()}")


def washer_visits(deployment, washer_id: str) -> list[dict]:
    return next(w for w in deployment.day()["washers"] if w["washerId"] == washer_id)["visits"]


def test_a_washers_day_reaches_the_planner_and_the_planners_change_reaches_the_washer(deployment, tmp_path):
    ada = deployment.washer("Ada")
    deployment.plan(ada, 4)
    with open_core(deployment, tmp_path / "ada.db", ada["token"]) as core:
        assert core.refresh_visits()["imported"] == 4
        keys = [c["key"] for c in cards(core)]
        core.set_visit_state(keys[0], "InProgress")
        core.set_visit_state(keys[0], "Done")
        core.set_visit_state(keys[1], "Rejected", reason="No car at the address")
        core.report_location(55.77883, 12.52124, 8.0)
        photo = tmp_path / "photo.png"
        photo.write_bytes(PNG)
        core.attach(keys[0], "photo", file=photo)
        core.attach(keys[0], "note", text="Keys under the mat")
        core.register_push("fcm", "fcm-token-1")
        answer = core.push()
        assert (answer["pushed"], answer["rejected"], answer["pending"]) == (3, 0, 0)
        assert answer["locations"] == {"pushed": 1, "pending": 0}
        assert answer["attachments"]["uploaded"] == 2 and answer["attachments"]["pending"] == 0
        assert answer["device"] == {"sent": True}

        visits = washer_visits(deployment, ada["washerId"])
        assert [v["state"] for v in visits] == ["Done", "Rejected", "Todo", "Todo"]
        assert visits[0]["attachments"] == 2 and visits[0]["timeUsedMinutes"] is not None
        position = next(w for w in deployment.day()["washers"] if w["washerId"] == ada["washerId"])["lastPosition"]
        assert (position["latitude"], position["longitude"]) == (55.77883, 12.52124)

        # The planner moves a visit: one push queued for the device, which tells the core to refresh.
        moved = visits[2]
        later = moved["startTimeUtc"][:11] + "12:00:00Z"
        status, _ = deployment.admin("PATCH", f"/v1/planner/visits/{moved['visitId']}/{moved['startTimeUtc']}",
                                     {"startTimeUtc": later}, i=len(deployment.ports) - 1)
        assert status == 200
        status, queued = deployment.admin("GET", f"/v1/planner/pushes?washerId={ada['washerId']}")
        assert [(p["seq"], p["state"], p["platform"]) for p in queued["pushes"]] == [(1, "queued", "fcm")]
        push = queued["pushes"][0]
        payload = {"carfit": json.dumps({"v": 1, "id": push["id"], "kind": "visits", "seq": push["seq"]}, separators=(",", ":"))}
        told = core.receive_push(payload)
        assert told["refreshed"] is True and told["gap"] is False
        assert [(c["change"], c["visitId"]) for c in told["changes"]] == [("moved", moved["visitId"])]
        assert core.receive_push(payload)["duplicate"] is True
        # The snapshot is now the server's: the applied states are there.
        assert [c["state"] for c in cards(core)][:2] == ["Done", "Rejected"]


def test_lost_answers_are_resent_and_applied_once(deployment, tmp_path):
    ada = deployment.washer("Ada")
    deployment.plan(ada, 30)
    proxy = LosingProxy(deployment.ports[-1])
    try:
        config = deployment.core_config(tmp_path / "ada.db")
        config["sources"]["visitUpdates"] = proxy.url("/v1/visit-updates")
        config["sources"]["locations"] = proxy.url("/v1/locations")
        config["auth"]["origins"].append(proxy.url(""))
        with carfit.Core(config) as core:
            core.auth_set(ada["token"])
            core.refresh_visits()
            for i, card in enumerate(cards(core)):
                core.set_visit_state(card["key"], "InProgress")
                core.report_location(55.0 + i / 100, 12.0, 5.0, at=f"{today()}T00:{i:02d}:00Z")
            proxy.lose = 2
            answers = push_until_done(core)
            assert proxy.lost == 2
            assert sum(a["pushed"] for a in answers) == 30
            assert all(a["rejected"] == 0 for a in answers)
            assert core.sync_status()["rejected"] == []
    finally:
        proxy.close()
    assert deployment.sql("SELECT count(*), sum(applied) FROM mutations") == [(30, 30)]
    assert deployment.sql("SELECT count(*) FROM points") == [(30,)]
    assert [v["state"] for v in washer_visits(deployment, ada["washerId"])] == ["InProgress"] * 30


CHILD_PUSHER = textwrap.dedent("""
    import json, sys, time
    sys.path.insert(0, {binding!r})
    import carfit
    config = json.loads(sys.argv[1])
    with carfit.Core(config) as core:
        core.auth_set(sys.argv[2])
        print("pushing", flush=True)
        for _ in range(400):
            try:
                answer = core.push()
            except carfit.UnavailableError:
                time.sleep(0.05)
                continue
            if answer["pending"] == 0 and answer.get("attachments", {{}}).get("pending", 0) == 0:
                break
        print(json.dumps(core.sync_status()), flush=True)
""")


def start_pusher(config: dict, token: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", CHILD_PUSHER.format(binding=str(BINDING_DIR)), json.dumps(config), token],
                            stdout=subprocess.PIPE, text=True)


def test_concurrent_pushers_of_one_core_apply_each_change_once(deployment, tmp_path):
    ada = deployment.washer("Ada")
    deployment.plan(ada, 60)
    path = tmp_path / "ada.db"
    with open_core(deployment, path, ada["token"]) as core:
        core.refresh_visits()
        for card in cards(core):
            core.set_visit_state(card["key"], "InProgress")
            core.set_visit_state(card["key"], "Done")
    pushers = [start_pusher(deployment.core_config(path), ada["token"]) for _ in range(4)]
    statuses = []
    for p in pushers:
        assert p.stdout.readline().strip() == "pushing"
        statuses.append(json.loads(p.stdout.readline()))
        p.wait(timeout=60)
    assert all(s["pending"] == 0 and s["rejected"] == [] for s in statuses)
    assert deployment.sql("SELECT count(*), sum(applied) FROM mutations") == [(120, 120)]
    assert [v["state"] for v in washer_visits(deployment, ada["washerId"])] == ["Done"] * 60


def test_a_server_killed_mid_burst_loses_nothing_and_applies_nothing_twice(deployment, tmp_path):
    ada = deployment.washer("Ada")
    count = 300
    deployment.plan(ada, count)
    path = tmp_path / "ada.db"
    with open_core(deployment, path, ada["token"]) as core:
        core.refresh_visits()
        for i, card in enumerate(cards(core)):
            core.set_visit_state(card["key"], "InProgress")
            core.set_visit_state(card["key"], "Done")
            core.report_location(55.0 + i / 1000, 12.0, 5.0, at=f"{today()}T{i // 60:02d}:{i % 60:02d}:00Z")
    pusher = start_pusher(deployment.core_config(path), ada["token"])
    assert pusher.stdout.readline().strip() == "pushing"
    for delay in (0.05, 0.2):
        time.sleep(delay)
        for i in range(len(deployment.ports)):
            deployment.kill(i, signal.SIGKILL)
        time.sleep(0.3)
        for i in range(len(deployment.ports)):
            deployment.start(i)
    status = json.loads(pusher.stdout.readline())
    pusher.wait(timeout=60)
    assert status["pending"] == 0 and status["rejected"] == []
    assert deployment.sql("SELECT count(*), sum(applied) FROM mutations") == [(2 * count, 2 * count)]
    assert deployment.sql("SELECT count(*) FROM points") == [(count,)]
    assert [v["state"] for v in washer_visits(deployment, ada["washerId"])] == ["Done"] * count


def test_a_core_killed_mid_push_resumes_and_nothing_is_applied_twice(deployment, tmp_path):
    ada = deployment.washer("Ada")
    count = 200
    deployment.plan(ada, count)
    path = tmp_path / "ada.db"
    big = tmp_path / "big.png"
    big.write_bytes(PNG[:-12] + bytes(4 << 20) + PNG[-12:])
    with open_core(deployment, path, ada["token"]) as core:
        core.refresh_visits()
        keys = [c["key"] for c in cards(core)]
        for key in keys:
            core.set_visit_state(key, "InProgress")
            core.set_visit_state(key, "Done")
        for key in keys[:3]:
            core.attach(key, "photo", file=big)
        core.register_push("apns", "apns-token-1")
    for delay in (0.1, 0.4):
        pusher = start_pusher(deployment.core_config(path), ada["token"])
        assert pusher.stdout.readline().strip() == "pushing"
        time.sleep(delay)
        pusher.send_signal(signal.SIGKILL)
        pusher.wait(timeout=30)
    with open_core(deployment, path, ada["token"]) as core:
        push_until_done(core)
        assert core.sync_status()["rejected"] == []
        assert core.push_status()["device"]["registered"] is True
    assert deployment.sql("SELECT count(*), sum(applied) FROM mutations") == [(2 * count, 2 * count)]
    assert deployment.sql("SELECT count(*) FROM attachments") == [(3,)]
    assert deployment.sql("SELECT count(*) FROM devices WHERE token = 'apns-token-1'") == [(1,)]
    kept = sorted(p.name for p in deployment.files.iterdir())
    assert len(kept) == 3 and not any(name.startswith(".upload-") for name in kept)
    assert [v["state"] for v in washer_visits(deployment, ada["washerId"])] == ["Done"] * count
