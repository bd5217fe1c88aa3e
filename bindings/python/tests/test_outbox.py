"""Nothing the washer did is lost to the planner's changes, through the binding: a loopback
planner that applies, rejects or loses its answers; removed visits with work stay listed,
rejected updates stay visible as conflicts until acknowledged, and all of it survives closing
and kill -9. The rules in detail are specified in Swift (OutboxServiceTests, OutboxRandomTests)."""

from __future__ import annotations

import http.server
import json
import random
import signal
import textwrap
import threading

import pytest

import carfit

from conftest import DAY_CONFIG as CONFIG
from helpers import start_child

DAY = "2020-09-10"


def record(i: int, state: str = "Todo") -> dict:
    return {"visitId": f"v{i}", "startTimeUtc": f"2020-09-10T{8 + i:02d}:00:00Z", "visitState": state,
            "houseOwnerFirstName": f"Owner {i}", "houseOwnerLatitude": 55.7 + i / 100, "houseOwnerLongitude": 12.5}


def snapshot(*present: int) -> dict:
    return {"data": [record(i) for i in present]}


class Planner:
    """A loopback update server: each mutation id is decided once (``decide(mutation)`` answers
    "applied", "rejected" or None for not named) and answered the same way whenever it comes
    again; ``lose`` answers are dropped after deciding (the connection is closed)."""

    def __init__(self, decide):
        self.decide = decide
        self.decided: dict = {}
        #: Every mutation seen, by id, in the order first seen.
        self.seen: dict = {}
        #: The ids a test's model has matched to its changes.
        self.assigned: set = set()
        self.lose = 0
        self.lock = threading.Lock()
        planner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                applied, rejected = [], []
                with planner.lock:
                    for m in body["mutations"]:
                        planner.seen.setdefault(m["mutationId"], m)
                        if m["mutationId"] not in planner.decided:
                            verdict = planner.decide(m)
                            if verdict is not None:
                                planner.decided[m["mutationId"]] = verdict
                        verdict = planner.decided.get(m["mutationId"])
                        if verdict == "applied":
                            applied.append(m["mutationId"])
                        elif verdict == "rejected":
                            rejected.append({"mutationId": m["mutationId"], "reason": f"refused {m['state']}"})
                    lose = planner.lose > 0
                    planner.lose -= 1 if lose else 0
                if lose:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                answer = json.dumps({"applied": applied, "rejected": rejected}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/updates"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def planner():
    p = Planner(lambda m: "applied")
    yield p
    p.close()


def open_core(database, planner):
    return carfit.Core(dict(CONFIG, database=str(database), sources={"visitUpdates": planner.url}))


def day(core) -> dict:
    return core.list_visits(dates=[DAY])["days"][0]


def by_key(core) -> dict:
    return {c["key"]: c for c in day(core)["visits"]}


def key(i: int) -> str:
    return f"v{i}|{1599724800000 + i * 3600000}|0"


def test_a_removed_visit_with_a_pending_update_stays_listed_until_applied_and_the_next_snapshot(planner, tmp_path):
    with open_core(tmp_path / "r.db", planner) as core:
        core.import_visits(snapshot(0, 1, 2))
        assert [c["removed"] for c in day(core)["visits"]] == [False, False, False]
        assert [c["conflict"] for c in day(core)["visits"]] == [None, None, None]
        core.set_visit_state(key(1), "InProgress")
        core.import_visits(snapshot(0, 2))
        listed = day(core)
        assert [c["key"] for c in listed["visits"]] == [key(0), key(1), key(2)]
        removed = listed["visits"][1]
        assert (removed["removed"], removed["state"], removed["pending"], removed["name"]) == (True, "InProgress", True, "Owner 1")
        assert listed["summary"]["visits"] == 3
        assert core.push()["pushed"] == 1
        # Applied: still shown until the next snapshot, then gone.
        assert by_key(core)[key(1)]["removed"] is True
        assert by_key(core)[key(1)]["pending"] is False
        core.import_visits(snapshot(0, 2))
        assert list(by_key(core)) == [key(0), key(2)]
        assert day(core)["summary"]["visits"] == 2


def test_a_rejected_update_shows_the_conflict_an_event_and_the_acknowledgement_clears_it(planner, tmp_path):
    planner.decide = lambda m: "rejected"
    with open_core(tmp_path / "c.db", planner) as core:
        core.import_visits(snapshot(0, 1))
        core.set_visit_state(key(0), "InProgress")
        after = core.wait_events(after=0, timeout=0)["last"]
        assert core.push() == {"pushed": 0, "rejected": 1, "pending": 0}
        events = [e for e in core.wait_events(after=after, timeout=1)["events"] if e["kind"] == "conflict"]
        mutation = core.sync_status()["rejected"][0]["mutationId"]
        assert events == [{"seq": events[0]["seq"], "kind": "conflict", "key": key(0), "mutationId": mutation,
                           "reason": "refused InProgress"}]
        card = by_key(core)[key(0)]
        assert (card["state"], card["pending"], card["removed"]) == ("Todo", False, False)
        assert card["conflict"] == {"mutationId": mutation, "state": "InProgress", "reason": "refused InProgress",
                                    "at": "2020-09-10T07:00:00Z", "timeUsedMinutes": None}
        assert by_key(core)[key(1)]["conflict"] is None
        assert core.sync_status()["rejected"][0]["timeUsedMinutes"] is None
        answer = core.acknowledge(key(0))
        assert answer["visit"]["conflict"] is None and answer["visit"] == by_key(core)[key(0)]
        with pytest.raises(carfit.ConflictError) as refused:
            core.acknowledge(key(0))
        assert refused.value.field == "key"
        with pytest.raises(carfit.NotFoundError):
            core.acknowledge("nobody|1|0")
        with pytest.raises(carfit.InvalidError):
            core.call("visits.acknowledge", {})


def test_a_removed_visit_with_a_conflict_stays_until_acknowledged_and_a_lost_answer_keeps_it_pending(planner, tmp_path):
    planner.decide = lambda m: "rejected"
    with open_core(tmp_path / "l.db", planner) as core:
        core.import_visits(snapshot(0, 1))
        core.set_visit_state(key(1), "InProgress")
        core.import_visits(snapshot(0))
        planner.lose = 1
        with pytest.raises(carfit.UnavailableError):
            core.push()
        card = by_key(core)[key(1)]
        assert (card["removed"], card["pending"], card["conflict"]) == (True, True, None)
        assert core.push()["rejected"] == 1
        card = by_key(core)[key(1)]
        assert (card["removed"], card["pending"], card["state"]) == (True, False, "Todo")
        assert card["conflict"]["state"] == "InProgress"
        core.import_visits(snapshot(0))
        assert key(1) in by_key(core)
        answer = core.acknowledge(key(1))["visit"]
        assert (answer["removed"], answer["conflict"]) == (True, None)
        assert list(by_key(core)) == [key(0)]


CHILD = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {binding!r})
    import carfit
    database, url, step = sys.argv[1], sys.argv[2], sys.argv[3]
    core = carfit.Core({{"database": database, "now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen",
                        "sources": {{"visitUpdates": url}}}})
    k = "v1|1599728400000|0"
    if step == "push":
        core.push()
    elif step == "acknowledge":
        core.acknowledge(k)
    elif step == "remove":
        core.import_visits({{"data": [{{"visitId": "v0", "startTimeUtc": "2020-09-10T08:00:00Z", "visitState": "ToDo", "houseOwnerFirstName": "Owner 0"}}]}})
    print("done", flush=True)
    sys.stdin.read()
