"""The planner's back end for the web app: the real server (`carfit-planner`, server/), started
by the app or already running, with the sample visits loaded for one washer.

    start(executable, database, root)   a `carfit-planner serve` on a free port of 127.0.0.1 with
                                        a SQLite database and a planner's token of its own
    Planner(url, admin_token)           a planner server already running at url
    planner.add_washer(name)            `carfit-planner washer add`: {"washerId", "name", "token"}
    planner.load_sample(washer_id, day) the bundled sample visits, moved to `day` (the sample's
                                        first day) onwards, for that washer (POST /v1/planner/visits)
    planner.sources()                   the core's sources for what the planner serves

The washer's token is printed once at start and never kept here: the washer signs in with it on
the day screen, and only the core holds it (in memory).

Python's standard library only.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import secrets
import select
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent
SAMPLE_VISITS = HERE.parent / "data" / "carfit.json"
SERVER_BUILD = HERE.parent.parent / "server" / ".build"

#: How long the server may take to say it listens.
START_SECONDS = 30


def find_executable() -> Optional[Path]:
    """The server's executable as built in this repository (debug, then release), if any."""
    for flavour in ("debug", "release"):
        candidate = SERVER_BUILD / flavour / "carfit-planner"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


class PlannerError(Exception):
    """The planner server could not be started or refused a request (`status`: its HTTP status)."""

    def __init__(self, message: str, status: Optional[int] = None) -> None:
        super().__init__(message)
        self.status = status


class Planner:
    """A planner server at url, driven with its planner's (admin) token."""

    def __init__(self, url: str, admin_token: str, database: Optional[str] = None,
                 executable: Optional[Path] = None, process: Optional[subprocess.Popen] = None) -> None:
        self.url = url.rstrip("/")
        self.admin_token = admin_token
        self.database = database
        self.executable = executable
        self.process = process

    def sources(self) -> Dict[str, str]:
        """The core's sources the planner serves (the washer's API)."""
        return {
            "visits": f"{self.url}/v1/visits",
            "visitUpdates": f"{self.url}/v1/visit-updates",
            "locations": f"{self.url}/v1/locations",
            "attachments": f"{self.url}/v1/attachments",
            "devices": f"{self.url}/v1/devices",
        }

    def board(self) -> str:
        return f"{self.url}/board"

    def add_washer(self, name: str) -> Dict[str, str]:
        """A new washer of the server's database: {"washerId", "name", "token"}."""
        if self.executable is None or self.database is None:
            raise PlannerError("a washer is added with the server's executable and its database")
        done = subprocess.run([str(self.executable), "washer", "add", "--database", self.database, "--name", name],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise PlannerError(f"carfit-planner washer add failed: {done.stderr.strip()}")
        washer = json.loads(done.stdout)
        if not isinstance(washer, dict) or not isinstance(washer.get("token"), str):
            raise PlannerError("carfit-planner washer add answered no washer")
        return washer

    def admin(self, method: str, path: str, body: Any = None) -> Any:
        """A request of the planner's API; its answer, or PlannerError with the server's message."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method, headers={
            "Authorization": f"Bearer {self.admin_token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:300].decode("utf-8", "replace")
            raise PlannerError(f"{method} {path}: {exc.code} {detail}", exc.code) from None
        except (OSError, ValueError) as exc:
            raise PlannerError(f"{method} {path}: {exc}") from None

    def load_sample(self, washer_id: str, first_day: dt.date) -> List[Dict[str, Any]]:
        """The sample visits for washer_id, their days moved so the sample's first day is
        first_day (times of day kept); a visit already there (409) is left as it is."""
        records = json.loads(SAMPLE_VISITS.read_text(encoding="utf-8"))["data"]
        sample_first = min(dt.date.fromisoformat(r["startTimeUtc"][:10]) for r in records)
        shift = first_day - sample_first
        loaded = []
        for record in records:
            moved = dict(record, homeBobEmployeeId=washer_id)
            for field in ("startTimeUtc", "endTimeUtc"):
                if isinstance(record.get(field), str):
                    moved[field] = moved_time(record[field], shift)
            try:
                loaded.append(self.admin("POST", "/v1/planner/visits", moved)["visit"])
            except PlannerError as exc:
                if exc.status != 409:
                    raise
        return loaded

    def stop(self) -> None:
        """Stops a server this module started (SIGTERM: it finishes its requests and exits)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # its stdout stays open till then: it says nothing more
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        if self.process.stdout is not None:
            self.process.stdout.close()
        self.process = None


def moved_time(text: str, shift: dt.timedelta) -> str:
    """A UTC date-time of the sample (with or without its Z) `shift` days later, written with Z."""
    moment = dt.datetime.fromisoformat(text.rstrip("Z")) + shift
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def start(executable: Path, database: str, log: Path) -> Planner:
    """A `carfit-planner serve` on a free port with database (sqlite:FILE); the planner's token is
    CARFIT_PLANNER_ADMIN_TOKEN when the environment has one, else a new one (kept in this process
    and the server's environment only); the server's standard error goes to log."""
    admin_token = os.environ.get("CARFIT_PLANNER_ADMIN_TOKEN") or secrets.token_urlsafe(32)
    env = dict(os.environ, CARFIT_PLANNER_ADMIN_TOKEN=admin_token)
    with open(log, "ab") as errors:
        process = subprocess.Popen([str(executable), "serve", "--database", database, "--port", "0"],
                                   stdout=subprocess.PIPE, stderr=errors, env=env)
    assert process.stdout is not None
    line = b""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline and not line.endswith(b"\n"):
        ready, _, _ = select.select([process.stdout], [], [], 0.5)
        if ready:
            chunk = os.read(process.stdout.fileno(), 1)
            if not chunk:
                break
            line += chunk
    text = line.decode("utf-8", "replace").strip()
    prefix = "listening on "
    if not text.startswith(prefix):
        process.kill()
        process.wait(timeout=5)
        raise PlannerError(f"carfit-planner serve did not start (see {log}): {text or 'no answer'}")
    return Planner(text[len(prefix):], admin_token, database, executable, process)
