"""Shared fixtures: the library, the bundled sample, and cores opened on it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BINDING_DIR = Path(__file__).resolve().parents[1]
REPO_ROOT = BINDING_DIR.parents[1]
SAMPLE_PATH = REPO_ROOT / "examples" / "data" / "carfit.json"

#: The reference update and upload servers (examples/servers).
SERVERS = REPO_ROOT / "examples" / "servers"
#: The loopback test servers (Tests/servers: the HTTP fixture, the planner with a token).
TEST_SERVERS = REPO_ROOT / "Tests" / "servers"

# Run without `pip install -e`: import the package from the source tree; the servers too.
for _path in (BINDING_DIR, SERVERS, TEST_SERVERS):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import carfit  # noqa: E402
from carfit import _lib  # noqa: E402

import contract  # noqa: E402

# Every response, error document and event the tests see, every request the library accepts
# and every config it opens with is checked against include/carfit.schema.json.
contract.install()

#: The config of the header's example day.
DAY_CONFIG = {"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": True}


@pytest.fixture(autouse=True)
def schema_contract():
    """Fails the test whose calls broke the schema (a response, error or event it does not
    describe, or a request or config it refuses that the library accepted)."""
    contract.take_violations()
    yield
    found = contract.take_violations()
    if found:
        pytest.fail("the library broke include/carfit.schema.json:\n" + "\n".join(found[:20]), pytrace=False)


def pytest_report_header(config):
    return f"libcarfit: {_lib.find_library()}"


@pytest.fixture(scope="module")
def lib():
    """The loaded library; the run stops when it cannot be found."""
    try:
        return carfit.load_library()
    except OSError as exc:
        pytest.exit(str(exc), returncode=3)


@pytest.fixture(scope="module")
def sample_text() -> str:
    """The bundled visits API document, as text."""
    return SAMPLE_PATH.read_text(encoding="utf-8")


@pytest.fixture()
def sample(sample_text) -> dict:
    """The bundled visits API document, parsed (a fresh copy per test)."""
    return json.loads(sample_text)


@pytest.fixture()
def core(lib):
    """A core on the example day (2020-09-10 in Europe/Copenhagen, 24h), in memory."""
    with carfit.Core(DAY_CONFIG) as c:
        yield c


@pytest.fixture()
def loaded(core, sample):
    """The example-day core with the sample visits imported."""
    result = core.import_visits(sample)
    assert result == {"imported": 7, "rejected": [], "changes": []}
    return core


@pytest.fixture()
def sync_server(sample):
    """The reference update server (examples/servers/sync_server.py) serving the sample's visits."""
    from sync_server import SyncServer

    with SyncServer(visits=sample, idle_timeout=120) as s:
        yield s
