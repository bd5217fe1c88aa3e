"""Proof of work: photos, signatures and notes attached to visits, kept in the core's directory
and uploaded by the push exactly once (visits.attach, visits.attachments, visits.detach and the
attachments' part of sync.push) through the binding: the typed methods, files the host deletes
at once, uploads to a real server through faults and kill -9, and the directory a crash left.
What tells a content type, what the copies and counts hold and every refusal are specified in
Swift (AttachmentRulesTests, AttachmentsServiceTests)."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import carfit

from attachment_server import AttachmentServer
from conftest import DAY_CONFIG as CONFIG
from conftest import REPO_ROOT

KEY = "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0"
LATER = "ec94deca-d66a-4d62-b049-72414870de00|1601457300000|1"

JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(256)) * 4
SVG = b'\xef\xbb\xbf<?xml version="1.0"?>\n<!-- signed -->\n<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L9 9"/></svg>'


@pytest.fixture()
def server():
    s = AttachmentServer().start()
    yield s
    s.stop()


def open_core(tmp_path, server=None, database="a.db", attachments=None, visit_updates=None, **extra):
    config = dict(CONFIG, database=str(tmp_path / database), **extra)
    sources = {}
    if server is not None:
        sources["attachments"] = server.url()
    if visit_updates:
        sources["visitUpdates"] = visit_updates
    if sources:
        config["sources"] = sources
    if attachments:
        config["attachments"] = attachments
    core = carfit.Core(config)
    if not core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]:
        core.import_visits((REPO_ROOT / "examples" / "data" / "carfit.json").read_text())
    return core


def write(tmp_path, name, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def card(core, key=KEY):
    days = core.list_visits(dates=["2020-09-10", "2020-09-30"])["days"]
    return next(c for d in days for c in d["visits"] if c["key"] == key)


def stored_files(core_dir: Path):
    return sorted(p.name for p in core_dir.iterdir()) if core_dir.exists() else []


@pytest.mark.parametrize("kind,data,content_type", [
    ("photo", JPEG, "image/jpeg"),
    ("note", "Nøglen ligger under måtten 🔑".encode(), "text/plain; charset=utf-8"),
])
def test_each_content_type_is_told_by_its_first_bytes(tmp_path, kind, data, content_type):
    source = write(tmp_path, "misleading-name.txt", data)
    with open_core(tmp_path) as core:
        attachment = core.attach(KEY, kind, file=source)["attachment"]
        assert attachment["contentType"] == content_type
        assert attachment["bytes"] == len(data)
        assert attachment["sha256"] == hashlib.sha256(data).hexdigest()
        assert attachment["kind"] == kind and attachment["key"] == KEY
        assert attachment["uploaded"] is False and attachment["at"] == "2020-09-10T07:00:00Z"
        source.unlink()  # the host may delete its own file at once
        listed = core.attachments(KEY)["attachments"]
        assert [a["id"] for a in listed] == [attachment["id"]]
        assert Path(listed[0]["path"]).read_bytes() == data
        counts = card(core)["attachments"]
        expected = {"photos": 0, "signatures": 0, "notes": 0, "pending": 1}
        expected[{"photo": "photos", "signature": "signatures", "note": "notes"}[kind]] = 1
        assert counts == expected
        assert card(core)["pending"] is False, "attachments do not make the card pending"


def test_refusals_raise_their_class_and_field_and_store_nothing(tmp_path):
    directory = tmp_path / "a.db-attachments"
    jpeg = write(tmp_path, "p.jpg", JPEG)
    cases = [
        (dict(key="nope|1|0", kind="photo", file=jpeg), carfit.NotFoundError, "key"),
        (dict(key=KEY, kind="video", file=jpeg), carfit.InvalidError, "kind"),
        (dict(key=KEY, kind="photo", file=tmp_path / "missing.jpg"), carfit.InvalidError, "file"),
        (dict(key=KEY, kind="note", text=""), carfit.InvalidError, "text"),
    ]
    with open_core(tmp_path) as core:
        for request, error, field in cases:
            with pytest.raises(error) as caught:
                core.attach(**request)
            assert caught.value.field == field, request
            assert caught.value.message
        assert core.attachments(KEY)["attachments"] == []
        assert [n for n in stored_files(directory)] == []
        with pytest.raises(carfit.NotFoundError):
            core.attachments("nope|1|0")
    with carfit.Core(CONFIG) as memory:
        memory.import_visits((REPO_ROOT / "examples" / "data" / "carfit.json").read_text())
        with pytest.raises(carfit.InvalidError) as caught:
            memory.attach(KEY, "note", text="hi")
        assert caught.value.field == "attachments.directory"


def test_detach(tmp_path, server):
    with open_core(tmp_path, server) as core:
        a = core.attach(KEY, "photo", file=write(tmp_path, "p.jpg", JPEG))["attachment"]
        b = core.attach(KEY, "note", text="second")["attachment"]
        path = Path(core.attachments(KEY)["attachments"][0]["path"])
        removed = core.detach(a["id"])["attachment"]
        assert removed["id"] == a["id"] and not path.exists()
        assert [x["id"] for x in core.attachments(KEY)["attachments"]] == [b["id"]]
        with pytest.raises(carfit.NotFoundError):
            core.detach(a["id"])
        core.push()
        with pytest.raises(carfit.ConflictError):
            core.detach(b["id"])
        assert list(server.stored) == [b["id"]]


def test_upload_sends_each_attachment_once_with_its_headers(tmp_path, server):
    with open_core(tmp_path, server) as core:
        photo = core.attach(KEY, "photo", file=write(tmp_path, "p.jpg", JPEG))["attachment"]
        note = core.attach(LATER, "note", text="Blue car")["attachment"]
        answer = core.push()
        assert answer["attachments"] == {"uploaded": 2, "pending": 0, "failed": 0}
        assert answer["pushed"] == 0
        assert server.bodies[photo["id"]] == JPEG
        headers = server.stored[photo["id"]]["headers"]
        assert headers["content-type"] == "image/jpeg"
        assert headers["content-length"] == str(len(JPEG))
        assert headers["x-carfit-sha256"] == hashlib.sha256(JPEG).hexdigest()
        assert headers["x-carfit-visit-id"] == "ec94deca-d66a-4d62-b049-72414870de00"
        assert headers["x-carfit-start-time-utc"] == "2020-09-10T09:15:00Z"
        assert headers["x-carfit-kind"] == "photo"
        assert "transfer-encoding" not in headers
        assert server.stored[note["id"]]["headers"]["x-carfit-kind"] == "note"
        assert [r["id"] for r in server.requests] == [photo["id"], note["id"]], "oldest first"
        assert all(a["uploaded"] for a in core.attachments(KEY)["attachments"])
        assert card(core)["attachments"]["pending"] == 0 and card(core)["attachments"]["photos"] == 1
        assert core.push()["attachments"] == {"uploaded": 0, "pending": 0, "failed": 0}
        assert len(server.requests) == 2


def test_push_with_nothing_configured_is_invalid(tmp_path):
    with open_core(tmp_path) as core:
        with pytest.raises(carfit.InvalidError):
            core.push()


@pytest.mark.parametrize("fault", ["fail", "drop", "cut"])
def test_a_failed_upload_keeps_everything_pending_with_the_backoff(tmp_path, server, fault):
    data = JPEG * 200
    with open_core(tmp_path, server) as core:
        first = core.attach(KEY, "photo", file=write(tmp_path, "p.jpg", data))["attachment"]
        second = core.attach(KEY, "note", text="after")["attachment"]
        server.arm(fault, status=503)
        with pytest.raises(carfit.UnavailableError) as caught:
            core.push()
        assert caught.value.document["reason"] in {"http_status", "network", "no_response", "transport"}
        assert [a["uploaded"] for a in core.attachments(KEY)["attachments"]] == [False, False]
        status = core.sync_status()
        assert status["consecutiveFailures"] == 1
        skipped = core.push(if_due=True)
        assert skipped["skipped"] == "backoff"
        answer = core.push()
        assert answer["attachments"] == {"uploaded": 2, "pending": 0, "failed": 0}
        assert core.sync_status()["consecutiveFailures"] == 0
    assert server.bodies[first["id"]] == data and server.bodies[second["id"]] == b"after"
    assert server.stored[first["id"]]["sha256"] == first["sha256"]
    if fault == "drop":
        assert server.puts[first["id"]] == 2, "a lost answer is resent; the server took it as the same upload"
    else:
        assert server.puts[first["id"]] == 1


@pytest.mark.parametrize("status", [408, 429, 500])
def test_statuses_worth_retrying_stop_the_upload(tmp_path, server, status):
    with open_core(tmp_path, server) as core:
        core.attach(KEY, "note", text="one")
        core.attach(KEY, "note", text="two")
        server.arm("fail", status=status)
        with pytest.raises(carfit.UnavailableError) as caught:
            core.push()
        assert caught.value.document.get("httpStatus") == status
        assert len(server.requests) == 1, "the upload stops at the first such answer"
        assert card(core)["attachments"]["pending"] == 2
        assert core.sync_status()["consecutiveFailures"] == 1


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_token_stops_the_upload_without_a_backoff_until_a_new_token(tmp_path, server, status):
    with open_core(tmp_path, server) as core:
        core.attach(KEY, "note", text="one")
        core.attach(KEY, "note", text="two")
        server.arm("fail", status=status)
        with pytest.raises(carfit.UnauthorizedError) as caught:
            core.push()
        assert caught.value.document.get("httpStatus") == status
        assert caught.value.document.get("reason") == "unauthorized"
        assert len(server.requests) == 1, "the upload stops at the first such answer"
        assert card(core)["attachments"]["pending"] == 2
        sync = core.sync_status()
        assert sync["consecutiveFailures"] == 0 and sync["nextAttemptAt"] is None
        assert sync["lastError"]["reason"] == "unauthorized"
        assert core.push(if_due=True)["skipped"] == "unauthorized"
        assert len(server.requests) == 1, "no request while the planner refuses the token"
        core.auth_set("a-new-token")
        assert core.push(if_due=True)["attachments"] == {"uploaded": 2, "pending": 0, "failed": 0}


def test_a_permanent_refusal_marks_it_failed_and_goes_on(tmp_path, server):
    with open_core(tmp_path, server) as core:
        refused = core.attach(KEY, "note", text="one")["attachment"]
        kept = core.attach(KEY, "note", text="two")["attachment"]
        server.arm("fail", status=413)
        assert core.push()["attachments"] == {"uploaded": 1, "pending": 0, "failed": 1}
        listed = {a["id"]: a for a in core.attachments(KEY)["attachments"]}
        assert "413" in listed[refused["id"]]["failed"] and listed[refused["id"]]["uploaded"] is False
        assert listed[kept["id"]]["uploaded"] is True
        assert core.push()["attachments"] == {"uploaded": 0, "pending": 0, "failed": 0}, "never sent again"
        assert card(core)["attachments"] == {"photos": 0, "signatures": 0, "notes": 2, "pending": 0}


def test_quota_refuses_pending_work_and_evicts_uploaded_files_oldest_first(tmp_path, server):
    photo = write(tmp_path, "p.jpg", JPEG[:400].ljust(400, b"\0"))  # 400 bytes
    with open_core(tmp_path, server, attachments={"quotaBytes": 1000}) as core:
        first = core.attach(KEY, "photo", file=photo)["attachment"]
        second = core.attach(KEY, "photo", file=photo)["attachment"]
        with pytest.raises(carfit.ConflictError) as caught:
            core.attach(KEY, "photo", file=photo)
        assert caught.value.document["reason"] == "quota"
        assert len(core.attachments(KEY)["attachments"]) == 2
        core.push()
        # 800 uploaded on disk + 400 new > 1000: the oldest alone is evicted.
        third = core.attach(KEY, "photo", file=photo)["attachment"]
        listed = {a["id"]: a for a in core.attachments(KEY)["attachments"]}
        assert listed[first["id"]]["path"] is None
        assert Path(listed[second["id"]]["path"]).exists()
        assert Path(listed[third["id"]]["path"]).read_bytes() == photo.read_bytes()
        assert card(core)["attachments"] == {"photos": 3, "signatures": 0, "notes": 0, "pending": 1}
        assert not (tmp_path / "a.db-attachments" / first["id"]).exists()


def test_attachments_outlive_their_visit_in_a_later_snapshot(tmp_path, server):
    with open_core(tmp_path, server) as core:
        a = core.attach(KEY, "note", text="kept")["attachment"]
        core.import_visits({"data": []})
        assert [x["id"] for x in core.attachments(KEY)["attachments"]] == [a["id"]]
        assert core.push()["attachments"]["uploaded"] == 1


def test_an_upload_past_1_mib_reports_its_progress(tmp_path, server):
    data = b"\xff\xd8\xff" + os.urandom(3 << 20)
    with open_core(tmp_path, server, attachments={"maxBytes": 8 << 20}) as core:
        core.attach(KEY, "photo", file=write(tmp_path, "big.jpg", data))
        after = core.wait_events(0, timeout=0)["last"]
        core.push()
        events = [e for e in core.wait_events(after, timeout=0)["events"]
                  if e.get("kind") == "progress" and e.get("operation") == "attachments.upload"]
        assert events and events[-1]["done"] == events[-1]["total"] == len(data)
        assert events[-1]["unit"] == "bytes"
        assert [e["done"] for e in events] == sorted(e["done"] for e in events)
        changed = [e for e in core.wait_events(0, timeout=0)["events"] if e.get("kind") == "changed"]
        assert any("attachments" in e["areas"] for e in changed)


CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {binding!r})
    import carfit
    database, mode, arg = sys.argv[1], sys.argv[2], sys.argv[3]
    config = {{"database": database, "now": "2020-09-10T07:00:00Z",
               "attachments": {{"maxBytes": 1 << 30, "quotaBytes": 1 << 32}}}}
    if mode == "push":
        config["sources"] = {{"attachments": arg}}
    core = carfit.Core(config)
    print("ready", flush=True)
    if mode == "attach":
        core.attach({key!r}, "photo", file=arg)
        print("attached", flush=True)
    else:
        core.push()
        print("pushed", flush=True)
    sys.stdin.read()
""")


