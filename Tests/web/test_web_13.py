"""The day screen's panels of version 1.3 in a real headless browser: a change the planner
refused, shown on its card and acknowledged; the day's leave-by times; the day's time report; and
the route's switch between planned and learned service times. Same app, fixtures and browser as
test_web.py (the sample's day, 2020-09-10 in Copenhagen, the core's clock at 07:00 UTC)."""

from __future__ import annotations

import json
import sys
import urllib.parse
from pathlib import Path
from typing import Iterator

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from test_web import (TODAY, App, Browser, card_css, message, no_script_errors, open_screen,  # noqa: E402
                      settle, shot, today_cards)
from test_web import browser as browser  # noqa: E402,F401  (the module's browser fixture)
from test_web import fresh_app as fresh_app  # noqa: E402,F401


@pytest.fixture(scope="module")
def app() -> Iterator[App]:
    running = App()
    yield running
    running.stop()
    assert running.process.returncode == 0, "app.py did not stop cleanly on SIGTERM"


def test_the_sample_planner_refuses_the_next_sync_when_asked(fresh_app: App) -> None:
    app = fresh_app
    assert json.loads(app.request("GET", "/sample/refuse-next")[2]) == {"refuseNext": False}
    todo = today_cards(app)["Mads Kolding"]
    app.ok("visits.set_state", {"key": todo["key"], "state": "InProgress"})
    status, _, data = app.request("POST", "/sample/refuse-next", b"")
    assert (status, json.loads(data)) == (200, {"refuseNext": True})
    answer = app.ok("sync.push")
    assert (answer["pushed"], answer["rejected"]) == (0, 1)
    card = today_cards(app)["Mads Kolding"]
    assert card["state"] == "Todo" and card["conflict"]["state"] == "InProgress"
    assert card["conflict"]["reason"] == "The planner refused this change (sample)."
    # Only the next sync: the one after it is applied.
    assert json.loads(app.request("GET", "/sample/refuse-next")[2]) == {"refuseNext": False}
    app.ok("visits.set_state", {"key": todo["key"], "state": "InProgress"})
    assert app.ok("sync.push")["pushed"] == 1


def test_a_refused_change_is_shown_on_its_card_and_acknowledged(fresh_app: App, browser: Browser) -> None:
    app = fresh_app
    open_screen(browser, app, "day")
    todo = today_cards(app)["Mads Kolding"]
    assert browser.find_all(card_css(todo) + " .conflict") == []
    browser.click("#refuse-next")
    browser.wait(lambda: "refuse" in message(browser), "the planner's answer")
    browser.click(card_css(todo) + ' [data-state="InProgress"]')
    browser.wait(lambda: browser.find_all(card_css(todo) + " .pending"), "the pending marker")
    settle(browser)
    browser.click("#sync-push")
    browser.wait(lambda: browser.find_all(card_css(todo) + " .conflict"), "the refused change on its card")
    settle(browser)
    conflict = today_cards(app)["Mads Kolding"]["conflict"]
    assert conflict is not None
    text = browser.text(card_css(todo) + " .conflict")
    assert "The planner refused your change" in text
    assert "You set InProgress" in text and "Reason: The planner refused this change (sample)." in text
    hour, minute = int(conflict["at"][11:13]), int(conflict["at"][14:16])
    assert f" at {(hour + 2) % 24:02d}:{minute:02d}." in text  # Copenhagen time in September
    assert browser.text(card_css(todo) + " .state") == "Todo"  # the planner's state, as before
    shot(browser, "day-conflict")
    no_script_errors(browser)

    browser.click(card_css(todo) + " .conflict .acknowledge")
    browser.wait(lambda: not browser.find_all(card_css(todo) + " .conflict"), "the acknowledged conflict")
    settle(browser)
    assert message(browser) == "Conflict acknowledged."
    assert today_cards(app)["Mads Kolding"]["conflict"] is None
    # Acknowledged is acknowledged: the core now refuses a second acknowledgement.
    status, document = app.call("visits.acknowledge", {"key": todo["key"]})
    assert status != 200 and document["error"]["code"] == "conflict"
    no_script_errors(browser)


def test_the_leave_by_times_of_the_day(app: App, browser: Browser) -> None:
    open_screen(browser, app, "day")
    expected = app.ok("reminders.list", {"date": TODAY})["reminders"]
    assert expected, "the sample's day has a visit to leave for"
    panel = f'.reminders[data-reminders="{TODAY}"]'
    rows = browser.execute(
        "return [...document.querySelectorAll(arguments[0] + ' .reminder')].map(li => "
        "[li.dataset.key, li.querySelector('.leave-at').textContent, li.querySelector('.travel').textContent, li.dataset.late])",
        panel)
    assert [row[0] for row in rows] == [reminder["key"] for reminder in expected]
    cards = {card["key"]: card for card in today_cards(app).values()}
    for row, reminder in zip(rows, expected):
        # Copenhagen is two hours ahead of UTC in September: the leave-by time in local time.
        hour, minute = int(reminder["leaveAt"][11:13]), int(reminder["leaveAt"][14:16])
        assert row[1] == f"{(hour + 2) % 24:02d}:{minute:02d}"
        assert row[2] == f" · {reminder['travelMinutes']} min drive"
        assert row[3] == str(reminder["late"]).lower()
        assert cards[reminder["key"]]["state"] == "Todo"
    no_script_errors(browser)


