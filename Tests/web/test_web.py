"""The reference web app (examples/web/app.py) in a real headless browser, and its JSON API.

The app runs on a free port over a temporary database with the bundled sample, on the sample's
day (2020-09-10 in Copenhagen). Every screen must load without a script error and show what the
core answers; every interaction must change what the core answers. Screenshots of every screen
go to .build/web-screenshots/.

The browser is Debian's chromium with chromium-driver, driven over the WebDriver protocol
(webdriver.py). When it is missing, scripts/ensure-browser installs it; only when that fails are
the browser tests skipped, with a loud reason. The API tests need no browser.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import subprocess
import sys
import threading
import urllib.parse
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
APP = REPO_ROOT / "examples" / "web" / "app.py"
SCREENSHOTS = REPO_ROOT / ".build" / "web-screenshots"

sys.path.insert(0, str(HERE))
from webdriver import Browser, find_browser  # noqa: E402

NOW = "2020-09-10T07:00:00Z"
ZONE = "Europe/Copenhagen"
TODAY = "2020-09-10"
#: The token the sample update server wants (app.py's default --planner-token).
PLANNER_TOKEN = "carfit-sample-token"
#: What a request of the planner's own carries.
PLANNER = {"Authorization": f"Bearer {PLANNER_TOKEN}", "Content-Type": "application/json"}


# -------------------------------------------------------------------------------------------
# The app and its API
# -------------------------------------------------------------------------------------------


class App:
    """A running app.py: its address, its output, and calls on its API. Signed in to the sample
    planner (auth.set with its token) unless `signed_in` is False."""

    def __init__(self, *options: str, signed_in: bool = True) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(APP), "--port", "0", "--now", NOW, "--time-zone", ZONE, *options],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        first = self._first_line()
        match = re.search(r"(http://[^/\s]+)/", first)
        if not match:
            self.stop()
            raise AssertionError(f"app.py did not start: {first!r} {self.process.stderr.read()!r}")
        self.url = match.group(1)
        host, port = self.url[len("http://"):].rsplit(":", 1)
        self.host, self.port = host, int(port)
        if signed_in:
            self.ok("auth.set", {"token": PLANNER_TOKEN})

    def _first_line(self) -> str:
        lines: List[str] = []
        reader = threading.Thread(target=lambda: lines.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(120)
        return lines[0] if lines else ""

    def request(self, method: str, path: str, body: Optional[bytes] = None,
                headers: Optional[Dict[str, str]] = None) -> Tuple[int, str, bytes]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.getheader("Content-Type") or "", response.read()
        finally:
            connection.close()

    def image(self, url: str) -> Tuple[int, str, bytes, Optional[str]]:
        """GET /api/image: status, content type, body, and the X-Image-Source header."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            connection.request("GET", "/api/image?url=" + urllib.parse.quote(url, safe=""))
            response = connection.getresponse()
            data = response.read()
            return response.status, response.getheader("Content-Type") or "", data, response.getheader("X-Image-Source")
        finally:
            connection.close()

    def call(self, method: str, request: Any = None, raw: Optional[bytes] = None) -> Tuple[int, Dict[str, Any]]:
        """POST /api/<method>: the HTTP status and the decoded answer."""
        body = raw if raw is not None else json.dumps(request if request is not None else {}).encode("utf-8")
        status, _, data = self.request("POST", "/api/" + method, body, {"Content-Type": "application/json"})
        return status, json.loads(data.decode("utf-8"))

    def ok(self, method: str, request: Any = None) -> Dict[str, Any]:
        status, document = self.call(method, request)
        assert status == 200, (method, status, document)
        return document

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            if stream:
                stream.close()


@pytest.fixture(scope="module")
def app() -> Iterator[App]:
    running = App()
    yield running
    running.stop()
    assert running.process.returncode == 0, "app.py did not stop cleanly on SIGTERM"


@pytest.fixture
def fresh_app() -> Iterator[App]:
    """An app of its own, for a test that changes the visits, the sources or their status."""
    running = App()
    yield running
    running.stop()
    assert running.process.returncode == 0, "app.py did not stop cleanly on SIGTERM"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    found = find_browser()
    if found is None:
        subprocess.run([str(REPO_ROOT / "scripts" / "ensure-browser")], check=False)
        found = find_browser()
    if found is None:
        pytest.skip(
            "!!! BROWSER TESTS SKIPPED: chromium and chromium-driver are not installed and could not be "
            "installed; run: sudo apt-get install -y chromium chromium-driver !!!"
        )
    driver = Browser(found["browser"], found["driver"])
    yield driver
    driver.quit()


# -------------------------------------------------------------------------------------------
# Reading and driving the page
# -------------------------------------------------------------------------------------------


def settle(browser: Browser) -> None:
    """Wait until the page has no request in flight (its screens draw after each answer)."""
    browser.wait(lambda: browser.execute("return document.readyState === 'complete' && window.carfitPending === 0"),
                 "the page's requests")


def open_screen(browser: Browser, app: App, screen: str) -> None:
    """Load the page afresh on a screen (a new document: no state of an earlier test)."""
    browser.get("about:blank")
    browser.get(f"{app.url}/#{screen}")
    browser.wait(lambda: browser.execute("return document.body.dataset.screen") == screen, f"screen {screen}")
    settle(browser)


def no_script_errors(browser: Browser) -> None:
    assert browser.execute("return window.carfitErrors") == [], "script errors on the page"


def message(browser: Browser) -> str:
    return browser.execute("const m = document.getElementById('message'); return m.hidden ? '' : document.getElementById('message-text').textContent")


def shot(browser: Browser, name: str) -> None:
    """A screenshot of the top of the page (a click may have scrolled it)."""
    browser.execute("window.scrollTo(0, 0)")
    browser.screenshot(SCREENSHOTS / f"{name}.png")


def rgb(hex_color: str) -> str:
    value = hex_color.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(value[i:i + 2], 16) for i in (0, 2, 4)))


def card_names(browser: Browser, date: str) -> List[str]:
    return browser.texts(f'.day-block[data-date="{date}"] .card h3')


def today_cards(app: App) -> Dict[str, Dict[str, Any]]:
    """Today's cards as the core answers them, by name (each name is once on the sample's day)."""
    return {card["name"]: card for card in app.ok("visits.list", {"dates": [TODAY]})["days"][0]["visits"]}


def card_css(card: Dict[str, Any]) -> str:
    return f'.card[data-key="{card["key"]}"]'


def server_visit(app: App, card: Dict[str, Any]) -> Dict[str, Any]:
    """The record of card's visit in the sample update server's snapshot (/sample/carfit.json)."""
    status, _, data = app.request("GET", "/sample/carfit.json")
    assert status == 200
    found = [record for record in json.loads(data)["data"]
             if record["visitId"] == card["visitId"] and record["startTimeUtc"] + "Z" == card["startTimeUtc"]]
    assert len(found) == 1, found
    return found[0]


def banner_shown(browser: Browser) -> bool:
    return bool(browser.execute("return !document.getElementById('offline-banner').hidden"))


# -------------------------------------------------------------------------------------------
# The JSON API: bad input answers the core's error documents, and the server stays up
# -------------------------------------------------------------------------------------------


def test_api_forwards_results(app: App) -> None:
    calendar = app.ok("calendar.get")
    assert calendar["today"] == TODAY and calendar["title"] == "September 2020"
    visits = app.ok("visits.list", {"dates": [TODAY]})
    assert visits["days"][0]["summary"]["visits"] == 3


def test_the_app_in_another_language() -> None:
    """--locale and --currency reach the core: the calendar's title, the cards' times and the
    texts beside amounts are Danish."""
    danish = App("--locale", "da", "--currency", "DKK")
    try:
        assert danish.ok("calendar.get")["title"] == "september 2020"
        cards = danish.ok("visits.list", {"dates": [TODAY]})["days"][0]["visits"]
        assert cards and all("." in card["startTime"] and ":" not in card["startTime"] for card in cards)
        insights = danish.ok("insights.get")
        assert insights["sumText"].endswith("\u00a0kr.")
    finally:
        danish.stop()


