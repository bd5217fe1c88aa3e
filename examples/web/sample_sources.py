"""The sample sources the web app serves for the demo, under /sample/, so that every refresh and
the sync work without a network. The core's config names them as its sources (`source_urls`).

    GET  /sample/carfit.json        the visits snapshot, as the washer's changes left it
    GET  /sample/<file>             the other bundled sample documents (examples/data)
    POST /sample/visit-updates      the planner's update server (examples/servers/sync_server.py,
                                    the same module the tests use): the washer's changes, 401
                                    without the planner's token; GET shows what it applied
    POST /sample/locations          the planner's positions (the same server), 401 without the
                                    token; GET lists the points kept
    PUT  /sample/attachments/<id>   the upload server (examples/servers/attachment_server.py's
                                    Uploads: checks each body's X-Carfit-Sha256)
    GET  /sample/drive.json         a recorded drive through the sample day ("simulate the drive")
    POST /sample/refuse-next        the planner refuses every change of the next update request
                                    (with the reason REFUSAL_REASON), to show a rejected change:
                                    answers {"refuseNext": true}; GET reads whether it is armed
    POST /sample/push               the planner moves the sample day's first visit an hour later
                                    and answers the push it sends about it: {"payload":
                                    {"carfit": "<the push as FCM's string>"}} ("simulate a push")
    GET  /sample/patterns/random    one new pattern a call (its image at /sample/patterns/<n>.png)
    GET|POST /sample/network        {"offline": bool}: read or set whether the sample sources
                                    are reachable; offline, every other request is reset
                                    unanswered, as a lost connection does (the core counts that
                                    as no connection; an HTTP error status it does not)

Python's standard library only; the core is not imported here.
"""

from __future__ import annotations

import colorsys
import datetime as dt
import hashlib
import json
import struct
import sys
import threading
import zlib
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

HERE = Path(__file__).resolve().parent
SAMPLE_DATA = HERE.parent / "data"
SERVERS = HERE.parent / "servers"

if str(SERVERS) not in sys.path:
    sys.path.insert(0, str(SERVERS))

from attachment_server import Uploads  # noqa: E402
from sync_server import BadRequest, SyncServer, Unauthorized  # noqa: E402

#: The sample documents: the file name, the method that imports it.
SAMPLES = (
    ("carfit.json", "visits.import"),
    ("articles.json", "articles.import"),
    ("transactions.json", "transactions.import"),
    ("catalog.json", "catalog.import"),
    ("patterns.json", "patterns.import"),
)

#: The token the sample update server wants when none is named.
SAMPLE_PLANNER_TOKEN = "carfit-sample-token"

#: The reason the sample planner gives for the changes it refuses after /sample/refuse-next.
REFUSAL_REASON = "The planner refused this change (sample)."

#: The largest request body the sample planner reads.
MAX_BODY_BYTES = 1 << 20
#: The largest attachment upload it takes.
MAX_UPLOAD_BYTES = 20 << 20

#: The side of a generated pattern image, in pixels.
PATTERN_SIZE = 48
#: The most patterns /sample/patterns/random hands out (their numbers stay small).
MAX_PATTERNS = 100_000


def source_urls(base_url: str) -> Dict[str, str]:
    """The core's `sources` config: every source at this server's sample sources."""
    return {
        "visits": f"{base_url}/sample/carfit.json",
        "articles": f"{base_url}/sample/articles.json",
        "catalog": f"{base_url}/sample/catalog.json",
        "patterns": f"{base_url}/sample/patterns/random",
        "visitUpdates": f"{base_url}/sample/visit-updates",
        "locations": f"{base_url}/sample/locations",
        "attachments": f"{base_url}/sample/attachments",
    }


def fill_with_samples(core: Any, skip_visits: bool = False) -> None:
    """Import every bundled sample document into core (but the visits with skip_visits)."""
    for name, method in SAMPLES:
        if not (skip_visits and method == "visits.import"):
            core.call(method, (SAMPLE_DATA / name).read_bytes())


def pattern_colors(number: int) -> Tuple[str, str]:
    """The two colours of generated pattern number, as six hex digits each."""
    hue = (number * 0.618033988749895) % 1.0

    def hex_color(saturation: float, value: float) -> str:
        return "".join(f"{round(c * 255):02X}" for c in colorsys.hsv_to_rgb(hue, saturation, value))

    return hex_color(0.55, 0.9), hex_color(0.6, 0.55)


