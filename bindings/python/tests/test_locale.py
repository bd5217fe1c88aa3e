"""The config's locale and currency through the library: every text against what Babel 2.18.0
and ICU 72 give (Tests/fixtures/locale/*.json, written by scripts/gen-locale-fixtures), the
refusals, and that without a locale nothing changes."""
import json
from pathlib import Path

import pytest

import carfit

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = {p.stem: json.loads(p.read_text(encoding="utf-8"))
            for p in sorted((ROOT / "Tests" / "fixtures" / "locale").glob("*.json"))}
NOW = "2026-06-15T12:00:00Z"
STYLES = {"default": None, "hour24": True, "hour12": False}


def open_core(**config):
    return carfit.Core({"now": NOW, "timeZone": "UTC", **config})


def instant(day, minute):
    return f"{day}T{minute // 60:02d}:{minute % 60:02d}:00Z"


def test_every_supported_locale_has_a_fixture():
    assert sorted(FIXTURES) == ["da", "de", "en-GB", "en-US", "nb", "sv"]


@pytest.mark.parametrize("tag", ["fr", "en-AU", "da-SE", "", "english", "de_AT"])
def test_an_unsupported_locale_is_refused_with_the_supported_tags(lib, tag):
    with pytest.raises(carfit.InvalidError) as caught:
        open_core(locale=tag)
    assert caught.value.field == "locale"
    for supported in ["en", "en-US", "en-GB", "da", "da-DK", "nb", "nb-NO", "no", "sv", "sv-SE", "de", "de-DE"]:
        assert supported in caught.value.message


@pytest.mark.parametrize("code", ["CHF", "usd", "", "EURO"])
def test_an_unsupported_currency_is_refused(lib, code):
    with pytest.raises(carfit.InvalidError) as caught:
        open_core(locale="da", currency=code)
    assert caught.value.field == "currency"


@pytest.mark.parametrize("tag", ["EN_gb", "nb_NO", "NO", "Sv-Se", "de_de", "DA"])
def test_tags_are_read_case_insensitively_with_either_separator(lib, tag):
    with open_core(locale=tag) as core:
        assert core.call("calendar.month", {"year": 2026, "month": 3})["title"]


@pytest.mark.parametrize("tag", sorted(FIXTURES))
def test_article_dates_and_times_in_each_clock_style(lib, tag):
    fixture = FIXTURES[tag]
    rows = [r for r in fixture["dates"] if r["currentYear"] == 2026 and r["date"] >= "1000"]
    assert len(rows) >= 6
    for config_style, config_hour24 in STYLES.items():
        config = {} if config_hour24 is None else {"hour24": config_hour24}
        with open_core(locale=fixture["config"], **config) as core:
            for row in rows:
                at = instant(row["date"], row["minute"])
                assert core.call("articles.format_date", {"date": at})["text"] == row[config_style], (tag, at)
                # A request's own clock style counts as given.
                for style in ("hour24", "hour12"):
                    asked = core.call("articles.format_date", {"date": at, "hour24": STYLES[style]})
                    assert asked["text"] == row[style]


@pytest.mark.parametrize("tag", sorted(FIXTURES))
def test_the_calendar_in_the_locale(lib, tag):
    fixture = FIXTURES[tag]
    weekdays = fixture["weekdays"]
    with open_core(locale=fixture["config"]) as core:
        for row in fixture["months"]:
            month = core.call("calendar.month", {"year": row["year"], "month": row["month"]})
            assert month["title"] == row["title"]
            assert month["firstWeekday"] == fixture["firstWeekday"]
            first = 6 if fixture["firstWeekday"] == "sunday" else 0
            assert month["weekdays"] == [weekdays[(i + first) % 7] for i in range(7)]
            assert {d["weekday"] for d in month["days"]} <= set(weekdays)
    # The config's own firstWeekday wins over the locale's.
    with open_core(locale=fixture["config"], firstWeekday="monday") as core:
        assert core.call("calendar.month", {"year": 2026, "month": 3})["firstWeekday"] == "monday"


