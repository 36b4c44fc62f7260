"""A query an adapter cannot ask is the caller's mistake: a ``malformed_query``
silence, no request to the source, and never a failure toward its breaker
(five such requests used to open Open-Meteo's breaker for every caller)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from adapterkit import BERLIN, FIXTURES, fixture_json, json_response
from pytest_httpserver import HTTPServer

from vouched import BreakerSettings, GuardedSource, QueryError, Source, fetch_sync
from vouched_adapters import (
    Column,
    CsvCatalogSource,
    FrankfurterRates,
    HttpJsonSource,
    OpenMeteoForecastSource,
    OpenMeteoSource,
    OpenWeatherForecastSource,
    SqliteSource,
)

Make = Callable[[HTTPServer, Path], Source]


def _sqlite(server: HTTPServer, tmp: Path) -> Source:
    path = tmp / "r.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE r (city TEXT, temp REAL)")
        connection.execute("INSERT INTO r VALUES ('Berlin', 4.3)")
    connection.close()
    sql = "SELECT city, temp FROM r WHERE city = :subject"
    return SqliteSource(path, sql, subject_column="city", columns={"temp": Column("t", "degC")})


def _catalog(server: HTTPServer, tmp: Path) -> Source:
    shutil.copy(FIXTURES / "workshops.csv", tmp / "w.csv")
    return CsvCatalogSource(tmp / "w.csv", entity_field="workshop_code",
                            citation_field="catalog_record_id", attributes=("format",))  # fmt: skip


def _httpjson(server: HTTPServer, tmp: Path) -> Source:
    return HttpJsonSource.from_mapping({
        "name": "stations", "url": server.url_for("/s/{station}"), "subject": "{city}",
        "fields": {"t": {"pointer": "/t", "unit": "degC"}},
    })  # fmt: skip


# adapter -> (how to build it, queries it must refuse)
ADAPTERS: dict[str, tuple[Make, list[Any]]] = {
    "open-meteo": (
        lambda s, t: OpenMeteoSource(base_url=s.url_for("")),
        [{"subject": "Berlin"}, {"subject": "Berlin", "latitude": None, "longitude": 13.4},
         {"latitude": "abc", "longitude": 1}, {"latitude": 91, "longitude": 0},
         {"latitude": 1e400, "longitude": 0}, {"latitude": True, "longitude": 0}],
    ),
    "open-meteo-forecast": (
        lambda s, t: OpenMeteoForecastSource(base_url=s.url_for("")),
        [{"subject": "Berlin"}, {**BERLIN, "forecast_days": "x"},
         {**BERLIN, "forecast_days": 10**9}],
    ),
    "openweather-forecast": (
        lambda s, t: OpenWeatherForecastSource(base_url=s.url_for("")),
        [{"latitude": 1}, {"latitude": 0, "longitude": [1]}],
    ),
    "frankfurter": (
        lambda s, t: FrankfurterRates(base_url=s.url_for("")),
        [{"base": 5}, {"base": "EURO"}, {"symbols": 7}, {"symbols": ["USD", None]},
         {"symbols": []}],
    ),
    "http-json": (_httpjson, [{"city": "Berlin"}, {"city": "Berlin", "station": {"a": 1}}]),
    "sqlite": (_sqlite, [{"city": "Berlin"}, {"subject": ["Berlin"]}, {"subject": None}]),
    "csv-catalog": (_catalog, [{"subject": 5}, {"attributes": 5}, {"attributes": [1, 2]}]),
}  # fmt: skip


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_a_malformed_query_is_refused_before_the_call_with_a_query_error(
    adapter: str, server: HTTPServer, tmp_path: Path
) -> None:
    make, bad = ADAPTERS[adapter]
    source = make(server, tmp_path)
    check = getattr(source, "check_query")  # every adapter declares it  # noqa: B009
    for query in bad:
        with pytest.raises(QueryError):
            check(query)


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_malformed_queries_never_open_the_breaker_nor_reach_the_source(
    adapter: str, server: HTTPServer, tmp_path: Path
) -> None:
    server.expect_request("/").respond_with_response(json_response({}, 500))
    make, bad = ADAPTERS[adapter]
    guarded = GuardedSource(make(server, tmp_path), breaker=BreakerSettings(fail_max=2))
    for _ in range(3):
        for query in bad:
            facts = fetch_sync(guarded, query)
            assert {f.silent_reason for f in facts} == {"malformed_query"}
    assert guarded.state == "closed"
    assert server.log == []


def test_after_malformed_queries_open_meteo_still_answers_a_good_one(server: HTTPServer) -> None:
    server.expect_request("/v1/forecast").respond_with_response(
        json_response(fixture_json("open_meteo_current.json"))
    )
    guarded = GuardedSource(OpenMeteoSource(base_url=server.url_for("")))
    for _ in range(10):
        fetch_sync(guarded, {"subject": "Berlin", "latitude": None})
    facts = fetch_sync(guarded, BERLIN)
    assert all(f.silent_reason is None for f in facts)
    assert len(server.log) == 1


def test_the_query_error_names_the_field_and_echoes_the_value_cut_short() -> None:
    with pytest.raises(QueryError) as caught:
        OpenMeteoSource().check_query({"latitude": "x" * 10_000, "longitude": 0})
    assert caught.value.field == "latitude"
    assert "latitude" in str(caught.value)
    assert "10,000 characters" in str(caught.value)
    assert len(str(caught.value)) < 200