def pattern_png(number: int) -> bytes:
    """A small striped PNG in pattern number's colours (made here: the sample needs no network)."""
    light, dark = (bytes.fromhex(color) for color in pattern_colors(number))
    width = 4 + number % 5
    rows = []
    for y in range(PATTERN_SIZE):
        row = bytearray(b"\x00")  # filter type 0 for the row
        for x in range(PATTERN_SIZE):
            row += light if ((x + y) // width) % 2 == 0 else dark
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", PATTERN_SIZE, PATTERN_SIZE, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows)))
            + chunk(b"IEND", b""))


def pattern_number(name: str) -> Optional[int]:
    """The number of a generated pattern image "patterns/<n>.png", or None."""
    prefix, suffix = "patterns/", ".png"
    if not (name.startswith(prefix) and name.endswith(suffix)):
        return None
    digits = name[len(prefix):-len(suffix)]
    if not digits.isascii() or not digits.isdigit() or len(digits) > 6 or digits.startswith("0"):
        return None
    number = int(digits)
    return number if 1 <= number <= MAX_PATTERNS else None


class SampleSources:
    """The app's own stand-ins for the servers the core's sources name.

    The planner (`planner`) is the reference update server, not started: this app's HTTP server
    hands it each request. It wants the planner's token, applies each mutation once by the
    core's transition rules and each point once, and keeps the visits snapshot its changes left.
    The uploads are the reference upload server's store. Their routes take the request being
    answered (web_server.Handler: answer, answer_json, refuse, read_body, drop_connection).
    """

    def __init__(self, base_url: str, offline: bool = False, token: str = SAMPLE_PLANNER_TOKEN) -> None:
        self.base_url = base_url
        self.lock = threading.Lock()
        self.offline = offline
        visits = json.loads((SAMPLE_DATA / "carfit.json").read_bytes())
        self.planner = SyncServer(visits=visits, token=token)
        self.uploads = Uploads()
        self.patterns_served = 0
        self.pushes_sent = 0
        self.refuse_next = False

    # -- routes ---------------------------------------------------------------------------

    def get(self, request: Any, name: str) -> None:
        if name == "network":
            request.answer_json(200, {"offline": self.offline})
        elif self.offline:
            request.drop_connection()
        elif name == "visit-updates":
            request.answer_json(200, self.state())
        elif name == "refuse-next":
            request.answer_json(200, {"refuseNext": self.refuse_next})
        elif name == "locations":
            with self.planner.lock:
                request.answer_json(200, {"points": list(self.planner.kept_points.values())})
        elif name == "carfit.json":
            request.answer(200, "application/json", _json_bytes(self.planner.snapshot()))
        elif name == "patterns/random":
            pattern = self.next_pattern()
            if pattern is None:
                request.refuse(404, "not_found", "Every sample pattern has been handed out.")
            else:
                request.answer(200, "application/json", pattern)
        elif (number := pattern_number(name)) is not None:
            request.answer(200, "image/png", pattern_png(number), "max-age=3600")
        elif name == "drive.json" or name in {file for file, _ in SAMPLES}:
            request.answer(200, "application/json", (SAMPLE_DATA / name).read_bytes())
        else:
            request.refuse(404, "not_found", "There is no such sample document.")

    def post(self, request: Any, name: str) -> None:
        if name == "network":
            self.switch(request)
        elif self.offline:
            request.drop_connection()
        elif name == "push":
            request.answer_json(200, self.planner_push())
        elif name == "refuse-next":
            with self.lock:
                self.refuse_next = True
            request.answer_json(200, {"refuseNext": True})
        elif name not in ("visit-updates", "locations"):
            request.refuse(405, "misuse", "Only /sample/visit-updates, /sample/locations, /sample/push, "
                                          "/sample/refuse-next and /sample/network take POST.")
        elif (body := request.read_body(MAX_BODY_BYTES)) is not None:
            self.push(request, body)

    def put(self, request: Any, name: str) -> None:
        prefix = "attachments/"
        identifier = name[len(prefix):]
        if not name.startswith(prefix) or not identifier or "/" in identifier:
            request.refuse(405, "misuse", "Only /sample/attachments/<id> takes PUT.")
        elif self.offline:
            request.drop_connection()
        elif (body := request.read_body(MAX_UPLOAD_BYTES)) is not None:
            status, answer = self.uploads.receive(identifier, len(body), hashlib.sha256(body).hexdigest(),
                                                  request.headers, body)
            request.answer(status, "application/json; charset=utf-8", answer)

    # -- what they do ---------------------------------------------------------------------

    def push(self, request: Any, body: bytes) -> None:
        """One request of the push (mutations or points) through the planner."""
        self.arm_refusal(body)
        try:
            status, answer = self.planner.push(body, authorization=request.headers.get("Authorization"))
        except Unauthorized as exc:
            request.answer_json(401, _error("unauthorized", str(exc)), {"WWW-Authenticate": "Bearer"})
            return
        except BadRequest as exc:
            request.answer_json(400, _error("invalid", str(exc)))
            return
        if answer is None:  # the reference server's "drop" fault; never armed here
            request.drop_connection()
        else:
            request.answer(status, "application/json; charset=utf-8", answer)

    def arm_refusal(self, body: bytes) -> None:
        """After /sample/refuse-next, the first request with changes has every new change in it
        refused (the reference server's "reject" fault, armed with their ids)."""
        try:
            document = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return
        mutations = document.get("mutations") if isinstance(document, dict) else None
        if not isinstance(mutations, list):
            return
        ids = [m["mutationId"] for m in mutations if isinstance(m, dict) and isinstance(m.get("mutationId"), str)]
        with self.lock:
            if not self.refuse_next or not ids:
                return
            self.refuse_next = False
        self.planner.control({"reject": {"ids": ids, "reason": REFUSAL_REASON}})

    def planner_push(self) -> Dict[str, Any]:
        """The planner changes its day (the first visit of 2020-09-10 with a visitId starts an
        hour later) and sends the push that says so: kind "visits", numbered in order."""
        with self.planner.lock:
            for visit in self.planner.document["data"]:
                start = visit.get("startTimeUtc") if isinstance(visit, dict) else None
                if visit.get("visitId") and isinstance(start, str) and start.startswith("2020-09-10"):
                    instant = dt.datetime.fromisoformat(start.replace("Z", "+00:00"))
                    if instant.tzinfo is None:
                        instant = instant.replace(tzinfo=dt.timezone.utc)
                    later = (instant + dt.timedelta(hours=1)).astimezone(dt.timezone.utc)
                    visit["startTimeUtc"] = later.strftime("%Y-%m-%dT%H:%M:%SZ")
                    break
        with self.lock:
            self.pushes_sent += 1
            number = self.pushes_sent
        push = {"v": 1, "id": f"sample-push-{number}", "kind": "visits", "seq": number}
        return {"payload": {"carfit": json.dumps(push)}}

    def switch(self, request: Any) -> None:
        """POST /sample/network {"offline": bool}: take the sources offline or back."""
        body = request.read_body(MAX_BODY_BYTES)
        if body is None:
            return
        try:
            document = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            request.refuse(400, "bad_json", "The request is not JSON.")
            return
        offline = document.get("offline") if isinstance(document, dict) else None
        if not isinstance(offline, bool):
            request.refuse(400, "invalid", "Send {\"offline\": true} or {\"offline\": false}.", "offline")
            return
        with self.lock:
            self.offline = offline
        request.answer_json(200, {"offline": offline})

    def state(self) -> Dict[str, Any]:
        """What the planner has seen: the mutations applied in order, how many came again, and
        the uploads received whole."""
        with self.planner.lock:
            applied = list(self.planner.mutations)
            resent = sum(self.planner.resent.values())
        with self.uploads.lock:
            uploads = {ident: {"bytes": stored["bytes"], "sha256": stored["sha256"],
                               "kind": stored["headers"].get("x-carfit-kind"), "puts": self.uploads.puts[ident]}
                       for ident, stored in self.uploads.stored.items()}
        return {"offline": self.offline, "applied": applied, "resent": resent, "uploads": uploads}

    def next_pattern(self) -> Optional[bytes]:
        """The next pattern, as colourlovers' patterns/random answers; None once MAX_PATTERNS
        are out."""
        with self.lock:
            if self.patterns_served >= MAX_PATTERNS:
                return None
            self.patterns_served += 1
            number = self.patterns_served
        return _json_bytes([{
            "id": number,
            "title": f"Sample pattern {number}",
            "colors": list(pattern_colors(number)),
            "imageUrl": f"{self.base_url}/sample/patterns/{number}.png",
        }])


def _error(code: str, message: str) -> Dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def _json_bytes(document: Any) -> bytes:
    return json.dumps(document, ensure_ascii=False).encode("utf-8")