@pytest.mark.parametrize(
    "method, request_text, status, code, field",
    [
        ("visits.list", b'{"dates": [', 400, "bad_json", None),
        ("visits.list", b"[1, 2]", 400, "bad_json", None),
        ("visits.list", b'{"dates": ["2020-02-30"]}', 400, "invalid", "dates[0]"),
        ("calendar.select", b'{"date": "tomorrow"}', 400, "invalid", "date"),
        ("catalog.product", b'{"id": 999999}', 404, "not_found", "id"),
        ("employees.recover_pin", b'{"email": "nobody@example.com"}', 404, "not_found", "email"),
        ("transactions.pin", b'{"id": 1}', 400, "invalid", "pinned"),
        ("carousel.generate", b'{"rows": 0, "columns": 1}', 400, "invalid", "rows"),
    ],
)
def test_api_answers_core_errors_with_their_status(app: App, method: str, request_text: bytes, status: int,
                                                   code: str, field: Optional[str]) -> None:
    answer_status, document = app.call(method, raw=request_text)
    assert answer_status == status
    assert document["error"]["code"] == code
    assert document["error"].get("field") == field
    assert document["error"]["message"]


def test_api_bad_json_carries_the_position(app: App) -> None:
    status, document = app.call("visits.list", raw=b'{"dates": ]')
    assert status == 400
    assert document["error"]["code"] == "bad_json"
    assert document["error"]["line"] == 1 and document["error"]["column"] > 1


def test_api_unauthorized_and_conflict(app: App) -> None:
    app.ok("session.logout")
    status, document = app.call("cart.get")
    assert (status, document["error"]["code"]) == (401, "unauthorized")
    employee = {"pin": "70707070", "firstName": "Vera", "lastName": "Conflictus"}
    app.ok("employees.create", employee)
    status, document = app.call("employees.create", {**employee, "lastName": "Other"})
    assert (status, document["error"]["code"], document["error"]["field"]) == (409, "conflict", "pin")


@pytest.mark.parametrize("method", ["nope", "visits.import", "visits", "", "cart.checkout/../x", "%00", "visits.list.x"])
def test_api_refuses_methods_outside_its_list(app: App, method: str) -> None:
    status, document = app.call(method, {})
    assert status == 404
    assert document["error"]["code"] == "not_found"
    assert document["error"]["field"] == "method"


def test_api_imports_are_not_reachable(app: App) -> None:
    before = app.ok("visits.list", {"dates": [TODAY]})
    status, _ = app.call("visits.import", {"data": []})
    assert status == 404
    assert app.ok("visits.list", {"dates": [TODAY]}) == before


def raw_exchange(app: App, data: bytes) -> bytes:
    """Send bytes on a new connection and read until the server closes it (errors ignored:
    the server may close before it has read everything)."""
    answer = b""
    with socket.create_connection((app.host, app.port), timeout=60) as sock:
        try:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except OSError:
            pass
    return answer


def test_api_refuses_huge_bodies_unread(app: App) -> None:
    # Announced, not sent: the server answers from the header alone.
    answer = raw_exchange(app, b"POST /api/visits.list HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413")
    assert json.loads(body)["error"]["code"] == "invalid"
    # Sent whole: refused all the same, and the server goes on.
    raw_exchange(app, b"POST /api/visits.list HTTP/1.1\r\nHost: x\r\nContent-Length: 3000000\r\n\r\n" + b"[" * 3000000)
    assert app.ok("calendar.get")["today"] == TODAY


def test_api_binary_junk_is_bad_json(app: App) -> None:
    junk = bytes((i * 7919 + 13) % 256 for i in range(4096))
    status, document = app.call("visits.list", raw=junk)
    assert status == 400 and document["error"]["code"] == "bad_json"
    status, document = app.call("visits.list", raw=b'{"dates": []}\x00{"junk": 1}')
    assert status == 400 and document["error"]["code"] == "bad_json"
    status, document = app.call("visits.list", raw=b'{"dates": ["\xff\xfe"]}')
    assert status == 400 and document["error"]["code"] == "bad_json"


def test_api_deep_nesting_is_an_error_document(app: App) -> None:
    status, document = app.call("visits.list", raw=b'{"a":' * 5000 + b"1" + b"}" * 5000)
    assert status == 400 and document["error"]["code"] == "bad_json"


def test_api_malformed_http_keeps_the_server_up(app: App) -> None:
    status, _, data = app.request("POST", "/api/visits.list", b"{}", {"Content-Length": "twelve"})
    assert status == 400 and json.loads(data)["error"]["code"] == "invalid"
    status, _, _ = app.request("GET", "/api/visits.list")
    assert status == 405
    for junk in (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(200), b"GARBAGE\r\n\r\n", b"\xff" * 70000):
        with socket.create_connection((app.host, app.port), timeout=30) as sock:
            sock.sendall(junk)
            sock.shutdown(socket.SHUT_WR)
            while sock.recv(65536):
                pass
    assert app.ok("calendar.get")["today"] == TODAY


def test_static_files_stay_inside_their_folder(app: App) -> None:
    status, content_type, data = app.request("GET", "/")
    assert status == 200 and content_type.startswith("text/html") and b"app.js" in data
    for path in ("/static/../app.py", "/static/%2e%2e/app.py", "/static//etc/passwd", "/sample/../app.py", "/nothing"):
        status, _, _ = app.request("GET", path)
        assert status == 404, path


def test_the_page_modules_are_served_as_javascript(app: App) -> None:
    """A browser runs a module script only when it comes as JavaScript."""
    static = APP.parent / "static"
    modules = sorted(static.rglob("*.js"))
    assert len(modules) > 5
    for path in modules:
        status, content_type, data = app.request("GET", "/static/" + path.relative_to(static).as_posix())
        assert status == 200 and content_type == "text/javascript; charset=utf-8", (path, content_type)
        assert data == path.read_bytes()


def test_sample_documents_feed_the_refresh(app: App) -> None:
    status, _, data = app.request("GET", "/sample/carfit.json")
    assert status == 200 and len(json.loads(data)["data"]) == 7
    assert app.ok("visits.refresh")["imported"] == 7
    assert app.ok("articles.refresh")["imported"] == 9


def test_image_failures_answer_error_documents(app: App) -> None:
    status, content_type, data = app.request("GET", "/api/image?url=ftp%3A%2F%2Fexample.com%2Fa.png")
    assert status == 400 and content_type.startswith("application/json")
    assert json.loads(data)["error"]["field"] == "url"
    status, _, data = app.request("GET", "/api/image")
    assert status == 400 and json.loads(data)["error"]["field"] == "url"
    nested = f"{app.url}/api/image?url=" + urllib.parse.quote(f"{app.url}/static/icon.png", safe="")
    status, _, data, _ = app.image(nested)
    assert status == 400 and json.loads(data)["error"]["field"] == "url"
    # The sample's pattern images live on the public internet, out of reach here.
    tile = app.ok("carousel.generate", {"rows": 1, "columns": 1})["rows"][0]["tiles"][0]
    status, _, data = app.request("GET", "/api/image?url=" + tile["imageUrl"])
    assert status == 503 and json.loads(data)["error"]["code"] == "unavailable"


def test_image_served_through_the_core_cache(app: App) -> None:
    icon = (APP.parent / "static" / "icon.png").read_bytes()
    before = app.ok("images.stats")["requests"]
    answers = [app.image(f"{app.url}/static/icon.png") for _ in range(3)]
    assert answers == [(200, "image/png", icon, source) for source in ("network", "memory", "memory")]
    after = app.ok("images.stats")["requests"]
    assert after["network"] == before["network"] + 1
    assert after["memoryHits"] == before["memoryHits"] + 2


def test_non_images_are_refused_by_the_core(app: App) -> None:
    # The app's own address serves no image: the core answers that the body is not an image.
    status, _, data = app.request("GET", f"/api/image?url={app.url}/sample/carfit.json")
    assert status == 400
    assert json.loads(data)["error"]["code"] == "invalid"
    stats = app.ok("images.stats")
    assert stats["requests"]["failures"] >= 1


