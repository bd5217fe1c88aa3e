"""The planner's token through the binding: ``auth_set``/``auth_status`` marshalling and
errors, and, against the loopback planner of Tests/servers/auth_server.py (two origins that
record every request's Authorization header), which requests carry the token, what a 401 or
403 does to each source and to the push, and that the token is in no byte of the database
files, no error document and no event. Which tokens, schemes and origins are refused is specified in
Swift (AuthAPITests, AuthConfigTests); which requests carry the token and what a refusal
changes, on the in-process planner too (AuthServiceTests)."""

from __future__ import annotations

import json

import auth_server
import pytest

import carfit
from conftest import DAY_CONFIG as CONFIG
from conftest import REPO_ROOT as ROOT
TOKEN = "tok-3f9a_Z.~+/=!secret"
MADS = "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0"


@pytest.fixture(scope="module")
def planner():
    pair = auth_server.start(idle=300)
    yield pair
    pair.stop()


@pytest.fixture()
def server(planner):
    planner.clear()
    planner.set_token(None)
    return planner


def open_core(database=":memory:", auth=None, **sources):
    config = dict(CONFIG, database=str(database), sources=sources)
    if auth is not None:
        config["auth"] = auth
    return carfit.Core(config)


def all_sources(server, origin=0, prefix=""):
    return {"visits": server.url(origin, f"{prefix}/data/carfit.json"),
            "articles": server.url(origin, f"{prefix}/data/articles.json"),
            "catalog": server.url(origin, f"{prefix}/data/catalog.json"),
            "patterns": server.url(origin, f"{prefix}/data/patterns.json"),
            "visitUpdates": server.url(origin, f"{prefix}/updates")}


def refresh_all(core):
    core.refresh_visits()
    core.refresh_articles()
    core.refresh_catalog()
    core.refresh_patterns(count=1)


def drain(core, after=0):
    return core.wait_events(after=after, timeout=0)["events"]


# ----------------------------------------------------------------------------------------------
# The binding: marshalling, types, errors
# ----------------------------------------------------------------------------------------------

def test_set_and_status_answer_the_state_never_the_token(lib):
    with open_core() as core:
        assert core.auth_status() == {"auth": {"token": False, "scheme": None, "required": False,
                                               "requiredAt": None, "source": None}}
        answer = core.auth_set(TOKEN)
        assert answer == {"auth": {"token": True, "scheme": "Bearer", "required": False, "requiredAt": None,
                                   "source": None}}
        assert core.auth_set(TOKEN, scheme="DPoP")["auth"]["scheme"] == "DPoP"
        # The scheme's default holds on every call.
        assert core.auth_set(TOKEN)["auth"]["scheme"] == "Bearer"
        assert core.call("auth.status") == core.auth_status()
        assert core.auth_set(None)["auth"] == {"token": False, "scheme": None, "required": False,
                                               "requiredAt": None, "source": None}


@pytest.mark.parametrize("token, scheme, field", [
    ("two words", None, "token"), (42, None, "token"), ("ok", 7, "scheme"),
])
def test_an_invalid_call_raises_with_its_field_and_changes_nothing(lib, token, scheme, field):
    with open_core() as core:
        core.auth_set("kept", scheme="Token")
        with pytest.raises(carfit.InvalidError) as raised:
            core.auth_set(token, scheme=scheme)
        assert raised.value.field == field
        assert raised.value.status == 2
        if isinstance(token, str) and len(token) > 2:
            assert token not in json.dumps(raised.value.response)
        assert core.auth_status()["auth"] == {"token": True, "scheme": "Token", "required": False,
                                              "requiredAt": None, "source": None}
        # A request without "token" is refused too.
        with pytest.raises(carfit.InvalidError) as missing:
            core.call("auth.set", {"scheme": "Bearer"})
        assert missing.value.field == "token"


def test_a_reopened_core_has_no_token(lib, tmp_path):
    with open_core(tmp_path / "a.db") as core:
        core.auth_set(TOKEN)
    with open_core(tmp_path / "a.db") as core:
        assert core.auth_status()["auth"]["token"] is False


