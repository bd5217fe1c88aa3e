"""The reference update server: what `carfit_sync_push` sends the washer's visit changes and
positions to. The tests, the benchmarks and the web app's sample planner all use this one module.

Run it alone:

    python3 examples/servers/sync_server.py --port 0 [--visits examples/data/carfit.json] [--token T]

It prints the port it listens on as the first line of its output, serves until it has been idle
for `--idle-timeout` seconds (or gets SIGINT/SIGTERM), and uses the Python standard library only.
A test imports it and runs it in a thread instead:

    server = SyncServer(visits=document).start()
    ... server.url("/visit-updates") ...
    server.stop()

A host with an HTTP server of its own (examples/web) makes a `SyncServer` without starting it and
hands it each request's body: `server.push(body, authorization=header)` answers (status, body),
or raises `BadRequest` (a 400) or `Unauthorized` (a 401).

The protocol, as a real server would do it:

* With a ``token`` (``--token``), an update request without ``Authorization: Bearer <token>`` is
  answered 401 (``WWW-Authenticate: Bearer``) and changes nothing, as the planner's back end
  answers a washer who is not signed in.

* ``POST <any path>`` with ``{"clientId", "mutations": [{"mutationId", "visitId", "startTimeUtc",
  "state", "at", "timeUsedMinutes", "reason"}]}`` answers 200 ``{"applied": [mutationId...],
  "rejected": [{"mutationId", "reason"}]}``. Every mutation id is recorded; each is applied once.
  A resent id gets its first answer again (applied, or rejected with the same reason) and changes
  nothing. Mutations are taken in the order given, each against the visit states the ones before
  it left. A visit is named by ``visitId`` and ``startTimeUtc`` (compared as instants; a time
  without a zone is UTC); a pair the snapshot repeats is one visit on the server, and a change
  applies to every record of the pair. An unknown visit, a state the rules do not allow from the
  visit's present state (``TRANSITIONS``: the core's own rules, read from the state machine
  of include/carfit.schema.json), or a field of the wrong type is rejected with a reason. A body that is
  not such a document (not JSON, no ``mutations`` array, a mutation without a string
  ``mutationId``) is answered 400 and applies nothing.
* ``POST <any path>`` with ``{"clientId", "points": [{"id", "latitude", "longitude",
  "accuracyMeters", "at"}]}`` (the washer's positions) answers 200 ``{"applied": [id...]}``.
  Every point id is recorded and applied once; a resent id is named applied again and changes
  nothing. A point without a string ``id`` makes the request a 400. The faults ``fail``,
  ``drop``, ``delay`` and ``partial`` (``name``: how many points the answer names) apply to
  these requests too, and ``overlaps`` lists point ids that arrived while another request
  carrying them was still being handled.
* ``GET /visits`` answers the current snapshot: the visits document the server started from, with
  ``visitState`` and ``visitTimeUsed`` as the applied mutations left them.
* ``GET /_state`` answers what the server saw: ``applied`` (mutation id -> how many times it was
  applied: always 1 unless exactly-once broke), ``resent`` (mutation id -> how many times it came
  again after its first answer), ``rejected`` ([{"mutationId", "reason"}]), ``overlaps`` (mutation
  ids that arrived while another request carrying the same id was still being handled),
  ``clientIds``, ``points`` (point id -> how many times it was applied), ``pointsResent`` (point
  id -> how many times it came again), ``pointOrder`` (the points' ``at`` in the order first applied),
  ``requests`` ([{"method", "path", "bytes", "mutations", "status", "outcome"}],
  the last 10000) and ``faults`` (the faults still armed). ``server.mutations`` holds the applied
  mutations themselves in order, ``server.kept_points`` each point as first applied.
* ``POST /_control`` with a JSON object arms faults (each member optional; ``count`` is how many
  of the next update requests it affects):

  - ``{"refuse": {"ms": 2000}}``: stop listening for that long (connections are refused), then
    listen on the same port again;
  - ``{"fail": {"count": 2, "status": 503}}``: answer that status (400-599) without applying;
  - ``{"drop": {"count": 1}}``: apply the request, then close the connection without an answer;
  - ``{"delay": {"ms": 500, "count": 3}}``: wait before handling (``count`` omitted: every
    request until reset);
  - ``{"malformed": {"count": 1, "kind": "not_json" | "wrong_shape" | "truncated" | "empty",
    "apply": true}}``: answer 200 with a body that is not a valid answer, after applying the
    request unless ``apply`` is false;
  - ``{"partial": {"count": 1, "name": 2, "apply": "named" | "all"}}``: name only the first
    ``name`` mutations of the request in the answer; ``"named"`` (the default) handles only
    those, ``"all"`` applies the others too without saying so;
  - ``{"reject": {"ids": [...], "reason": "..."}}``: reject those mutation ids when they arrive
    (until reset);
  - ``{"extra": {"count": 1, "applied": [...], "rejected": [...]}}``: add ids that were not sent to
    the answer;
  - ``{"both": {"count": 1}}``: name every applied id in ``rejected`` too (a contradictory answer);
  - ``{"visits": document}``: replace the server's snapshot (the planner changed the day);
  - ``{"idleTimeoutMs": n}``: a new idle timeout;
  - ``{"reset": true}``: disarm every fault (applied first, so other members of the same object
    arm new ones).

  Every wait is bounded: delays and refusals are capped at 60 s, request bodies at 64 MiB, every
  socket read at 10 s, and the server stops by itself after its idle timeout.
"""