def test_app_without_library_says_how_to_build_it(tmp_path: Path) -> None:
    env = {"CARFIT_LIBRARY": str(tmp_path / "libcarfit.so"), "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, str(APP), "--port", "0"], env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2
    assert "build the library first: swift build -c release" in result.stderr


def test_database_file_starts_with_the_sample_and_keeps_changes(tmp_path: Path) -> None:
    database = tmp_path / "web.sqlite"
    first = App("--database", str(database))
    try:
        assert first.ok("transactions.list")["count"] == 13
        assert first.ok("transactions.pin", {"id": 1, "pinned": False})["transaction"]["pinned"] is False
        pinned = first.ok("transactions.list")["pinnedCount"]
    finally:
        first.stop()
    assert first.process.returncode == 0
    second = App("--database", str(database))
    try:
        # Not filled again: the pin stays as the user left it.
        assert second.ok("transactions.list")["pinnedCount"] == pinned == 12
    finally:
        second.stop()


# -------------------------------------------------------------------------------------------
# The washer's day
# -------------------------------------------------------------------------------------------


def test_day_screen_shows_today_by_the_core(app: App, browser: Browser) -> None:
    app.ok("calendar.select", {"date": TODAY})
    open_screen(browser, app, "day")
    expected = app.ok("visits.list", {"dates": [TODAY]})["days"][0]["visits"]
    assert browser.text("#month-title") == "September 2020"
    assert browser.execute("return [...document.querySelectorAll('.day.selected')].map(d => d.dataset.date)") == [TODAY]
    assert card_names(browser, TODAY) == [card["name"] for card in expected]
    colours = browser.execute(
        "return [...document.querySelectorAll('.card .state')].map(e => getComputedStyle(e).backgroundColor)")
    assert colours == [rgb(card["stateColor"]) for card in expected]
    assert browser.texts(".card .time") == [card["startTime"] for card in expected]
    assert browser.texts(".card .minutes") == [f"{card['taskMinutes']} min" for card in expected]
    assert browser.texts(".card .distance") == [
        f"{card['distanceKm']} km from the last visit" for card in expected if card["distanceKm"] is not None]
    plan = app.ok("visits.plan", {"date": TODAY})
    drawn = browser.execute(
        f"return [...document.querySelectorAll('.plan[data-plan=\"{TODAY}\"] svg .stop')].map(g => g.dataset.visit)")
    assert drawn == [stop["visitId"] for stop in plan["stops"]]
    assert browser.execute("return document.querySelector('.route-line').getAttribute('points').split(' ').length") == \
        len(plan["stops"])
    no_script_errors(browser)
    shot(browser, "day")


def test_select_a_day_changes_the_selection(app: App, browser: Browser) -> None:
    open_screen(browser, app, "day")
    browser.click('.day[data-date="2020-09-11"]')
    browser.wait(lambda: browser.execute("return !!document.querySelector('.day-block[data-date=\"2020-09-11\"]')"),
                 "the cards of 11 September")
    settle(browser)
    assert app.ok("calendar.get")["selected"] == ["2020-09-11"]
    expected = app.ok("visits.list", {"dates": ["2020-09-11"]})["days"][0]["visits"]
    assert card_names(browser, "2020-09-11") == [card["name"] for card in expected]
    assert browser.execute("return document.querySelectorAll('.day-block').length") == 1

    browser.click("#multi-select")
    browser.click(f'.day[data-date="{TODAY}"]')
    browser.wait(lambda: browser.execute("return document.querySelectorAll('.day-block').length") == 2, "two days")
    settle(browser)
    assert app.ok("calendar.get")["selected"] == [TODAY, "2020-09-11"]
    assert browser.execute("return [...document.querySelectorAll('.day-block')].map(b => b.dataset.date)") == \
        [TODAY, "2020-09-11"]
    assert browser.text("#day-title") == "2 days"
    no_script_errors(browser)
    shot(browser, "day-several")
    app.ok("calendar.select", {"date": TODAY})


def test_ctrl_click_toggles_a_day_and_the_panel_slides(app: App, browser: Browser) -> None:
    app.ok("calendar.select", {"date": TODAY})
    open_screen(browser, app, "day")
    browser.execute("document.querySelector('.day[data-date=\"2020-09-30\"]')"
                    ".dispatchEvent(new MouseEvent('click', {bubbles: true, ctrlKey: true}))")
    browser.wait(lambda: browser.execute("return document.querySelectorAll('.day-block').length") == 2, "two days")
    settle(browser)
    assert app.ok("calendar.get")["selected"] == [TODAY, "2020-09-30"]
    expected = app.ok("visits.list", {"dates": ["2020-09-30"]})["days"][0]["visits"]
    assert card_names(browser, "2020-09-30") == [card["name"] for card in expected]
    browser.click("#calendar-toggle")
    assert browser.execute("return document.getElementById('calendar-toggle').getAttribute('aria-expanded')") == "false"
    browser.wait(lambda: browser.execute(
        "return document.getElementById('calendar-panel').getBoundingClientRect().height === 0"), "the panel closed")
    browser.click("#calendar-toggle")
    browser.wait(lambda: browser.execute(
        "return document.getElementById('calendar-panel').getBoundingClientRect().height > 200"), "the panel open")
    no_script_errors(browser)
    app.ok("calendar.select", {"date": TODAY})


def test_next_month_moves_the_calendar(app: App, browser: Browser) -> None:
    open_screen(browser, app, "day")
    browser.click("#month-next")
    browser.wait(lambda: browser.text("#month-title") == "October 2020", "October")
    settle(browser)
    month = app.ok("calendar.get")
    assert (month["year"], month["month"]) == (2020, 10)
    assert month["selected"] == [TODAY]
    days = browser.execute("return [...document.querySelectorAll('.day')].map(d => d.dataset.date)")
    assert days == [d["date"] for d in month["days"]]
    assert browser.execute("return document.querySelectorAll('.calendar-grid .blank').length") == month["leadingDays"]
    shot(browser, "day-next-month")
    browser.click("#month-previous")
    browser.wait(lambda: browser.text("#month-title") == "September 2020", "September")
    settle(browser)
    assert app.ok("calendar.get")["month"] == 9
    no_script_errors(browser)


def test_refresh_shows_a_spinner_and_reloads(app: App, browser: Browser) -> None:
    open_screen(browser, app, "day")
    # The click handler marks the button busy before its request leaves.
    spinning = browser.execute(
        "const b = document.getElementById('visits-refresh'); b.click();"
        "return b.classList.contains('busy') && getComputedStyle(b.querySelector('.spinner')).display !== 'none';")
    assert spinning
    browser.wait(lambda: "Refreshed" in message(browser), "the refresh's answer")
    settle(browser)
    assert message(browser) == "Refreshed: 7 visits imported, 0 rejected."
    assert not browser.execute("return document.getElementById('visits-refresh').classList.contains('busy')")
    no_script_errors(browser)


@pytest.mark.parametrize("screen", ["day", "news", "money", "wine", "carousel"])
def test_every_screen_fits_a_phone(app: App, browser: Browser, screen: str) -> None:
    browser.set_size(390, 844)
    try:
        open_screen(browser, app, screen)
        assert browser.execute("return document.documentElement.scrollWidth <= window.innerWidth"), \
            "the page scrolls sideways"
        shot(browser, f"{screen}-phone")
    finally:
        browser.set_size(1280, 900)
    no_script_errors(browser)


# -------------------------------------------------------------------------------------------
# News
# -------------------------------------------------------------------------------------------


def test_news_feed_shows_dates_as_the_core_writes_them(app: App, browser: Browser) -> None:
    open_screen(browser, app, "news")
    feed = app.ok("articles.list")
    assert browser.texts(".article h2") == [article["title"] for article in feed["articles"]]
    assert browser.texts(".article .published") == [article["published"].upper() for article in feed["articles"]]
    updated = app.ok("articles.format_date", {"date": feed["updatedAt"]})["text"]
    assert browser.text("#news-updated") == "Updated " + updated
    first = feed["articles"][0]
    browser.click(f'.article[data-article="{first["id"]}"]')
    assert browser.text(f'.article[data-article="{first["id"]}"] .article-body h4') == first["content"][0]["subject"]
    assert browser.execute("return document.getElementById('news-banner').hidden")
    no_script_errors(browser)
    shot(browser, "news")


# -------------------------------------------------------------------------------------------
# Transactions and insights
# -------------------------------------------------------------------------------------------


def test_transactions_chips_pins_and_insights(app: App, browser: Browser) -> None:
    open_screen(browser, app, "money")
    everything = app.ok("transactions.list")
    assert browser.execute("return [...document.querySelectorAll('.chip')].map(c => c.textContent)") == \
        everything["categories"]
    assert len(browser.find_all(".transaction")) == everything["count"]
    assert browser.text("#pinned-sum-value") == f"{everything['sum']:.2f}"
    insights = app.ok("insights.get")
    assert browser.execute("return [...document.querySelectorAll('.bar-row')].map(r => r.dataset.category)") == \
        [row["category"] for row in insights["categories"]]
    widths = browser.execute("return [...document.querySelectorAll('.bar')].map(b => b.style.width)")
    assert widths == [f"{row['share'] * 100:g}%" for row in insights["categories"]]
    shot(browser, "money")

    browser.click('.chip[data-category="food"]')
    browser.wait(lambda: browser.execute("return document.querySelector('.chip.active').dataset.category") == "food",
                 "the food chip")
    settle(browser)
    food = app.ok("transactions.list", {"category": "food"})
    assert [int(i) for i in browser.execute(
        "return [...document.querySelectorAll('.transaction')].map(t => t.dataset.id)")] == \
        [t["id"] for t in food["transactions"]]
    assert browser.text("#pinned-sum-value") == f"{food['sum']:.2f}"

    first = food["transactions"][0]
    assert first["pinned"]
    browser.click(f'.transaction[data-id="{first["id"]}"] .pin')
    browser.wait(lambda: browser.execute(
        f"return document.querySelector('.transaction[data-id=\"{first['id']}\"] .pin').getAttribute('aria-pressed')")
        == "false", "the unpinned transaction")
    settle(browser)
    after = app.ok("transactions.list", {"category": "food"})
    assert after["sum"] != food["sum"] and after["pinnedCount"] == food["pinnedCount"] - 1
    assert browser.text("#pinned-sum-value") == f"{after['sum']:.2f}"
    assert browser.text("#insights-total").startswith(f"{app.ok('insights.get')['total']:.2f}")
    shot(browser, "money-food")

    browser.click(f'.transaction[data-id="{first["id"]}"] .pin')
    browser.wait(lambda: browser.text("#pinned-sum-value") == f"{food['sum']:.2f}", "the pin back")
    settle(browser)
    assert app.ok("transactions.list", {"category": "food"})["sum"] == food["sum"]
    no_script_errors(browser)


# -------------------------------------------------------------------------------------------
# The wine club
# -------------------------------------------------------------------------------------------


def test_wine_club_login_catalog_cart_checkout(app: App, browser: Browser) -> None:
    app.ok("session.logout")
    open_screen(browser, app, "wine")
    assert browser.find_all("#login-form")
    shot(browser, "wine-login")

    # A wrong PIN: the page shows the core's message.
    browser.type("#pin", "00001111")
    browser.click("#login-form button")
    browser.wait(lambda: message(browser), "the login's refusal")
    assert "attempt" in message(browser)
    assert app.ok("session.get")["employee"] is None

    # New employee.
    browser.click("#to-new")
    browser.wait(lambda: browser.find_all("#new-form"), "the new employee form")
    browser.type('#new-form [name="firstName"]', "Ada")
    browser.type('#new-form [name="lastName"]', "Lovelace")
    browser.type('#new-form [name="email"]', "ada@example.com")
    browser.type('#new-form [name="pin"]', "4821")
    shot(browser, "wine-new")
    browser.click("#new-form button")
    browser.wait(lambda: browser.find_all("#login-form"), "the login form again")
    settle(browser)
    assert any(e["lastName"] == "Lovelace" for e in app.ok("employees.list")["employees"])
    assert "Welcome, Ada" in message(browser)

    # Forgot PIN.
    browser.click("#to-forgot")
    browser.wait(lambda: browser.find_all("#forgot-form"), "the forgot PIN form")
    browser.type('#forgot-form [name="email"]', "ADA@example.com")
    browser.click("#forgot-form button")
    browser.wait(lambda: browser.text("#recovered"), "the recovered PIN")
    assert browser.text("#recovered") == "Ada Lovelace, your PIN is 4821."
    shot(browser, "wine-forgot")
    browser.type('#forgot-form [name="email"]', "nobody@example.com")
    browser.click("#forgot-form button")
    browser.wait(lambda: message(browser), "the refusal")
    assert message(browser) == "No employee has that email."

    # Log in.
    browser.execute("document.querySelector('.links a').click()")
    browser.wait(lambda: browser.find_all("#login-form"), "the login form")
    browser.type("#pin", "4821")
    browser.click("#login-form button")
    browser.wait(lambda: browser.find_all(".product"), "the catalog")
    settle(browser)
    assert app.ok("session.get")["employee"]["lastName"] == "Lovelace"
    assert browser.text("#wine-who") == "Logged in as Ada Lovelace"
    catalog = app.ok("catalog.list")
    assert browser.texts(".product strong") == [p["name"] for p in catalog["products"]]
    shot(browser, "wine-catalog")

    # Filter and sort.
    red = catalog["categories"][catalog["categories"].index("Red Wines")]
    browser.execute(f"const s = document.getElementById('category'); s.value = {json.dumps(red)};"
                    "s.dispatchEvent(new Event('change'));")
    expected = app.ok("catalog.list", {"category": red})["products"]
    browser.wait(lambda: browser.texts(".product strong") == [p["name"] for p in expected], "the red wines")
    browser.execute("const s = document.getElementById('sort'); s.value = '-name'; s.dispatchEvent(new Event('change'));")
    expected = app.ok("catalog.list", {"category": red, "sort": "-name"})["products"]
    browser.wait(lambda: browser.texts(".product strong") == [p["name"] for p in expected], "Z to A")
    settle(browser)

    # Detail and cart.
    product = expected[0]
    browser.click(f'.product[data-product="{product["id"]}"]')
    browser.wait(lambda: browser.find_all("#add-to-cart"), "the product")
    detail = app.ok("catalog.product", {"id": product["id"]})["product"]
    assert browser.text(".detail h2") == detail["name"]
    assert browser.text(".detail .description") == detail["description"]
    shot(browser, "wine-product")
    browser.type("#quantity", "2")
    browser.click("#add-to-cart")
    browser.wait(lambda: browser.text("#cart-badge") == "2", "the cart badge")
    settle(browser)
    cart = app.ok("cart.get")["cart"]
    assert cart["totalQuantity"] == 2 and cart["lines"][0]["productId"] == product["id"]

    browser.click('[data-wine="cart"]')
    browser.wait(lambda: browser.find_all("#checkout"), "the cart")
    settle(browser)
    assert browser.text(".lines .line-name") == product["name"]
    browser.click('.lines [aria-label="One more"]')
    browser.wait(lambda: browser.text("#cart-total") == "3", "three bottles")
    settle(browser)
    assert app.ok("cart.get")["cart"]["totalQuantity"] == 3
    shot(browser, "wine-cart")

    browser.click("#checkout")
    browser.wait(lambda: browser.find_all("#thanks"), "the thank-you")
    settle(browser)
    orders = app.ok("cart.orders")["orders"]
    assert len(orders) == 1 and orders[0]["totalQuantity"] == 3
    assert browser.text("#thanks") == "Thank you for your order!"
    assert app.ok("cart.get")["cart"]["totalQuantity"] == 0
    assert browser.text("#cart-badge") == "0"
    shot(browser, "wine-thanks")

    # An empty cart cannot be checked out: the core's message shows.
    browser.click('[data-wine="cart"]')
    browser.wait(lambda: browser.find_all("#checkout"), "the empty cart")
    settle(browser)
    browser.click("#checkout")
    browser.wait(lambda: message(browser), "the refusal")
    assert len(app.ok("cart.orders")["orders"]) == 1

    browser.click('[data-wine="employees"]')
    browser.wait(lambda: browser.find_all(".employees"), "the employee list")
    settle(browser)
    employees = app.ok("employees.list")["employees"]
    assert browser.texts(".employees tbody td:first-child") == [f"{e['firstName']} {e['lastName']}" for e in employees]
    shot(browser, "wine-employees")

    browser.click("#logout")
    browser.wait(lambda: browser.find_all("#login-form"), "logged out")
    settle(browser)
    assert app.ok("session.get")["employee"] is None
    no_script_errors(browser)


# -------------------------------------------------------------------------------------------
# Carousels
# -------------------------------------------------------------------------------------------


def test_carousel_rows_scroll_and_tiles_open(app: App, browser: Browser) -> None:
    open_screen(browser, app, "carousel")
    feed = app.ok("carousel.generate", {"rows": 6, "columns": 10, "seed": 0})
    assert browser.texts(".row h2") == [row["title"] for row in feed["rows"]]
    tiles = browser.execute(
        "return [...document.querySelectorAll('.row')].map(r => [...r.querySelectorAll('.tile')].map(t => t.dataset.tile))")
    assert tiles == [[tile["id"] for tile in row["tiles"]] for row in feed["rows"]]
    assert browser.execute("const s = document.querySelector('.strip'); return s.scrollWidth > s.clientWidth")
    colours = browser.execute(
        "return [...document.querySelectorAll('.row:first-child .tile')].map(t => getComputedStyle(t).backgroundColor)")
    assert colours == [rgb(tile["color"]) for tile in feed["rows"][0]["tiles"]]
    # The pattern images are out of reach: the first tile falls back to its colour.
    browser.wait(lambda: browser.execute(
        "return document.querySelector('.tile img').classList.contains('failed')"), "the first image to fail")
    shot(browser, "carousel")

    before = app.ok("images.stats")["requests"]["failures"]
    browser.execute("document.querySelector('.row:nth-child(2) .strip').scrollLeft = 10000")
    tile = feed["rows"][1]["tiles"][-1]
    browser.click(f'.tile[data-tile="{tile["id"]}"]')
    browser.wait(lambda: not browser.execute("return document.getElementById('tile-viewer').hidden"), "the viewer")
    assert browser.text("#viewer-title") == tile["title"]
    assert browser.execute("return document.getElementById('tile-viewer').dataset.tile") == tile["id"]
    browser.wait(lambda: app.ok("images.stats")["requests"]["failures"] > before, "the viewer's image load")
    shot(browser, "carousel-tile")
    browser.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}))")
    assert browser.execute("return document.getElementById('tile-viewer').hidden")

    browser.click("#carousel-shuffle")
    shuffled = app.ok("carousel.generate", {"rows": 6, "columns": 10, "seed": 1})
    browser.wait(lambda: browser.texts(".row h2") == [row["title"] for row in shuffled["rows"]], "the shuffled rows")
    settle(browser)
    assert shuffled["rows"][0]["title"] != feed["rows"][0]["title"]
    no_script_errors(browser)


