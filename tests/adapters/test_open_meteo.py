"""Open-Meteo current weather against a recorded response on 127.0.0.1."""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from adapterkit import BERLIN, fixture_json, fixture_text, json_response
from pytest_httpserver import HTTPServer

from vouched import Fact, GuardedSource, MalformedPayloadError, fetch_sync
from vouched_adapters import OpenMeteoSource


def weather(server: HTTPServer) -> OpenMeteoSource:
    return OpenMeteoSource(base_url=server.url_for(""))


def serve(server: HTTPServer, body: object) -> None:
    server.expect_request("/v1/forecast").respond_with_response(json_response(body))


def by_attribute(facts: list[Fact]) -> dict[str, Fact]:
    return {f.attribute: f for f in facts}


def test_one_fact_per_variable_with_the_values_as_sent(server: HTTPServer) -> None:
    serve(server, fixture_json("open_meteo_current.json"))
    facts = by_attribute(fetch_sync(weather(server), BERLIN))
    assert facts["temperature"].value == Decimal("4.3")
    assert facts["humidity"].value == 87
    assert facts["precipitation"].value == Decimal("0.0")
    assert facts["wind_gust"].value == Decimal("27.4")
    assert all(f.subject == "Berlin" and f.source == "open-meteo" for f in facts.values())


def test_the_request_names_the_coordinates_and_current_variables(server: HTTPServer) -> None:
    serve(server, fixture_json("open_meteo_current.json"))
    fetch_sync(weather(server), BERLIN)
    request, _ = server.log[0]
    assert request.args["latitude"] == "52.52"
    assert request.args["longitude"] == "13.41"
    assert request.args["current"].split(",") == [
        "temperature_2m",
        "relative_humidity_2m",
        "apparent_temperature",
        "precipitation",
        "weather_code",
        "wind_speed_10m",
        "wind_gusts_10m",
    ]


def test_units_come_from_current_units(server: HTTPServer) -> None:
    serve(server, fixture_json("open_meteo_current.json"))
    facts = by_attribute(fetch_sync(weather(server), BERLIN))
    assert facts["temperature"].unit == "°C"
    assert facts["humidity"].unit == "%"
    assert facts["wind_speed"].unit == "km/h"


def test_units_are_never_assumed_when_the_response_uses_others(server: HTTPServer) -> None:
    serve(server, fixture_json("open_meteo_current_gmt_fahrenheit.json"))
    facts = by_attribute(fetch_sync(weather(server), {**BERLIN, "subject": "New York"}))
    assert (facts["temperature"].value, facts["temperature"].unit) == (Decimal("41.2"), "°F")
    assert facts["wind_speed"].unit == "mp/h"
    assert facts["precipitation"].unit == "inch"


def test_observed_at_reads_local_time_in_the_responses_offset(server: HTTPServer) -> None:
    serve(server, fixture_json("open_meteo_current.json"))  # 13:00 at UTC+1
    facts = fetch_sync(weather(server), BERLIN)
    assert {f.observed_at.isoformat() for f in facts if f.observed_at} == {
        "2026-11-29T12:00:00+00:00"
    }


def test_observed_at_of_a_gmt_response_is_the_same_clock_time(server: HTTPServer) -> None:
    serve(server, fixture_json("open_meteo_current_gmt_fahrenheit.json"))
    facts = fetch_sync(weather(server), BERLIN)
    assert facts[0].observed_at is not None
    assert facts[0].observed_at.isoformat() == "2026-11-29T12:00:00+00:00"


def test_ttl_is_the_responses_interval(server: HTTPServer) -> None:
    body = fixture_json("open_meteo_current.json")
    body["current"]["interval"] = 3600
    serve(server, body)
    facts = fetch_sync(weather(server), BERLIN)
    assert {f.ttl for f in facts} == {timedelta(hours=1)}


def test_weather_code_becomes_a_condition_in_words(server: HTTPServer) -> None:
    serve(server, fixture_json("open_meteo_current.json"))
    facts = by_attribute(fetch_sync(weather(server), BERLIN))
    assert "weather_code" not in facts
    assert facts["condition"].value == "overcast"
    assert facts["condition"].unit is None


def test_weather_code_mapped_to_another_name_keeps_the_number_beside_the_words(
    server: HTTPServer,
) -> None:
    serve(server, fixture_json("open_meteo_current.json"))
    source = OpenMeteoSource(base_url=server.url_for(""), variables={"weather_code": "wmo"})
    facts = by_attribute(fetch_sync(source, BERLIN))
    assert (facts["wmo"].value, facts["condition"].value) == (3, "overcast")


def test_an_unknown_weather_code_is_a_malformed_condition(server: HTTPServer) -> None:
    body = fixture_json("open_meteo_current.json")
    body["current"]["weather_code"] = 42
    serve(server, body)
    facts = by_attribute(fetch_sync(weather(server), BERLIN))
    assert facts["condition"].silent_reason == "malformed"


def test_the_citation_names_coordinates_and_time(server: HTTPServer) -> None:
    serve(server, fixture_json("open_meteo_current.json"))
    facts = fetch_sync(weather(server), BERLIN)
    assert {f.citation for f in facts} == {"open-meteo/52.52,13.41/2026-11-29T13:00"}


def test_a_variable_without_a_unit_is_malformed_and_the_rest_still_count(
    server: HTTPServer,
) -> None:
    body = fixture_json("open_meteo_current.json")
    del body["current_units"]["relative_humidity_2m"]
    serve(server, body)
    facts = by_attribute(fetch_sync(weather(server), BERLIN))
    assert facts["humidity"].silent_reason == "malformed"
    assert facts["humidity"].value is None
    assert facts["temperature"].value == Decimal("4.3")


def test_a_null_value_is_no_data_for_that_attribute(server: HTTPServer) -> None:
    body = fixture_json("open_meteo_current.json")
    body["current"]["wind_gusts_10m"] = None
    serve(server, body)
    facts = by_attribute(fetch_sync(weather(server), BERLIN))
    assert facts["wind_gust"].silent_reason == "no_data"


def test_a_response_with_no_variables_is_no_data_for_every_expected_key(
    server: HTTPServer,
) -> None:
    body = fixture_json("open_meteo_current.json")
    body["current"] = {"time": "2026-11-29T13:00", "interval": 900}
    serve(server, body)
    facts = fetch_sync(GuardedSource(weather(server)), BERLIN)
    assert {f.silent_reason for f in facts} == {"no_data"}
    assert [f.attribute for f in facts] == [
        "temperature",
        "humidity",
        "feels_like",
        "precipitation",
        "condition",
        "wind_speed",
        "wind_gust",
    ]


def test_recorded_bodies_can_be_read_offline_without_a_server() -> None:
    facts = OpenMeteoSource().parse(fixture_json("open_meteo_current.json"), "Berlin", 52.52, 13.41)
    assert len(facts) == 7


def test_a_body_read_with_floats_is_taken_exactly() -> None:
    body = json.loads(fixture_text("open_meteo_current.json"))  # plain floats
    facts = by_attribute(OpenMeteoSource().parse(body, "Berlin", 52.52, 13.41))
    assert facts["temperature"].value == Decimal("4.3")
    assert facts["wind_gust"].value == Decimal("27.4")


def test_a_nan_in_a_body_is_refused_loudly() -> None:
    body = json.loads(fixture_text("open_meteo_current.json"))
    body["current"]["temperature_2m"] = float("nan")
    with pytest.raises(MalformedPayloadError, match="temperature_2m"):
        OpenMeteoSource().parse(body, "Berlin", 52.52, 13.41)