# ----------------------------------------------------------------------------------------------
# Which requests carry it
# ----------------------------------------------------------------------------------------------

def test_every_source_on_the_planners_origin_carries_it_and_images_never(server):
    header = f"Bearer {TOKEN}"
    with open_core(**all_sources(server)) as core:
        core.auth_set(TOKEN)
        refresh_all(core)
        core.set_visit_state(MADS, "InProgress")
        assert core.push()["pushed"] == 1
        core.image_data(server.url(0, "/image.png"))
    seen = [(r["path"], r["authorization"]) for r in server.requests()]
    assert seen == [("/data/carfit.json", header), ("/data/articles.json", header), ("/data/catalog.json", header),
                    ("/data/patterns.json", header), ("/updates", header), ("/image.png", None)]


def test_sources_on_another_origin_never_carry_it(server):
    sources = all_sources(server)
    # The news, the catalog and the patterns live elsewhere (a third party).
    for name in ("articles", "catalog", "patterns"):
        sources[name] = sources[name].replace(str(server.ports[0]), str(server.ports[1]))
    with open_core(**sources) as core:
        core.auth_set(TOKEN)
        refresh_all(core)
    seen = {r["path"]: (r["port"], r["authorization"]) for r in server.requests()}
    assert seen["/data/carfit.json"] == (server.ports[0], f"Bearer {TOKEN}")
    for path in ("/data/articles.json", "/data/catalog.json", "/data/patterns.json"):
        assert seen[path] == (server.ports[1], None)


def test_configured_origins_replace_the_default(server):
    # Only the second origin (written with its default-less port, as a host would) receives it.
    origin_b = f"http://127.0.0.1:{server.ports[1]}/"
    sources = {"visits": server.url(0, "/data/carfit.json"), "catalog": server.url(1, "/data/catalog.json")}
    with open_core(auth={"origins": [origin_b]}, **sources) as core:
        core.auth_set(TOKEN, scheme="Token")
        core.refresh_visits()
        core.refresh_catalog()
    assert [r["authorization"] for r in server.requests()] == [None, f"Token {TOKEN}"]


def test_no_token_no_header(server):
    with open_core(**all_sources(server)) as core:
        refresh_all(core)
    assert {r["authorization"] for r in server.requests()} == {None}


def test_a_redirect_to_another_origin_drops_it(server):
    elsewhere = server.url(1, "/data/carfit.json")
    with open_core(visits=server.url(0, f"/redirect?to={elsewhere}")) as core:
        core.auth_set(TOKEN)
        assert core.refresh_visits()["imported"] == 7
    assert [(r["port"], r["authorization"]) for r in server.requests()] == [
        (server.ports[0], f"Bearer {TOKEN}"), (server.ports[1], None)]


def test_positions_and_attachments_to_the_planner_carry_it_and_a_third_party_upload_never(server, tmp_path):
    header = f"Bearer {TOKEN}"
    sources = {"visitUpdates": server.url(0, "/updates"), "locations": server.url(0, "/locations"),
               "attachments": server.url(0, "/attachments")}
    with open_core(tmp_path / "a.db", **sources) as core:
        core.import_visits(json.loads((ROOT / "examples" / "data" / "carfit.json").read_text()))
        core.auth_set(TOKEN)
        core.report_location(55.7, 12.5, 5)
        note = core.attach(MADS, "note", text="Gate code 1234")["attachment"]
        answer = core.push()
        assert answer["locations"] == {"pushed": 1, "pending": 0}
        assert answer["attachments"] == {"uploaded": 1, "pending": 0, "failed": 0}
    seen = [(r["method"], r["path"], r["authorization"]) for r in server.requests()]
    assert seen == [("POST", "/locations", header), ("PUT", f"/attachments/{note['id']}", header)]

    # The same uploads to a store on another origin (not the planner's) never carry it.
    server.clear()
    elsewhere = dict(sources, attachments=server.url(1, "/attachments"))
    with open_core(tmp_path / "b.db", **elsewhere) as core:
        core.import_visits(json.loads((ROOT / "examples" / "data" / "carfit.json").read_text()))
        core.auth_set(TOKEN)
        core.attach(MADS, "note", text="Gate code 1234")
        assert core.push()["attachments"]["uploaded"] == 1
    assert [(r["port"], r["authorization"]) for r in server.requests()] == [(server.ports[1], None)]


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_position_push_keeps_the_trail_without_a_backoff(server, status, tmp_path):
    with open_core(tmp_path / "p.db", locations=server.url(0, f"/status/{status}")) as core:
        core.report_location(55.7, 12.5, 5)
        with pytest.raises(carfit.UnauthorizedError) as raised:
            core.push()
        assert raised.value.document["reason"] == "unauthorized"
        assert raised.value.document["httpStatus"] == status
        assert core.location_status()["trail"] == {"stored": 1, "pending": 1}
        sync = core.sync_status()
        assert sync["consecutiveFailures"] == 0 and sync["nextAttemptAt"] is None
        assert sync["lastError"]["reason"] == "unauthorized"
        assert core.push(if_due=True)["skipped"] == "unauthorized"
        assert len(server.requests()) == 1
        assert [e["source"] for e in drain(core) if e["kind"] == "auth"] == ["locations"]


