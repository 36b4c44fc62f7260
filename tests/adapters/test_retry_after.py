"""A 429 or 503 with Retry-After keeps the breaker open at least that long,
against a real server on 127.0.0.1 (seconds and HTTP-date forms)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from adapterkit import BERLIN, Script, fixture_json, json_response
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from vouched import BreakerSettings, BreakerState, GuardedSource, SourceError
from vouched.testing import FakeClock
from vouched_adapters import OpenMeteoSource, retry_after

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def busy(status: int, wait: str) -> Response:
    response = json_response({"error": "busy"}, status=status)
    response.headers["Retry-After"] = wait
    return response


def guarded(server: HTTPServer, clock: FakeClock) -> GuardedSource:
    return GuardedSource(
        OpenMeteoSource(base_url=server.url_for("")),
        breaker=BreakerSettings(fail_max=5, reset_timeout=10),
        deadline=2.0,
        cache=None,
        clock=clock,
    )


@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_seconds_opens_the_breaker_at_once_for_that_long(
    server: HTTPServer, status: int
) -> None:
    ok = json_response(fixture_json("open_meteo_current.json"))
    handler = Script(busy(status, "120"), ok)
    server.expect_request("/v1/forecast").respond_with_handler(handler)
    clock = FakeClock(NOW)
    source = guarded(server, clock)
    asyncio.run(source.fetch(BERLIN))
    assert source.state == BreakerState.OPEN  # one answer, not fail_max of them
    clock.advance(seconds=119)
    answer = asyncio.run(source.fetch(BERLIN))
    assert handler.count == 1
    assert {f.silent_reason for f in answer} == {"circuit_open"}
    clock.advance(seconds=1)
    assert source.state == BreakerState.HALF_OPEN
    asyncio.run(source.fetch(BERLIN))
    assert handler.count == 2


def test_retry_after_as_an_http_date_is_read_against_the_responses_date(
    server: HTTPServer,
) -> None:
    # The server's Date header is its own (real) clock, stamped in whole seconds when
    # the response is written; the breaker's is a FakeClock days away: only the gap
    # between the two headers counts. Retry-After names a whole second 91 s after the
    # one the handler runs in, so the gap is 91 s, or 90 s when the Date is stamped a
    # second later (it would take a whole second of writing to make it 89).
    def answer(request: Request) -> Response:
        until = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=91)
        return busy(503, format_datetime(until, usegmt=True))

    server.expect_request("/v1/forecast").respond_with_handler(answer)
    clock = FakeClock(NOW)
    source = guarded(server, clock)
    asyncio.run(source.fetch(BERLIN))
    clock.advance(seconds=89)
    assert source.state == BreakerState.OPEN
    clock.advance(seconds=3)
    assert source.state == BreakerState.HALF_OPEN


def test_a_shorter_retry_after_than_the_reset_timeout_still_waits_the_reset_timeout(
    server: HTTPServer,
) -> None:
    server.expect_request("/v1/forecast").respond_with_handler(Script(busy(429, "2")))
    clock = FakeClock(NOW)
    source = guarded(server, clock)
    asyncio.run(source.fetch(BERLIN))
    clock.advance(seconds=9)
    assert source.state == BreakerState.OPEN


def test_a_500_with_retry_after_is_an_ordinary_failure(server: HTTPServer) -> None:
    server.expect_request("/v1/forecast").respond_with_handler(Script(busy(500, "120")))
    source = guarded(server, FakeClock(NOW))
    asyncio.run(source.fetch(BERLIN))
    assert source.state == BreakerState.CLOSED


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("120", 120.0),
        (" 7 ", 7.0),
        ("Sun, 29 Nov 2026 12:01:30 GMT", 90.0),
        ("Sun, 29 Nov 2026 11:00:00 GMT", 0.0),  # already past: no wait
        ("soon", None),
        ("-5", None),
        ("\u00b2", None),  # a superscript two: a digit to str.isdigit, not to HTTP
        ("\u0663", None),  # an Arabic-Indic three
        (None, None),
    ],
)
def test_retry_after_reads_seconds_and_http_dates(header: str | None, seconds: float) -> None:
    assert retry_after(header, now=NOW) == seconds


def test_a_superscript_retry_after_is_an_outage_not_a_source_bug(server: HTTPServer) -> None:
    server.expect_request("/v1/forecast").respond_with_response(busy(503, "\u00b2"))
    facts = asyncio.run(guarded(server, FakeClock(NOW)).fetch(BERLIN))
    assert {str(f.silent_reason) for f in facts} == {"source_error"}


def test_a_retry_after_of_days_is_capped_at_one_day() -> None:
    assert retry_after("9999999", now=NOW) == 24 * 3600.0


def test_source_error_refuses_a_negative_retry_after() -> None:
    with pytest.raises(ValueError, match="retry_after"):
        SourceError("HTTP 503", retry_after=-1)
