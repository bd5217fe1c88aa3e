"""The dispatcher's board (`GET /board`) in headless Chromium against the real server: the token
asked once in a form and kept for the tab's session, the day's washers with their visits coloured
and named by state, each washer's last position with its age, and a change shown within 5 s."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from conftest import ADMIN, REPO_ROOT, Deployment, today

WEB_TESTS = REPO_ROOT / "Tests" / "web"
if str(WEB_TESTS) not in sys.path:
    sys.path.insert(0, str(WEB_TESTS))

from webdriver import Browser, find_browser  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    found = find_browser()
    if found is None:
        subprocess.run([str(REPO_ROOT / "scripts" / "ensure-browser")], check=False)
        found = find_browser()
    if found is None:
        pytest.skip("!!! BROWSER TESTS SKIPPED: run: sudo apt-get install -y chromium chromium-driver !!!")
    driver = Browser(found["browser"], found["driver"])
    yield driver
    driver.quit()


def washer_post(deployment: Deployment, token: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(deployment.url(0, path), data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_the_board_shows_the_day_and_follows_changes(browser, tmp_path, lib):
    deployment = Deployment(tmp_path, f"sqlite:{tmp_path / 'planner.sqlite'}", 1)
    try:
        ada = deployment.washer("Ada")
        deployment.washer("Bob")
        visits = deployment.plan(ada, 2)
        washer_post(deployment, ada["token"], "/v1/locations", {"clientId": "phone", "points": [
            {"id": "p1", "latitude": 55.77883, "longitude": 12.52124, "accuracyMeters": 9, "at": visits[0]["startTimeUtc"]}]})
        washer_post(deployment, ada["token"], "/v1/visit-updates", {"clientId": "phone", "mutations": [
            {"mutationId": "m1", "visitId": visits[0]["visitId"], "startTimeUtc": visits[0]["startTimeUtc"], "state": "InProgress",
             "at": visits[0]["startTimeUtc"], "timeUsedMinutes": None, "reason": None}]})

        browser.get("about:blank")
        browser.get(deployment.url(0, "/board"))
        browser.wait(lambda: browser.execute("return !document.getElementById('login').hidden"), "the token form")
        browser.type("#token", "wrong-token-" + "x" * 30)
        browser.click("#login button")
        browser.wait(lambda: "refused" in browser.text("#loginError"), "the refusal of a wrong token")
        browser.type("#token", ADMIN)
        browser.click("#login button")
        browser.wait(lambda: len(browser.find_all(".washer")) == 2, "the day's washers")
        assert browser.texts(".washer h2") == ["Ada", "Bob"]
        assert browser.execute("return sessionStorage.getItem('carfit.planner.token')") == ADMIN
        rows = browser.execute("return [...document.querySelectorAll('.washer:first-child .visit')]"
                               ".map(e => [e.dataset.state, e.querySelector('.state').innerText, getComputedStyle(e).borderLeftColor])")
        assert [r[:2] for r in rows] == [["InProgress", "In progress"], ["Todo", "To do"]]
        assert rows[0][2] != rows[1][2], "each state has its colour"
        position = browser.text(".washer:first-child .position")
        assert "55.77883, 12.52124" in position and "ago" in position
        assert browser.text(".washer:nth-child(2) .position") == "No position yet"

        # A change reaches the page within 5 s (it polls every 4).
        washer_post(deployment, ada["token"], "/v1/visit-updates", {"clientId": "phone", "mutations": [
            {"mutationId": "m2", "visitId": visits[0]["visitId"], "startTimeUtc": visits[0]["startTimeUtc"], "state": "Done",
             "at": visits[0]["startTimeUtc"], "timeUsedMinutes": 12, "reason": None}]})
        browser.wait(lambda: browser.execute("return document.querySelector('.washer:first-child .visit').dataset.state") == "Done",
                     "the Done state", timeout=5.5)
        assert browser.text(".washer:first-child .visit .state") == "Done"

        # The token stays for the tab's session: a reload shows the board without asking.
        browser.get(deployment.url(0, "/board"))
        browser.wait(lambda: len(browser.find_all(".washer")) == 2, "the board after a reload")
        assert browser.execute("return document.getElementById('login').hidden") is True
    finally:
        deployment.close()