# ----------------------------------------------------------------------------------------------
# 401 and 403
# ----------------------------------------------------------------------------------------------

REFRESH = {"visits": lambda c: c.refresh_visits(), "articles": lambda c: c.refresh_articles(),
           "catalog": lambda c: c.refresh_catalog(), "patterns": lambda c: c.refresh_patterns(count=2)}


@pytest.mark.parametrize("status", [401, 403])
@pytest.mark.parametrize("source", sorted(REFRESH))
def test_a_refused_refresh_is_unauthorized_recorded_not_offline_and_announced_once(server, source, status):
    sample = json.loads((ROOT / "examples" / "data" / "carfit.json").read_text())
    url = server.url(0, f"/status/{status}")
    with open_core(**{source: url}) as core:
        core.import_visits(sample)
        before = core.list_visits(dates=["2020-09-10"])
        for _ in range(2):
            with pytest.raises(carfit.UnauthorizedError) as raised:
                REFRESH[source](core)
            assert raised.value.document["reason"] == "unauthorized"
            assert raised.value.document["httpStatus"] == status
            assert raised.value.document["url"] == url
        assert core.list_visits(dates=["2020-09-10"]) == before
        state = core.sources_status()
        assert state["offline"] is False
        assert state["sources"][source]["lastError"]["reason"] == "unauthorized"
        assert state["sources"][source]["lastError"]["httpStatus"] == status
        auth_events = [e for e in drain(core) if e["kind"] == "auth"]
        assert [{k: v for k, v in e.items() if k != "seq"} for e in auth_events] == [
            {"kind": "auth", "status": "required", "source": source, "httpStatus": status}]
        status_now = core.auth_status()["auth"]
        assert status_now["required"] is True and status_now["source"] == source
        assert status_now["requiredAt"] == "2020-09-10T07:00:00Z"
        # The same token again is a new token: the next refusal is announced again.
        core.auth_set(TOKEN)
        core.auth_set(TOKEN)
        last = drain(core)[-1]["seq"]
        with pytest.raises(carfit.UnauthorizedError):
            REFRESH[source](core)
        assert [e["kind"] for e in drain(core, last) if e["kind"] == "auth"] == ["auth"]