""")


def killed_after(database, planner, step):
    child = start_child(CHILD, database, planner.url, step)
    assert child.stdout.readline().strip() == "done"
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL


def test_removed_cards_conflicts_and_acknowledgements_survive_close_and_kill_9(planner, tmp_path):
    database = tmp_path / "k.db"
    planner.decide = lambda m: "rejected"
    with open_core(database, planner) as core:
        core.import_visits(snapshot(0, 1))
        core.set_visit_state(key(1), "InProgress")
    killed_after(database, planner, "remove")
    with open_core(database, planner) as core:
        card = by_key(core)[key(1)]
        assert (card["removed"], card["pending"], card["state"]) == (True, True, "InProgress")
    killed_after(database, planner, "push")
    with open_core(database, planner) as core:
        card = by_key(core)[key(1)]
        assert (card["removed"], card["pending"]) == (True, False)
        assert card["conflict"]["state"] == "InProgress"
        assert core.sync_status()["rejected"][0]["timeUsedMinutes"] is None
    killed_after(database, planner, "acknowledge")
    with open_core(database, planner) as core:
        assert list(by_key(core)) == [key(0)]
        assert core.sync_status()["pending"] == 0


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_random_snapshots_changes_answers_and_reopening_lose_nothing_from_sight(tmp_path, seed):
    """A model written here, checked after every step against the day list and the status."""
    rng = random.Random(seed)
    verdicts = {}

    def decide(m):
        r = rng.random()
        return "applied" if r < 0.5 else "rejected" if r < 0.75 else None

    p = Planner(decide)
    database = tmp_path / f"rand-{seed}.db"
    allowed = {("ToDo", "InProgress"), ("Todo", "InProgress"), ("InProgress", "Done"), ("ToDo", "Rejected"),
               ("Todo", "Rejected"), ("InProgress", "Rejected"), ("InProgress", "Todo")}
    model = {i: {"in": False, "kept": False, "changes": [], "conflict": None} for i in range(5)}

    def work(m):
        return bool(m["changes"]) or m["conflict"] is not None

    def listed(m):
        return m["in"] or (m["kept"] and work(m))

    def shown(m):
        return m["changes"][-1]["state"] if m["changes"] else "Todo"

    core = open_core(database, p)
    try:
        for step in range(200):
            where = f"seed {seed} step {step}"
            i = rng.randrange(5)
            roll = rng.random()
            if roll < 0.15:
                present = [j for j in range(5) if rng.random() < 0.6]
                core.import_visits(snapshot(*present))
                for j, m in model.items():
                    if m["in"] and work(m):
                        m["kept"] = True
                    while m["changes"] and m["changes"][0]["status"] == "applied":
                        m["changes"].pop(0)
                    m["in"] = j in present
                    if m["in"] or not work(m):
                        m["kept"] = False
            elif roll < 0.5:
                target = rng.choice(["InProgress", "Done", "Rejected", "Todo"])
                m = model[i]
                try:
                    core.set_visit_state(key(i), target)
                    outcome = "ok"
                except carfit.NotFoundError:
                    outcome = "not_found"
                except carfit.ConflictError:
                    outcome = "conflict"
                if not listed(m):
                    assert outcome == "not_found", where
                elif (shown(m), target) in allowed:
                    assert outcome == "ok", where
                    m["changes"].append({"state": target, "status": "pending", "id": None})
                else:
                    assert outcome == "conflict", where
            elif roll < 0.75:
                p.lose = 1 if rng.random() < 0.25 else 0
                try:
                    answer = core.push()
                except carfit.UnavailableError:
                    answer = None  # the planner decided, the answer was lost: everything stays pending
                p.lose = 0
                if answer is not None:
                    rejected_now = [r["mutationId"] for r in core.sync_status()["rejected"] if r["mutationId"] not in verdicts]
                    verdicts.update((r, "rejected") for r in rejected_now)
                    assert answer["rejected"] == len(rejected_now), where
                    _apply_answer(model, p, set(rejected_now), where)
            elif roll < 0.85:
                m = model[i]
                try:
                    core.acknowledge(key(i))
                    outcome = "ok"
                except carfit.NotFoundError:
                    outcome = "not_found"
                except carfit.ConflictError:
                    outcome = "conflict"
                if not listed(m):
                    assert outcome == "not_found", where
                elif m["conflict"] is None:
                    assert outcome == "conflict", where
                else:
                    assert outcome == "ok", where
                    m["conflict"] = None
            else:
                core.close()
                core = open_core(database, p)
            # The check: every listed card as the model says, nothing else listed.
            cards = day(core)["visits"]
            expected = [key(j) for j in range(5) if listed(model[j])]
            assert [c["key"] for c in cards] == expected, where
            for c in cards:
                m = model[int(c["visitId"][1:])]
                assert c["removed"] is (not m["in"]), where
                assert c["state"] == shown(m), where
                assert c["pending"] is any(ch["status"] == "pending" for ch in m["changes"]), where
                assert (c["conflict"] or {}).get("mutationId") == m["conflict"], where
            assert core.sync_status()["pending"] == sum(
                1 for m in model.values() for ch in m["changes"] if ch["status"] == "pending"), where
    finally:
        core.close()
        p.close()


def _apply_answer(model, planner, rejected_ids, where):
    """The model after an answer the core recorded: its changes learn their mutation ids from the
    planner's record of the requests (each visit's pending changes go oldest first), rejected
    ones leave and become their visit's conflict (the newest wins), applied ones are applied."""
    for mutation_id, seen in planner.seen.items():
        m = model[int(seen["visitId"][1:])]
        if mutation_id in planner.assigned:
            continue
        planner.assigned.add(mutation_id)
        change = next((ch for ch in m["changes"] if ch["id"] is None), None)
        if change is not None:
            assert change["state"] == seen["state"], where
            change["id"] = mutation_id
    for m in model.values():
        for ch in list(m["changes"]):
            if ch["id"] in rejected_ids:
                m["changes"].remove(ch)
                m["conflict"] = ch["id"]
            elif ch["status"] == "pending" and planner.decided.get(ch["id"]) == "applied":
                ch["status"] = "applied"