from __future__ import annotations

import argparse
import copy
import datetime as _dt
import http.server
import json
import selectors
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

#: The longest delay or refusal a control request may ask for, in milliseconds.
MAX_WAIT_MS = 60_000
#: The largest request body the server reads.
MAX_BODY_BYTES = 64 * 1024 * 1024
#: How long one socket read may wait, in seconds.
SOCKET_TIMEOUT_S = 10.0
#: How many requests `/_state` remembers.
MAX_REQUESTS_KEPT = 10_000
#: The library's contract, whose ``$defs/visitState`` is the visit state machine.
CONTRACT = Path(__file__).resolve().parents[2] / "include" / "carfit.schema.json"


def visit_state_machine(contract: Path = CONTRACT) -> tuple[tuple[str, ...], dict[str, frozenset[str]]]:
    """The states a mutation may ask for, and each state -> the states it may become: the
    contract's ``$defs/visitState`` (its ``enum`` and ``nextStates``), the rules the library's
    ``visits.set_state`` and the cards' ``nextStates`` follow. A change to the state a visit
    already has is refused too."""
    definition = json.loads(contract.read_text(encoding="utf-8"))["$defs"]["visitState"]
    states = tuple(definition["enum"])
    return states, {state: frozenset(definition["nextStates"].get(state, ())) for state in states}


STATES, TRANSITIONS = visit_state_machine()
#: The start of Unix time, for exact millisecond arithmetic.
EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
#: The fault kinds `/_control` arms.
FAULT_KINDS = ("refuse", "fail", "drop", "delay", "malformed", "partial", "reject", "extra", "both")


def canonical_state(text: Any) -> str | None:
    """The canonical name of a state in any spelling ("ToDo", "in progress"), or None."""
    if not isinstance(text, str):
        return None
    letters = "".join(c for c in text.lower() if "a" <= c <= "z")
    return {"todo": "Todo", "inprogress": "InProgress", "done": "Done", "rejected": "Rejected"}.get(letters)


def parse_instant(text: Any) -> int | None:
    """Milliseconds since the epoch of an ISO 8601 instant (no zone: UTC), or None."""
    if not isinstance(text, str) or not 10 <= len(text) <= 64:
        return None
    try:
        value = _dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=_dt.timezone.utc)
    return (value - EPOCH) // _dt.timedelta(milliseconds=1)


class ControlError(ValueError):
    """A control request the server does not understand."""


class BadRequest(ValueError):
    """An update request that is not a document of the protocol."""


class Unauthorized(PermissionError):
    """An update request without the token the server wants."""