# -------------------------------------------------------------------------------------------
# The washer's changes, the sync and the sample sources
# -------------------------------------------------------------------------------------------


def test_api_state_changes_answer_the_core_errors(app: App) -> None:
    cards = today_cards(app)
    done = cards["Tone Holtermann"]
    status, document = app.call("visits.set_state", {"key": done["key"], "state": "InProgress"})
    assert (status, document["error"]["code"], document["error"]["field"]) == (409, "conflict", "state")
    assert "Done" in document["error"]["message"] and "InProgress" in document["error"]["message"]
    status, document = app.call("visits.set_state", {"key": done["key"], "state": "Finished"})
    assert (status, document["error"]["code"], document["error"]["field"]) == (400, "invalid", "state")
    status, document = app.call("visits.set_state", {"key": "no such key", "state": "Done"})
    assert (status, document["error"]["code"], document["error"]["field"]) == (404, "not_found", "key")
    assert today_cards(app) == cards
    assert app.ok("sync.status")["pending"] == 0


def test_update_server_applies_each_change_once(fresh_app: App) -> None:
    app = fresh_app
    todo = today_cards(app)["Mads Kolding"]
    changed = app.ok("visits.set_state", {"key": todo["key"], "state": "InProgress"})["visit"]
    assert changed["pending"] is True and changed["state"] == "InProgress"
    assert server_visit(app, todo)["visitState"] == "ToDo"  # as the sample spells it
    assert app.ok("sync.push") == {"pushed": 1, "rejected": 0, "pending": 0, "locations": {"pushed": 0, "pending": 0},
                                   "attachments": {"uploaded": 0, "pending": 0, "failed": 0}}
    assert server_visit(app, todo)["visitState"] == "InProgress"
    status, _, data = app.request("GET", "/sample/visit-updates")
    seen = json.loads(data)
    assert status == 200 and seen["resent"] == 0
    assert [(m["visitId"], m["state"]) for m in seen["applied"]] == [(todo["visitId"], "InProgress")]

    # The same mutation again (a lost answer resent): its first answer, nothing applied twice.
    mutation = seen["applied"][0]
    resend = json.dumps({"clientId": "x", "mutations": [mutation]}).encode()
    status, _, data = app.request("POST", "/sample/visit-updates", resend, PLANNER)
    assert status == 200 and json.loads(data) == {"applied": [mutation["mutationId"]], "rejected": []}
    seen = json.loads(app.request("GET", "/sample/visit-updates")[2])
    assert len(seen["applied"]) == 1 and seen["resent"] == 1

    # A visit the snapshot does not have is rejected; a body that is not the protocol is a 400.
    stranger = dict(mutation, mutationId="m-2", visitId="nobody")
    status, _, data = app.request("POST", "/sample/visit-updates",
                                  json.dumps({"clientId": "x", "mutations": [stranger]}).encode(), PLANNER)
    assert json.loads(data) == {"applied": [], "rejected": [
        {"mutationId": "m-2", "reason": f"Unknown visit nobody at {mutation['startTimeUtc']}."}]}
    for junk in (b"{", b"[]", b'{"mutations": [{"visitId": "x"}]}'):
        status, _, data = app.request("POST", "/sample/visit-updates", junk, PLANNER)
        assert status == 400 and json.loads(data)["error"]["code"] in ("bad_json", "invalid")

    # The next refresh stores the server's snapshot, which now carries the change.
    assert app.ok("visits.refresh")["imported"] == 7
    after = today_cards(app)["Mads Kolding"]
    assert (after["state"], after["pending"]) == ("InProgress", False)


