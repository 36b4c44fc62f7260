"""The generic HTTP JSON adapter: a declarative mapping of JSON pointers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from adapterkit import json_response
from pytest_httpserver import HTTPServer
from werkzeug import Response

from vouched import GuardedSource, fetch_sync
from vouched_adapters import HttpJsonSource, resolve_pointer

BODY = {
    "station": {"id": "DE-10382", "name": "Berlin-Tegel"},
    "observed": "2026-11-29T12:00:00Z",
    "readings": [{"temp": 4.3, "rh": 87}, {"temp": 4.1, "rh": 88}],
    "a/b": {"m~n": "odd keys"},
    "pending": None,
}


def station(server: HTTPServer, **overrides: object) -> HttpJsonSource:
    mapping: dict[str, object] = {
        "name": "stations",
        "url": server.url_for("/api/stations/{station}"),
        "subject": "{city}",
        "params": {"units": "{units}"},
        "observed_at": "/observed",
        "ttl": 600,
        "fields": {
            "temperature": {"pointer": "/readings/0/temp", "unit": "degC"},
            "humidity": {"pointer": "/readings/0/rh", "unit": "%", "ttl": 1800},
        },
    }
    mapping.update(overrides)
    return HttpJsonSource.from_mapping(mapping)


QUERY = {"city": "Berlin", "station": "DE-10382", "units": "metric"}


def serve(server: HTTPServer, body: object, path: str = "/api/stations/DE-10382") -> None:
    server.expect_request(path).respond_with_response(json_response(body))


def test_each_pointer_becomes_a_fact_with_unit_ttl_and_citation(server: HTTPServer) -> None:
    serve(server, BODY)
    facts = fetch_sync(station(server), QUERY)
    assert [(f.subject, f.attribute, f.value, f.unit, f.ttl) for f in facts] == [
        ("Berlin", "temperature", Decimal("4.3"), "degC", timedelta(seconds=600)),
        ("Berlin", "humidity", 87, "%", timedelta(seconds=1800)),
    ]
    assert facts[0].observed_at == datetime(2026, 11, 29, 12, tzinfo=UTC)
    assert facts[0].citation == server.url_for("/api/stations/DE-10382") + "#/readings/0/temp"


def test_query_values_fill_the_url_and_its_parameters(server: HTTPServer) -> None:
    serve(server, BODY)
    fetch_sync(station(server), QUERY)
    request, _ = server.log[0]
    assert request.path == "/api/stations/DE-10382"
    assert request.args["units"] == "metric"


def test_a_query_value_cannot_walk_the_url_path(server: HTTPServer) -> None:
    serve(server, BODY, path="/api/stations/..%2Fadmin")
    fetch_sync(GuardedSource(station(server)), {**QUERY, "station": "../admin"})
    request, _ = server.log[0]
    assert request.environ["RAW_URI"].startswith("/api/stations/..%2Fadmin?")


def test_without_an_observed_at_pointer_the_servers_date_header_is_used(
    server: HTTPServer,
) -> None:
    serve(server, BODY)  # the local server stamps its own Date header (whole seconds)
    before = datetime.now(UTC).replace(microsecond=0)
    facts = fetch_sync(station(server, observed_at=None), QUERY)
    observed = facts[0].observed_at
    assert observed is not None
    assert observed.microsecond == 0
    assert before <= observed <= datetime.now(UTC)


def test_a_pointer_that_does_not_resolve_is_malformed_for_that_attribute(
    server: HTTPServer,
) -> None:
    serve(server, {**BODY, "readings": [{"temp": 4.3}]})
    facts = fetch_sync(station(server), QUERY)
    assert [(f.attribute, f.silent_reason) for f in facts] == [
        ("temperature", None),
        ("humidity", "malformed"),
    ]


def test_a_null_value_is_no_data_and_an_object_is_malformed(server: HTTPServer) -> None:
    serve(server, BODY)
    source = station(
        server,
        fields={"pending": {"pointer": "/pending"}, "station": {"pointer": "/station"}},
    )
    facts = fetch_sync(source, QUERY)
    assert [(f.attribute, f.silent_reason) for f in facts] == [
        ("pending", "no_data"),
        ("station", "malformed"),
    ]


def test_a_naive_observed_at_is_malformed(server: HTTPServer) -> None:
    serve(server, {**BODY, "observed": "2026-11-29T12:00:00"})
    facts = fetch_sync(GuardedSource(station(server)), QUERY)
    assert {f.silent_reason for f in facts} == {"malformed"}
    assert [f.attribute for f in facts] == ["temperature", "humidity"]


def test_http_errors_become_source_error_silences(server: HTTPServer) -> None:
    server.expect_request("/api/stations/DE-10382").respond_with_response(
        Response("down", status=502)
    )
    facts = fetch_sync(GuardedSource(station(server)), QUERY)
    assert {f.silent_reason for f in facts} == {"source_error"}


@pytest.mark.parametrize(
    ("pointer", "expected"),
    [
        ("", BODY),
        ("/station/id", "DE-10382"),
        ("/readings/1/rh", 88),
        ("/a~1b/m~0n", "odd keys"),
    ],
)
def test_json_pointers_follow_rfc_6901(pointer: str, expected: object) -> None:
    assert resolve_pointer(BODY, pointer) == expected


@pytest.mark.parametrize("pointer", ["/missing", "/readings/2", "/readings/01", "/observed/x"])
def test_pointers_that_miss_raise_lookup_error(pointer: str) -> None:
    with pytest.raises(LookupError):
        resolve_pointer(BODY, pointer)


def test_a_mapping_without_a_url_is_refused() -> None:
    with pytest.raises(ValueError, match="url"):
        HttpJsonSource.from_mapping({"name": "x", "fields": {"a": {"pointer": "/a"}}})