class Faults:
    """The armed faults; every method is called with the server's lock held."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.refuse_until = 0.0
        self.fail: dict[str, int] | None = None
        self.drop = 0
        self.delay: dict[str, int | None] | None = None
        self.malformed: dict[str, Any] | None = None
        self.partial: dict[str, Any] | None = None
        self.reject: dict[str, str] = {}
        self.extra: dict[str, Any] | None = None
        self.both = 0

    def arm(self, control: dict[str, Any]) -> None:
        """Arms the faults a control document names; raises ControlError for a bad one."""
        if control.get("reset") is True:
            self.reset()
        for name in FAULT_KINDS:
            if name in control:
                spec = control[name]
                if not isinstance(spec, dict):
                    raise ControlError(f"{name} must be an object")
                getattr(self, "_arm_" + name)(spec)

    @staticmethod
    def _count(spec: dict[str, Any], default: int | None = 1) -> int | None:
        count = spec.get("count", default)
        if count is None:
            return None
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 1_000_000:
            raise ControlError("count must be an integer from 0 to 1000000")
        return count

    @staticmethod
    def _ms(spec: dict[str, Any]) -> int:
        ms = spec.get("ms")
        if not isinstance(ms, int) or isinstance(ms, bool) or not 0 <= ms <= MAX_WAIT_MS:
            raise ControlError(f"ms must be an integer from 0 to {MAX_WAIT_MS}")
        return ms

    def _arm_refuse(self, spec: dict[str, Any]) -> None:
        self.refuse_until = time.monotonic() + self._ms(spec) / 1000

    def _arm_fail(self, spec: dict[str, Any]) -> None:
        status = spec.get("status", 503)
        if not isinstance(status, int) or isinstance(status, bool) or not 400 <= status <= 599:
            raise ControlError("status must be an integer from 400 to 599")
        self.fail = {"count": self._count(spec) or 0, "status": status}

    def _arm_drop(self, spec: dict[str, Any]) -> None:
        self.drop = self._count(spec) or 0

    def _arm_delay(self, spec: dict[str, Any]) -> None:
        self.delay = {"ms": self._ms(spec), "count": self._count(spec, None)}

    def _arm_malformed(self, spec: dict[str, Any]) -> None:
        kind = spec.get("kind", "not_json")
        if kind not in ("not_json", "wrong_shape", "truncated", "empty"):
            raise ControlError("kind must be not_json, wrong_shape, truncated or empty")
        apply = spec.get("apply", True)
        if not isinstance(apply, bool):
            raise ControlError("apply must be true or false")
        self.malformed = {"count": self._count(spec) or 0, "kind": kind, "apply": apply}

    def _arm_partial(self, spec: dict[str, Any]) -> None:
        name = spec.get("name", 1)
        if not isinstance(name, int) or isinstance(name, bool) or name < 0:
            raise ControlError("name must be a non-negative integer")
        apply = spec.get("apply", "named")
        if apply not in ("named", "all"):
            raise ControlError("apply must be named or all")
        self.partial = {"count": self._count(spec) or 0, "name": name, "apply": apply}

    def _arm_reject(self, spec: dict[str, Any]) -> None:
        ids = spec.get("ids")
        reason = spec.get("reason", "Rejected by the server.")
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids) or not isinstance(reason, str):
            raise ControlError("reject needs ids (strings) and an optional reason (a string)")
        for i in ids:
            self.reject[i] = reason

    def _arm_extra(self, spec: dict[str, Any]) -> None:
        applied = spec.get("applied", [])
        rejected = spec.get("rejected", [])
        if not isinstance(applied, list) or not isinstance(rejected, list) or \
                not all(isinstance(i, str) for i in applied + rejected):
            raise ControlError("extra needs applied and rejected as lists of strings")
        self.extra = {"count": self._count(spec) or 0, "applied": applied, "rejected": rejected}

    def _arm_both(self, spec: dict[str, Any]) -> None:
        self.both = self._count(spec) or 0

    def take(self, name: str) -> Any:
        """The armed fault `name` for one request (its count goes down), or None."""
        if name == "drop" or name == "both":
            if getattr(self, name) > 0:
                setattr(self, name, getattr(self, name) - 1)
                return True
            return None
        fault = getattr(self, name)
        if fault is None:
            return None
        if fault.get("count") is not None:
            if fault["count"] <= 0:
                setattr(self, name, None)
                return None
            fault["count"] -= 1
        return dict(fault)

    def describe(self) -> dict[str, Any]:
        refusing = max(0.0, self.refuse_until - time.monotonic())
        return {
            "refuseMs": int(refusing * 1000),
            "fail": self.fail if self.fail and self.fail["count"] else None,
            "drop": self.drop,
            "delay": self.delay,
            "malformed": self.malformed if self.malformed and self.malformed["count"] else None,
            "partial": self.partial if self.partial and self.partial["count"] else None,
            "reject": dict(self.reject),
            "extra": self.extra if self.extra and self.extra["count"] else None,
            "both": self.both,
        }


class SyncServer:
    """The reference server: visit states, recorded mutation ids, and armed faults, behind one
    lock; a listening loop on its own thread and one thread per connection."""

    def __init__(self, visits: dict[str, Any] | None = None, port: int = 0, host: str = "127.0.0.1",
                 idle_timeout: float = 300.0, token: str | None = None) -> None:
        self.host = host
        #: The planner's token update requests must carry (None: any request is taken).
        self.token = token
        self.port = port
        self.idle_timeout = idle_timeout
        self.lock = threading.Lock()
        self.faults = Faults()
        self.document: dict[str, Any] = {"success": True, "message": None, "data": [], "code": 200}
        #: The snapshot's records by (visitId, start in ms), built when first needed.
        self._pairs: dict[tuple[str, int], list[dict[str, Any]]] | None = None
        if visits is not None:
            self.set_visits(visits)
        self.applied: dict[str, int] = {}
        #: The applied mutations, in the order applied.
        self.mutations: list[dict[str, Any]] = []
        self.answers: dict[str, dict[str, Any]] = {}
        self.resent: dict[str, int] = {}
        self.rejected: list[dict[str, str]] = []
        self.overlaps: list[str] = []
        self.in_flight: dict[str, int] = {}
        self.client_ids: list[str] = []
        self.points: dict[str, int] = {}
        #: Each point as first applied, by id, in the order applied.
        self.kept_points: dict[str, dict[str, Any]] = {}
        self.points_resent: dict[str, int] = {}
        self.point_order: list[Any] = []
        self.requests: list[dict[str, Any]] = []
        self.last_activity = time.monotonic()
        self._listener: socket.socket | None = None
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    # -- life cycle -------------------------------------------------------------------------------

    def start(self) -> "SyncServer":
        """Binds (port 0: any free port, kept across refusals) and serves on a daemon thread."""
        self._listen()
        self._thread = threading.Thread(target=self._serve, name="sync-server", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stops serving and waits (at most `timeout` seconds) for the loop to end."""
        self._stopped.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def wait(self, timeout: float | None = None) -> bool:
        """Waits until the server has stopped (idle timeout or `stop`); True when it has."""
        return self._stopped.wait(timeout)

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set() and (self._thread is None or not self._thread.is_alive())

    def url(self, path: str = "/visit-updates") -> str:
        return f"http://{self.host}:{self.port}{path}"

    def __enter__(self) -> "SyncServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _listen(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        sock.listen(128)
        sock.setblocking(False)
        self.port = sock.getsockname()[1]
        self._listener = sock

    def _close_listener(self) -> None:
        if self._listener is not None:
            self._listener.close()
            self._listener = None

    def _serve(self) -> None:
        try:
            while not self._stopped.is_set():
                with self.lock:
                    refusing = self.faults.refuse_until > time.monotonic()
                    idle = time.monotonic() - self.last_activity > self.idle_timeout
                if idle:
                    break
                if refusing:
                    self._close_listener()
                    self._stopped.wait(0.02)
                    continue
                if self._listener is None:
                    try:
                        self._listen()
                    except OSError:
                        self._stopped.wait(0.05)
                        continue
                with selectors.DefaultSelector() as selector:
                    selector.register(self._listener, selectors.EVENT_READ)
                    ready = selector.select(0.05)
                if not ready:
                    continue
                try:
                    conn, address = self._listener.accept()
                except (BlockingIOError, OSError):
                    continue
                conn.setblocking(True)
                conn.settimeout(SOCKET_TIMEOUT_S)
                threading.Thread(target=self._handle, args=(conn, address), daemon=True).start()
        finally:
            self._close_listener()
            self._stopped.set()

    def _handle(self, conn: socket.socket, address: Any) -> None:
        try:
            _Handler(conn, address, self)
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass

    # -- state -----------------------------------------------------------------------------------

    def set_visits(self, document: dict[str, Any]) -> None:
        """Replaces the snapshot (a visits API document: an object with a `data` array)."""
        if not isinstance(document, dict) or not isinstance(document.get("data"), list):
            raise ControlError("visits must be a document with a data array")
        self.document = copy.deepcopy(document)
        self._pairs = None

    def control(self, control: Any) -> None:
        """Applies a `/_control` document."""
        if not isinstance(control, dict):
            raise ControlError("the control request must be a JSON object")
        known = set(FAULT_KINDS) | {"reset", "visits", "idleTimeoutMs"}
        unknown = sorted(set(control) - known)
        if unknown:
            raise ControlError(f"unknown control member {unknown[0]}")
        with self.lock:
            if "visits" in control:
                self.set_visits(control["visits"])
            if "idleTimeoutMs" in control:
                ms = control["idleTimeoutMs"]
                if not isinstance(ms, int) or isinstance(ms, bool) or ms < 0:
                    raise ControlError("idleTimeoutMs must be a non-negative integer")
                self.idle_timeout = ms / 1000
            self.faults.arm(control)
        if "refuse" in control:
            # Answer only once the listener is closed, so the caller's next connection is refused
            # (the serving loop notices the fault within one turn of its 50 ms wait).
            deadline = time.monotonic() + 2.0
            while self._listener is not None and time.monotonic() < deadline:
                with self.lock:
                    if self.faults.refuse_until <= time.monotonic():
                        break
                time.sleep(0.005)

    def state(self) -> dict[str, Any]:
        """What `/_state` answers."""
        with self.lock:
            return {
                "applied": dict(self.applied),
                "resent": dict(self.resent),
                "rejected": list(self.rejected),
                "overlaps": list(self.overlaps),
                "clientIds": list(self.client_ids),
                "points": dict(self.points),
                "pointsResent": dict(self.points_resent),
                "pointOrder": list(self.point_order),
                "requests": list(self.requests),
                "faults": self.faults.describe(),
            }

    def snapshot(self) -> dict[str, Any]:
        """The current visits document."""
        with self.lock:
            return copy.deepcopy(self.document)

    def _records_of(self, visit_id: str, start_ms: int) -> list[dict[str, Any]]:
        """The records of a visit, in snapshot order (lock held). Mutations change only states
        and times used, never a record's pair, so the index lives until the snapshot is replaced."""
        if self._pairs is None:
            pairs: dict[tuple[str, int], list[dict[str, Any]]] = {}
            for r in self.document["data"]:
                if isinstance(r, dict) and isinstance(r.get("visitId"), str):
                    start = parse_instant(r.get("startTimeUtc"))
                    if start is not None:
                        pairs.setdefault((r["visitId"], start), []).append(r)
            self._pairs = pairs
        return self._pairs.get((visit_id, start_ms), [])

    def _judge(self, m: dict[str, Any]) -> str | None:
        """Why the server refuses a new mutation, or None when it applies it (lock held)."""
        visit_id = m.get("visitId")
        if not isinstance(visit_id, str):
            return "visitId must be a string."
        start = parse_instant(m.get("startTimeUtc"))
        if start is None:
            return "startTimeUtc must be an ISO 8601 instant."
        state = m.get("state")
        if state not in STATES:
            return f"state must be one of {', '.join(STATES)}."
        if parse_instant(m.get("at")) is None:
            return "at must be an ISO 8601 instant."
        used = m.get("timeUsedMinutes")
        if used is not None and (not isinstance(used, int) or isinstance(used, bool) or used < 0):
            return "timeUsedMinutes must be null or a non-negative integer."
        if m.get("reason") is not None and not isinstance(m.get("reason"), str):
            return "reason must be null or a string."
        records = self._records_of(visit_id, start)
        if not records:
            return f"Unknown visit {visit_id} at {m.get('startTimeUtc')}."
        current = canonical_state(records[0].get("visitState"))
        if current is None or state not in TRANSITIONS[current]:
            return f"A visit in state {current or records[0].get('visitState')} cannot become {state}."
        for record in records:
            record["visitState"] = state
            if state == "Done" and used is not None:
                record["visitTimeUsed"] = used
        return None

    def _apply(self, mutations: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, str]]]:
        """Applies the mutations in order (lock held); the ids applied and rejected."""
        applied: list[str] = []
        rejected: list[dict[str, str]] = []
        answered: set[str] = set()
        for m in mutations:
            mid = m["mutationId"]
            if mid in answered:
                continue
            answered.add(mid)
            earlier = self.answers.get(mid)
            if earlier is not None:
                self.resent[mid] = self.resent.get(mid, 0) + 1
            else:
                reason = self.faults.reject.get(mid)
                if reason is None:
                    reason = self._judge(m)
                if reason is None:
                    self.applied[mid] = self.applied.get(mid, 0) + 1
                    self.mutations.append(m)
                    earlier = {"applied": True}
                else:
                    self.rejected.append({"mutationId": mid, "reason": reason})
                    earlier = {"applied": False, "reason": reason}
                self.answers[mid] = earlier
            if earlier["applied"]:
                applied.append(mid)
            else:
                rejected.append({"mutationId": mid, "reason": earlier["reason"]})
        return applied, rejected

    def push(self, body: bytes, record: dict[str, Any] | None = None,
             authorization: str | None = None) -> tuple[int, bytes | None]:
        """Handles one update request (mutations or points) whose Authorization header is
        `authorization`; the status and the body to answer (None: drop the connection without an
        answer). Raises Unauthorized without the server's token, BadRequest for a body outside
        the protocol."""
        if self.token is not None and authorization != f"Bearer {self.token}":
            raise Unauthorized("Sign in to the planner: the token is missing or wrong.")
        if record is None:
            record = {}
        try:
            document = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise BadRequest("The body is not JSON.") from None
        if not isinstance(document, dict):
            raise BadRequest("The body must be a JSON object.")
        client_id = document.get("clientId")
        if "points" in document and "mutations" not in document:
            return self.push_points(client_id, document.get("points"), record)
        mutations = document.get("mutations")
        if not isinstance(client_id, str) or not isinstance(mutations, list):
            raise BadRequest("The body needs clientId (a string) and mutations (an array).")
        for i, m in enumerate(mutations):
            if not isinstance(m, dict) or not isinstance(m.get("mutationId"), str) or not m["mutationId"]:
                raise BadRequest(f"mutations[{i}] needs a mutationId (a non-empty string).")
        record["mutations"] = len(mutations)
        with self.lock:
            if client_id not in self.client_ids:
                self.client_ids.append(client_id)
        return self._in_flight({m["mutationId"] for m in mutations}, lambda: self._answer(mutations, record))

    def push_points(self, client_id: Any, points: Any, record: dict[str, Any]) -> tuple[int, bytes | None]:
        """Handles one request of positions: each point id applied once."""
        if not isinstance(client_id, str) or not isinstance(points, list):
            raise BadRequest("The body needs clientId (a string) and points (an array).")
        for i, p in enumerate(points):
            if not isinstance(p, dict) or not isinstance(p.get("id"), str) or not p["id"]:
                raise BadRequest(f"points[{i}] needs an id (a non-empty string).")
        record["points"] = len(points)
        return self._in_flight({p["id"] for p in points}, lambda: self._answer_points(client_id, points, record))

    def _in_flight(self, ids: set[str], handle: Callable[[], tuple[int, bytes | None]]) -> tuple[int, bytes | None]:
        """Runs `handle` (after an armed delay) with `ids` counted in flight: an id that arrives
        while another request carrying it is still being handled is an overlap."""
        with self.lock:
            for i in ids:
                if self.in_flight.get(i, 0) > 0:
                    self.overlaps.append(i)
                self.in_flight[i] = self.in_flight.get(i, 0) + 1
            delay = self.faults.take("delay")
        try:
            if delay:
                self._stopped.wait(delay["ms"] / 1000)
            return handle()
        finally:
            with self.lock:
                for i in ids:
                    self.in_flight[i] -= 1

    def _answer_points(self, client_id: str, points: list[dict[str, Any]],
                       record: dict[str, Any]) -> tuple[int, bytes | None]:
        with self.lock:
            if client_id not in self.client_ids:
                self.client_ids.append(client_id)
            fail = self.faults.take("fail")
            if fail:
                record["outcome"] = "fail"
                return fail["status"], json.dumps({"error": "Injected failure."}).encode()
            partial = self.faults.take("partial")
            handled = points[:partial["name"]] if partial and partial["apply"] == "named" else points
            applied: list[str] = []
            for p in handled:
                pid = p["id"]
                if pid in self.points:
                    self.points_resent[pid] = self.points_resent.get(pid, 0) + 1
                else:
                    self.points[pid] = 1
                    self.kept_points[pid] = p
                    self.point_order.append(p.get("at"))
                if pid not in applied:
                    applied.append(pid)
            if self.faults.take("drop"):
                record["outcome"] = "drop"
                return 200, None
            if partial:
                named = {p["id"] for p in points[:partial["name"]]}
                applied = [i for i in applied if i in named]
                record["outcome"] = "partial"
        record.setdefault("outcome", "ok")
        return 200, json.dumps({"applied": applied}).encode()

    def _answer(self, mutations: list[dict[str, Any]], record: dict[str, Any]) -> tuple[int, bytes | None]:
        with self.lock:
            fail = self.faults.take("fail")
            if fail:
                record["outcome"] = "fail"
                return fail["status"], json.dumps({"error": "Injected failure."}).encode()
            malformed = self.faults.take("malformed")
            partial = self.faults.take("partial") if not malformed else None
            handled = mutations
            if partial and partial["apply"] == "named":
                handled = mutations[:partial["name"]]
            if not malformed or malformed["apply"]:
                applied, rejected = self._apply(handled)
            else:
                applied, rejected = [], []
            if self.faults.take("drop"):
                record["outcome"] = "drop"
                return 200, None
            if malformed:
                record["outcome"] = "malformed:" + malformed["kind"]
                return 200, {
                    "not_json": b"<html>Service temporarily confused</html>",
                    "wrong_shape": json.dumps({"applied": {"ids": applied}, "rejected": "none"}).encode(),
                    "truncated": json.dumps({"applied": applied, "rejected": rejected}).encode()[:-2],
                    "empty": b"",
                }[malformed["kind"]]
            if partial:
                named = {m["mutationId"] for m in mutations[:partial["name"]]}
                applied = [i for i in applied if i in named]
                rejected = [r for r in rejected if r["mutationId"] in named]
                record["outcome"] = "partial"
            if self.faults.take("both"):
                rejected = rejected + [{"mutationId": i, "reason": "Contradictory answer."} for i in applied]
                record["outcome"] = "both"
            extra = self.faults.take("extra")
            if extra:
                applied = applied + extra["applied"]
                rejected = rejected + [{"mutationId": i, "reason": "Not sent."} for i in extra["rejected"]]
                record["outcome"] = "extra"
        record.setdefault("outcome", "ok")
        return 200, json.dumps({"applied": applied, "rejected": rejected}).encode()

    def note(self, record: dict[str, Any]) -> None:
        """Remembers one request for `/_state` and marks the server as busy."""
        with self.lock:
            self.last_activity = time.monotonic()
            self.requests.append(record)
            if len(self.requests) > MAX_REQUESTS_KEPT:
                del self.requests[: len(self.requests) - MAX_REQUESTS_KEPT]

    def touch(self) -> None:
        with self.lock:
            self.last_activity = time.monotonic()