def test_update_server_refuses_a_change_the_rules_do_not_allow(fresh_app: App) -> None:
    """The sample planner is the reference update server (examples/servers/sync_server.py): it
    judges each change by the core's transition rules against the state its snapshot holds."""
    app = fresh_app
    todo = today_cards(app)["Mads Kolding"]
    record = server_visit(app, todo)
    finish = {"mutationId": "m-finish", "visitId": record["visitId"], "startTimeUtc": record["startTimeUtc"],
              "state": "Done", "at": "2020-09-10T09:00:00Z", "timeUsedMinutes": 30, "reason": None}
    status, _, data = app.request("POST", "/sample/visit-updates",
                                  json.dumps({"clientId": "x", "mutations": [finish]}).encode(), PLANNER)
    assert (status, json.loads(data)) == (200, {"applied": [], "rejected": [
        {"mutationId": "m-finish", "reason": "A visit in state Todo cannot become Done."}]})
    assert server_visit(app, todo)["visitState"] == "ToDo"  # unchanged, as the sample spells it
    assert json.loads(app.request("GET", "/sample/visit-updates")[2])["applied"] == []
    # Started first, the same finish (a new id) is applied; a resent refusal stays refused.
    start = dict(finish, mutationId="m-start", state="InProgress", timeUsedMinutes=None)
    again = dict(finish, mutationId="m-finish-2")
    status, _, data = app.request("POST", "/sample/visit-updates",
                                  json.dumps({"clientId": "x", "mutations": [finish, start, again]}).encode(), PLANNER)
    assert json.loads(data) == {"applied": ["m-start", "m-finish-2"], "rejected": [
        {"mutationId": "m-finish", "reason": "A visit in state Todo cannot become Done."}]}
    assert (server_visit(app, todo)["visitState"], server_visit(app, todo)["visitTimeUsed"]) == ("Done", 30)


def test_attachments_are_kept_shown_and_uploaded(fresh_app: App) -> None:
    """POST /attach hands the body to the core as a file; /attachment/<id> serves the core's
    copy; the push uploads it to the sample upload server, which checks its SHA-256."""
    import hashlib
    app = fresh_app
    card = today_cards(app)["Mads Kolding"]
    key = urllib.parse.quote(card["key"], safe="")
    photo = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(256)) * 8
    status, _, data = app.request("POST", f"/attach?key={key}&kind=photo", photo)
    attachment = json.loads(data)["attachment"]
    assert status == 200 and attachment["contentType"] == "image/jpeg"
    assert attachment["sha256"] == hashlib.sha256(photo).hexdigest()
    status, _, data = app.request("POST", f"/attach?key={key}&kind=note", "Gate code 4711".encode())
    assert status == 200 and json.loads(data)["attachment"]["kind"] == "note"
    status, _, data = app.request("POST", f"/attach?key={key}&kind=signature", photo)
    assert status == 400 and json.loads(data)["error"]["field"] == "file", "a JPEG is no signature"
    assert today_cards(app)["Mads Kolding"]["attachments"] == {"photos": 1, "signatures": 0, "notes": 1, "pending": 2}
    status, content_type, data = app.request("GET", f"/attachment/{attachment['id']}?key={key}")
    assert (status, content_type, data) == (200, "image/jpeg", photo)
    assert app.request("GET", f"/attachment/nope?key={key}")[0] == 404
    answer = app.ok("sync.push")
    assert answer["attachments"] == {"uploaded": 2, "pending": 0, "failed": 0}
    uploads = json.loads(app.request("GET", "/sample/visit-updates")[2])["uploads"]
    assert uploads[attachment["id"]] == {"bytes": len(photo), "sha256": attachment["sha256"], "kind": "photo", "puts": 1}
    assert today_cards(app)["Mads Kolding"]["attachments"]["pending"] == 0
    assert app.ok("visits.attachments", {"key": card["key"]})["attachments"][0]["uploaded"] is True


