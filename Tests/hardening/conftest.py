"""Shared pieces of the hardening tests: the binding from the source tree, the sample data,
and a helper that runs Tests/hardening/worker.py in a child process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
BINDING_DIR = REPO_ROOT / "bindings" / "python"
SAMPLE_VISITS = REPO_ROOT / "examples" / "data" / "carfit.json"
SAMPLE_TRANSACTIONS = REPO_ROOT / "examples" / "data" / "transactions.json"
WORKER = HERE / "worker.py"

if str(BINDING_DIR) not in sys.path:
    sys.path.insert(0, str(BINDING_DIR))

import carfit  # noqa: E402
from carfit import _lib  # noqa: E402

#: The header's example day.
DAY_CONFIG = {"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": True}


def pytest_report_header(config):
    return f"libcarfit: {_lib.find_library()}"


@pytest.fixture(scope="session")
def lib():
    try:
        return carfit.load_library()
    except OSError as exc:
        pytest.exit(str(exc), returncode=3)


@pytest.fixture(scope="session")
def sample_visits() -> dict:
    return json.loads(SAMPLE_VISITS.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def sample_transactions() -> dict:
    return json.loads(SAMPLE_TRANSACTIONS.read_text(encoding="utf-8"))


@pytest.fixture()
def core(lib):
    with carfit.Core(DAY_CONFIG) as c:
        yield c


def worker(*args: str, start_at: float = 0.0, **kwargs) -> subprocess.Popen:
    """Starts `python worker.py args...` with the same library; stdout is a pipe of lines.
    With `start_at` (a time.time() value) the command waits for that moment once its core is
    open, so that workers started together overlap."""
    env = dict(os.environ)
    env["CARFIT_LIBRARY"] = _lib.find_library()
    env["CARFIT_START_AT"] = repr(start_at)
    return subprocess.Popen(
        [sys.executable, str(WORKER), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        **kwargs,
    )
