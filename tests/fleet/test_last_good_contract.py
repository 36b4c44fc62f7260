"""One rule, two stores: the same interleavings of saves, loads and time run
against the in-memory twin (MemoryLastGood) and the real Redis on 127.0.0.1
load the same facts in the same order; and neither serves a value the source
withdrew."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
import redis.asyncio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sourcefacts import START, weather_fact

from fleet.services import REDIS_URL
from vouched import Fact, GuardedSource, RedisLastGood, SourceError
from vouched._sources._lastgood import SharedLastGood
from vouched.testing import FakeClock, MemoryLastGood, ScriptedSource

QUERY = {"subject": "Berlin"}
ATTRIBUTES = ("temperature", "humidity", "wind")
_runs = itertools.count()


def a_fact(attribute: str, minutes: int, ttl: int | None, value: int) -> Fact:
    fact = weather_fact(str(value), attribute)
    observed = fact.observed_at + timedelta(minutes=minutes)  # type: ignore[operator]
    update: dict[str, Any] = {"observed_at": observed, "value": Decimal(value)}
    update["ttl"] = None if ttl is None else timedelta(seconds=ttl)
    return fact.model_copy(update=update)


def a_silence(attribute: str) -> Fact:
    return Fact.silence("Berlin", attribute, "no_data", source="weather")


facts = st.builds(
    a_fact,
    st.sampled_from(ATTRIBUTES),
    st.integers(-30, 30),
    st.sampled_from([60, 900, None]),
    st.integers(0, 99),
)
answers = st.lists(st.one_of(facts, st.sampled_from(ATTRIBUTES).map(a_silence)), max_size=3).map(
    lambda items: list({(f.subject, f.attribute): f for f in items}.values())
)
steps = st.lists(
    st.one_of(
        st.tuples(st.just("save"), st.integers(0, 1), answers),
        st.tuples(st.just("load"), st.integers(0, 1), st.none()),
        st.tuples(st.just("wait"), st.integers(1, 1200), st.none()),
    ),
    min_size=1,
    max_size=12,
)


async def play(workers: Sequence[SharedLastGood], clock: FakeClock, script: list[Any]) -> list[Any]:
    seen: list[Any] = []
    for kind, who, answer in script:
        if kind == "wait":
            clock.advance(seconds=who)
        elif kind == "save":
            await workers[who].save("weather", QUERY, answer)
        else:
            seen.append(await workers[who].load("weather", QUERY))
    seen.append(await workers[0].load("weather", QUERY))
    return seen


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(script=steps)
def test_redis_and_the_twin_load_the_same_facts_after_any_interleaving(
    prefix: str, script: list[Any]
) -> None:
    memory_clock, redis_clock = FakeClock(START), FakeClock(START)
    shared: dict[Any, Any] = {}
    twins = [MemoryLastGood(shared, clock=memory_clock) for _ in range(2)]
    expected = asyncio.run(play(twins, memory_clock, script))
    own = f"{prefix}-{next(_runs)}"

    async def on_redis() -> list[Any]:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            workers = [
                RedisLastGood(client, prefix=own, clock=redis_clock, timeout=2.0) for _ in range(2)
            ]
            return await play(workers, redis_clock, script)

    assert asyncio.run(on_redis()) == expected


def _twin(clock: FakeClock, shared: dict[Any, Any]) -> SharedLastGood:
    return MemoryLastGood(shared, clock=clock)


@pytest.mark.parametrize("store", ["memory", "redis"])
def test_a_withdrawn_value_is_not_served_by_any_worker_once_the_source_is_down(
    prefix: str, store: str
) -> None:
    clock = FakeClock(START)
    fact = weather_fact("4.3")
    up = ScriptedSource("weather", [[fact], []])  # a value, then withdrawn
    down = ScriptedSource("weather", [SourceError("HTTP 503")])
    shared: dict[Any, Any] = {}

    async def go() -> tuple[list[Fact], list[Fact]]:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:

            def last_good() -> SharedLastGood:
                if store == "memory":
                    return _twin(clock, shared)
                return RedisLastGood(client, prefix=prefix, clock=clock, timeout=2.0)

            a = GuardedSource(up, clock=clock, breaker=None, last_good=last_good())
            await a.fetch(QUERY)
            await a.fetch(QUERY)  # the source is up and has nothing now
            b = GuardedSource(down, clock=clock, breaker=None, last_good=last_good())
            a.source = down
            return await a.fetch(QUERY), await b.fetch(QUERY)

    mine, other = asyncio.run(go())
    for answer in (mine, other):
        assert all(f.is_silent for f in answer), answer


@pytest.mark.parametrize("store", ["memory", "redis"])
def test_a_value_another_worker_saw_withdrawn_is_not_served_from_this_workers_cache(
    prefix: str, store: str
) -> None:
    clock = FakeClock(START)
    fact = weather_fact("4.3")
    shared: dict[Any, Any] = {}

    async def go() -> list[Fact]:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:

            def last_good() -> SharedLastGood:
                if store == "memory":
                    return _twin(clock, shared)
                return RedisLastGood(client, prefix=prefix, clock=clock, timeout=2.0)

            script_b = ScriptedSource("weather", [[fact], SourceError("HTTP 503")])
            a = GuardedSource(
                ScriptedSource("weather", [[fact], []]), clock=clock, breaker=None,
                last_good=last_good(),
            )  # fmt: skip
            b = GuardedSource(script_b, clock=clock, breaker=None, last_good=last_good())
            await a.fetch(QUERY)
            await b.fetch(QUERY)  # b keeps 4.3 in its own cache too
            await a.fetch(QUERY)  # a sees it withdrawn: the fleet lets it go
            return await b.fetch(QUERY)  # b's source fails

    answer = asyncio.run(go())
    assert all(f.is_silent for f in answer), answer


def a_day_high(value: int, day: int) -> Fact:
    fact = a_fact("temperature_max", 0, 86_400, value)
    start = fact.observed_at.replace(hour=0, minute=0) + timedelta(days=day)  # type: ignore[union-attr]
    return fact.model_copy(update={"valid_from": start, "valid_until": start + timedelta(days=1)})


@pytest.mark.parametrize("store", ["memory", "redis"])
def test_each_period_is_its_own_fact_and_a_silence_withdraws_them_all(
    prefix: str, store: str
) -> None:
    clock = FakeClock(START)
    friday, saturday = a_day_high(12, 1), a_day_high(9, 2)

    async def go() -> tuple[tuple[Fact, ...] | None, tuple[Fact, ...] | None]:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            shared: SharedLastGood = (
                _twin(clock, {})
                if store == "memory"
                else RedisLastGood(client, prefix=prefix, clock=clock, timeout=2.0)
            )
            await shared.save("weather", QUERY, [friday, saturday])
            both = await shared.load("weather", QUERY)
            await shared.save("weather", QUERY, [a_silence("temperature_max")])
            return both, await shared.load("weather", QUERY)

    both, after = asyncio.run(go())
    assert both == (friday, saturday)
    assert after == ()