def test_sample_patterns_one_a_call_with_their_images(app: App) -> None:
    answers = [json.loads(app.request("GET", "/sample/patterns/random")[2]) for _ in range(2)]
    assert [len(answer) for answer in answers] == [1, 1]
    first, second = answers[0][0], answers[1][0]
    assert first["imageUrl"] != second["imageUrl"] and first["title"] != second["title"]
    assert all(re.fullmatch(r"[0-9A-F]{6}", color) for color in first["colors"])
    status, content_type, data, source = app.image(first["imageUrl"])
    assert (status, content_type, source) == (200, "image/png", "network")
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    for name in ("0", "01", "x", "-1", "9999999", "1.5"):
        status, _, _ = app.request("GET", f"/sample/patterns/{name}.png")
        assert status == 404, name


def test_offline_sources_fail_as_no_connection() -> None:
    app = App("--offline")
    try:
        assert json.loads(app.request("GET", "/sample/network")[2]) == {"offline": True}
        status, document = app.call("visits.refresh")
        assert (status, document["error"]["code"], document["error"]["reason"]) == (503, "unavailable", "network")
        assert app.ok("sources.status")["offline"] is True
        assert app.ok("visits.list", {"dates": [TODAY]})["summary"]["visits"] == 3  # the stored day stays

        todo = today_cards(app)["Mads Kolding"]
        app.ok("visits.set_state", {"key": todo["key"], "state": "InProgress"})
        status, document = app.call("sync.push")
        assert (status, document["error"]["reason"]) == (503, "network")
        sync = app.ok("sync.status")
        assert sync["pending"] == 1 and sync["consecutiveFailures"] == 1 and sync["nextAttemptAt"]
        assert app.ok("sync.push", {"ifDue": True})["skipped"] == "backoff"

        for body, code in ((b"{", "bad_json"), (b'{"offline": "yes"}', "invalid"), (b"[]", "invalid")):
            status, _, data = app.request("POST", "/sample/network", body)
            assert status == 400 and json.loads(data)["error"]["code"] == code
        status, _, data = app.request("POST", "/sample/network", b'{"offline": false}')
        assert (status, json.loads(data)) == (200, {"offline": False})
        assert app.ok("visits.refresh")["imported"] == 7
        assert app.ok("sources.status")["offline"] is False
        assert app.ok("sync.push") == {"pushed": 1, "rejected": 0, "pending": 0, "locations": {"pushed": 0, "pending": 0},
                                       "attachments": {"uploaded": 0, "pending": 0, "failed": 0}}
    finally:
        app.stop()
    assert app.process.returncode == 0


def state_buttons(browser: Browser, card: Dict[str, Any]) -> List[str]:
    return browser.texts(card_css(card) + " .card-actions button")


def test_state_buttons_start_sync_and_finish(fresh_app: App, browser: Browser) -> None:
    app = fresh_app
    open_screen(browser, app, "day")
    cards = today_cards(app)
    done, started, todo = cards["Tone Holtermann"], cards["Kenn Jørgensen"], cards["Mads Kolding"]
    assert (done["state"], started["state"], todo["state"]) == ("Done", "InProgress", "Todo")
    assert state_buttons(browser, done) == []
    assert state_buttons(browser, started) == ["Finish", "Undo start", "Reject…"]
    assert state_buttons(browser, todo) == ["Start", "Reject…"]
    assert browser.text(card_css(done) + " .time-used") == f"took {done['timeUsedMinutes']} min"
    assert browser.find_all(".pending") == []
    assert browser.text("#sync-status") == "No changes to send"
    shot(browser, "day-states")

    # Start: the core keeps the change at once; the card says it is not synced yet.
    browser.click(card_css(todo) + ' [data-state="InProgress"]')
    browser.wait(lambda: browser.find_all(card_css(todo) + " .pending"), "the pending marker")
    settle(browser)
    now = today_cards(app)["Mads Kolding"]
    assert (now["state"], now["pending"]) == ("InProgress", True)
    assert browser.text(card_css(todo) + " .state") == "InProgress"
    assert browser.text(card_css(todo) + " .pending") == "Not synced"
    assert state_buttons(browser, todo) == ["Finish", "Undo start", "Reject…"]
    assert browser.text("#sync-status") == "1 change waiting to be sent"
    assert server_visit(app, todo)["visitState"] == "ToDo"  # as the sample spells it
    no_script_errors(browser)
    shot(browser, "day-pending")

    # Sync: the server applies it, the marker goes.
    browser.click("#sync-push")
    browser.wait(lambda: "Sent" in message(browser), "the push's answer")
    settle(browser)
    assert message(browser) == "Sent: 1 applied, 0 refused by the server, 0 waiting."
    assert browser.find_all(".pending") == []
    assert browser.text("#sync-status") == "All changes sent"
    assert server_visit(app, todo)["visitState"] == "InProgress"
    assert today_cards(app)["Mads Kolding"]["pending"] is False

    # Finish: Done with the time it took, as the core recorded it.
    browser.click(card_css(todo) + ' [data-state="Done"]')
    browser.wait(lambda: browser.find_all(card_css(todo) + " .time-used"), "the time used")
    settle(browser)
    finished = today_cards(app)["Mads Kolding"]
    assert finished["state"] == "Done" and finished["timeUsedMinutes"] is not None
    assert browser.text(card_css(todo) + " .time-used") == f"took {finished['timeUsedMinutes']} min"
    assert state_buttons(browser, todo) == []
    skipped = app.ok("visits.plan", {"date": TODAY})["skipped"]
    assert {"visitId": todo["visitId"], "reason": "state Done", "name": "Mads Kolding"} in skipped
    assert browser.find_all(f'.plan[data-plan="{TODAY}"] .stop[data-visit="{todo["visitId"]}"]') == []

    # Undo a start, then reject with a reason: both pending until the next sync.
    browser.click(card_css(started) + ' [data-state="Todo"]')
    browser.wait(lambda: browser.text(card_css(started) + " .state") == "Todo", "the undone start")
    settle(browser)
    browser.click(card_css(started) + ' [data-state="Rejected"]')
    browser.wait(lambda: browser.find_all(card_css(started) + " .reject-reason"), "the reason field")
    browser.type(card_css(started) + " .reject-reason", "The gate was locked")
    shot(browser, "day-reject")
    browser.click(card_css(started) + ' .reject-form [type="submit"]')
    browser.wait(lambda: browser.text(card_css(started) + " .state") == "Rejected", "the rejected visit")
    settle(browser)
    assert browser.text("#sync-status") == "3 changes waiting to be sent"
    browser.click("#sync-push")
    browser.wait(lambda: browser.text("#sync-status") == "All changes sent", "the second sync")
    settle(browser)
    applied = json.loads(app.request("GET", "/sample/visit-updates")[2])["applied"]
    assert [(m["visitId"], m["state"], m["reason"]) for m in applied] == [
        (todo["visitId"], "InProgress", None), (todo["visitId"], "Done", None),
        (started["visitId"], "Todo", None), (started["visitId"], "Rejected", "The gate was locked")]
    assert server_visit(app, started)["visitState"] == "Rejected"
    no_script_errors(browser)


