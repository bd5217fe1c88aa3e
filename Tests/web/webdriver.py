"""A small WebDriver client over urllib: chromedriver and headless Chromium, no extra package.

Only the commands the web tests use: sessions, navigation, scripts, elements, clicks, keys,
window size and screenshots (https://www.w3.org/TR/webdriver2/).
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

#: The key under which WebDriver names an element.
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"

#: Where Debian puts the browser and its driver.
CHROMIUM_NAMES = ("chromium", "chromium-browser")
DRIVER_NAMES = ("chromedriver",)


class WebDriverError(Exception):
    """A command the driver refused: its error name and message."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def find_browser() -> Optional[Dict[str, str]]:
    """The paths of Chromium and chromedriver, or None when either is missing."""
    browser = next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)
    driver = next((path for name in DRIVER_NAMES if (path := shutil.which(name))), None)
    if browser is None and Path("/usr/lib/chromium/chromium").is_file():
        browser = "/usr/lib/chromium/chromium"
    if browser is None or driver is None:
        return None
    return {"browser": browser, "driver": driver}


class Browser:
    """One chromedriver process and one headless Chromium session on it."""

    def __init__(self, browser: str, driver: str, width: int = 1280, height: int = 900) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [driver, f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.session: Optional[str] = None
        try:
            self._wait_ready()
            args = [
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                f"--window-size={width},{height}",
            ]
            capabilities = {
                "browserName": "chrome",
                "goog:chromeOptions": {"binary": browser, "args": args},
            }
            answer = self._send("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
            self.session = answer["sessionId"]
        except BaseException:
            self.quit()
            raise

    # -- protocol -----------------------------------------------------------------------------

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            try:
                if self._send("GET", "/status").get("ready"):
                    return
            except (OSError, WebDriverError):
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise WebDriverError("chromedriver did not start")
            time.sleep(0.1)

    def _send(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                document = json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            try:
                value = json.loads(exc.read().decode("utf-8")).get("value", {})
            except ValueError:
                value = {}
            raise WebDriverError(f"{value.get('error', exc.code)}: {value.get('message', '')}") from None
        return document.get("value")

    def command(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Any:
        return self._send(method, f"/session/{self.session}{path}", body)

    # -- commands -----------------------------------------------------------------------------

    def get(self, url: str) -> None:
        self.command("POST", "/url", {"url": url})

    def execute(self, script: str, *args: Any) -> Any:
        return self.command("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css: str) -> Dict[str, str]:
        return self.command("POST", "/element", {"using": "css selector", "value": css})

    def find_all(self, css: str) -> List[Dict[str, str]]:
        return self.command("POST", "/elements", {"using": "css selector", "value": css})

    def _on_element(self, css: str, action: Callable[[str], None]) -> None:
        """Run action on the first match's id; a match the page has just redrawn is found again."""
        for attempt in range(5):
            try:
                action(self.find(css)[ELEMENT])
                return
            except WebDriverError as exc:
                if "stale element" not in str(exc) or attempt == 4:
                    raise
                time.sleep(0.1)

    def click(self, css: str) -> None:
        """Click the first match, scrolled to the middle of the window first (the driver's own
        scrolling may leave it under the page's sticky top bar)."""
        def scroll_and_click(e: str) -> None:
            self.execute("arguments[0].scrollIntoView({block: 'center'})", {ELEMENT: e})
            self.command("POST", f"/element/{e}/click", {})

        self._on_element(css, scroll_and_click)

    def type(self, css: str, text: str) -> None:
        def clear_and_type(e: str) -> None:
            self.command("POST", f"/element/{e}/clear", {})
            self.command("POST", f"/element/{e}/value", {"text": text})

        self._on_element(css, clear_and_type)

    def text(self, css: str) -> str:
        """The rendered text of the first match (read in one script: the page may redraw)."""
        found = self.execute("const e = document.querySelector(arguments[0]); return e ? e.innerText : null", css)
        if found is None:
            raise WebDriverError(f"no such element: {css}")
        return found.strip()

    def texts(self, css: str) -> List[str]:
        """The rendered texts of every match, read in one script."""
        found = self.execute("return [...document.querySelectorAll(arguments[0])].map(e => e.innerText)", css)
        return [text.strip() for text in found]

    def set_size(self, width: int, height: int) -> None:
        self.command("POST", "/window/rect", {"width": width, "height": height})

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self.command("GET", "/screenshot")))

    def wait(self, condition: Callable[[], Any], what: str, timeout: float = 30) -> Any:
        """Poll condition until it is truthy; fail naming what was awaited."""
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {timeout:.0f} s for {what}")
            time.sleep(0.05)

    def quit(self) -> None:
        if self.session is not None:
            try:
                self._send("DELETE", f"/session/{self.session}")
            except (OSError, WebDriverError):
                pass
            self.session = None
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

