"""Every code block of the README runs as written.

The convention, for whoever edits the README:

- Blocks fenced as ```c, ```python and ```sh run, in the README's order, in one scratch
  directory whose entries are links to the repository's top-level entries (so `include/`,
  `.build/release`, `examples/data` and `make` work as in a checkout, and what the blocks write,
  such as `app.c` and `app`, stays out of the repository). CARFIT_LIBRARY is unset: the blocks
  must find the library as a new user's would.
- A ```c block is saved as `app.c` (the README says so before it); ```sh blocks run with
  `bash -euo pipefail`; ```python blocks run with this Python.
- An HTML comment on the line before a block changes that block:
  `<!-- readme-test: skip (why) -->` does not run it (the reason is required: a block that
  installs into the system, needs the network or is the test suite itself), and
  `<!-- readme-test: env NAME=value -->` runs it with that environment variable set (a
  relative path taken from the scratch directory).
- Blocks of other languages (```cmake, plain ```) are not run.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
RUNNABLE = ("c", "python", "sh")

BLOCK = re.compile(r"(?:^<!-- readme-test: (?P<marker>[^\n]*?) -->\n)?^```(?P<lang>\w*)\n(?P<body>.*?)^```$",
                   re.M | re.S)


def blocks():
    """(line, language, marker or None, body) of every fenced block of the README."""
    text = README.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group("lang"), m.group("marker"), m.group("body"))
            for m in BLOCK.finditer(text)]


def test_markers_follow_the_convention():
    runnable = [b for b in blocks() if b[1] in RUNNABLE]
    assert len([b for b in runnable if b[2] is None or not b[2].startswith("skip")]) >= 3
    for line, lang, marker, _ in blocks():
        if marker is None:
            continue
        assert re.fullmatch(r"skip \(.+\)|env \w+=\S+", marker), f"README line {line}: {marker!r}"


def test_every_runnable_block_runs(tmp_path):
    library = ROOT / ".build" / "release" / "libcarfit.so"
    if not library.is_file():
        pytest.fail("build the library first: make")
    scratch = tmp_path / "checkout"
    scratch.mkdir()
    for entry in ROOT.iterdir():
        if entry.name != ".git":
            (scratch / entry.name).symlink_to(entry)
    base_env = {k: v for k, v in os.environ.items() if k not in ("CARFIT_LIBRARY", "PYTHONPATH")}
    ran = []
    for line, lang, marker, body in blocks():
        if lang not in RUNNABLE or (marker or "").startswith("skip"):
            continue
        env = dict(base_env)
        if marker and marker.startswith("env "):
            name, value = marker[4:].split("=", 1)
            env[name] = str(scratch / value) if not value.startswith("/") else value
        if lang == "c":
            (scratch / "app.c").write_text(body)
            ran.append(line)
            continue
        command = ["bash", "-euo", "pipefail", "-c", body] if lang == "sh" else [sys.executable, "-c", body]
        result = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, f"README line {line} ({lang}) failed:\n{result.stdout}\n{result.stderr}"
        ran.append(line)
    assert len(ran) >= 3
