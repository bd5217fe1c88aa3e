"""The reference sync server itself, driven with urllib: the protocol, exactly-once application,
the server's own rules, and every fault it can inject."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
SAMPLE_VISITS = REPO_ROOT / "examples" / "data" / "carfit.json"
SERVERS = REPO_ROOT / "examples" / "servers"

if str(SERVERS) not in sys.path:
    sys.path.insert(0, str(SERVERS))

from sync_server import SyncServer, canonical_state, parse_instant  # noqa: E402

#: How long any one request in these tests may take before it is a failure, in seconds.
REQUEST_TIMEOUT = 10


@pytest.fixture()
def sample() -> dict:
    return json.loads(SAMPLE_VISITS.read_text(encoding="utf-8"))


@pytest.fixture()
def server(sample):
    with SyncServer(visits=sample, idle_timeout=120) as s:
        yield s


def request(server: SyncServer, method: str, path: str, body: object = None, timeout: float = REQUEST_TIMEOUT):
    """(status, parsed JSON answer) of one request; HTTP error statuses are answers too."""
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(server.url(path), data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def post(server, mutations, client_id="client-1", path="/visit-updates", timeout=REQUEST_TIMEOUT):
    status, body = request(server, "POST", path, {"clientId": client_id, "mutations": mutations}, timeout)
    return status, json.loads(body) if status == 200 else body


def control(server, doc):
    status, body = request(server, "POST", "/_control", doc)
    assert status == 200, body
    return json.loads(body)


def state(server) -> dict:
    status, body = request(server, "GET", "/_state")
    assert status == 200
    return json.loads(body)


def visits(server) -> list[dict]:
    status, body = request(server, "GET", "/visits")
    assert status == 200
    return json.loads(body)["data"]


def mutation(record: dict, state: str, *, mid: str | None = None, used=None, reason=None, start=None) -> dict:
    return {"mutationId": mid or str(uuid.uuid4()), "visitId": record["visitId"],
            "startTimeUtc": start or record["startTimeUtc"], "state": state,
            "at": "2020-09-10T08:10:00Z", "timeUsedMinutes": used, "reason": reason}


def todo_records(sample) -> list[dict]:
    """The first record of each distinct (visitId, startTimeUtc) of the sample in state ToDo:
    the visits as the server knows them."""
    seen = set()
    out = []
    for r in sample["data"]:
        pair = (r["visitId"], r["startTimeUtc"])
        if canonical_state(r["visitState"]) == "Todo" and pair not in seen:
            seen.add(pair)
            out.append(r)
    return out


def server_record(server, record) -> dict:
    return next(r for r in visits(server)
                if r["visitId"] == record["visitId"] and r["startTimeUtc"] == record["startTimeUtc"])


# -- the protocol ------------------------------------------------------------------------------


def test_helpers_normalise_states_and_instants():
    assert canonical_state("ToDo") == "Todo"
    assert canonical_state("in progress") == "InProgress"
    assert canonical_state("Cancelled") is None
    assert canonical_state(None) is None
    assert parse_instant("2020-09-10T08:05:00") == parse_instant("2020-09-10T08:05:00Z")
    assert parse_instant("2020-09-10T10:05:00+02:00") == parse_instant("2020-09-10T08:05:00Z")
    assert parse_instant("yesterday") is None
    assert parse_instant("2020-09-10T08:05:00.123Z") == 1_599_725_100_123
    assert parse_instant("1969-12-31T23:59:59.999Z") == -1


def test_applies_a_day_of_changes_in_order_and_serves_the_snapshot(server, sample):
    record = todo_records(sample)[0]
    start = mutation(record, "InProgress")
    done = mutation(record, "Done", used=42)
    status, answer = post(server, [start, done])
    assert status == 200
    assert answer == {"applied": [start["mutationId"], done["mutationId"]], "rejected": []}
    changed = server_record(server, record)
    assert changed["visitState"] == "Done"
    assert changed["visitTimeUsed"] == 42
    others = [r for r in visits(server) if r is not changed and r["visitId"] != record["visitId"]]
    originals = [r for r in sample["data"] if r["visitId"] != record["visitId"]]
    assert others == originals
    st = state(server)
    assert st["applied"] == {start["mutationId"]: 1, done["mutationId"]: 1}
    assert st["clientIds"] == ["client-1"]
    push = [r for r in st["requests"] if r["method"] == "POST"]
    assert push[0]["mutations"] == 2 and push[0]["bytes"] > 0 and push[0]["status"] == 200


def test_a_resent_id_is_answered_again_but_applied_once(server, sample):
    record = todo_records(sample)[0]
    start = mutation(record, "InProgress")
    undo = mutation(record, "Todo")
    assert post(server, [start, undo])[1]["applied"] == [start["mutationId"], undo["mutationId"]]
    # Resent: applying the start again would move the visit to InProgress a second time.
    status, answer = post(server, [start])
    assert (status, answer) == (200, {"applied": [start["mutationId"]], "rejected": []})
    assert server_record(server, record)["visitState"] == "Todo"
    st = state(server)
    assert st["applied"][start["mutationId"]] == 1
    assert st["resent"] == {start["mutationId"]: 1}


def test_the_same_id_twice_in_one_request_is_one_mutation(server, sample):
    record = todo_records(sample)[0]
    start = mutation(record, "InProgress")
    status, answer = post(server, [start, start])
    assert answer == {"applied": [start["mutationId"]], "rejected": []}
    assert state(server)["applied"] == {start["mutationId"]: 1}


def test_unknown_visit_and_illegal_transitions_are_rejected_with_a_reason(server, sample):
    record = todo_records(sample)[0]
    unknown = mutation({"visitId": "no-such-visit", "startTimeUtc": "2020-09-10T08:05:00"}, "InProgress")
    wrong_time = mutation(record, "InProgress", start="2001-01-01T00:00:00Z")
    finish = mutation(record, "Done", used=10)  # Todo -> Done skips the start
    status, answer = post(server, [unknown, wrong_time, finish])
    assert status == 200 and answer["applied"] == []
    reasons = {r["mutationId"]: r["reason"] for r in answer["rejected"]}
    assert set(reasons) == {unknown["mutationId"], wrong_time["mutationId"], finish["mutationId"]}
    assert "Unknown visit" in reasons[unknown["mutationId"]]
    assert reasons[finish["mutationId"]] == "A visit in state Todo cannot become Done."
    assert server_record(server, record)["visitState"] == record["visitState"]
    # A rejected id resent gets the same rejection, and is not judged again.
    assert post(server, [finish])[1]["rejected"] == [{"mutationId": finish["mutationId"],
                                                      "reason": reasons[finish["mutationId"]]}]
    assert len(state(server)["rejected"]) == 3


@pytest.mark.parametrize("current,allowed", [
    ("Todo", {"InProgress", "Rejected"}),
    ("InProgress", {"Done", "Rejected", "Todo"}),
    ("Done", set()),
    ("Rejected", set()),
])
def test_every_transition_by_the_server_rules(sample, current, allowed):
    record = dict(sample["data"][0], visitId="v", startTimeUtc="2020-09-10T08:05:00", visitState=current)
    for target in ("Todo", "InProgress", "Done", "Rejected"):
        with SyncServer(visits={"data": [dict(record)]}, idle_timeout=60) as s:
            answer = post(s, [mutation(record, target)])[1]
            assert (len(answer["applied"]) == 1) == (target in allowed), (current, target)
            expected = target if target in allowed else current
            assert visits(s)[0]["visitState"] == expected


def test_the_rules_are_the_contracts_state_machine(tmp_path):
    """The server restates no rules: they are the contract's $defs/visitState (the same the
    library's cards say as nextStates), read from the file."""
    import sync_server

    contract = json.loads((REPO_ROOT / "include" / "carfit.schema.json").read_text(encoding="utf-8"))
    machine = contract["$defs"]["visitState"]
    assert sync_server.STATES == tuple(machine["enum"])
    assert sync_server.TRANSITIONS == {s: frozenset(machine["nextStates"].get(s, ())) for s in machine["enum"]}
    # Another machine in the file is what the server then follows.
    machine["nextStates"] = {"Todo": ["Done"]}
    changed = tmp_path / "carfit.schema.json"
    changed.write_text(json.dumps(contract), encoding="utf-8")
    states, transitions = sync_server.visit_state_machine(changed)
    assert transitions == {"Todo": {"Done"}, "InProgress": set(), "Done": set(), "Rejected": set()}


