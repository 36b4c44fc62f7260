"""recorded_client: the adapters offline, answering from recorded fixtures."""

from __future__ import annotations

import asyncio
from decimal import Decimal

from adapterkit import BERLIN, FIXTURES

from vouched import Fact, GuardedSource, gather
from vouched_adapters import FrankfurterRates, OpenMeteoSource, recorded_client


def test_both_http_adapters_answer_offline_from_the_recorded_fixtures() -> None:
    async def go() -> list[Fact]:
        async with recorded_client(
            {
                "/v1/forecast": FIXTURES / "open_meteo_current.json",
                "/latest": FIXTURES / "frankfurter_latest.json",
            }
        ) as client:
            sources = [
                GuardedSource(OpenMeteoSource(client=client)),
                GuardedSource(FrankfurterRates(client=client)),
            ]
            return await gather(sources, BERLIN, deadline=2.0)

    facts = asyncio.run(go())
    values = {(f.subject, f.attribute): f.value for f in facts}
    assert values[("Berlin", "temperature")] == Decimal("4.3")
    assert values[("EUR/USD", "exchange_rate")] == Decimal("1.0562")
    assert not any(f.is_silent for f in facts)


def test_a_path_that_was_not_recorded_is_a_source_error() -> None:
    async def go() -> list[Fact]:
        async with recorded_client({"/latest": b"{}"}) as client:
            return list(await GuardedSource(OpenMeteoSource(client=client)).fetch(BERLIN))

    assert {f.silent_reason for f in asyncio.run(go())} == {"source_error"}
