"""Forecast adapters against recorded responses on 127.0.0.1: facts valid for a period."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from adapterkit import BERLIN, fixture_json, json_response
from pytest_httpserver import HTTPServer

from vouched import Fact, fetch_sync
from vouched.testing import FakeClock
from vouched_adapters import OpenMeteoForecastSource, OpenWeatherForecastSource

FETCHED = datetime(2026, 12, 4, 8, 30, tzinfo=UTC)


def _openweather(server: HTTPServer) -> list[Fact]:
    server.expect_request("/data/2.5/forecast").respond_with_response(
        json_response(fixture_json("openweather_forecast.json"))
    )
    source = OpenWeatherForecastSource(base_url=server.url_for(""), clock=FakeClock(FETCHED))
    return list(fetch_sync(source, BERLIN))


def _open_meteo(server: HTTPServer) -> list[Fact]:
    server.expect_request("/v1/forecast").respond_with_response(
        json_response(fixture_json("open_meteo_forecast.json"))
    )
    source = OpenMeteoForecastSource(base_url=server.url_for(""), clock=FakeClock(FETCHED))
    return list(fetch_sync(source, BERLIN))


def _one(facts: list[Fact], attribute: str, start: str, until: str | None = None) -> Fact:
    (found,) = [
        f
        for f in facts
        if f.attribute == attribute
        and f.valid_from == datetime.fromisoformat(start)
        and (until is None or f.valid_until == datetime.fromisoformat(until))
    ]
    return found


def test_openweather_slot_is_a_fact_for_its_three_hours_in_local_time(server: HTTPServer) -> None:
    fact = _one(_openweather(server), "temperature", "2026-12-04T10:00:00+01:00")
    assert fact.value == Decimal("3.2")
    assert fact.unit == "°C"
    assert fact.valid_until == datetime.fromisoformat("2026-12-04T13:00:00+01:00")
    assert fact.valid_from is not None
    assert fact.valid_from.utcoffset() == timedelta(hours=1)


def test_openweather_condition_is_a_string_fact_in_words(server: HTTPServer) -> None:
    fact = _one(_openweather(server), "condition", "2026-12-04T13:00:00+01:00")
    assert fact.value == "light rain"


def test_openweather_day_high_widens_with_the_slots_own_spread(server: HTTPServer) -> None:
    high = _one(_openweather(server), "temperature_max", "2026-12-04T00:00:00+01:00")
    assert high.value == Decimal("5.8")
    low = _one(_openweather(server), "temperature_min", "2026-12-04T00:00:00+01:00")
    assert low.value == Decimal("2.9")


def test_openweather_day_total_sums_its_slots(server: HTTPServer) -> None:
    total = _one(_openweather(server), "rain_total", "2026-12-04T00:00:00+01:00")
    assert total.value == Decimal("0.42")


def test_openweather_day_carries_its_date(server: HTTPServer) -> None:
    date = _one(_openweather(server), "date", "2026-12-05T00:00:00+01:00")
    assert date.value == "2026-12-05"


def test_forecast_is_observed_when_it_was_fetched(server: HTTPServer) -> None:
    assert {f.observed_at for f in _openweather(server)} == {FETCHED}


def test_openweather_request_asks_for_metric_units(server: HTTPServer) -> None:
    _openweather(server)
    request, _ = server.log[0]
    assert request.args["units"] == "metric"
    assert request.args["lat"] == "52.52"


def test_open_meteo_hourly_slot_is_a_fact_for_its_hour(server: HTTPServer) -> None:
    fact = _one(_open_meteo(server), "temperature", "2026-12-04T01:00:00+01:00")
    assert fact.value == Decimal("1.8")
    assert fact.valid_until == datetime.fromisoformat("2026-12-04T02:00:00+01:00")


def test_open_meteo_daily_values_are_the_days_own(server: HTTPServer) -> None:
    facts = _open_meteo(server)
    assert _one(facts, "temperature_max", "2026-12-04T00:00:00+01:00").value == Decimal("7.4")
    assert _one(facts, "precipitation_total", "2026-12-04T00:00:00+01:00").value == Decimal("2.6")


def test_open_meteo_wmo_codes_become_words(server: HTTPServer) -> None:
    facts = _open_meteo(server)
    assert _one(facts, "condition", "2026-12-04T01:00:00+01:00").value == "slight rain"
    hour = _one(facts, "condition", "2026-12-04T00:00:00+01:00", "2026-12-04T01:00:00+01:00")
    day = _one(facts, "condition", "2026-12-04T00:00:00+01:00", "2026-12-05T00:00:00+01:00")
    assert (hour.value, day.value) == ("overcast", "moderate rain")


def test_open_meteo_request_names_hourly_and_daily_variables(server: HTTPServer) -> None:
    _open_meteo(server)
    request, _ = server.log[0]
    assert "temperature_2m" in request.args["hourly"].split(",")
    assert "temperature_2m_max" in request.args["daily"].split(",")


def test_a_local_copy_without_timezone_is_read_with_the_offset_given() -> None:
    body = fixture_json("openweather_forecast.json")
    del body["city"]["timezone"]
    facts = OpenWeatherForecastSource().parse(
        body, observed_at=FETCHED, utc_offset=timedelta(hours=-5)
    )
    first = _one(facts, "temperature", "2026-12-04T09:00:00-05:00")
    assert first.value == Decimal("3.2")
