"""Every fault a live HTTP source has, against a real server on 127.0.0.1.

The adapter is Open-Meteo behind a GuardedSource; the server plays the fault.
Time for the breaker is a FakeClock here (freezegun drives it in
test_breaker_freezegun.py). Deadlines against the real server are real and
small, and no test compares wall-clock margins: a stalled response is held
until the test ends, so only the deadline can answer it. How long a deadline
takes is measured on virtual loop time, with the adapter on an
httpx.MockTransport (vouched.testing.virtual_time).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from decimal import Decimal

import httpx
import pytest
from adapterkit import BERLIN, Script, Stall, fixture_json, json_response, refused_port
from pytest_httpserver import HTTPServer
from werkzeug import Response

from vouched import (
    BreakerEvent,
    BreakerSettings,
    Fact,
    GuardedSource,
    Policy,
    fetch_sync,
    gather,
    partition,
)
from vouched.testing import FakeClock, virtual_time
from vouched_adapters import OpenMeteoSource, make_client

OBSERVED = "2026-11-29T12:00:00Z"  # the fixture's current.time (13:00 at UTC+1)
ATTRIBUTES = 7  # the seven default variables (weather_code as the condition)
BREAKER = BreakerSettings(fail_max=3, reset_timeout=30, success_threshold=2)


def ok() -> Response:
    return json_response(fixture_json("open_meteo_current.json"))


def guarded(
    base_url: str,
    clock: FakeClock,
    *,
    client: httpx.AsyncClient | None = None,
    deadline: float = 2.0,  # ample: tests about deadlines set their own
    events: list[BreakerEvent] | None = None,
) -> GuardedSource:
    return GuardedSource(
        OpenMeteoSource(base_url=base_url, client=client),
        breaker=BREAKER,
        deadline=deadline,
        clock=clock,
        listeners=[events.append] if events is not None else [],
    )


def route(server: HTTPServer, handler: Script | Stall) -> None:
    server.expect_request("/v1/forecast").respond_with_handler(handler)


def reasons(facts: Sequence[Fact]) -> set[object]:
    return {f.silent_reason for f in facts}


def run_many(source: GuardedSource, n: int) -> list[list[Fact]]:
    async def go() -> list[list[Fact]]:
        return [list(await source.fetch(BERLIN)) for _ in range(n)]

    return asyncio.run(go())


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock("2026-11-29T12:05:00Z")


# -- one fault at a time -------------------------------------------------------


@pytest.mark.parametrize("status", [500, 429, 503])
def test_an_http_error_status_is_a_source_error_silence(
    server: HTTPServer, clock: FakeClock, status: int
) -> None:
    events: list[BreakerEvent] = []
    route(server, Script(json_response({"error": True, "reason": "x"}, status=status)))
    facts = fetch_sync(guarded(server.url_for(""), clock, events=events), BERLIN)
    assert reasons(facts) == {"source_error"}
    assert len(facts) == ATTRIBUTES
    assert events[0].detail == f"SourceError: HTTP {status}"


def test_a_refused_connection_is_a_source_error_silence(clock: FakeClock) -> None:
    events: list[BreakerEvent] = []
    source = guarded(f"http://127.0.0.1:{refused_port()}", clock, events=events)
    facts = fetch_sync(source, BERLIN)
    assert reasons(facts) == {"source_error"}
    assert events[0].detail == "SourceError: ConnectError"


def test_a_response_that_never_arrives_is_a_timeout_at_the_deadline(
    server: HTTPServer, clock: FakeClock, stall: Stall
) -> None:
    route(server, stall)
    facts = fetch_sync(guarded(server.url_for(""), clock, deadline=0.2), BERLIN)
    assert reasons(facts) == {"timeout"}  # the stall would answer "late" (malformed) after 5 s


def _answering_after(seconds: float) -> httpx.AsyncClient:
    """A client whose server answers with the fixture after ``seconds`` of loop time."""

    async def handle(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(seconds)
        return httpx.Response(200, json=fixture_json("open_meteo_current.json"))

    return httpx.AsyncClient(transport=httpx.MockTransport(handle))


def test_a_hanging_response_costs_exactly_the_deadline(clock: FakeClock) -> None:
    source = guarded("http://127.0.0.1", clock, client=_answering_after(3600), deadline=0.2)
    with virtual_time() as loop:
        facts = loop.run(source.fetch(BERLIN))
    elapsed = loop.elapsed
    assert reasons(facts) == {"timeout"}
    assert elapsed == pytest.approx(0.2)


@pytest.mark.parametrize(
    "body",
    ['{"latitude": 52.52, "current": {"time": "2026-11-29T13:0', "<html>502</html>", ""],
    ids=["truncated", "html", "empty-body"],
)
def test_a_body_that_is_not_json_is_malformed(
    server: HTTPServer, clock: FakeClock, body: str
) -> None:
    route(server, Script(json_response(body)))
    facts = fetch_sync(guarded(server.url_for(""), clock), BERLIN)
    assert reasons(facts) == {"malformed"}


@pytest.mark.parametrize(
    "body",
    [
        {"hourly": {"time": []}},
        [1, 2, 3],
        {"current": {"time": "2026-11-29T13:00"}, "current_units": {}, "utc_offset_seconds": 0},
        {"current": {"time": "yesterday", "interval": 900}, "current_units": {}},
    ],
    ids=["other-section", "array", "no-interval", "no-offset"],
)
def test_valid_json_of_the_wrong_shape_is_malformed(
    server: HTTPServer, clock: FakeClock, body: object
) -> None:
    route(server, Script(json_response(body)))
    facts = fetch_sync(guarded(server.url_for(""), clock), BERLIN)
    assert reasons(facts) == {"malformed"}


def test_an_empty_result_is_no_data(server: HTTPServer, clock: FakeClock) -> None:
    body = fixture_json("open_meteo_current.json")
    body["current"] = {"time": "2026-11-29T13:00", "interval": 900}
    route(server, Script(json_response(body)))
    facts = fetch_sync(guarded(server.url_for(""), clock), BERLIN)
    assert reasons(facts) == {"no_data"}


def test_a_slow_response_just_under_the_deadline_succeeds(clock: FakeClock) -> None:
    source = guarded("http://127.0.0.1", clock, client=_answering_after(0.59), deadline=0.6)
    with virtual_time() as loop:
        facts = loop.run(source.fetch(BERLIN))
    elapsed = loop.elapsed
    assert reasons(facts) == {None}
    assert len(facts) == ATTRIBUTES
    assert elapsed == pytest.approx(0.59)


def test_flapping_fail_fail_ok_fail_keeps_the_circuit_closed_and_serves_last_good(
    server: HTTPServer, clock: FakeClock
) -> None:
    error = json_response({"error": True}, status=500)
    route(server, Script(error, error, ok(), error))
    answers = run_many(guarded(server.url_for(""), clock), 4)
    assert [reasons(a) for a in answers] == [{"source_error"}, {"source_error"}, {None}, {None}]
    assert answers[3] == answers[2]
    assert {str(f.observed_at) for f in answers[3]} == {"2026-11-29 12:00:00+00:00"}


# -- the breaker over HTTP -------------------------------------------------------


def test_the_open_breaker_rejects_without_touching_the_network(
    server: HTTPServer, clock: FakeClock
) -> None:
    handler = Script(json_response({"error": True}, status=500))
    route(server, handler)
    source = guarded(server.url_for(""), clock)
    run_many(source, 3)
    assert source.state == "open"
    answers = run_many(source, 20)
    assert handler.count == 3
    assert len(server.log) == 3
    assert all(reasons(a) == {"circuit_open"} for a in answers)


def test_after_reset_timeout_exactly_one_probe_reaches_the_server(
    server: HTTPServer, clock: FakeClock
) -> None:
    error = json_response({"error": True}, status=500)
    # The eight calls start together: seven reach admission while the probe is
    # still waiting for the server, however fast the server is.
    handler = Script(error, error, error, ok())
    route(server, handler)
    source = guarded(server.url_for(""), clock)

    async def go() -> list[list[Fact]]:
        async with make_client() as client:
            source.source.client = client  # type: ignore[attr-defined]  # an OpenMeteoSource
            for _ in range(3):
                await source.fetch(BERLIN)
            clock.advance(seconds=30)
            # Eight different questions: identical ones would share one call (single flight).
            queries = [{**BERLIN, "attempt": n} for n in range(8)]
            answers = await asyncio.gather(*(source.fetch(q) for q in queries))
            return [list(a) for a in answers]

    answers = asyncio.run(go())
    assert handler.count == 4
    assert sum(reasons(a) == {None} for a in answers) == 1
    assert sum(reasons(a) == {"circuit_open"} for a in answers) == 7


def test_the_breaker_closes_after_success_threshold_good_probes(
    server: HTTPServer, clock: FakeClock
) -> None:
    error = json_response({"error": True}, status=500)
    route(server, Script(error, error, error, ok()))
    source = guarded(server.url_for(""), clock)
    run_many(source, 3)
    clock.advance(seconds=30)
    run_many(source, 1)
    assert source.state == "half_open"
    run_many(source, 1)
    assert source.state == "closed"


def test_a_failed_probe_reopens_the_breaker(server: HTTPServer, clock: FakeClock) -> None:
    handler = Script(json_response({"error": True}, status=500))
    route(server, handler)
    source = guarded(server.url_for(""), clock)
    run_many(source, 3)
    clock.advance(seconds=30)
    run_many(source, 1)
    assert source.state == "open"
    run_many(source, 5)
    assert handler.count == 4


def test_a_cancelled_call_is_not_counted_as_a_failure(
    server: HTTPServer, clock: FakeClock, stall: Stall
) -> None:
    route(server, stall)
    source = guarded(server.url_for(""), clock, deadline=5)

    async def cancel_three() -> None:
        for _ in range(3):
            task = asyncio.ensure_future(source.fetch(BERLIN))
            await asyncio.sleep(0.02)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(cancel_three())
    assert source.state == "closed"
    assert source.breaker is not None
    assert source.breaker.fail_counter == 0


# -- the last-good cache and the gate ----------------------------------------------


def test_last_good_facts_keep_their_time_and_the_gate_strips_them_past_ttl(
    server: HTTPServer, clock: FakeClock
) -> None:
    route(server, Script(ok(), json_response({"error": True}, status=500)))
    source = guarded(server.url_for(""), clock)
    first = fetch_sync(source, BERLIN)
    clock.set("2026-11-29T12:15:00Z")  # exactly at the 900 s TTL: still fresh
    served = fetch_sync(source, BERLIN)
    assert served == first
    assert partition(served, Policy(), clock.now()).grounded == tuple(first)
    clock.set("2026-11-29T12:15:01Z")
    late = partition(fetch_sync(source, BERLIN), Policy(), clock.now())
    assert late.grounded == ()
    assert {v.reason for v in late.violations} == {"stale"}


# -- gather over HTTP -------------------------------------------------------------


def test_gather_with_one_hanging_http_source_returns_within_the_deadline(
    server: HTTPServer, clock: FakeClock, stall: Stall
) -> None:
    server.expect_request("/ok/v1/forecast").respond_with_handler(Script(ok()))
    server.expect_request("/hangs/v1/forecast").respond_with_handler(stall)
    sources = [
        OpenMeteoSource(base_url=server.url_for("/ok"), name="ok"),
        OpenMeteoSource(base_url=server.url_for("/hangs"), name="hangs"),
    ]

    async def go() -> list[Fact]:
        async with make_client() as client:
            for source in sources:
                source.client = client
            return await gather(sources, BERLIN, deadline=0.2, clock=clock)

    facts = asyncio.run(go())
    assert {f.source: f.silent_reason for f in facts} == {"ok": None, "hangs": "timeout"}
    assert [f.value for f in facts if f.attribute == "temperature"] == [Decimal("4.3"), None]


def _chunks_of(total: int) -> Response:
    """A streamed body (no Content-Length) of ``total`` bytes, made as it is sent."""

    def body() -> object:
        sent = 0
        while sent < total:
            sent += 65_536
            yield b" " * 65_536

    return Response(body(), content_type="application/json")


@pytest.mark.parametrize(
    "response",
    [
        pytest.param(lambda: _chunks_of(64 * 1024 * 1024), id="streamed-64MB"),
        pytest.param(lambda: json_response("[" * 200_000 + "]" * 200_000), id="too-deep"),
        pytest.param(lambda: json_response(" " * (5 * 1024 * 1024)), id="declared-5MB"),
    ],
)
def test_a_body_too_big_or_too_deep_is_a_malformed_silence(
    httpserver: HTTPServer, clock: FakeClock, response: object
) -> None:
    httpserver.expect_request("/v1/forecast").respond_with_handler(
        lambda request: response()  # type: ignore[operator]  # a factory from the params
    )
    facts = fetch_sync(guarded(httpserver.url_for(""), clock, deadline=10.0), BERLIN)
    assert facts
    assert {f.silent_reason for f in facts} == {"malformed"}


# -- a subject the source does not have ------------------------------------------


@pytest.mark.parametrize("status", [404, 410])
def test_a_404_or_410_is_no_data_and_the_breaker_does_not_count_it(
    server: HTTPServer, clock: FakeClock, status: int
) -> None:
    events: list[BreakerEvent] = []
    script = Script(json_response({"error": True, "reason": "no such place"}, status=status))
    route(server, script)
    source = guarded(server.url_for(""), clock, events=events)
    answers = run_many(source, BREAKER.fail_max + 2)  # past fail_max: a counted outage would open
    assert all(reasons(facts) == {"no_data"} for facts in answers)
    assert script.count == BREAKER.fail_max + 2  # every call reached the source: never open
    assert events == []