def test_malformed_fields_are_rejected_not_applied(server, sample):
    record = todo_records(sample)[0]
    bad = [
        dict(mutation(record, "InProgress"), state="Started"),
        dict(mutation(record, "InProgress"), at="later"),
        dict(mutation(record, "InProgress"), timeUsedMinutes=-3),
        dict(mutation(record, "InProgress"), timeUsedMinutes=True),
        dict(mutation(record, "InProgress"), reason=7),
        dict(mutation(record, "InProgress"), visitId=None),
    ]
    answer = post(server, bad)[1]
    assert answer["applied"] == [] and len(answer["rejected"]) == len(bad)
    assert server_record(server, record)["visitState"] == record["visitState"]


@pytest.mark.parametrize("body", [
    b"not json", b"[]", json.dumps({"mutations": []}).encode(),
    json.dumps({"clientId": "c", "mutations": {}}).encode(),
    json.dumps({"clientId": "c", "mutations": [{"visitId": "x"}]}).encode(),
    json.dumps({"clientId": "c", "mutations": [{"mutationId": ""}]}).encode(),
])
def test_a_body_outside_the_protocol_is_400_and_applies_nothing(server, body):
    status, _ = request(server, "POST", "/visit-updates", body)
    assert status == 400
    st = state(server)
    assert st["applied"] == {} and st["requests"][-1]["outcome"] == "bad_request"


