"""The breaker's reset timeout under freezegun: the real SystemClock, frozen time.

freezegun patches datetime and time.monotonic (which pybreaker and SystemClock
read); real_asyncio=True keeps the event loop on real time so the deadline
still works.
"""

from __future__ import annotations

import asyncio

from adapterkit import BERLIN, Script, fixture_json, json_response
from freezegun import freeze_time
from pytest_httpserver import HTTPServer

from vouched import BreakerSettings, Fact, GuardedSource
from vouched_adapters import OpenMeteoSource


def test_freezegun_drives_the_reset_timeout_and_one_probe_gets_through(
    server: HTTPServer,
) -> None:
    error = json_response({"error": True}, status=500)
    ok = json_response(fixture_json("open_meteo_current.json"))
    handler = Script(error, error, ok)
    server.expect_request("/v1/forecast").respond_with_handler(handler)

    with freeze_time("2026-11-29T12:05:00Z", real_asyncio=True) as frozen:
        source = GuardedSource(
            OpenMeteoSource(base_url=server.url_for("")),
            breaker=BreakerSettings(fail_max=2, reset_timeout=60),
            deadline=1.0,
            cache=None,  # so a rejected call shows as circuit_open, not as last-good facts
        )

        async def burst() -> list[list[Fact]]:
            # Different questions: identical ones would share one call (single flight).
            queries = [{**BERLIN, "attempt": n} for n in range(4)]
            answers = await asyncio.gather(*(source.fetch(q) for q in queries))
            return [list(a) for a in answers]

        asyncio.run(source.fetch(BERLIN))
        asyncio.run(source.fetch(BERLIN))
        assert source.state == "open"
        requests_while_closed = handler.count
        frozen.tick(59)
        asyncio.run(burst())
        assert handler.count == requests_while_closed
        frozen.tick(1)
        answers = asyncio.run(burst())

    assert handler.count == requests_while_closed + 1
    assert sum(all(f.silent_reason is None for f in a) for a in answers) == 1
    assert sum(all(f.silent_reason == "circuit_open" for f in a) for a in answers) == 3
    assert source.state == "closed"