def child(database, mode, arg):
    code = CHILD.format(binding=str(REPO_ROOT / "bindings" / "python"), key=KEY)
    return subprocess.Popen([sys.executable, "-c", code, str(database), mode, str(arg)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=os.environ.copy())


@pytest.mark.parametrize("delay", [0.05, 0.3, 1.5])
def test_kill_9_while_attaching_leaves_it_whole_or_absent(tmp_path, delay):
    big = tmp_path / "big.jpg"
    with open(big, "wb") as f:
        f.write(b"\xff\xd8\xff")
        block = os.urandom(1 << 20)
        for _ in range(150):
            f.write(block)
    digest = hashlib.sha256(big.read_bytes()).hexdigest()
    database = tmp_path / "a.db"
    with open_core(tmp_path):
        pass
    attacher = child(database, "attach", big)
    assert attacher.stdout.readline().strip() == "ready"
    time.sleep(delay)
    attacher.send_signal(signal.SIGKILL)
    attacher.wait()
    with open_core(tmp_path) as core:
        listed = core.attachments(KEY)["attachments"]
        directory = tmp_path / "a.db-attachments"
        names = stored_files(directory)
        assert not [n for n in names if n.endswith(".partial")], "temporaries are removed at open"
        for a in listed:
            assert a["sha256"] == digest and a["bytes"] == big.stat().st_size
            assert hashlib.sha256(Path(a["path"]).read_bytes()).hexdigest() == digest
        assert len(listed) <= 1


def test_kill_9_while_pushing_then_every_attachment_arrives_complete(tmp_path, server):
    database = tmp_path / "a.db"
    datas = [b"\xff\xd8\xff" + os.urandom(2 << 20) for _ in range(3)]
    with open_core(tmp_path, attachments={"maxBytes": 8 << 20}) as core:
        ids = [core.attach(KEY, "photo", file=write(tmp_path, f"p{i}.jpg", d))["attachment"]["id"]
               for i, d in enumerate(datas)]
    server.arm("slow", count=1, chunk=65536, ms=20)
    pusher = child(database, "push", server.url())
    assert pusher.stdout.readline().strip() == "ready"
    time.sleep(0.5)  # the first upload is at the server, crawling
    pusher.send_signal(signal.SIGKILL)
    pusher.wait()
    with open_core(tmp_path, server, attachments={"maxBytes": 8 << 20}) as core:
        assert core.push()["attachments"]["pending"] == 0
        assert all(a["uploaded"] for a in core.attachments(KEY)["attachments"])
    for ident, data in zip(ids, datas):
        assert server.bodies[ident] == data


def test_answers_match_the_schema_fragment(tmp_path, server):
    jsonschema = pytest.importorskip("jsonschema")
    import json
    fragment = json.loads((REPO_ROOT / "schema" / "operations" / "attachments.json").read_text())

    def check(method, answer):
        schema = dict(fragment["operations"][method]["response"], **{"$defs": fragment["$defs"]})
        jsonschema.Draft202012Validator(schema).validate(answer)

    with open_core(tmp_path, server) as core:
        answer = core.attach(KEY, "signature", file=write(tmp_path, "s.svg", SVG))
        check("visits.attach", answer)
        refused = answer["attachment"]["id"]
        core.attach(KEY, "note", text="uploaded")
        server.arm("fail", status=400)
        core.push()
        check("visits.attach", core.attach(KEY, "note", text="later"))
        check("visits.attachments", core.attachments(KEY))
        check("visits.detach", core.detach(refused))
        counts = dict(fragment["$defs"]["attachmentCounts"], **{"$defs": fragment["$defs"]})
        jsonschema.Draft202012Validator(counts).validate(card(core)["attachments"])


def test_opening_removes_what_a_crash_left_and_nothing_else(tmp_path):
    import fcntl
    import uuid
    directory = tmp_path / "a.db-attachments"
    with open_core(tmp_path) as core:
        kept = core.attach(KEY, "note", text="kept")["attachment"]
    orphan = directory / str(uuid.uuid4())          # renamed, never recorded
    orphan.write_bytes(b"orphan")
    stale = directory / f".carfit-{uuid.uuid4()}.partial"   # its writer died
    stale.write_bytes(b"half")
    live = directory / f".carfit-{uuid.uuid4()}.partial"    # another process still writing
    live.write_bytes(b"in progress")
    holder = open(live, "rb")
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        with open_core(tmp_path) as core:
            assert stored_files(directory) == sorted([kept["id"], live.name])
            assert Path(core.attachments(KEY)["attachments"][0]["path"]).read_text() == "kept"
    finally:
        holder.close()
    with open_core(tmp_path):
        assert stored_files(directory) == [kept["id"]]