def test_a_repeated_pair_is_one_visit_changed_everywhere(server, sample):
    pairs = [(r["visitId"], r["startTimeUtc"]) for r in sample["data"]]
    repeated = next(r for r in sample["data"] if pairs.count((r["visitId"], r["startTimeUtc"])) > 1)
    assert canonical_state(repeated["visitState"]) == "Todo"
    assert post(server, [mutation(repeated, "Rejected", reason="Nobody home")])[1]["rejected"] == []
    same = [r for r in visits(server)
            if (r["visitId"], r["startTimeUtc"]) == (repeated["visitId"], repeated["startTimeUtc"])]
    assert len(same) == pairs.count((repeated["visitId"], repeated["startTimeUtc"]))
    assert {r["visitState"] for r in same} == {"Rejected"}


def test_any_path_takes_updates_and_unknown_gets_are_404(server, sample):
    record = todo_records(sample)[0]
    assert post(server, [mutation(record, "InProgress")], path="/api/v2/updates")[1]["rejected"] == []
    assert request(server, "GET", "/nothing")[0] == 404


def test_control_replaces_the_snapshot(server, sample):
    record = dict(sample["data"][0], visitId="new", startTimeUtc="2021-01-01T09:00:00", visitState="ToDo")
    control(server, {"visits": {"data": [record]}})
    assert [r["visitId"] for r in visits(server)] == ["new"]
    assert post(server, [mutation(record, "InProgress")])[1]["rejected"] == []


def test_bad_control_documents_are_400(server):
    for doc in [[], {"fial": {}}, {"fail": {"status": 200}}, {"delay": {"ms": 10**9}},
                {"malformed": {"kind": "odd"}}, {"reject": {"ids": [1]}}, {"visits": {"data": {}}}]:
        assert request(server, "POST", "/_control", doc)[0] == 400, doc


# -- faults ------------------------------------------------------------------------------------


def test_5xx_for_the_next_n_requests_applies_nothing(server, sample):
    record = todo_records(sample)[0]
    m = mutation(record, "InProgress")
    control(server, {"fail": {"count": 2, "status": 503}})
    assert post(server, [m])[0] == 503
    assert post(server, [m])[0] == 503
    assert state(server)["applied"] == {}
    assert post(server, [m]) == (200, {"applied": [m["mutationId"]], "rejected": []})
    assert state(server)["applied"] == {m["mutationId"]: 1}


def test_refused_connections_for_a_while_then_the_same_port(sample):
    with SyncServer(visits=sample, idle_timeout=60) as s:
        port = s.port
        control(s, {"refuse": {"ms": 1500}})
        with pytest.raises(urllib.error.URLError) as caught:
            request(s, "GET", "/_state")
        assert isinstance(caught.value.reason, ConnectionRefusedError)
        assert s.port == port
        # The refusal ends by itself: poll (bounded) until the server listens again.
        for _ in range(100):
            try:
                state(s)
                break
            except urllib.error.URLError:
                threading.Event().wait(0.05)
        else:
            pytest.fail("the server did not listen again")