class _Handler(http.server.BaseHTTPRequestHandler):
    """One connection: the routes of the protocol and the control endpoints."""

    server: SyncServer  # type: ignore[assignment]
    protocol_version = "HTTP/1.0"
    timeout = SOCKET_TIMEOUT_S

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            return self._read_chunked()
        length_text = self.headers.get("Content-Length", "0")
        try:
            length = int(length_text)
        except ValueError:
            raise BadRequest("Content-Length is not a number.") from None
        if not 0 <= length <= MAX_BODY_BYTES:
            raise BadRequest("The body is too large.")
        body = self.rfile.read(length)
        if len(body) != length:
            raise BadRequest("The body ended early.")
        return body

    def _read_chunked(self) -> bytes:
        parts: list[bytes] = []
        total = 0
        while True:
            line = self.rfile.readline(1024)
            try:
                size = int(line.split(b";")[0].strip(), 16)
            except ValueError:
                raise BadRequest("A chunk size is not hexadecimal.") from None
            if size == 0:
                while self.rfile.readline(1024).strip():
                    pass
                return b"".join(parts)
            total += size
            if total > MAX_BODY_BYTES:
                raise BadRequest("The body is too large.")
            chunk = self.rfile.read(size)
            if len(chunk) != size:
                raise BadRequest("The body ended early.")
            parts.append(chunk)
            self.rfile.readline(16)

    def _send(self, status: int, body: bytes, content_type: str = "application/json",
              extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def _send_json(self, status: int, value: Any) -> None:
        self._send(status, json.dumps(value).encode())

    def do_GET(self) -> None:  # noqa: N802
        self.server.touch()
        path = self.path.split("?", 1)[0]
        if path == "/_state":
            self._send_json(200, self.server.state())
        elif path == "/visits":
            self._send_json(200, self.server.snapshot())
            self.server.note({"method": "GET", "path": path, "bytes": 0, "mutations": 0,
                              "status": 200, "outcome": "visits"})
        else:
            self._send_json(404, {"error": "Not found."})

    def do_POST(self) -> None:  # noqa: N802
        self.server.touch()
        path = self.path.split("?", 1)[0]
        if path == "/_control":
            try:
                self.server.control(json.loads(self._read_body().decode("utf-8")))
            except (BadRequest, ControlError, UnicodeDecodeError, ValueError) as exc:
                self._send_json(400, {"error": str(exc)})
                return
            self._send_json(200, {"faults": self.server.state()["faults"]})
            return
        record: dict[str, Any] = {"method": "POST", "path": path, "bytes": 0, "mutations": 0}
        try:
            body = self._read_body()
            record["bytes"] = len(body)
            status, answer = self.server.push(body, record, self.headers.get("Authorization"))
        except BadRequest as exc:
            record.update(status=400, outcome="bad_request")
            self.server.note(record)
            self._send_json(400, {"error": str(exc)})
            return
        except Unauthorized as exc:
            record.update(status=401, outcome="unauthorized")
            self.server.note(record)
            self._send(401, json.dumps({"error": {"code": "unauthorized", "message": str(exc)}}).encode(),
                       extra={"WWW-Authenticate": "Bearer"})
            return
        record["status"] = status if answer is not None else None
        self.server.note(record)
        if answer is None:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        self._send(status, answer)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The reference server for the washer's updates.")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free port)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--visits", type=Path, help="the visits API document to start from")
    parser.add_argument("--idle-timeout", type=float, default=300.0,
                        help="seconds without a request after which the server stops")
    parser.add_argument("--token", help="the planner's token update requests must carry (default: none)")
    args = parser.parse_args(argv)
    visits = json.loads(args.visits.read_text(encoding="utf-8")) if args.visits else None
    server = SyncServer(visits=visits, port=args.port, host=args.host, idle_timeout=args.idle_timeout,
                        token=args.token)
    server.start()
    print(server.port, flush=True)

    def stop(*_: object) -> None:
        server._stopped.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not server.wait(0.5):
        pass
    server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
