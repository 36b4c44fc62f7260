"""Forecast adapters against recorded responses on 127.0.0.1: facts valid for a period."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from adapterkit import BERLIN, fixture_json, fixture_text, json_response
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


SEEN = ("2026-12-04T10:00:00+01:00", "2026-12-04T16:00:00+01:00")  # the slots of the 4th


def test_openweather_day_high_widens_with_the_slots_own_spread(server: HTTPServer) -> None:
    high = _one(_openweather(server), "temperature_max", *SEEN)
    assert high.value == Decimal("5.8")
    low = _one(_openweather(server), "temperature_min", *SEEN)
    assert low.value == Decimal("2.9")


def test_openweather_day_total_sums_its_slots(server: HTTPServer) -> None:
    total = _one(_openweather(server), "rain_total", *SEEN)
    assert total.value == Decimal("0.42")


def test_an_aggregate_of_part_of_a_day_is_valid_for_the_hours_its_slots_cover(
    server: HTTPServer,
) -> None:
    facts = _openweather(server)
    midnight = datetime.fromisoformat("2026-12-04T00:00:00+01:00")
    assert not [f for f in facts if f.attribute == "temperature_max" and f.valid_from == midnight]
    assert _one(facts, "date", "2026-12-04T00:00:00+01:00").value == "2026-12-04"  # whole day


def test_an_aggregate_of_slots_that_last_a_whole_day_is_the_days() -> None:
    body = {"city": {"name": "Bucharest", "timezone": 0},
            "list": [{"dt_txt": f"2025-02-03 {h:02d}:00:00", "main": {"temp": h}}
                     for h in (0, 6, 12, 18)]}  # fmt: skip
    facts = OpenWeatherForecastSource().parse(body, observed_at=FETCHED)
    high = _one(facts, "temperature_max", "2025-02-03T00:00:00+00:00")
    assert (high.value, high.valid_until) == (18, datetime(2025, 2, 4, tzinfo=UTC))


def test_a_six_hourly_body_gives_six_hour_slots() -> None:
    body = {"city": {"name": "Bucharest", "timezone": 0},
            "list": [{"dt_txt": f"2025-02-03 {h:02d}:00:00", "main": {"temp": h}}
                     for h in (0, 6, 12, 18)]}  # fmt: skip
    facts = OpenWeatherForecastSource().parse(body, observed_at=FETCHED)
    slot = _one(facts, "temperature", "2025-02-03T06:00:00+00:00")
    assert slot.valid_until == datetime(2025, 2, 3, 12, tzinfo=UTC)


def test_a_lone_openweather_slot_lasts_the_apis_three_hours() -> None:
    body = {"city": {"name": "Bucharest", "timezone": 0},
            "list": [{"dt_txt": "2025-02-03 06:00:00", "main": {"temp": 1}}]}  # fmt: skip
    (slot,) = [f for f in OpenWeatherForecastSource().parse(body, observed_at=FETCHED)
               if f.attribute == "temperature"]  # fmt: skip
    assert slot.valid_until == datetime(2025, 2, 3, 9, tzinfo=UTC)


def test_an_open_meteo_body_read_with_floats_keeps_every_value() -> None:
    text = fixture_text("open_meteo_forecast.json")
    floats = OpenMeteoForecastSource().parse(json.loads(text), "Berlin", observed_at=FETCHED)
    exact = OpenMeteoForecastSource().parse(json.loads(text, parse_float=Decimal), "Berlin",
                                            observed_at=FETCHED)  # fmt: skip
    assert floats == exact


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


def test_a_slot_ends_at_the_local_midnight_after_it_starts() -> None:
    body = {"city": {"name": "Bucharest", "timezone": 7200},
            "list": [{"dt_txt": f"2025-02-03 {h:02d}:00:00", "main": {"temp": h}}
                     for h in (3, 9, 15, 21)]}  # fmt: skip
    facts = OpenWeatherForecastSource().parse(body, observed_at=FETCHED)
    last = _one(facts, "temperature", "2025-02-03T23:00:00+02:00")
    assert last.valid_until == datetime.fromisoformat("2025-02-04T00:00:00+02:00")