def test_proof_of_work_on_a_card(fresh_app: App, browser: Browser) -> None:
    """A note typed, a signature drawn on the canvas and a photo picked on a card: the core
    keeps each, the card shows thumbnails and what is not uploaded; Sync uploads them."""
    app = fresh_app
    open_screen(browser, app, "day")
    card = today_cards(app)["Mads Kolding"]
    css = card_css(card)
    assert browser.find_all(css + " .proof-counts") == []

    browser.click(css + " .proof-controls button:nth-of-type(2)")  # Note…
    browser.type(css + " .proof-note", "Gate code 4711")
    browser.click(css + " .proof-form button[type=submit]")
    browser.wait(lambda: browser.find_all(css + " .proof-counts"), "the note's count")
    settle(browser)

    browser.click(css + " .proof-controls button:nth-of-type(1)")  # Signature…
    browser.execute("""
        const pad = document.querySelector(arguments[0] + ' .signature-pad');
        const box = pad.getBoundingClientRect();
        const at = (type, x, y) => pad.dispatchEvent(new PointerEvent(type, {clientX: box.left + x, clientY: box.top + y, bubbles: true}));
        at('pointerdown', 10, 80); at('pointermove', 60, 20); at('pointermove', 120, 90); at('pointerup', 120, 90);
    """, css)
    browser.click(css + " .proof-form button")
    browser.wait(lambda: "1 signature" in browser.text(css + " .proof-counts"), "the signature's count")
    settle(browser)

    browser.execute("""
        const input = document.querySelector(arguments[0] + ' .proof-file');
        const bytes = new Uint8Array(600); bytes.set([0xff, 0xd8, 0xff, 0xe0]);
        const files = new DataTransfer(); files.items.add(new File([bytes], 'car.jpg', {type: 'image/jpeg'}));
        input.files = files.files; input.dispatchEvent(new Event('change'));
    """, css)
    browser.wait(lambda: "1 photo " in browser.text(css + " .proof-counts") + " ", "the photo's count")
    settle(browser)
    assert today_cards(app)["Mads Kolding"]["attachments"] == {"photos": 1, "signatures": 1, "notes": 1, "pending": 3}
    assert browser.text(css + " .proof-counts .pending") == "3 not uploaded"
    assert len(browser.find_all(css + " .proof-thumbs img.thumb.waiting")) == 2
    assert len(browser.find_all(css + " .proof-thumbs .note")) == 1
    assert browser.execute("return [...document.querySelectorAll(arguments[0] + ' .proof-thumbs img')]"
                           ".every((i) => i.complete && i.naturalWidth > 0 || i.alt === 'photo')", css)
    no_script_errors(browser)
    shot(browser, "day-proof-pending")

    browser.click("#sync-push")
    browser.wait(lambda: "Sent" in message(browser), "the push's answer")
    settle(browser)
    assert "Attachments: 3 uploaded, 0 refused, 0 waiting." in message(browser)
    assert browser.find_all(css + " .proof-counts .pending") == []
    assert browser.find_all(css + " .proof-thumbs .waiting") == []
    uploads = json.loads(app.request("GET", "/sample/visit-updates")[2])["uploads"]
    assert sorted(u["kind"] for u in uploads.values()) == ["note", "photo", "signature"]
    no_script_errors(browser)
    shot(browser, "day-proof-uploaded")


def test_a_raced_click_shows_the_core_conflict(fresh_app: App, browser: Browser) -> None:
    app = fresh_app
    open_screen(browser, app, "day")
    todo = today_cards(app)["Mads Kolding"]
    assert state_buttons(browser, todo) == ["Start", "Reject…"]
    # Another device (here: a direct call) rejects it while the page still shows Start.
    app.ok("visits.set_state", {"key": todo["key"], "state": "Rejected"})
    browser.click(card_css(todo) + ' [data-state="InProgress"]')
    browser.wait(lambda: message(browser), "the refusal")
    settle(browser)
    assert message(browser) == "A visit in state Rejected cannot become InProgress."
    assert browser.text(card_css(todo) + " .state") == "Rejected"
    assert state_buttons(browser, todo) == []
    assert today_cards(app)["Mads Kolding"]["state"] == "Rejected"
    no_script_errors(browser)


def test_offline_banner_on_every_screen(fresh_app: App, browser: Browser) -> None:
    app = fresh_app
    open_screen(browser, app, "day")
    assert not banner_shown(browser)
    assert not browser.execute("return document.getElementById('sample-offline').checked")
    browser.click("#sample-offline")
    browser.wait(lambda: json.loads(app.request("GET", "/sample/network")[2])["offline"], "the sources offline")
    settle(browser)

    # A refresh fails with the core's message; the banner follows the sources' status.
    browser.click("#visits-refresh")
    browser.wait(lambda: message(browser), "the refresh's failure")
    settle(browser)
    status = app.ok("sources.status")
    assert status["offline"] is True
    assert message(browser) == status["sources"]["visits"]["lastError"]["message"]
    assert "was lost" in message(browser)
    assert banner_shown(browser)
    assert card_names(browser, TODAY) == list(today_cards(app))  # the stored day stays

    # The washer goes on offline: the change is kept, the push fails and backs off.
    todo = today_cards(app)["Mads Kolding"]
    browser.click(card_css(todo) + ' [data-state="InProgress"]')
    browser.wait(lambda: browser.find_all(card_css(todo) + " .pending"), "the pending marker")
    settle(browser)
    browser.click("#sync-push")
    browser.wait(lambda: "failed" in browser.text("#sync-status"), "the failed push")
    settle(browser)
    sync = app.ok("sync.status")
    assert sync["pending"] == 1 and sync["lastError"]["reason"] == "network"
    when = app.ok("articles.format_date", {"date": sync["nextAttemptAt"]})["text"]
    assert browser.text("#sync-status") == (
        f"1 change waiting to be sent · last try failed (1 in a row): {sync['lastError']['message']}"
        f" · next automatic try {when}")
    assert message(browser) == sync["lastError"]["message"]
    assert browser.find_all(card_css(todo) + " .pending")
    shot(browser, "day-offline")

    for screen in ("news", "money", "wine", "carousel"):
        open_screen(browser, app, screen)
        assert banner_shown(browser), screen
        assert browser.execute("return document.getElementById('sample-offline').checked"), screen
        no_script_errors(browser)

    # The news refresh fails too; its own banner says what the articles source answered.
    open_screen(browser, app, "news")
    browser.click("#articles-refresh")
    browser.wait(lambda: message(browser), "the news refresh's failure")
    settle(browser)
    articles = app.ok("sources.status")["sources"]["articles"]
    assert message(browser) == articles["lastError"]["message"]
    assert browser.text("#news-banner") == f"The last refresh failed: {articles['lastError']['message']} Showing what is stored."
    assert browser.text("#offline-detail") == articles["lastError"]["message"]
    assert len(browser.find_all(".article")) == len(app.ok("articles.list")["articles"])
    shot(browser, "news-offline")

    # Back online: the next refresh succeeds and the banners go; the sync empties the outbox.
    browser.click("#sample-offline")
    browser.wait(lambda: not json.loads(app.request("GET", "/sample/network")[2])["offline"], "the sources online")
    browser.click("#articles-refresh")
    browser.wait(lambda: "Refreshed" in message(browser), "the news refresh")
    settle(browser)
    assert app.ok("sources.status")["offline"] is False
    assert not banner_shown(browser)
    assert browser.execute("return document.getElementById('news-banner').hidden")
    open_screen(browser, app, "day")
    assert not banner_shown(browser)
    browser.click("#sync-push")
    browser.wait(lambda: browser.text("#sync-status") == "All changes sent", "the sync")
    settle(browser)
    assert browser.find_all(".pending") == []
    assert server_visit(app, todo)["visitState"] == "InProgress"
    no_script_errors(browser)


def test_catalog_refresh(fresh_app: App, browser: Browser) -> None:
    app = fresh_app
    app.ok("employees.create", {"pin": "5150", "firstName": "Rita", "lastName": "Refresh"})
    app.ok("session.login", {"pin": "5150"})
    open_screen(browser, app, "wine")
    assert app.ok("sources.status")["sources"]["catalog"]["lastAttemptAt"] is None
    browser.click("#catalog-refresh")
    browser.wait(lambda: "Catalog" in message(browser), "the catalog refresh")
    settle(browser)
    products = app.ok("catalog.list")["products"]
    assert message(browser) == f"Catalog refreshed: {len(products)} wines, 0 rejected."
    catalog = app.ok("sources.status")["sources"]["catalog"]
    assert catalog["lastSuccessAt"] is not None and catalog["lastError"] is None
    assert browser.texts(".product strong") == [p["name"] for p in products]
    shot(browser, "wine-catalog-refresh")
    no_script_errors(browser)


def test_more_patterns_adds_tiles(fresh_app: App, browser: Browser) -> None:
    app = fresh_app
    open_screen(browser, app, "carousel")
    sample_images = ("return [...document.querySelectorAll('.tile img')]"
                     ".filter(i => decodeURIComponent(i.src).includes('/sample/patterns/')).map(i => i.closest('.tile').dataset.tile)")
    assert browser.execute(sample_images) == []
    pool = app.ok("sources.status")["sources"]["patterns"]
    assert pool["lastAttemptAt"] is None
    browser.click("#patterns-more")
    browser.wait(lambda: "More patterns" in message(browser), "the patterns refresh")
    settle(browser)
    assert message(browser) == "More patterns: 10 added, 22 in the pool."
    feed = app.ok("carousel.generate", {"rows": 6, "columns": 10, "seed": 0})
    expected = [tile["id"] for row in feed["rows"] for tile in row["tiles"] if "/sample/patterns/" in (tile["imageUrl"] or "")]
    assert expected and browser.execute(sample_images) == expected
    # The new patterns' images come through the core's image cache and load.
    browser.wait(lambda: browser.execute(
        "return [...document.querySelectorAll('.tile img')].filter(i => decodeURIComponent(i.src).includes('/sample/patterns/'))"
        ".every(i => i.complete && i.naturalWidth === 48 && !i.classList.contains('failed'))"), "the new images")
    assert app.ok("images.stats")["requests"]["network"] >= 10
    shot(browser, "carousel-more")
    no_script_errors(browser)