@pytest.mark.parametrize("tag", sorted(FIXTURES))
def test_amounts_in_every_currency(lib, tag):
    fixture = FIXTURES[tag]
    for currency in ["USD", "DKK", "NOK", "SEK", "EUR", "GBP"]:
        rows = [r for r in fixture["money"] if r["currency"] == currency]
        with open_core(locale=fixture["config"], currency=currency) as core:
            core.call("transactions.import", {"transactions": [
                {"id": i, "category": "food", "amount": f"{r['cents'] / 100:.2f}" if abs(r["cents"]) < 10**15 else
                 ("-" if r["cents"] < 0 else "") + str(abs(r["cents"]) // 100), "date": "2026-01-01"}
                for i, r in enumerate(rows)]})
            listed = core.call("transactions.list", {})
            by_id = {t["id"]: t for t in listed["transactions"]}
            for i, r in enumerate(rows):
                assert by_id[i]["amountText"] == r["text"], (tag, currency, r["cents"])
            total = sum(r["cents"] for r in rows)
            assert listed["sumText"] == text_of(fixture, currency, total) or total not in cents_of(fixture, currency)
            insights = core.call("insights.get", {})
            assert "sumText" in insights and all("sumText" in c for c in insights["categories"])


def cents_of(fixture, currency):
    return {r["cents"] for r in fixture["money"] if r["currency"] == currency}


def text_of(fixture, currency, cents):
    return next((r["text"] for r in fixture["money"] if r["currency"] == currency and r["cents"] == cents), None)


@pytest.mark.parametrize("tag", sorted(FIXTURES))
def test_prices_in_the_catalog_and_the_cart(lib, tag):
    fixture = FIXTURES[tag]
    prices = [r for r in fixture["money"] if r["currency"] == "DKK" and 0 <= r["cents"] <= 100_000_000]
    with open_core(locale=fixture["config"], currency="DKK") as core:
        core.call("catalog.import", {"products": [
            {"id": 100 + i, "name": f"P{i}", "category": "c", "price": f"{r['cents'] / 100:.2f}"}
            for i, r in enumerate(prices)]})
        listed = {p["id"]: p for p in core.call("catalog.list", {"sort": "none"})["products"]}
        for i, r in enumerate(prices):
            assert listed[100 + i]["priceText"] == r["text"]
            assert core.call("catalog.product", {"id": 100 + i})["product"]["priceText"] == r["text"]
        core.call("employees.create", {"pin": "4821", "firstName": "Ada", "lastName": "Lovelace",
                                       "hiredOn": "2024-03-01"})
        core.call("session.login", {"pin": "4821"})
        cart = core.call("cart.add", {"productId": 101, "quantity": 3})["cart"]
        assert cart["lines"][0]["priceText"] == prices[1]["text"]


def ranked(fixture, index):
    names_list = fixture["names"][index]
    return dict(zip(names_list["names"], names_list["ranks"]))


def in_icu_order(names, ranks, old_order):
    """ICU's order, names it ranks equal in `old_order` (1.3's)."""
    position = {name: i for i, name in enumerate(old_order)}
    return sorted(names, key=lambda n: (ranks[n], position[n]))


@pytest.mark.parametrize("tag", sorted(FIXTURES))
def test_products_and_categories_in_the_locale_order(lib, tag):
    fixture = FIXTURES[tag]
    names = list(dict.fromkeys(fixture["names"][0]["names"]))
    ranks = ranked(fixture, 0)
    categories = list(dict.fromkeys(fixture["names"][1]["names"]))
    category_ranks = ranked(fixture, 1)
    products = [{"id": i + 1, "name": n, "category": categories[i % len(categories)], "price": 1}
                for i, n in enumerate(names)]
    with open_core() as plain:
        plain.call("catalog.import", {"products": products})
        old = plain.call("catalog.list", {})
        old_names = [p["name"] for p in old["products"]]
        old_descending = [p["name"] for p in plain.call("catalog.list", {"sort": "-name"})["products"]]
    with open_core(locale=fixture["config"]) as core:
        core.call("catalog.import", {"products": products})
        page = core.call("catalog.list", {})
        assert [p["name"] for p in page["products"]] == in_icu_order(names, ranks, old_names)
        assert page["categories"] == in_icu_order(categories, category_ranks, old["categories"])
        descending = [p["name"] for p in core.call("catalog.list", {"sort": "-name"})["products"]]
        assert descending == list(reversed(in_icu_order(names, ranks, list(reversed(old_descending)))))


@pytest.mark.parametrize("tag", sorted(FIXTURES))
def test_employees_in_the_locale_order(lib, tag):
    fixture = FIXTURES[tag]
    ranks = ranked(fixture, 0)
    seen, last_names = set(), []
    for n in fixture["names"][0]["names"]:
        if n.strip() and n.lower() not in seen:
            seen.add(n.lower())
            last_names.append(n)
    with open_core(locale=fixture["config"]) as core, open_core() as plain:
        for c in (core, plain):
            for i, n in enumerate(last_names):
                c.call("employees.create", {"pin": f"{1000 + i}", "firstName": "Kim", "lastName": n,
                                            "hiredOn": "2024-03-01"})
        old = [e["lastName"] for e in plain.call("employees.list", {})["employees"]]
        listed = [e["lastName"] for e in core.call("employees.list", {})["employees"]]
        assert listed == in_icu_order(last_names, ranks, old)


def test_without_a_locale_the_currency_changes_nothing(lib):
    requests = [("calendar.month", {"year": 2026, "month": 3}),
                ("articles.format_date", {"date": "2026-03-04T08:05:00Z"}),
                ("articles.format_date", {"date": "2017-12-20T21:43:00Z", "hour24": False}),
                ("transactions.list", {}), ("insights.get", {}), ("catalog.list", {})]
    answers = []
    for config in ({}, {"currency": "DKK"}, {"currency": "SEK", "hour24": False}):
        with open_core(**config) as core:
            core.call("transactions.import", {"transactions": [{"id": 1, "category": "food", "amount": -1234.5,
                                                                "date": "2026-01-01"}]})
            core.call("catalog.import", {"products": [{"id": 1, "name": "Øl", "price": 3}, {"id": 2, "name": "Zebra", "price": 4}]})
            answers.append([core.call_text(m, r) for m, r in requests])
    assert answers[0] == answers[1]
    for text in answers[0] + answers[2]:
        assert "Text\"" not in text
    assert json.loads(answers[0][1])["text"] == "4 March, 08:05"
    assert json.loads(answers[2][2])["text"] == "20 December 2017, 09:43 PM"


@pytest.mark.parametrize("tag", sorted(FIXTURES))
def test_card_start_times_and_notification_bodies(lib, sample, tag):
    """visits.list writes each card's startTime as the locale does, in the config's clock style
    or the request's; a visit at each of the fixture's minutes (UTC, so the minute is local)."""
    fixture = FIXTURES[tag]
    template = sample["data"][0]
    visits = []
    for i, row in enumerate(fixture["times"]):
        visit = dict(template, visitId=f"00000000-0000-4000-8000-{i:012d}",
                     startTimeUtc=instant("2026-06-15", row["minute"])[:-1])
        visit["endTimeUtc"] = visit["startTimeUtc"]
        visits.append(visit)
    for config_style, config_hour24 in STYLES.items():
        config = {} if config_hour24 is None else {"hour24": config_hour24}
        with open_core(locale=fixture["config"], **config) as core:
            core.call("visits.import", dict(sample, data=visits))
            cards = core.call("visits.list", {"dates": ["2026-06-15"]})["days"][0]["visits"]
            assert [c["startTime"] for c in cards] == [r[config_style] for r in fixture["times"]]
            for style in ("hour24", "hour12"):
                cards = core.call("visits.list", {"dates": ["2026-06-15"], "hour24": STYLES[style]})["days"][0]["visits"]
                assert [c["startTime"] for c in cards] == [r[style] for r in fixture["times"]]