def test_an_answer_dropped_after_applying(server, sample):
    record = todo_records(sample)[0]
    m = mutation(record, "InProgress")
    control(server, {"drop": {"count": 1}})
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError, urllib.error.URLError)):
        post(server, [m])
    assert state(server)["applied"] == {m["mutationId"]: 1}
    assert server_record(server, record)["visitState"] == "InProgress"
    # The client never saw the answer and resends: applied again in the answer, once in fact.
    assert post(server, [m]) == (200, {"applied": [m["mutationId"]], "rejected": []})
    st = state(server)
    assert st["applied"] == {m["mutationId"]: 1} and st["resent"] == {m["mutationId"]: 1}


def test_slow_answers_outlast_a_short_client_timeout_and_show_overlaps(server, sample):
    record = todo_records(sample)[0]
    m = mutation(record, "InProgress")
    control(server, {"delay": {"ms": 1500, "count": 2}})
    results = []

    def send():
        try:
            results.append(post(server, [m]))
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test looks at
            results.append(exc)

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(REQUEST_TIMEOUT)
    assert results == [(200, {"applied": [m["mutationId"]], "rejected": []})] * 2
    st = state(server)
    assert st["applied"] == {m["mutationId"]: 1}
    assert st["overlaps"] == [m["mutationId"]]
    # A delay armed without a count lasts: a client that waits less than it times out.
    control(server, {"delay": {"ms": 2000}})
    with pytest.raises((TimeoutError, urllib.error.URLError)):
        post(server, [m], timeout=0.2)
    control(server, {"reset": True})
    assert state(server)["faults"]["delay"] is None


@pytest.mark.parametrize("kind", ["not_json", "wrong_shape", "truncated", "empty"])
def test_malformed_answers(server, sample, kind):
    record = todo_records(sample)[0]
    m = mutation(record, "InProgress")
    control(server, {"malformed": {"count": 1, "kind": kind}})
    status, body = request(server, "POST", "/visit-updates", {"clientId": "c", "mutations": [m]})
    assert status == 200
    try:
        answer = json.loads(body)
    except ValueError:
        answer = None
    assert not (isinstance(answer, dict) and isinstance(answer.get("applied"), list)
                and isinstance(answer.get("rejected"), list))
    # Applied before the bad answer: the resend is answered properly, and applies nothing more.
    assert state(server)["applied"] == {m["mutationId"]: 1}
    assert post(server, [m])[1] == {"applied": [m["mutationId"]], "rejected": []}
    assert state(server)["applied"] == {m["mutationId"]: 1}


def test_malformed_answer_without_applying(server, sample):
    m = mutation(todo_records(sample)[0], "InProgress")
    control(server, {"malformed": {"count": 1, "kind": "not_json", "apply": False}})
    assert request(server, "POST", "/visit-updates", {"clientId": "c", "mutations": [m]})[0] == 200
    assert state(server)["applied"] == {}


def test_an_answer_naming_only_some_ids(server, sample):
    a, b, c = todo_records(sample)[:3]
    ms = [mutation(a, "InProgress"), mutation(b, "InProgress"), mutation(c, "InProgress")]
    control(server, {"partial": {"count": 1, "name": 1}})
    assert post(server, ms)[1] == {"applied": [ms[0]["mutationId"]], "rejected": []}
    assert state(server)["applied"] == {ms[0]["mutationId"]: 1}
    control(server, {"partial": {"count": 1, "name": 0, "apply": "all"}})
    assert post(server, ms)[1] == {"applied": [], "rejected": []}
    assert state(server)["applied"] == {m["mutationId"]: 1 for m in ms}
    assert {server_record(server, r)["visitState"] for r in (a, b, c)} == {"InProgress"}


def test_rejecting_given_ids(server, sample):
    a, b = todo_records(sample)[:2]
    ma, mb = mutation(a, "InProgress"), mutation(b, "InProgress")
    control(server, {"reject": {"ids": [mb["mutationId"]], "reason": "Visit was reassigned."}})
    answer = post(server, [ma, mb])[1]
    assert answer == {"applied": [ma["mutationId"]],
                      "rejected": [{"mutationId": mb["mutationId"], "reason": "Visit was reassigned."}]}
    assert server_record(server, b)["visitState"] == b["visitState"]


