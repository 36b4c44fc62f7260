"""Every weather adapter writes one vocabulary, and the shipped lexicon names it
(issue 39, item 2): one lexicon serves current conditions and forecasts."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal

from adapterkit import fixture_text

from vouched import Fact, Lexicon
from vouched_adapters import OpenMeteoForecastSource, OpenMeteoSource, OpenWeatherForecastSource
from vouched_adapters.forecast import OPEN_METEO_DAILY, OPEN_METEO_HOURLY

FETCHED = datetime(2026, 12, 4, 8, 30, tzinfo=UTC)
READ_AS_WORDS = {"condition", "date"}  # the lexicon's conditions and the weekday check


def _body(name: str) -> object:
    return json.loads(fixture_text(name), parse_float=Decimal)


def _full_open_meteo() -> object:
    """An Open-Meteo forecast body holding every variable the adapter asks for."""
    hours = [f"2026-12-04T{h:02d}:00" for h in range(24)]
    hourly = {v: [(3 if v == "weather_code" else Decimal("1.5")) for _ in hours]
              for v in OPEN_METEO_HOURLY}  # fmt: skip
    daily = {v: [3 if v == "weather_code" else Decimal("2.5")] for v in OPEN_METEO_DAILY}
    return {"utc_offset_seconds": 3600, "hourly": {"time": hours, **hourly},
            "hourly_units": dict.fromkeys(OPEN_METEO_HOURLY, "x"),
            "daily": {"time": ["2026-12-04"], **daily},
            "daily_units": dict.fromkeys(OPEN_METEO_DAILY, "x")}  # fmt: skip


def _attributes(facts: list[Fact]) -> set[str]:
    return {f.attribute for f in facts}


CURRENT = _attributes(OpenMeteoSource().parse(_body("open_meteo_current.json"), "B", 1, 2))
OPEN_METEO = _attributes(OpenMeteoForecastSource().parse(_full_open_meteo(), "B",
                                                         observed_at=FETCHED))  # fmt: skip
OPENWEATHER = _attributes(
    OpenWeatherForecastSource().parse(_body("openweather_forecast.json"), observed_at=FETCHED)
)


def test_current_conditions_use_the_forecasts_names() -> None:
    assert CURRENT <= OPEN_METEO | OPENWEATHER
    assert {"feels_like", "wind_gust", "condition"} <= CURRENT


def test_both_forecast_adapters_name_a_shared_quantity_alike() -> None:
    shared = {"temperature", "feels_like", "wind_speed", "wind_gust", "cloud_cover",
              "pressure", "temperature_max", "temperature_min", "condition", "date"}  # fmt: skip
    assert shared <= OPEN_METEO & OPENWEATHER


def test_the_shipped_weather_lexicon_names_every_attribute_an_adapter_writes() -> None:
    named = set(Lexicon.load("weather").attributes)
    assert (CURRENT | OPEN_METEO | OPENWEATHER) - READ_AS_WORDS - named == set()