# -------------------------------------------------------------------------------------------
# The planner's token: the sample update server wants it
# -------------------------------------------------------------------------------------------


def auth_banner_shown(browser: Browser) -> bool:
    return bool(browser.execute("return !document.getElementById('auth-banner').hidden"))


def test_the_update_server_wants_the_token(fresh_app: App) -> None:
    app = fresh_app
    body = json.dumps({"clientId": "x", "mutations": []}).encode()
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": PLANNER_TOKEN}):
        status, _, data = app.request("POST", "/sample/visit-updates", body, headers)
        assert status == 401 and json.loads(data)["error"]["code"] == "unauthorized", headers
    status, _, data = app.request("POST", "/sample/visit-updates", body, PLANNER)
    assert (status, json.loads(data)) == (200, {"applied": [], "rejected": []})


def test_a_refused_push_shows_the_sign_in_banner_and_a_token_sends_the_changes(browser: Browser) -> None:
    app = App(signed_in=False)
    try:
        open_screen(browser, app, "day")
        assert not auth_banner_shown(browser)
        assert browser.text("#auth-state") == "Not signed in"
        todo = today_cards(app)["Mads Kolding"]
        browser.click(card_css(todo) + ' [data-state="InProgress"]')
        browser.wait(lambda: browser.find_all(card_css(todo) + " .pending"), "the pending marker")
        settle(browser)

        # Not signed in: the planner answers 401; the change stays, the banner asks for a sign-in.
        browser.click("#sync-push")
        browser.wait(lambda: auth_banner_shown(browser), "the sign-in banner")
        settle(browser)
        sync = app.ok("sync.status")
        assert sync["pending"] == 1 and sync["lastError"]["reason"] == "unauthorized"
        assert sync["consecutiveFailures"] == 0 and sync["nextAttemptAt"] is None
        assert message(browser) == sync["lastError"]["message"]
        assert browser.text("#auth-detail") == "The planner wants a valid token (visitUpdates refused the last request)."
        assert browser.text("#sync-status") == f"1 change waiting to be sent · last try failed: {sync['lastError']['message']}"
        assert app.ok("sync.push", {"ifDue": True}) == {"pushed": 0, "rejected": 0, "pending": 1, "skipped": "unauthorized"}
        assert json.loads(app.request("GET", "/sample/visit-updates")[2])["applied"] == []
        assert browser.find_all(card_css(todo) + " .pending")
        shot(browser, "day-sign-in")

        # A wrong token is refused in turn: the banner stays.
        browser.type("#auth-token", "not-the-token")
        browser.click("#auth-save")
        browser.wait(lambda: browser.text("#auth-state") == "Signed in (Bearer)", "the wrong token set")
        settle(browser)
        assert auth_banner_shown(browser)
        assert app.ok("auth.status")["auth"]["required"] is True

        # The planner's token: the waiting change goes at once, the banner and the marker go.
        browser.type("#auth-token", PLANNER_TOKEN)
        browser.click("#auth-save")
        browser.wait(lambda: "Signed in." in message(browser), "the sign-in")
        settle(browser)
        assert message(browser) == "Signed in. Sent: 1 applied."
        assert not auth_banner_shown(browser)
        assert browser.find_all(".pending") == []
        assert browser.text("#sync-status") == "All changes sent"
        assert browser.execute("return document.getElementById('auth-token').value") == ""
        assert [m["visitId"] for m in json.loads(app.request("GET", "/sample/visit-updates")[2])["applied"]] == [
            todo["visitId"]]
        # The page never shows the token back.
        assert PLANNER_TOKEN not in browser.execute("return document.body.innerText")

        browser.click("#auth-clear")
        browser.wait(lambda: browser.text("#auth-state") == "Not signed in", "the sign-out")
        settle(browser)
        assert app.ok("auth.status")["auth"]["token"] is False
        no_script_errors(browser)
    finally:
        app.stop()
    assert app.process.returncode == 0
# The washer on the road
# -------------------------------------------------------------------------------------------


def test_sample_planner_applies_each_point_once_and_sync_sends_the_trail(fresh_app: App) -> None:
    app = fresh_app
    status, _, data = app.request("GET", "/sample/drive.json")
    drive = json.loads(data)
    assert status == 200 and len(drive["points"]) > 100
    for point in drive["points"][:40]:
        app.ok("location.report", point)
    trail = app.ok("location.status")["trail"]
    assert trail["pending"] == trail["stored"] > 0
    assert app.ok("sync.push")["locations"] == {"pushed": trail["stored"], "pending": 0}
    points = json.loads(app.request("GET", "/sample/locations")[2])["points"]
    assert len(points) == trail["stored"] and [p["at"] for p in points] == sorted(p["at"] for p in points)
    # A resent point is named applied again and kept once; a body without point ids is a 400.
    again = json.dumps({"clientId": "x", "points": points[:1]}).encode()
    status, _, _ = app.request("POST", "/sample/locations", again, {"Content-Type": "application/json"})
    assert status == 401
    status, _, data = app.request("POST", "/sample/locations", again, {"Content-Type": "application/json", **PLANNER})
    assert status == 200 and json.loads(data) == {"applied": [points[0]["id"]]}
    assert len(json.loads(app.request("GET", "/sample/locations")[2])["points"]) == trail["stored"]
    status, _, _ = app.request("POST", "/sample/locations", b'{"points": [{"at": 1}]}', PLANNER)
    assert status == 400


def test_simulating_the_drive_shows_the_position_arrivals_and_navigation(fresh_app: App, browser: Browser) -> None:
    app = fresh_app
    open_screen(browser, app, "day")
    mads = today_cards(app)["Mads Kolding"]
    href = browser.execute("return document.querySelector(arguments[0]).getAttribute('href')",
                           card_css(mads) + ' .navigation a[data-link="google"]')
    assert href == mads["navigation"]["google"]
    assert browser.find_all(".plan [data-hook=position]") == []
    browser.click("#drive-simulate")
    browser.wait(lambda: "arrivals" in message(browser), "the drive's summary")
    settle(browser)
    assert message(browser).startswith("Drove ")
    card = today_cards(app)["Mads Kolding"]
    assert card["arrivedAt"] is not None and card["departedAt"] is not None
    text = browser.text(card_css(mads) + " .suggestion")
    assert text == "Arrived " + card["arrivedAt"][11:16] + ", left " + card["departedAt"][11:16]
    assert browser.find_all(".plan [data-hook=position]")
    no_script_errors(browser)
    shot(browser, "day-drive")
    # Driving again reports nothing older than the position.
    browser.click("#drive-simulate")
    browser.wait(lambda: "already" in message(browser), "the second drive's message")


def test_a_simulated_push_shows_the_planners_changes_and_notifications(fresh_app: App, browser: Browser) -> None:
    app = fresh_app
    open_screen(browser, app, "day")
    assert browser.execute("return document.getElementById('push-panel').hidden") is True
    before = today_cards(app)
    browser.click("#push-simulate")
    browser.wait(lambda: "Push received" in message(browser), "the push's summary")
    settle(browser)
    assert message(browser) == "Push received: 1 changes."
    changes = browser.execute(
        "return [...document.querySelectorAll('#push-panel .push-changes li')].map(li => li.dataset.change)")
    assert changes == ["moved"]
    notes = browser.execute(
        "return [...document.querySelectorAll('#push-panel .notification')]"
        ".map(li => [li.dataset.kind, li.querySelector('strong').textContent, li.textContent])")
    assert len(notes) == 1 and notes[0][:2] == ["moved", "Visit moved"]
    # The moved card is on the day an hour later, as the core now stores it.
    after = today_cards(app)
    moved = [name for name in after if after[name]["startTimeUtc"] != before[name]["startTimeUtc"]]
    assert len(moved) == 1 and moved[0] in notes[0][2]
    # The same push is not sent twice: the next one is a new push, another hour later.
    browser.click("#push-simulate")
    browser.wait(lambda: browser.execute(
        "return document.querySelectorAll('#push-panel .notification').length === 1 && "
        "document.querySelector('#push-panel .notification').textContent !== arguments[0]", notes[0][2]), "the second push")
