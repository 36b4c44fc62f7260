"""ECB reference rates through Frankfurter, against a recorded /latest on 127.0.0.1."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from adapterkit import fixture_json, json_response
from pytest_httpserver import HTTPServer
from werkzeug import Response

from vouched import GuardedSource, Policy, fetch_sync, partition
from vouched_adapters import FrankfurterRates, next_publication, publication_time
from vouched_adapters.rates import is_publication_day


def rates(server: HTTPServer) -> FrankfurterRates:
    return FrankfurterRates(base_url=server.url_for(""))


def serve(server: HTTPServer, body: object) -> None:
    server.expect_request("/latest").respond_with_response(json_response(body))


def test_one_fact_per_pair_with_the_rate_as_published(server: HTTPServer) -> None:
    serve(server, fixture_json("frankfurter_latest.json"))
    facts = fetch_sync(rates(server), {})
    assert [(f.subject, f.attribute, f.value, f.unit) for f in facts] == [
        ("EUR/USD", "exchange_rate", Decimal("1.0562"), "USD per EUR"),
        ("EUR/GBP", "exchange_rate", Decimal("0.8395"), "GBP per EUR"),
    ]
    assert facts[0].citation == "ecb/2026-11-27/EURUSD"


def test_the_request_asks_from_base_to_symbols(server: HTTPServer) -> None:
    serve(server, fixture_json("frankfurter_latest.json"))
    fetch_sync(rates(server), {"symbols": ["usd", "gbp"]})
    request, _ = server.log[0]
    assert (request.args["from"], request.args["to"]) == ("EUR", "USD,GBP")


def test_observed_at_is_the_publication_at_16_00_frankfurt_time(server: HTTPServer) -> None:
    serve(server, fixture_json("frankfurter_latest.json"))  # Friday 2026-11-27, CET
    facts = fetch_sync(rates(server), {})
    assert facts[0].observed_at == datetime(2026, 11, 27, 15, 0, tzinfo=UTC)


def test_summer_publications_are_at_16_00_cest() -> None:
    assert publication_time(date(2026, 7, 1)) == datetime(2026, 7, 1, 14, 0, tzinfo=UTC)


def test_a_friday_rate_stays_current_until_monday_afternoon(server: HTTPServer) -> None:
    serve(server, fixture_json("frankfurter_latest.json"))
    facts = fetch_sync(rates(server), {})
    assert facts[0].ttl == timedelta(days=3)


def test_a_weekday_rate_lasts_one_day() -> None:
    assert next_publication(date(2026, 11, 24)) - publication_time(date(2026, 11, 24)) == (
        timedelta(days=1)
    )


def test_target_closing_days_are_skipped() -> None:
    # Maundy Thursday 2026-04-02 -> Good Friday and Easter Monday are closed -> Tuesday
    assert next_publication(date(2026, 4, 2)) == publication_time(date(2026, 4, 7))
    assert next_publication(date(2026, 12, 24)) == publication_time(date(2026, 12, 28))
    assert not is_publication_day(date(2027, 1, 1))


def test_the_dst_change_is_kept_in_the_ttl() -> None:
    # Friday 2026-10-23 16:00 CEST -> Monday 2026-10-26 16:00 CET: one hour longer
    ttl = next_publication(date(2026, 10, 23)) - publication_time(date(2026, 10, 23))
    assert ttl == timedelta(days=3, hours=1)


def test_the_gate_grounds_a_friday_rate_on_sunday_and_strips_it_after_monday(
    server: HTTPServer,
) -> None:
    serve(server, fixture_json("frankfurter_latest.json"))
    facts = fetch_sync(rates(server), {})
    sunday = datetime(2026, 11, 29, 12, tzinfo=UTC)
    monday_late = datetime(2026, 11, 30, 15, 0, 1, tzinfo=UTC)
    assert len(partition(facts, Policy(), sunday).grounded) == 2
    assert partition(facts, Policy(), monday_late).grounded == ()


def test_a_symbol_missing_from_the_rates_is_no_data(server: HTTPServer) -> None:
    body = fixture_json("frankfurter_latest.json")
    del body["rates"]["GBP"]
    serve(server, body)
    facts = fetch_sync(rates(server), {})
    assert [(f.subject, f.silent_reason) for f in facts] == [
        ("EUR/USD", None),
        ("EUR/GBP", "no_data"),
    ]


def test_empty_rates_are_no_data_for_every_pair(server: HTTPServer) -> None:
    body = fixture_json("frankfurter_latest.json")
    body["rates"] = {}
    serve(server, body)
    facts = fetch_sync(GuardedSource(rates(server)), {})
    assert [(f.subject, f.silent_reason) for f in facts] == [
        ("EUR/USD", "no_data"),
        ("EUR/GBP", "no_data"),
    ]


@pytest.mark.parametrize(
    "change",
    [{"base": "USD"}, {"date": "27.11.2026"}, {"rates": [1.05]}, {"amount": 10.0}],
    ids=["other-base", "bad-date", "rates-not-object", "amount-not-one"],
)
def test_wrong_shapes_are_malformed(server: HTTPServer, change: dict[str, object]) -> None:
    serve(server, {**fixture_json("frankfurter_latest.json"), **change})
    facts = fetch_sync(GuardedSource(rates(server)), {})
    assert {f.silent_reason for f in facts} == {"malformed"}
    assert [f.subject for f in facts] == ["EUR/USD", "EUR/GBP"]


def test_a_rate_that_is_not_a_positive_number_is_malformed_for_that_pair(
    server: HTTPServer,
) -> None:
    body = fixture_json("frankfurter_latest.json")
    body["rates"]["USD"] = "1.05"
    serve(server, body)
    facts = fetch_sync(rates(server), {})
    assert [f.silent_reason for f in facts] == ["malformed", None]


def test_a_moved_api_is_followed_to_its_new_address(server: HTTPServer) -> None:
    server.expect_request("/latest").respond_with_response(
        Response(status=301, headers={"Location": server.url_for("/v1/latest")})
    )
    server.expect_request("/v1/latest").respond_with_response(
        json_response(fixture_json("frankfurter_latest.json"))
    )
    facts = fetch_sync(rates(server), {})
    assert [f.value for f in facts] == [Decimal("1.0562"), Decimal("0.8395")]