def test_the_token_makes_a_protected_source_answer(server):
    server.set_token(TOKEN)
    with open_core(visits=server.url(0, "/token/data/carfit.json")) as core:
        with pytest.raises(carfit.UnauthorizedError):
            core.refresh_visits()
        core.auth_set("wrong")
        with pytest.raises(carfit.UnauthorizedError):
            core.refresh_visits()
        core.auth_set(TOKEN)
        assert core.refresh_visits()["imported"] == 7
        assert core.auth_status()["auth"]["required"] is False


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_push_keeps_everything_and_if_due_pushes_make_no_request(server, status, tmp_path):
    server.set_token(TOKEN)
    sources = {"visitUpdates": server.url(0, f"/status/{status}")}
    with open_core(tmp_path / "p.db", **sources) as core:
        core.import_visits(json.loads((ROOT / "examples" / "data" / "carfit.json").read_text()))
        core.set_visit_state(MADS, "InProgress")
        with pytest.raises(carfit.UnauthorizedError) as raised:
            core.push()
        assert raised.value.document["httpStatus"] == status
        sync = core.sync_status()
        assert sync["pending"] == 1
        assert sync["consecutiveFailures"] == 0 and sync["nextAttemptAt"] is None
        assert sync["lastError"]["reason"] == "unauthorized" and sync["lastError"]["httpStatus"] == status
        assert core.sources_status()["offline"] is False
        for _ in range(5):
            assert core.push(if_due=True) == {"pushed": 0, "rejected": 0, "pending": 1, "skipped": "unauthorized"}
        assert len(server.requests()) == 1
        events = [e for e in drain(core) if e["kind"] == "auth"]
        assert [(e["source"], e["httpStatus"]) for e in events] == [("visitUpdates", status)]
        # A push without if_due always tries.
        with pytest.raises(carfit.UnauthorizedError):
            core.push()
        assert len(server.requests()) == 2
        assert core.sync_status()["consecutiveFailures"] == 0


def test_after_a_token_the_next_if_due_push_goes_whatever_the_backoff(server, tmp_path):
    server.set_token(TOKEN)
    with open_core(tmp_path / "p.db", visitUpdates=server.url(0, "/token/updates")) as core:
        core.import_visits(json.loads((ROOT / "examples" / "data" / "carfit.json").read_text()))
        core.set_visit_state(MADS, "InProgress")
        with pytest.raises(carfit.UnauthorizedError):
            core.push()
        assert core.push(if_due=True)["skipped"] == "unauthorized"
        core.auth_set(TOKEN)
        assert core.push(if_due=True) == {"pushed": 1, "rejected": 0, "pending": 0}
        assert core.sync_status()["lastError"] is None
    assert [r["authorization"] for r in server.requests()] == [None, f"Bearer {TOKEN}"]


# ----------------------------------------------------------------------------------------------
# The token is written nowhere
# ----------------------------------------------------------------------------------------------

def test_the_token_is_in_no_database_file_error_document_or_event(server, tmp_path):
    secret = "Zq8-" + "unmistakable-planner-token-7731"
    server.set_token(secret)
    database = tmp_path / "secret.db"
    texts = []
    good = all_sources(server, prefix="/token")
    with open_core(database, **good) as core:
        core.import_visits(json.loads((ROOT / "examples" / "data" / "carfit.json").read_text()))
        core.set_visit_state(MADS, "InProgress")
        texts.append(json.dumps(core.auth_set(secret)))
        refresh_all(core)
        texts.append(json.dumps(core.push()))
        core.set_visit_state(MADS, "Done")
        # Refusals with the token set: error documents and events.
        core.auth_set("not-" + secret[:3])
        for refresh in REFRESH.values():
            with pytest.raises(carfit.UnauthorizedError) as raised:
                refresh(core)
            texts.append(json.dumps(raised.value.response))
        core.auth_set(secret)
        server.set_token("revoked-by-the-planner")
        with pytest.raises(carfit.UnauthorizedError) as refused:
            core.refresh_patterns(count=1)
        texts.append(json.dumps(refused.value.response))
        with pytest.raises(carfit.UnauthorizedError) as push_refused:
            core.push()
        texts.append(json.dumps(push_refused.value.response))
        texts.append(json.dumps(core.sources_status()))
        texts.append(json.dumps(core.sync_status()))
        texts.append(json.dumps(core.auth_status()))
        texts.append(json.dumps(drain(core)))
        files = [p for p in tmp_path.iterdir() if p.name.startswith("secret.db")]
        assert any(p.name == "secret.db" for p in files)
        for path in files:
            assert secret.encode() not in path.read_bytes(), path.name
    # After closing too (the WAL checkpointed into the file).
    for path in tmp_path.iterdir():
        assert secret.encode() not in path.read_bytes(), path.name
    for text in texts:
        assert secret not in text
    assert any("unauthorized" in text for text in texts)