def test_answers_with_ids_not_sent_and_with_contradictions(server, sample):
    a, b = todo_records(sample)[:2]
    ma, mb = mutation(a, "InProgress"), mutation(b, "InProgress")
    control(server, {"extra": {"count": 1, "applied": ["ghost-1"], "rejected": ["ghost-2"]}})
    answer = post(server, [ma])[1]
    assert answer["applied"] == [ma["mutationId"], "ghost-1"]
    assert [r["mutationId"] for r in answer["rejected"]] == ["ghost-2"]
    control(server, {"both": {"count": 1}})
    answer = post(server, [mb])[1]
    assert answer["applied"] == [mb["mutationId"]]
    assert [r["mutationId"] for r in answer["rejected"]] == [mb["mutationId"]]
    assert state(server)["applied"] == {ma["mutationId"]: 1, mb["mutationId"]: 1}


def test_stops_by_itself_after_its_idle_timeout(sample):
    s = SyncServer(visits=sample, idle_timeout=0.3).start()
    assert s.wait(REQUEST_TIMEOUT)
    s.stop()
    assert s.stopped
    with pytest.raises(urllib.error.URLError):
        state(s)


# -- the planner's token, and the web app's planner --------------------------------------------


def test_with_a_token_an_update_request_without_it_is_401_and_changes_nothing(sample):
    record = todo_records(sample)[0]
    start = mutation(record, "InProgress")
    body = json.dumps({"clientId": "c", "mutations": [start]}).encode()
    with SyncServer(visits=sample, idle_timeout=60, token="secret") as s:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "secret"}):
            req = urllib.request.Request(s.url(), data=body, method="POST", headers=headers)
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT)
            assert refused.value.code == 401 and refused.value.headers["WWW-Authenticate"] == "Bearer"
            assert json.loads(refused.value.read())["error"]["code"] == "unauthorized"
        assert state(s)["applied"] == {} and server_record(s, record)["visitState"] == record["visitState"]
        req = urllib.request.Request(s.url(), data=body, method="POST", headers={"Authorization": "Bearer secret"})
        with urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT) as resp:
            assert json.loads(resp.read()) == {"applied": [start["mutationId"]], "rejected": []}
        assert [m["mutationId"] for m in s.mutations] == [start["mutationId"]]


def test_the_web_apps_planner_is_this_server_and_keeps_its_rules(sample):
    """examples/web serves this module as its sample planner (not a copy): an illegal transition
    is refused there as here, and only the planner's token is taken."""
    sys.path.insert(0, str(REPO_ROOT / "examples" / "web"))
    try:
        import sample_sources
    finally:
        sys.path.remove(str(REPO_ROOT / "examples" / "web"))
    import sync_server
    sources = sample_sources.SampleSources("http://127.0.0.1:1", token="t")
    assert sample_sources.SyncServer is sync_server.SyncServer and isinstance(sources.planner, SyncServer)
    record = todo_records(sample)[0]
    finish = mutation(record, "Done", used=10)
    body = json.dumps({"clientId": "c", "mutations": [finish]}).encode()
    with pytest.raises(sync_server.Unauthorized):
        sources.planner.push(body, authorization="Bearer other")
    status, answer = sources.planner.push(body, authorization="Bearer t")
    assert (status, json.loads(answer)) == (200, {"applied": [], "rejected": [
        {"mutationId": finish["mutationId"], "reason": "A visit in state Todo cannot become Done."}]})
    assert sources.state()["applied"] == []


def test_runs_as_a_program_and_prints_its_port_first(tmp_path):
    proc = subprocess.Popen([sys.executable, str(SERVERS / "sync_server.py"), "--port", "0",
                             "--visits", str(SAMPLE_VISITS), "--idle-timeout", "30"],
                            stdout=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline())
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/visits", timeout=REQUEST_TIMEOUT) as resp:
            assert len(json.loads(resp.read())["data"]) == 7
    finally:
        proc.terminate()
        assert proc.wait(REQUEST_TIMEOUT) == 0
