"""The push area through the binding: a push's payload and its refusals, once-only ids, gaps
and order, the refresh a push runs against a real loopback visits source (200, 304, down), the
notifications, the device's registration sent to a loopback devices server, and a push
received by a second process on the same database."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import carfit

from conftest import DAY_CONFIG as CONFIG
from helpers import start_child


def record(visit_id, start, first="Anna", last="Berg", address="Vej 1", lat=55.7, lon=12.5, tasks=None):
    r = {"visitId": visit_id, "startTimeUtc": start, "visitState": "Todo", "houseOwnerFirstName": first,
         "houseOwnerLastName": last, "houseOwnerAddress": address, "tasks": tasks or [{"title": "Wash", "timesInMinutes": 20}]}
    if lat is not None:
        r["houseOwnerLatitude"] = lat
        r["houseOwnerLongitude"] = lon
    return r


class Planner:
    """A loopback planner: GET /visits answers its current document with an ETag (304 for a
    matching If-None-Match), POST /devices records each body; `status` makes every answer that
    status, `down` refuses to answer at all (the connection is closed)."""

    def __init__(self):
        self.document = {"data": []}
        self.version = 0
        self.devices = []
        self.visit_requests = []
        self.status = None
        self.lock = threading.Lock()
        planner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def reply(self, status, body=b"", headers=()):
                self.send_response(status)
                for k, v in headers:
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                with planner.lock:
                    planner.visit_requests.append(self.headers.get("If-None-Match"))
                    if planner.status:
                        return self.reply(planner.status)
                    etag = f'"v{planner.version}"'
                    if self.headers.get("If-None-Match") == etag:
                        return self.reply(304, headers=[("ETag", etag)])
                    body = json.dumps(planner.document).encode()
                return self.reply(200, body, [("ETag", etag), ("Content-Type", "application/json")])

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with planner.lock:
                    if planner.status:
                        return self.reply(planner.status)
                    planner.devices.append((json.loads(body), self.headers.get("Authorization")))
                return self.reply(200, b"{}", [("Content-Type", "application/json")])

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def publish(self, records):
        with self.lock:
            self.document = {"data": records}
            self.version += 1

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture()
def planner():
    p = Planner()
    yield p
    p.close()


def open_core(planner, database=":memory:", **sources):
    config = dict(CONFIG, database=str(database),
                  sources=dict({"visits": planner.base + "/visits"}, **sources))
    return carfit.Core(config)


def push(kind="visits", id="p1", seq=None, **members):
    body = dict({"v": 1, "id": id, "kind": kind}, **members)
    if seq is not None:
        body["seq"] = seq
    return {"carfit": body}


TODAY_9 = "2020-09-10T07:00:00Z"      # 09:00 in Copenhagen
TODAY_11 = "2020-09-10T09:00:00Z"     # 11:00
TOMORROW_9 = "2020-09-11T07:00:00Z"


def test_changes_on_import_and_refresh(lib, planner):
    with open_core(planner) as core:
        first = core.call("visits.import", {"data": [record("a", TODAY_9), record("b", TODAY_11)]})
        assert first["changes"] == []          # the first snapshot yields none
        planner.publish([record("a", TODAY_11), record("b", TODAY_11, address="Gade 2"), record("c", TOMORROW_9, lat=None)])
        answer = core.call("visits.refresh")
        assert answer["changes"] == [
            {"change": "moved", "visitId": "a", "key": "a|1599728400000|0", "name": "Anna Berg",
             "startTimeUtc": TODAY_11, "previousStartTimeUtc": TODAY_9, "fields": []},
            {"change": "updated", "visitId": "b", "key": "b|1599728400000|0", "name": "Anna Berg",
             "startTimeUtc": TODAY_11, "previousStartTimeUtc": None, "fields": ["address"]},
            {"change": "added", "visitId": "c", "key": "c|1599807600000|0", "name": "Anna Berg",
             "startTimeUtc": TOMORROW_9, "previousStartTimeUtc": None, "fields": []},
        ]
        assert core.call("visits.refresh") == {"imported": 0, "notModified": True, "changes": []}
        assert core.call("visits.refresh", {"maxAgeSeconds": 3600}) == {"imported": 0, "fresh": True, "changes": []}
        again = core.call("visits.import", {"data": planner.document["data"]})
        assert again["changes"] == []           # nothing changed


def test_tasks_are_compared_one_by_one(lib):
    """The same titles and total minutes with the minutes on other tasks is a change of tasks."""
    def tasks(*pairs):
        return [{"title": title, "timesInMinutes": minutes} for title, minutes in pairs]

    with carfit.Core(dict(CONFIG, database=":memory:")) as core:
        core.call("visits.import", {"data": [record("a", TODAY_9, tasks=tasks(("Wash", 10), ("Wax", 20)))]})
        swapped = core.call("visits.import", {"data": [record("a", TODAY_9, tasks=tasks(("Wash", 20), ("Wax", 10)))]})
        assert [(c["change"], c["fields"]) for c in swapped["changes"]] == [("updated", ["tasks"])]
        same = core.call("visits.import", {"data": [record("a", TODAY_9, tasks=tasks(("Wash", 20), ("Wax", 10)))]})
        assert same["changes"] == []


def test_a_visits_push_refreshes_and_notifies(lib, planner):
    with open_core(planner) as core:
        core.call("visits.import", {"data": [record("a", TODAY_9), record("b", TODAY_11)]})
        planner.publish([record("a", TODAY_11), record("c", TOMORROW_9, lat=None), record("b", TODAY_11)])
        answer = core.receive_push(push(seq=1))
        assert answer["duplicate"] is False and answer["gap"] is False
        assert answer["refreshed"] is True and answer["refreshError"] is None
        assert [c["change"] for c in answer["changes"]] == ["moved", "added"]
        moved, added = answer["notifications"]
        assert moved == {
            "id": "moved:a:2020-09-10T09:00:00Z", "kind": "moved", "title": "Visit moved",
            "body": "Anna Berg: 09:00 → 11:00", "key": "a|1599728400000|0", "at": TODAY_11,
            "deepLink": "carfit://visit/a%7C1599728400000%7C0",
            "navigation": {"geo": "geo:55.7,12.5",
                           "google": "https://www.google.com/maps/dir/?api=1&destination=55.7,12.5",
                           "apple": "https://maps.apple.com/?daddr=55.7,12.5"}}
        assert added["title"] == "New visit" and added["body"] == "Anna Berg at 09:00"
        assert added["navigation"] is None                # no coordinates
        # The navigation is the card's own.
        card = [c for c in core.list_visits(dates=["2020-09-10"])["days"][0]["visits"] if c["visitId"] == "a"][0]
        assert moved["navigation"] == card["navigation"]

        # Received twice: once only.
        assert core.receive_push(push(seq=1)) == {"duplicate": True, "gap": False, "refreshed": False,
                                                   "refreshError": None, "changes": [], "notifications": []}
        requests = len(planner.visit_requests)
        # A 304: refreshed, no changes; the request was conditional.
        answer = core.receive_push(push(id="p2", seq=2))
        assert answer["refreshed"] is True and answer["changes"] == [] and answer["notifications"] == []
        assert len(planner.visit_requests) == requests + 1 and planner.visit_requests[-1] == f'"v{planner.version}"'
        # refresh false never contacts the source.
        core.receive_push(push(id="p3", seq=3), refresh=False)
        assert len(planner.visit_requests) == requests + 1
        assert core.push_status() == {"device": None, "lastSeq": 3, "received": 3}


def test_removed_and_cancelled_and_12_hour_bodies(lib, planner):
    config = dict(CONFIG, hour24=False, sources={"visits": planner.base + "/visits"})
    with carfit.Core(config) as core:
        core.call("visits.import", {"data": [record("a", TODAY_9), record("b", TODAY_11)]})
        planner.publish([record("b", TODAY_11, first="Bo")])
        answer = core.receive_push(push())
        removed, updated = answer["notifications"]
        assert removed["id"] == "removed:a:2020-09-10T07:00:00Z" and removed["title"] == "Visit cancelled"
        assert removed["body"] == "Anna Berg at 09:00 AM is cancelled"
        assert removed["navigation"] is None and removed["key"] == "a|1599721200000|0"
        assert updated["title"] == "Visit changed" and updated["body"].endswith("name changed")


def test_gaps_and_order(lib, planner):
    with open_core(planner) as core:
        core.call("visits.import", {"data": [record("a", TODAY_9)]})
        first = core.receive_push(push("message", id="m1", seq=5, title="Hi", body="Lunch at 12"))
        assert first["gap"] is False          # none stored yet: no gap
        assert first["refreshed"] is False
        assert first["notifications"] == [{"id": "message:m1", "kind": "message", "title": "Hi", "body": "Lunch at 12",
                                           "key": None, "at": None, "deepLink": None, "navigation": None}]
        requests = len(planner.visit_requests)
        lost = core.receive_push(push("message", id="m2", seq=8, title="Hi", body="again"))
        assert lost["gap"] is True and lost["refreshed"] is True   # a gap refreshes, whatever the kind
        assert len(planner.visit_requests) == requests + 1
        late = core.receive_push(push("message", id="m3", seq=6, title="Hi", body="late"))
        assert late["gap"] is False and len(late["notifications"]) == 1
        assert core.push_status()["lastSeq"] == 8                  # a lower seq does not lower it
        nine = core.receive_push(push("message", id="m4", seq=9, title="Hi", body="next"), refresh=False)
        assert nine["gap"] is False


def test_a_push_while_the_source_is_down(lib, planner):
    with open_core(planner) as core:
        core.call("visits.import", {"data": [record("a", TODAY_9)]})
        planner.status = 503
        answer = core.receive_push(push(seq=1))
        assert answer["refreshed"] is False
        assert answer["refreshError"]["error"]["code"] == "unavailable"
        assert answer["refreshError"]["error"]["httpStatus"] == 503
        assert core.push_status()["received"] == 1     # recorded all the same
        assert len(core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]) == 1
    with carfit.Core(dict(CONFIG)) as core:            # no visits source: the push still succeeds
        answer = core.receive_push(push())
        assert answer["refreshError"]["error"]["field"] == "sources.visits"


def test_a_visit_push(lib, planner):
    with open_core(planner) as core:
        core.call("visits.import", {"data": [record("a", TODAY_9)]})
        answer = core.receive_push({"carfit": json.dumps({"v": 1, "id": "v1", "kind": "visit", "visitId": "a",
                                                          "startTimeUtc": TODAY_9})})   # FCM: a string
        (n,) = answer["notifications"]
        assert n["id"] == "visit:a|1599721200000|0" and n["kind"] == "visit" and n["title"] == "Next visit"
        assert n["body"] == "Anna Berg at 09:00, Vej 1"
        assert answer["refreshed"] is False                # stored: no refresh
        planner.publish([record("a", TODAY_9), record("z", TOMORROW_9)])
        found = core.receive_push(push("visit", id="v2", visitId="z", startTimeUtc=TOMORROW_9))
        assert found["refreshed"] is True and found["notifications"][-1]["id"] == "visit:z|1599807600000|0"
        with pytest.raises(carfit.NotFoundError) as e:
            core.receive_push(push("visit", id="v3", visitId="nope", startTimeUtc=TOMORROW_9))
        assert e.value.field == "payload.carfit.visitId"
        assert core.push_status()["received"] == 2          # not recorded


@pytest.mark.parametrize("payload, field", [
    ({}, "payload.carfit"),
    ({"carfit": 5}, "payload.carfit"),
    ({"carfit": "not json"}, "payload.carfit"),
    ({"carfit": {"v": 2, "id": "x", "kind": "visits"}}, "payload.carfit.v"),
    ({"carfit": {"v": 1, "id": "", "kind": "visits"}}, "payload.carfit.id"),
    ({"carfit": {"v": 1, "id": "x" * 201, "kind": "visits"}}, "payload.carfit.id"),
    ({"carfit": {"v": 1, "id": "x", "kind": "other"}}, "payload.carfit.kind"),
    ({"carfit": {"v": 1, "id": "x", "kind": "visits", "seq": 0}}, "payload.carfit.seq"),
    ({"carfit": {"v": 1, "id": "x", "kind": "visit", "startTimeUtc": TODAY_9}}, "payload.carfit.visitId"),
    ({"carfit": {"v": 1, "id": "x", "kind": "visit", "visitId": "a"}}, "payload.carfit.startTimeUtc"),
    ({"carfit": {"v": 1, "id": "x", "kind": "message", "title": "t" * 101, "body": "b"}}, "payload.carfit.title"),
    ({"carfit": {"v": 1, "id": "x", "kind": "message", "title": "t", "body": ""}}, "payload.carfit.body"),
    ({"carfit": {"v": 1, "id": "x", "kind": "visits"}, "pad": "p" * 4096}, "payload"),
])
def test_refusals_name_the_member_and_record_nothing(lib, payload, field):
    with carfit.Core(dict(CONFIG)) as core:
        with pytest.raises(carfit.InvalidError) as e:
            core.receive_push(payload, refresh=False)
        assert e.value.field == field
        assert core.push_status() == {"device": None, "lastSeq": None, "received": 0}
    with carfit.Core(dict(CONFIG)) as core:
        with pytest.raises(carfit.InvalidError) as e:
            core.call("push.receive", {"refresh": False})
        assert e.value.field == "payload"


def test_the_4096_byte_bound_is_of_compact_json(lib):
    with carfit.Core(dict(CONFIG)) as core:
        base = {"carfit": {"v": 1, "id": "x", "kind": "visits"}, "pad": ""}
        size = len(json.dumps(base, separators=(",", ":")))
        base["pad"] = "p" * (4096 - size)
        assert len(json.dumps(base, separators=(",", ":"))) == 4096
        assert core.receive_push(base, refresh=False)["duplicate"] is False
        base["carfit"]["id"] = "y"
        base["pad"] += "p"
        with pytest.raises(carfit.InvalidError):
            core.receive_push(base, refresh=False)


def test_only_the_last_1000_ids_are_kept(lib, tmp_path):
    with carfit.Core(dict(CONFIG, database=str(tmp_path / "ids.db"))) as core:
        for i in range(1001):
            core.receive_push(push("message", id=f"m{i}", title="t", body="b"), refresh=False)
        assert core.push_status()["received"] == 1000
        assert core.receive_push(push("message", id="m1000", title="t", body="b"))["duplicate"] is True
        assert core.receive_push(push("message", id="m0", title="t", body="b"), refresh=False)["duplicate"] is False


SECOND = """
import json, sys
sys.path.insert(0, {binding!r})
import carfit
core = carfit.Core(json.loads(sys.argv[1]))
print(json.dumps(core.receive_push(json.loads(sys.argv[2]), refresh=False)), flush=True)
sys.stdin.read()
core.close()
"""


def test_a_push_received_in_a_second_process(lib, tmp_path):
    config = dict(CONFIG, database=str(tmp_path / "two.db"))
    with carfit.Core(config) as core:
        first = core.receive_push(push("message", id="shared", seq=1, title="t", body="b"), refresh=False)
        assert first["duplicate"] is False
        child = start_child(SECOND, json.dumps(config), json.dumps(push("message", id="shared", seq=1, title="t", body="b")))
        assert json.loads(child.stdout.readline())["duplicate"] is True
        child.stdin.close()
        child.wait()
        other = start_child(SECOND, json.dumps(config), json.dumps(push("message", id="new", seq=3, title="t", body="b")))
        answer = json.loads(other.stdout.readline())
        other.stdin.close()
        other.wait()
        assert answer["duplicate"] is False and answer["gap"] is True
        assert core.push_status()["lastSeq"] == 3 and core.push_status()["received"] == 2


def test_register_and_the_devices_endpoint(lib, planner, tmp_path):
    database = tmp_path / "dev.db"
    with open_core(planner, database, devices=planner.base + "/devices") as core:
        assert core.push_status()["device"] is None
        assert core.push()["device"] == {"sent": False}        # only devices configured: valid
        assert core.register_push("fcm", "tok-1") == {"device": {"platform": "fcm", "registered": False, "pending": True}}
        client = core.sync_status()["clientId"]
        assert core.push()["device"] == {"sent": True}
        assert planner.devices == [({"clientId": client, "platform": "fcm", "token": "tok-1"}, None)]
        assert core.push_status()["device"] == {"platform": "fcm", "registered": True, "pending": False}
        # The record already acknowledged: nothing sent again.
        core.register_push("fcm", "tok-1")
        assert core.push()["device"] == {"sent": False} and len(planner.devices) == 1
        # A failure: unavailable, the record pending, the backoff started.
        core.register_push("apns", "tok-2")
        planner.status = 500
        with pytest.raises(carfit.UnavailableError):
            core.push()
        assert core.push_status()["device"]["pending"] is True
        assert core.sync_status()["consecutiveFailures"] == 1
        assert core.push(if_due=True)["skipped"] == "backoff"
        planner.status = 401
        with pytest.raises(carfit.UnauthorizedError):
            core.push()
        planner.status = None
    # Survives reopening; unregistering carries the last platform.
    with open_core(planner, database, devices=planner.base + "/devices") as core:
        core.call("auth.set", {"token": "secret"})
        assert core.push()["device"] == {"sent": True}
        assert planner.devices[-1][0]["token"] == "tok-2"
        # Without auth.origins, the token's origins are the visits source's: this server's.
        assert planner.devices[-1][1] == "Bearer secret"
        assert core.register_push(None, None) == {"device": {"platform": "apns", "registered": False, "pending": True}}
        core.push()
        assert planner.devices[-1][0] == {"clientId": planner.devices[0][0]["clientId"], "platform": "apns", "token": None}
        assert core.push_status()["device"] is None


def test_the_token_goes_to_devices_only_on_an_auth_origin(lib, planner):
    config = dict(CONFIG, sources={"devices": planner.base + "/devices"}, auth={"origins": [planner.base]})
    with carfit.Core(config) as core:
        core.call("auth.set", {"token": "secret"})
        core.register_push("apns", "tok")
        core.push()
        assert planner.devices[-1][1] == "Bearer secret"
    config = dict(CONFIG, sources={"devices": planner.base + "/devices"}, auth={"origins": ["https://planner.example"]})
    with carfit.Core(config) as core:
        core.call("auth.set", {"token": "secret"})
        core.register_push("apns", "other")
        core.push()
        assert planner.devices[-1] == ({"clientId": core.sync_status()["clientId"], "platform": "apns", "token": "other"}, None)


@pytest.mark.parametrize("request_, field", [
    ({"platform": "apns"}, "token"),
    ({"platform": "web", "token": "t"}, "platform"),
    ({"token": "t"}, "platform"),
    ({"platform": "fcm", "token": ""}, "token"),
    ({"platform": "fcm", "token": "a b"}, "token"),
    ({"platform": "fcm", "token": "t" * 4097}, "token"),
])
def test_register_refusals(lib, request_, field):
    with carfit.Core(dict(CONFIG)) as core:
        with pytest.raises(carfit.InvalidError) as e:
            core.call("push.register", request_)
        assert e.value.field == field
        assert core.push_status()["device"] is None
