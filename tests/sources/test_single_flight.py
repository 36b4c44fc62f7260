"""Single flight: identical concurrent fetches of one source make one call."""

from __future__ import annotations

import asyncio

import pytest
from sourcefacts import weather_fact

from vouched import GuardedSource, SourceError
from vouched.testing import Delay, FakeClock, ScriptedSource

QUERY = {"subject": "Berlin", "latitude": 52.52}


def test_identical_concurrent_fetches_make_one_call_and_all_get_its_facts(
    clock: FakeClock,
) -> None:
    fact = weather_fact()
    script = ScriptedSource("s", [Delay(0.02, [fact])])
    source = GuardedSource(script, clock=clock, deadline=2.0)

    async def burst() -> list[list[object]]:
        return [list(a) for a in await asyncio.gather(*(source.fetch(QUERY) for _ in range(10)))]

    answers = asyncio.run(burst())
    assert script.calls == 1
    assert answers == [[fact]] * 10


def test_the_same_query_in_another_key_order_shares_the_call(clock: FakeClock) -> None:
    script = ScriptedSource("s", [Delay(0.02, [weather_fact()])])
    source = GuardedSource(script, clock=clock, deadline=2.0)

    async def two() -> None:
        await asyncio.gather(
            source.fetch({"subject": "Berlin", "latitude": 52.52}),
            source.fetch({"latitude": 52.52, "subject": "Berlin"}),
        )

    asyncio.run(two())
    assert script.calls == 1


def test_different_queries_are_not_coalesced(clock: FakeClock) -> None:
    script = ScriptedSource("s", [Delay(0.02, [weather_fact()])])
    source = GuardedSource(script, clock=clock, deadline=2.0)

    async def two() -> None:
        await asyncio.gather(source.fetch({"subject": "Berlin"}), source.fetch({"subject": "Rome"}))

    asyncio.run(two())
    assert script.calls == 2


def test_a_shared_failure_counts_once_against_the_breaker(clock: FakeClock) -> None:
    script = ScriptedSource("s", [Delay(0.02, SourceError("HTTP 500"))])
    source = GuardedSource(script, clock=clock, deadline=2.0, cache=None)

    async def burst() -> list[list[object]]:
        return [list(a) for a in await asyncio.gather(*(source.fetch(QUERY) for _ in range(10)))]

    answers = asyncio.run(burst())
    assert script.calls == 1
    assert source.breaker is not None
    assert source.breaker.fail_counter == 1
    assert all(a[0].silent_reason == "source_error" for a in answers)  # type: ignore[attr-defined]  # facts


def test_when_the_calling_fetch_is_cancelled_a_waiting_one_calls_again(clock: FakeClock) -> None:
    fact = weather_fact()
    script = ScriptedSource("s", [Delay(0.05, [fact])])
    source = GuardedSource(script, clock=clock, deadline=2.0)

    async def run() -> list[object]:
        first = asyncio.ensure_future(source.fetch(QUERY))
        await asyncio.sleep(0)
        second = asyncio.ensure_future(source.fetch(QUERY))
        await asyncio.sleep(0)
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        return list(await second)

    assert asyncio.run(run()) == [fact]
    assert script.calls == 2


def test_a_cancelled_waiter_does_not_cancel_the_call(clock: FakeClock) -> None:
    fact = weather_fact()
    script = ScriptedSource("s", [Delay(0.05, [fact])])
    source = GuardedSource(script, clock=clock, deadline=2.0)

    async def run() -> list[object]:
        first = asyncio.ensure_future(source.fetch(QUERY))
        await asyncio.sleep(0)
        waiter = asyncio.ensure_future(source.fetch(QUERY))
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        return list(await first)

    assert asyncio.run(run()) == [fact]
    assert script.calls == 1


def test_coalesce_false_calls_the_source_for_every_fetch(clock: FakeClock) -> None:
    script = ScriptedSource("s", [Delay(0.02, [weather_fact()])])
    source = GuardedSource(script, clock=clock, deadline=2.0, coalesce=False)

    async def burst() -> None:
        await asyncio.gather(*(source.fetch(QUERY) for _ in range(4)))

    asyncio.run(burst())
    assert script.calls == 4
