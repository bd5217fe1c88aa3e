"""The web app against the real planner server (server/, its debug executable), in a real
headless browser: the app starts `carfit-planner serve`, adds a washer and loads the sample
visits for them from today on; the washer signs in on the day screen with the token the app
printed, their state changes reach the planner (GET /v1/planner/day), and the page shows the
planner's board beside it. Also the language switch, which reopens the core in the chosen
language (with the sample sources, no server needed).

The planner tests skip, saying why, when server/.build/debug/carfit-planner is missing
(scripts/test builds it before these tests)."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from test_web import (APP, REPO_ROOT, TODAY, App, Browser, card_css, message, no_script_errors,  # noqa: E402
                      open_screen, settle, shot, today_cards)
from test_web import browser as browser  # noqa: E402,F401  (the module's browser fixture)

SERVER = REPO_ROOT / "server" / ".build" / "debug" / "carfit-planner"
#: The planner's token of the server the app starts (from the environment, as app.py allows).
ADMIN = "web-planner-admin-token-" + "0123456789abcdef" * 2


class PlannerApp(App):
    """app.py with --planner-server: the real clock, UTC, the planner's address and the washer's
    token read from what it prints at start."""

    def __init__(self) -> None:  # noqa: D107  (App's start is replaced, its calls are kept)
        env = dict(os.environ, CARFIT_PLANNER_ADMIN_TOKEN=ADMIN)
        self.process = subprocess.Popen(
            [sys.executable, str(APP), "--port", "0", "--time-zone", "UTC", "--planner-server", str(SERVER)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        lines: List[str] = []

        def read() -> None:
            for line in self.process.stdout:
                lines.append(line)
                if "washer's token" in line:
                    return

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(180)
        text = "".join(lines)
        app = re.search(r"CarFit web app on (http://[^/\s]+)/", text)
        planner = re.search(r"The planner server on (http://[^/\s]+)/", text)
        token = re.search(r"washer's token \(sign in with it on the day screen\): (\S+)", text)
        if not (app and planner and token):
            self.stop()
            raise AssertionError(f"app.py did not start with its planner: {text!r} {self.process.stderr.read()!r}")
        self.url = app.group(1)
        host, port = self.url[len("http://"):].rsplit(":", 1)
        self.host, self.port = host, int(port)
        self.planner = planner.group(1)
        self.washer_token = token.group(1)

    def planner_day(self, date: str) -> Dict[str, Any]:
        """GET /v1/planner/day of the planner server, with the planner's token."""
        request = urllib.request.Request(f"{self.planner}/v1/planner/day?date={date}&timeZone=UTC",
                                         headers={"Authorization": f"Bearer {ADMIN}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())


@pytest.fixture(scope="module")
def planner_app() -> Iterator[PlannerApp]:
    if not SERVER.exists():
        pytest.skip(f"the planner server is not built ({SERVER.relative_to(REPO_ROOT)} is missing): "
                    "run scripts/test-server --build")
    running = PlannerApp()
    yield running
    running.stop()
    assert running.process.returncode == 0, "app.py did not stop cleanly on SIGTERM"


def utc_today() -> str:
    return dt.datetime.now(dt.timezone.utc).date().isoformat()


def day_cards(app: App, date: str) -> Dict[str, Dict[str, Any]]:
    return {card["name"]: card for card in app.ok("visits.list", {"dates": [date]})["days"][0]["visits"]}


def test_the_washer_signs_in_on_the_day_screen_and_gets_the_planners_visits(planner_app: PlannerApp,
                                                                              browser: Browser) -> None:
    app = planner_app
    today = utc_today()
    # The visits come from the planner only: none before the washer signs in.
    assert day_cards(app, today) == {}
    settings = json.loads(app.request("GET", "/app/settings")[2])
    assert settings["planner"] == {"url": app.planner, "board": f"{app.planner}/board"}

    open_screen(browser, app, "day")
    assert browser.text("#auth-state") == "Not signed in"
    assert browser.execute("return document.getElementById('auth-form').closest('section').id") == "screen-day"
    assert browser.execute("return document.getElementById('auth-clear').hidden") is True
    browser.type("#auth-token", app.washer_token)
    browser.click("#auth-save")
    browser.wait(lambda: "Signed in." in message(browser), "the sign-in")
    settle(browser)
    assert browser.text("#auth-state") == "Signed in (Bearer)"
    assert browser.execute("return document.getElementById('auth-inputs').hidden") is True
    assert browser.execute("return document.getElementById('auth-clear').hidden") is False
    assert app.ok("auth.status")["auth"]["token"] is True
    # The token is in the core only: not in the field, the page's text or its storage.
    assert browser.execute("return document.getElementById('auth-token').value") == ""
    assert app.washer_token not in browser.execute("return document.body.innerText")
    assert browser.execute("return JSON.stringify(localStorage) + JSON.stringify(sessionStorage)") == "{}{}"

    # The sample's first day is today at the planner: its three visits, drawn as the core answers.
    cards = day_cards(app, today)
    assert sorted(cards) == sorted(n for n in today_cards_names())
    for card in cards.values():
        browser.wait(lambda c=card: browser.find_all(card_css(c)), f"the card of {card['name']}")
        assert browser.text(card_css(card) + " .time") == card["startTime"]
    # The board's link and the board beside the app.
    assert browser.execute("return document.getElementById('board-link').href") == f"{app.planner}/board"
    browser.click("#board-beside")
    browser.wait(lambda: browser.execute("return !document.getElementById('board-pane').hidden"), "the board's pane")
    assert browser.execute("return document.getElementById('board-frame').src") == f"{app.planner}/board"
    assert browser.execute("return document.getElementById('page').classList.contains('with-board')") is True
    shot(browser, "day-planner-board")
    no_script_errors(browser)


def today_cards_names() -> List[str]:
    """The names of the sample's first day's visits (examples/data/carfit.json)."""
    records = json.loads((REPO_ROOT / "examples" / "data" / "carfit.json").read_text(encoding="utf-8"))["data"]
    return [f"{r['houseOwnerFirstName']} {r['houseOwnerLastName']}" for r in records
            if r["startTimeUtc"].startswith(TODAY)]


def test_a_state_change_on_the_page_reaches_the_planner(planner_app: PlannerApp, browser: Browser) -> None:
    app = planner_app
    today = utc_today()
    if not app.ok("auth.status")["auth"]["token"]:
        app.ok("auth.set", {"token": app.washer_token})
        app.ok("visits.refresh")
    todo = next(card for card in day_cards(app, today).values() if "InProgress" in card["nextStates"])
    before = {v["visitId"]: v["state"] for w in app.planner_day(today)["washers"] for v in w["visits"]}
    assert before[todo["visitId"]] == "Todo"

    open_screen(browser, app, "day")
    browser.click(card_css(todo) + ' [data-state="InProgress"]')
    browser.wait(lambda: browser.find_all(card_css(todo) + " .pending"), "the pending marker")
    settle(browser)
    browser.click("#sync-push")
    browser.wait(lambda: browser.find_all(card_css(todo) + " .pending") == [], "the change sent")
    settle(browser)
    washers = app.planner_day(today)["washers"]
    assert [w["name"] for w in washers] == ["Ada Lovelace"]
    after = {v["visitId"]: v for v in washers[0]["visits"]}
    assert after[todo["visitId"]]["state"] == "InProgress"
    assert after[todo["visitId"]]["startedAt"] is not None
    assert app.ok("sync.status")["pending"] == 0
    no_script_errors(browser)


def test_signing_out_on_the_day_screen_clears_the_token(planner_app: PlannerApp, browser: Browser) -> None:
    app = planner_app
    if not app.ok("auth.status")["auth"]["token"]:
        app.ok("auth.set", {"token": app.washer_token})
    open_screen(browser, app, "day")
    browser.click("#auth-clear")
    browser.wait(lambda: browser.text("#auth-state") == "Not signed in", "the sign-out")
    settle(browser)
    assert app.ok("auth.status")["auth"]["token"] is False
    assert browser.execute("return document.getElementById('auth-inputs').hidden") is False
    # Without the token the planner refuses the washer's refresh.
    status, document = app.call("visits.refresh")
    assert status == 401 and document["error"]["code"] == "unauthorized"
    no_script_errors(browser)


# -------------------------------------------------------------------------------------------
# The language switch (the sample sources: no planner server needed)
# -------------------------------------------------------------------------------------------

@pytest.fixture
def sample_app() -> Iterator[App]:
    running = App()
    yield running
    running.stop()
    assert running.process.returncode == 0, "app.py did not stop cleanly on SIGTERM"


def choose_language(browser: Browser, tag: str) -> None:
    browser.execute("const s = document.getElementById('language'); s.value = arguments[0];"
                    "s.dispatchEvent(new Event('change'));", tag)
    settle(browser)


def test_the_language_switch_reopens_the_core_in_that_language(sample_app: App, browser: Browser) -> None:
    app = sample_app
    open_screen(browser, app, "day")
    assert browser.execute("return document.getElementById('language').closest('label').hidden") is False
    options = browser.execute("return [...document.getElementById('language').options].map(o => o.value)")
    assert options == ["", "en", "en-GB", "da", "nb", "sv", "de"]
    card = today_cards(app)["Mads Kolding"]
    english = browser.text(card_css(card) + " .time")
    assert english == card["startTime"] and ":" in english

    choose_language(browser, "da")
    browser.wait(lambda: browser.text(card_css(card) + " .time") != english, "the card's time in Danish")
    danish = today_cards(app)["Mads Kolding"]
    assert browser.text(card_css(card) + " .time") == danish["startTime"]
    assert "." in danish["startTime"] and ":" not in danish["startTime"]
    assert browser.text("#month-title") == app.ok("calendar.get")["title"] == "september 2020"
    settings = json.loads(app.request("GET", "/app/settings")[2])
    assert (settings["locale"], settings["currency"]) == ("da", "DKK")
    assert app.ok("insights.get")["sumText"].endswith("\u00a0kr.")
    shot(browser, "day-danish")

    choose_language(browser, "en")
    browser.wait(lambda: browser.text(card_css(card) + " .time") != danish["startTime"], "the card's time in English")
    us = today_cards(app)["Mads Kolding"]
    assert browser.text(card_css(card) + " .time") == us["startTime"]
    assert us["startTime"].endswith(("AM", "PM"))
    # The washer's data stays: the database is the same, only the language changed.
    assert sorted(today_cards(app)) == sorted(today_cards_names())
    no_script_errors(browser)


def test_the_language_switch_refuses_what_the_core_does_not_speak(sample_app: App) -> None:
    for body, field in ((b'{"locale": "fr"}', "locale"), (b'{"locale": "da", "currency": "XYZ"}', "currency")):
        status, _, data = sample_app.request("POST", "/app/settings", body, {"Content-Type": "application/json"})
        assert status == 400 and json.loads(data)["error"]["field"] == field
    status, _, data = sample_app.request("POST", "/app/settings", b"{", {"Content-Type": "application/json"})
    assert status == 400 and json.loads(data)["error"]["code"] == "bad_json"
    # Nothing changed: still the default texts.
    assert json.loads(sample_app.request("GET", "/app/settings")[2])["locale"] is None
    assert sample_app.ok("calendar.get")["title"] == "September 2020"
