"""Pushes from the planner's back end through a fake FCM (fake_fcm.py): a washer's core registers
its device, the planner changes a visit, the push arrives and the core, handed it, refreshes and
tells of the change; two server processes on one PostgreSQL database number each device's pushes
1, 2, 3 … without a gap or a repeat; a push held by a server killed with SIGKILL is sent after the
restart."""

from __future__ import annotations

import datetime as dt
import json
import signal
import threading
import time
import urllib.request
import uuid

import pytest

import carfit

from conftest import SAMPLE, Deployment, iso, today
from fake_fcm import FakeFCM


@pytest.fixture
def fcm(tmp_path):
    fake = FakeFCM(tmp_path / "fcm")
    yield fake
    fake.close()


def pushes(deployment: Deployment, washer_id: str, i: int = 0) -> list[dict]:
    status, answer = deployment.admin("GET", f"/v1/planner/pushes?washerId={washer_id}", i=i)
    assert status == 200, answer
    return answer["pushes"]


def register_device(deployment: Deployment, washer: dict, client_id: str, token: str) -> None:
    body = json.dumps({"clientId": client_id, "platform": "fcm", "token": token}).encode()
    request = urllib.request.Request(deployment.url(0, "/v1/devices"), data=body, method="POST",
                                     headers={"Authorization": f"Bearer {washer['token']}",
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200
        assert json.loads(answer.read())["device"] == {"clientId": client_id, "platform": "fcm", "registered": True}


def visit(washer: dict, minute: int) -> dict:
    base = json.loads(SAMPLE.read_text(encoding="utf-8"))["data"][0]
    midnight = dt.datetime.now(dt.timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
    return dict(base, visitId=f"p{minute:04d}-{uuid.uuid4().hex[:6]}", homeBobEmployeeId=washer["washerId"],
                startTimeUtc=iso(midnight + dt.timedelta(minutes=minute)), visitState="ToDo",
                houseOwnerFirstName=f"Owner {minute}")


def test_a_planners_change_reaches_the_washers_core_through_fcm(tmp_path, lib, fcm):
    deployment = Deployment(tmp_path, f"sqlite:{tmp_path / 'planner.sqlite'}", 1,
                            serve_args=("--push-config", str(fcm.write_config())))
    try:
        ada = deployment.washer("Ada")
        deployment.plan(ada, 3)
        config = deployment.core_config(tmp_path / "ada.db")
        with carfit.Core(config) as core:
            core.auth_set(ada["token"])
            assert core.refresh_visits()["imported"] == 3
            core.register_push("fcm", "fcm-device-ada-1")
            assert core.push()["device"] == {"sent": True}
            assert core.push_status()["device"]["registered"] is True
            # Nothing was queued for the visits planned before the device registered.
            assert pushes(deployment, ada["washerId"]) == []

            moved = deployment.day()["washers"][0]["visits"][1]
            later = moved["startTimeUtc"][:11] + "12:00:00Z"
            status, _ = deployment.admin("PATCH", f"/v1/planner/visits/{moved['visitId']}/{moved['startTimeUtc']}",
                                         {"startTimeUtc": later})
            assert status == 200
            assert fcm.wait_for(lambda: len(fcm.messages) == 1), (fcm.attempted, fcm.bad_token_requests)

            # What FCM was sent: the HTTP v1 message, authorised by the token the account's assertion got.
            assert fcm.bad_token_requests == []
            assert len(fcm.tokens) == 1
            sent = fcm.messages[0]
            assert sent["authorization"] == f"Bearer {fcm.tokens[0]}"
            message = sent["body"]["message"]
            assert set(message) == {"token", "data", "android"}
            assert message["token"] == "fcm-device-ada-1"
            assert message["android"] == {"priority": "high", "collapse_key": "visits"}
            assert set(message["data"]) == {"carfit"} and isinstance(message["data"]["carfit"], str)
            assert ": " not in message["data"]["carfit"] and ", " not in message["data"]["carfit"]
            member = json.loads(message["data"]["carfit"])
            assert set(member) == {"v", "id", "kind", "seq"}
            assert (member["v"], member["kind"], member["seq"]) == (1, "visits", 1)
            uuid.UUID(member["id"])

            # The queue says it was sent, once, without a failure.
            assert fcm.wait_for(lambda: pushes(deployment, ada["washerId"])[0]["state"] == "sent")
            [listed] = pushes(deployment, ada["washerId"])
            assert listed.pop("clientId")
            assert listed == {"id": member["id"], "platform": "fcm", "seq": 1, "state": "sent", "attempts": 1,
                              "lastError": None}

            # The core, handed FCM's data as the app receives it, refreshes and tells of the move.
            told = core.receive_push(message["data"])
            assert (told["duplicate"], told["gap"], told["refreshed"], told["refreshError"]) == (False, False, True, None)
            assert [(c["change"], c["visitId"]) for c in told["changes"]] == [("moved", moved["visitId"])]
            assert len(told["notifications"]) == 1
            assert told["notifications"][0]["key"] is not None
            assert len(core.list_visits(dates=[today()])["days"][0]["visits"]) == 3
            assert core.push_status()["lastSeq"] == 1
            assert core.receive_push(message["data"])["duplicate"] is True

            # A second change: seq 2, the access token reused.
            status, _ = deployment.admin("DELETE", f"/v1/planner/visits/{moved['visitId']}/{later}")
            assert status == 200
            assert fcm.wait_for(lambda: len(fcm.messages) == 2)
            assert len(fcm.tokens) == 1 and len(fcm.token_requests) == 1
            second = fcm.messages[1]["body"]["message"]
            assert json.loads(second["data"]["carfit"])["seq"] == 2
            told = core.receive_push(second["data"])
            assert told["gap"] is False and told["refreshed"] is True
            assert [(c["change"], c["visitId"]) for c in told["changes"]] == [("removed", moved["visitId"])]
            assert len(core.list_visits(dates=[today()])["days"][0]["visits"]) == 2
    finally:
        deployment.close()


def test_two_processes_number_each_devices_pushes_without_a_gap_or_a_repeat(tmp_path, lib, postgres, fcm):
    deployment = Deployment(tmp_path, postgres.database(), 2, postgres,
                            serve_args=("--push-config", str(fcm.write_config())))
    try:
        ada = deployment.washer("Ada")
        devices = [f"fcm-device-{n}" for n in range(3)]
        for n, token in enumerate(devices):
            register_device(deployment, ada, f"client-{n}", token)
        per_process = 15
        errors: list[object] = []

        def planner(i: int) -> None:
            for n in range(per_process):
                status, answer = deployment.admin("POST", "/v1/planner/visits", visit(ada, i * 100 + n), i=i)
                if status != 201:
                    errors.append(answer)

        threads = [threading.Thread(target=planner, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        changes = 2 * per_process

        # The queue, as either process lists it: each device 1 … changes, once each.
        for i in range(2):
            queue = pushes(deployment, ada["washerId"], i=i)
            assert len(queue) == changes * len(devices)
            assert len({p["id"] for p in queue}) == len(queue)
            for n in range(len(devices)):
                assert sorted(p["seq"] for p in queue if p["clientId"] == f"client-{n}") == list(range(1, changes + 1))
        rows = deployment.sql("SELECT client_id, count(*), count(DISTINCT seq), min(seq), max(seq) FROM pushes "
                              "GROUP BY client_id ORDER BY client_id")
        assert rows == [(f"client-{n}", changes, changes, 1, changes) for n in range(len(devices))]

        # Delivered by both processes, each device's in seq order, none twice.
        assert fcm.wait_for(lambda: len(fcm.messages) == changes * len(devices), timeout=60), len(fcm.messages)
        for token in devices:
            assert [m["seq"] for m in fcm.carfit(token)] == list(range(1, changes + 1))
        assert fcm.wait_for(lambda: all(p["state"] == "sent" for p in pushes(deployment, ada["washerId"])))
    finally:
        deployment.close()


def test_a_push_held_by_a_killed_server_is_sent_after_the_restart(tmp_path, lib, fcm):
    deployment = Deployment(tmp_path, f"sqlite:{tmp_path / 'planner.sqlite'}", 1,
                            serve_args=("--push-config", str(fcm.write_config())))
    try:
        ada = deployment.washer("Ada")
        register_device(deployment, ada, "client-ada", "fcm-device-ada")
        fcm.fail.append(503)  # FCM down: the first request is answered 503
        fcm.release.clear()  # then it takes the message and does not answer
        status, _ = deployment.admin("POST", "/v1/planner/visits", visit(ada, 1))
        assert status == 201
        assert fcm.wait_for(lambda: len(fcm.attempted) == 2, timeout=15)
        [held] = pushes(deployment, ada["washerId"])
        assert (held["state"], held["lastError"]) == ("queued", "503 UNAVAILABLE")
        assert held["attempts"] >= 1
        deployment.kill(0, signal.SIGKILL)  # committed and sent, its outcome never recorded

        fcm.release.set()
        restarted = time.monotonic()
        deployment.start(0)
        assert fcm.wait_for(lambda: len(fcm.messages) == 1, timeout=60)
        assert time.monotonic() - restarted < 60
        [member] = fcm.carfit("fcm-device-ada")
        assert (member["id"], member["seq"]) == (held["id"], 1)
        assert fcm.wait_for(lambda: pushes(deployment, ada["washerId"])[0]["state"] == "sent")
        [after] = pushes(deployment, ada["washerId"])
        assert after["id"] == held["id"] and after["attempts"] >= 2
        assert after["lastError"] == "503 UNAVAILABLE"
    finally:
        deployment.close()