def test_the_days_time_report(fresh_app: App, browser: Browser) -> None:
    app = fresh_app
    todo = today_cards(app)["Mads Kolding"]
    app.ok("visits.set_state", {"key": todo["key"], "state": "InProgress"})
    app.ok("visits.set_state", {"key": todo["key"], "state": "Done"})
    open_screen(browser, app, "day")
    expected = app.ok("report.day", {"date": TODAY})
    panel = f'.report[data-report="{TODAY}"]'
    rows = browser.execute(
        "return [...document.querySelectorAll(arguments[0] + ' tbody tr')].map(tr => "
        "[tr.dataset.key, tr.querySelector('.planned').textContent, tr.querySelector('.worked').textContent])", panel)
    as_text = lambda value: "–" if value is None else f"{value} min"  # noqa: E731
    assert rows == [[visit["key"], as_text(visit["plannedMinutes"]), as_text(visit["workedMinutes"])]
                    for visit in expected["visits"]]
    assert len(rows) == 3
    finished = [visit for visit in expected["visits"] if visit["key"] == todo["key"]][0]
    assert finished["state"] == "Done" and finished["workedMinutes"] is not None
    totals = expected["totals"]
    assert totals["plannedMinutes"] == sum(visit["plannedMinutes"] for visit in expected["visits"]) == 140
    assert browser.text(panel + ' [data-total="planned"]') == "Planned 140 min"
    assert browser.text(panel + ' [data-total="worked"]') == f"worked {totals['workedMinutes']} min"
    assert totals["done"] == 2
    assert browser.text(panel + " .report-totals + .sub").startswith("2 done · 1 in progress · 0 to do")
    no_script_errors(browser)


def test_the_route_switches_between_planned_and_learned_times(app: App, browser: Browser) -> None:
    open_screen(browser, app, "day")
    plan = f'.plan[data-plan="{TODAY}"]'
    planned = app.ok("visits.plan", {"date": TODAY, "durations": "planned"})
    served = sum(stop["serviceMinutes"] for stop in planned["stops"])
    assert browser.text(plan + " .durations-mode") == f"Service times as planned · {served} min of service"
    # Record the plan requests the page sends from here on.
    browser.execute("window.planRequests = []; const original = window.fetch; window.fetch = (url, options) => {"
                    " if (String(url).endsWith('/api/visits.plan')) window.planRequests.push(JSON.parse(options.body));"
                    " return original(url, options); };")
    browser.click(plan + " .durations-learned")
    browser.wait(lambda: browser.find_all(plan + ' .durations-mode[data-durations="learned"]'), "the learned plan")
    settle(browser)
    learned = app.ok("visits.plan", {"date": TODAY, "durations": "learned"})
    served = sum(stop["serviceMinutes"] for stop in learned["stops"])
    assert browser.text(plan + " .durations-mode") == \
        f"Service times as learned from the washer's work · {served} min of service"
    assert browser.execute("return window.planRequests") == [{"date": TODAY, "durations": "learned"}]
    # And back.
    browser.click(plan + " .durations-learned")
    browser.wait(lambda: browser.find_all(plan + ' .durations-mode[data-durations="planned"]'), "the planned plan")
    settle(browser)
    assert browser.execute("return window.planRequests")[-1] == {"date": TODAY, "durations": "planned"}
    no_script_errors(browser)


def test_a_visit_cancelled_with_work_on_its_way_stays_struck_through(fresh_app: App, browser: Browser) -> None:
    """A note on the first visit waits to be uploaded; the sample planner's push then moves that
    visit an hour later: the old occurrence is gone from the planner's day but stays on the
    washer's, struck through, until the note is uploaded."""
    app = fresh_app
    first = today_cards(app)["Tone Holtermann"]
    key = urllib.parse.quote(first["key"], safe="")
    status, _, _ = app.request("POST", f"/attach?key={key}&kind=note", "Left the keys in the mailbox".encode())
    assert status == 200
    open_screen(browser, app, "day")
    assert browser.find_all(card_css(first) + ".removed") == []
    browser.click("#push-simulate")
    browser.wait(lambda: "Push received" in message(browser), "the push's summary")
    settle(browser)
    removed = [card for card in app.ok("visits.list", {"dates": [TODAY]})["days"][0]["visits"] if card["removed"]]
    assert [card["key"] for card in removed] == [first["key"]]
    assert browser.find_all(card_css(first) + ".removed")
    assert browser.text(card_css(first) + " .removed-label") == "Cancelled by the planner"
    assert browser.execute("return getComputedStyle(document.querySelector(arguments[0] + ' h3')).textDecorationLine",
                           card_css(first)) == "line-through"
    others = browser.find_all(".card:not(.removed) .removed-label")
    assert others == []
    shot(browser, "day-removed")
    # Once the note is uploaded, the cancelled visit goes.
    browser.click("#sync-push")
    browser.wait(lambda: not browser.find_all(card_css(first)), "the cancelled visit gone")
    settle(browser)
    assert not any(card["removed"] for card in app.ok("visits.list", {"dates": [TODAY]})["days"][0]["visits"])
    no_script_errors(browser)
