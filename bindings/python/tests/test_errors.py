"""Statuses become typed exceptions carrying the error document: the classes, the members of
an error, and the refusals only the C boundary gives (JSON it cannot parse, a member of the wrong
type, an unknown method, a request over the size limit, a database it cannot open). The config
document's refusals are specified in Swift (ConfigTests)."""

from __future__ import annotations

import pytest

import carfit
from carfit.errors import error_class, error_from_response


def test_class_per_status():
    expected = {
        1: carfit.BadJSONError,
        2: carfit.InvalidError,
        3: carfit.NotFoundError,
        4: carfit.ConflictError,
        5: carfit.UnauthorizedError,
        6: carfit.UnavailableError,
        7: carfit.StorageError,
        8: carfit.MisuseError,
        9: carfit.InternalError,
    }
    for status, cls in expected.items():
        assert error_class(status) is cls
        assert issubclass(cls, carfit.CarfitError)
        assert carfit.status_name(status) == cls(status).code
    assert error_class(0) is carfit.CarfitError
    assert error_class(42) is carfit.CarfitError


def test_error_from_response_unknown_status():
    err = error_from_response(42, {"error": {"code": "mystery", "message": "Odd."}})
    assert type(err) is carfit.CarfitError
    assert (err.status, err.code, err.message, err.field) == (42, "mystery", "Odd.", None)
    assert err.response == {"error": {"code": "mystery", "message": "Odd."}}


def test_error_without_response():
    err = error_from_response(7, None)
    assert isinstance(err, carfit.StorageError)
    assert err.code == "storage"
    assert err.document == {}


def test_bad_date_names_field(loaded):
    with pytest.raises(carfit.InvalidError) as info:
        loaded.list_visits(dates=["2020-02-30"])
    err = info.value
    assert err.status == 2
    assert err.code == "invalid"
    assert err.field == "dates[0]"
    assert err.document["field"] == "dates[0]"
    assert err.message
    assert str(err).startswith("invalid [dates[0]]: ")


def test_config_typo_is_refused_with_the_nearest_member(lib):
    with pytest.raises(carfit.InvalidError) as info:
        carfit.Core(timezone="Europe/Copenhagen")
    assert info.value.field == "timezone"
    assert info.value.message == "Unknown config member timezone: did you mean timeZone?"


def test_bad_json_config(lib):
    with pytest.raises(carfit.BadJSONError) as info:
        carfit.Core('{"timeZone": ')
    err = info.value
    assert err.status == 1
    assert err.code == "bad_json"
    for key in ("line", "column", "position"):
        assert isinstance(err.document[key], int)
    assert err.line == 1
    assert err.column == err.document["column"]
    assert err.position == err.document["position"]


def test_config_not_an_object(lib):
    with pytest.raises(carfit.BadJSONError):
        carfit.Core("[]")


def test_bad_json_request(core):
    with pytest.raises(carfit.BadJSONError) as info:
        core.call("visits.list", '{"dates": [')
    assert {"line", "column", "position"} <= set(info.value.document)


def test_invalid_utf8_request(core):
    with pytest.raises(carfit.BadJSONError):
        core.call("visits.list", b'{"employeeId": "\xff"}')


def test_deep_nesting_request(core):
    with pytest.raises(carfit.BadJSONError):
        core.call("visits.list", '{"a":' * 5000 + "1" + "}" * 5000)


def test_wrong_member_type(core):
    with pytest.raises(carfit.InvalidError) as info:
        core.call("visits.list", {"dates": "2020-09-10"})
    assert info.value.field == "dates"


def test_storage_error(lib, tmp_path):
    with pytest.raises(carfit.StorageError) as info:
        carfit.Core(database=str(tmp_path / "missing" / "dir" / "x.db"))
    assert info.value.field == "database"


def test_not_a_database(lib, tmp_path):
    # Without SQLite's header a file may be an encrypted database: a key is asked for.
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not an SQLite database, just some text" * 100)
    with pytest.raises(carfit.UnauthorizedError) as info:
        carfit.Core(database=str(junk))
    assert info.value.document.get("reason") == "key_required"


def test_unknown_method(core):
    with pytest.raises(carfit.MisuseError) as info:
        core.call("visits.teleport")
    assert info.value.field == "method"


def test_null_method(core):
    with pytest.raises(carfit.MisuseError) as info:
        core.call(None)
    assert info.value.field == "method"


def test_request_larger_than_limit(lib):
    with carfit.Core(maxRequestBytes=64) as core:
        with pytest.raises(carfit.InvalidError):
            core.call("calendar.get", {"padding": "x" * 100})
