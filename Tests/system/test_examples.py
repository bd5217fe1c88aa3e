"""The example programs as a new user meets them: they run from any directory (their data is
found from their own location), and a missing library is reported as a build step to do."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
C_PROGRAMS = sorted((ROOT / "examples" / "c" / "bin").glob("*"))
PY_PROGRAMS = sorted((ROOT / "examples" / "python").glob("*.py"))


def test_the_examples_are_built():
    assert C_PROGRAMS, "make -C examples/c"
    assert {p.name for p in C_PROGRAMS} == {p.stem for p in (ROOT / "examples" / "c").glob("*.c")}


@pytest.mark.parametrize("program", C_PROGRAMS + PY_PROGRAMS, ids=lambda p: p.name)
def test_examples_run_from_another_directory(program, tmp_path):
    command = [sys.executable, str(program)] if program.suffix == ".py" else [str(program)]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


@pytest.mark.parametrize("program", PY_PROGRAMS, ids=lambda p: p.name)
def test_python_examples_ask_for_the_library_build(program, tmp_path):
    env = {**os.environ, "CARFIT_LIBRARY": str(tmp_path / "missing" / "libcarfit.so")}
    result = subprocess.run([sys.executable, str(program)], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode != 0
    assert "build the library first: 'make'" in result.stderr
    assert "cannot read" not in result.stderr and "Traceback" not in result.stderr


def test_c_examples_makefile_asks_for_the_library_build(tmp_path):
    result = subprocess.run(["make", "-C", str(ROOT / "examples" / "c"), f"LIBDIR={tmp_path}", "BIN=" + str(tmp_path / "bin")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert f"build the library first: make -C {ROOT}" in result.stderr
    assert "test -e" not in result.stderr + result.stdout


def test_c_articles_example_shows_the_offline_banner_over_its_cache(tmp_path):
    """Online once (the cache filled, no banner), then the source refuses: the cached articles
    with the "[offline]" banner read from carfit_sources_status."""
    import http.server
    import threading
    body = (ROOT / "examples" / "data" / "articles.json").read_bytes()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    program = str(ROOT / "examples" / "c" / "bin" / "articles")
    database = ["--database", str(tmp_path / "cache.sqlite")]
    try:
        online = subprocess.run([program, f"http://127.0.0.1:{server.server_port}/articles.json"] + database,
                                capture_output=True, text=True, timeout=60)
    finally:
        server.shutdown()
        server.server_close()
    assert online.returncode == 0, online.stderr
    assert "Refreshed 9 articles" in online.stdout and "[offline]" not in online.stdout
    offline = subprocess.run([program, "http://127.0.0.1:1/articles.json"] + database,
                             capture_output=True, text=True, timeout=60)
    assert offline.returncode == 0, offline.stderr
    assert "[offline] No connection" in offline.stdout
    assert "[offline] articles: refused, 1 failed attempt in a row" in offline.stdout
    assert "9 articles" in offline.stdout


def test_c_washer_aligns_names_with_letters_beyond_ascii(tmp_path):
    """The washer's cards line up by characters: a name with "ø" or "Å" (two bytes each in
    UTF-8) does not push the state column one place to the left of the others."""
    import json
    import shutil
    washer = ROOT / "examples" / "c" / "bin" / "washer"
    assert washer.exists(), "make -C examples/c"
    # The program finds its sample at <its directory>/../../data/carfit.json.
    (tmp_path / "x" / "bin").mkdir(parents=True)
    (tmp_path / "data").mkdir()
    shutil.copy(washer, tmp_path / "x" / "bin" / "washer")
    document = json.loads((ROOT / "examples" / "data" / "carfit.json").read_text(encoding="utf-8"))
    firsts = ["Søren", "Åse", "Zoë", "Bjørn", "Ingrid"]
    for i, visit in enumerate(document["data"]):
        visit["houseOwnerFirstName"] = firsts[i % len(firsts)]
    (tmp_path / "data" / "carfit.json").write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    result = subprocess.run([str(tmp_path / "x" / "bin" / "washer")], cwd=tmp_path, capture_output=True,
                            timeout=120, env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode("utf-8").splitlines()
    cards = lines[lines.index("The day:") + 1:]
    cards = [line for line in cards[:cards.index(next(l for l in cards if not l.startswith("  ")))]]
    assert any(not line.isascii() for line in cards), cards
    states = {line.index(state) for line in cards for state in ("Todo", "InProgress", "Done", "Rejected") if f" {state} " in line}
    assert len(cards) >= 2 and len(states) == 1, "\n".join(cards)


def test_the_drive_examples_tell_the_same_arrivals_and_departures(tmp_path):
    """drive.c and drive.py replay the same drive: the core decides the same arrivals and
    departures, at the same minutes, whichever host asks."""
    c = subprocess.run([str(ROOT / "examples" / "c" / "bin" / "drive")], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    py = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / "drive.py")], cwd=tmp_path,
                        capture_output=True, text=True, timeout=120)
    assert c.returncode == 0 and py.returncode == 0, c.stderr + py.stderr
    arrivals = [line for line in py.stdout.splitlines() if " arrived at " in line]
    departures = [line for line in py.stdout.splitlines() if " left " in line]
    assert len(arrivals) == len(departures) == 2, py.stdout
    assert [line.split()[0] for line in departures] == [line.split()[0] for line in c.stdout.splitlines()
                                                        if " left " in line]
    assert [line.split()[0] for line in arrivals] < [line.split()[0] for line in departures]


def test_the_proof_example_uploads_both_attachments_to_a_server(tmp_path):
    sys.path.insert(0, str(ROOT / "examples" / "servers"))
    import attachment_server  # noqa: E402
    server = attachment_server.AttachmentServer().start()
    try:
        result = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / "proof.py"),
                                 server.url("/attachments")], cwd=tmp_path, capture_output=True, text=True,
                                timeout=120)
    finally:
        server.stop()
    assert result.returncode == 0, result.stderr
    assert "pushed: 2 uploaded, 0 pending" in result.stdout
    assert result.stdout.count(" uploaded\n") == 2
    assert len(server.stored) == 2


def test_the_sample_documents_are_not_copied_into_the_tree():
    """The sample documents live once, in examples/data: tests and packages read them there
    (a copy would go stale the day the sample changes)."""
    import hashlib

    data = ROOT / "examples" / "data"
    samples = {hashlib.sha256(p.read_bytes()).hexdigest(): p.name for p in data.glob("*") if p.is_file()}
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    copies = []
    for name in filter(None, tracked.decode().split("\0")):
        path = ROOT / name
        if path.parent == data or not path.is_file() or path.stat().st_size < 256:
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest in samples:
            copies.append(f"{name} (a copy of examples/data/{samples[digest]})")
    assert copies == []
