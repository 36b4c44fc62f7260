"""One contract for every shared breaker store: the real Redis on 127.0.0.1 and
the in-memory twin (vouched.testing.MemoryBreakerStore) run the same tests.

Each "worker" is a GuardedSource with a store of its own (Redis: its own
client, as a process has) or the one shared twin; time is a FakeClock the
workers share. What only Redis does (round trips, leases, falling back when it
is down) stays in test_redis_breaker.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
import redis.asyncio
from sourcefacts import START, weather_fact

from fleet.services import REDIS_URL
from vouched import (
    BreakerSettings,
    BreakerState,
    BreakerStore,
    ConfigError,
    Fact,
    GuardedSource,
    RedisBreakerStore,
    SourceError,
)
from vouched.testing import Delay, FakeClock, MemoryBreakerStore, ScriptedSource

SETTINGS = BreakerSettings(fail_max=3, reset_timeout=30)
QUERY = {"subject": "Berlin"}

Stores = Callable[[], BreakerStore]
"""A new worker's breaker store."""


@pytest.fixture(params=["redis", "memory"])
def kind(request: pytest.FixtureRequest) -> str:
    if request.param == "redis":
        request.getfixturevalue("prefix")  # needs Redis; its keys are deleted afterwards
    return str(request.param)


@asynccontextmanager
async def fleet(kind: str, request: pytest.FixtureRequest) -> AsyncIterator[Stores]:
    if kind == "memory":
        shared = MemoryBreakerStore()
        yield lambda: shared
        return
    prefix = request.getfixturevalue("prefix")
    clients: list[Any] = []

    def store() -> BreakerStore:
        clients.append(redis.asyncio.Redis.from_url(REDIS_URL))
        # A loaded test machine is not a slow Redis.
        return RedisBreakerStore(clients[-1], prefix=prefix, timeout=2.0)

    try:
        yield store
    finally:
        for client in clients:
            await client.aclose()


def worker(stores: Stores, clock: FakeClock, script: ScriptedSource) -> GuardedSource:
    return GuardedSource(
        script, clock=clock, cache=None, deadline=2.0, breaker=SETTINGS, breaker_store=stores()
    )


def reasons(answers: list[list[Fact]]) -> list[str]:
    return sorted(str(a[0].silent_reason) for a in answers)


def test_a_breaker_opened_by_one_worker_rejects_in_another(
    kind: str, request: pytest.FixtureRequest
) -> None:
    clock = FakeClock(START)
    failing = ScriptedSource("weather", [SourceError("HTTP 500")])
    other = ScriptedSource("weather", [[weather_fact()]])

    async def go() -> list[Fact]:
        async with fleet(kind, request) as stores:
            first, second = worker(stores, clock, failing), worker(stores, clock, other)
            await second.fetch(QUERY)  # the second worker knows the breaker closed
            for _ in range(3):
                await first.fetch(QUERY)
            clock.advance(seconds=1)  # past a Redis worker's sync interval
            return await second.fetch(QUERY)

    answer = asyncio.run(go())
    assert failing.calls == 3
    assert other.calls == 1  # the call before the breaker opened; none after
    assert answer[0].silent_reason == "circuit_open"


def test_failures_of_several_workers_add_up_to_fail_max(
    kind: str, request: pytest.FixtureRequest
) -> None:
    clock = FakeClock(START)
    scripts = [ScriptedSource("weather", [SourceError()]) for _ in range(3)]

    async def go() -> list[BreakerState]:
        async with fleet(kind, request) as stores:
            workers = [worker(stores, clock, s) for s in scripts]
            for w in workers:
                await w.fetch(QUERY)
                clock.advance(seconds=1)  # a trial Redis reserved for the next call lapses
            return [w.state for w in workers]

    assert asyncio.run(go())[-1] == BreakerState.OPEN
    assert [s.calls for s in scripts] == [1, 1, 1]


def test_after_the_reset_timeout_exactly_one_worker_of_the_fleet_probes(
    kind: str, request: pytest.FixtureRequest
) -> None:
    clock = FakeClock(START)
    scripts = [
        ScriptedSource("weather", [SourceError()] * 3 + [Delay(0.05, [weather_fact()])])
        for _ in range(4)
    ]

    async def go() -> list[list[Fact]]:
        async with fleet(kind, request) as stores:
            workers = [worker(stores, clock, s) for s in scripts]
            for _ in range(3):
                await workers[0].fetch(QUERY)
            clock.advance(seconds=30)
            answers = await asyncio.gather(*(w.fetch(QUERY) for w in workers))
            return [list(a) for a in answers]

    answers = asyncio.run(go())
    assert sum(s.calls for s in scripts) == 3 + 1
    assert reasons(answers) == ["None", "circuit_open", "circuit_open", "circuit_open"]


def test_a_probe_that_succeeds_closes_the_breaker_for_every_worker(
    kind: str, request: pytest.FixtureRequest
) -> None:
    clock = FakeClock(START)
    prober = ScriptedSource("weather", [SourceError()] * 3 + [[weather_fact()]])
    other = ScriptedSource("weather", [[weather_fact("5.0")]])

    async def go() -> tuple[list[Fact], BreakerState]:
        async with fleet(kind, request) as stores:
            first, second = worker(stores, clock, prober), worker(stores, clock, other)
            for _ in range(3):
                await first.fetch(QUERY)
            clock.advance(seconds=30)
            await first.fetch(QUERY)  # the probe, answered
            clock.advance(seconds=1)  # past a Redis worker's sync interval
            return list(await second.fetch(QUERY)), second.state

    answer, state = asyncio.run(go())
    assert answer == [weather_fact("5.0")]
    assert state == BreakerState.CLOSED


def test_the_twin_refuses_a_second_source_of_the_name_with_other_settings() -> None:
    store = MemoryBreakerStore()
    clock = FakeClock(START)
    GuardedSource(ScriptedSource("weather", [[]]), clock=clock, breaker_store=store)
    with pytest.raises(ConfigError, match="MemoryBreakerStore"):
        GuardedSource(
            ScriptedSource("weather", [[]]),
            clock=clock,
            breaker=BreakerSettings(fail_max=9),
            breaker_store=store,
        )
