"""Last good facts shared through the real Redis on 127.0.0.1: a worker that
never saw the source up serves what another saw, with its original
observed_at; the facts only move forward and expire with their TTL."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

import pytest
import redis.asyncio
from sourcefacts import START, weather_fact

from fleet.services import REDIS_URL, closed_port
from vouched import Fact, GuardedSource, Policy, RedisLastGood, SourceError, partition
from vouched.testing import FakeClock, ScriptedSource

QUERY = {"subject": "Berlin", "latitude": 52.52}
T = TypeVar("T")


def run(make: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(make())  # type: ignore[arg-type]  # a coroutine


def worker(client: Any, prefix: str, clock: FakeClock, script: ScriptedSource) -> GuardedSource:
    return GuardedSource(
        script,
        clock=clock,
        deadline=2.0,
        breaker=None,
        last_good=RedisLastGood(client, prefix=prefix, clock=clock, timeout=2.0),
    )


def newer(fact: Fact, minutes: int) -> Fact:
    assert fact.observed_at is not None
    return fact.model_copy(update={"observed_at": fact.observed_at + timedelta(minutes=minutes)})


def test_a_worker_that_never_saw_the_source_up_serves_the_fleets_facts(prefix: str) -> None:
    clock = FakeClock(START)
    fact = weather_fact("4.3")
    up = ScriptedSource("weather", [[fact]])
    down = ScriptedSource("weather", [SourceError("HTTP 503")])

    async def go() -> list[Fact]:
        async with (
            redis.asyncio.Redis.from_url(REDIS_URL) as a,
            redis.asyncio.Redis.from_url(REDIS_URL) as b,
        ):
            await worker(a, prefix, clock, up).fetch(QUERY)
            clock.advance(seconds=600)
            return await worker(b, prefix, clock, down).fetch(QUERY)

    answer = run(go)
    assert answer == [fact]
    assert answer[0].observed_at == fact.observed_at  # not re-stamped: the gate judges
    assert partition(answer, Policy(), clock.now()).grounded == (fact,)


def test_an_older_answer_never_replaces_a_newer_one(prefix: str) -> None:
    clock = FakeClock(START)
    old, new = weather_fact("4.3"), newer(weather_fact("5.0"), 10)

    async def go() -> tuple[Fact, ...] | None:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            shared = RedisLastGood(client, prefix=prefix, clock=clock, timeout=2.0)
            other = RedisLastGood(client, prefix=prefix, clock=clock, timeout=2.0)
            await shared.save("weather", QUERY, [new])
            await other.save("weather", QUERY, [old])  # a slow worker, late
            return await shared.load("weather", QUERY)

    assert run(go) == (new,)


def test_a_live_silence_evicts_the_kept_fact(prefix: str) -> None:
    clock = FakeClock(START)
    fact = weather_fact("4.3")
    silence = Fact.silence("Berlin", "temperature", "no_data", source="weather")

    async def go() -> tuple[Fact, ...] | None:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            shared = RedisLastGood(client, prefix=prefix, clock=clock, timeout=2.0)
            await shared.save("weather", QUERY, [fact, weather_fact("63", "humidity")])
            await shared.save("weather", QUERY, [silence])
            return await shared.load("weather", QUERY)

    assert run(go) == (weather_fact("63", "humidity"),)


def test_a_fact_expires_with_its_own_ttl(prefix: str) -> None:
    clock = FakeClock(START)
    short = weather_fact("4.3", ttl=60)
    long = weather_fact("63", "humidity", ttl=3600)

    async def go() -> tuple[tuple[Fact, ...] | None, tuple[Fact, ...] | None]:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            shared = RedisLastGood(client, prefix=prefix, clock=clock, timeout=2.0)
            await shared.save("weather", QUERY, [short, long])
            clock.advance(seconds=59)
            before = await shared.load("weather", QUERY)
            clock.advance(seconds=2)
            return before, await shared.load("weather", QUERY)

    before, after = run(go)
    assert before == (short, long)
    assert after == (long,)


def test_load_returns_the_facts_in_the_order_they_were_saved(prefix: str) -> None:
    # Thirty facts of over 64 bytes each: Redis keeps such a hash as a hashtable,
    # whose own order is not the order written.
    clock = FakeClock(START)
    answer = [weather_fact(str(i), f"attribute_{(i * 7) % 30:02d}") for i in range(30)]

    async def go() -> tuple[Fact, ...] | None:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            shared = RedisLastGood(client, prefix=prefix, clock=clock, timeout=2.0)
            await shared.save("weather", QUERY, answer)
            return await shared.load("weather", QUERY)

    assert run(go) == tuple(answer)


def test_a_newer_kept_fact_takes_its_place_in_the_latest_answer(prefix: str) -> None:
    clock = FakeClock(START)
    humidity, temperature = weather_fact("63", "humidity"), newer(weather_fact("5.0"), 10)

    async def go() -> tuple[Fact, ...] | None:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            shared = RedisLastGood(client, prefix=prefix, clock=clock, timeout=2.0)
            other = RedisLastGood(client, prefix=prefix, clock=clock, timeout=2.0)
            await shared.save("weather", QUERY, [temperature, humidity])
            await other.save("weather", QUERY, [humidity, weather_fact("4.3")])  # late and older
            return await shared.load("weather", QUERY)

    assert run(go) == (humidity, temperature)


def test_the_redis_key_expires_when_its_last_fact_does(prefix: str) -> None:
    clock = FakeClock(START)

    async def go() -> int:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            shared = RedisLastGood(client, prefix=prefix, clock=clock, timeout=2.0)
            clock.advance(seconds=300)  # the fact (ttl 900) has 600 s left
            await shared.save("weather", QUERY, [weather_fact(ttl=900)])
            return int(await client.pttl(shared.key("weather", QUERY)))

    assert 599_000 <= run(go) <= 600_000


def test_an_unchanged_answer_is_written_once(prefix: str) -> None:
    clock = FakeClock(START)
    writes: list[int] = []

    class Counted:
        def __init__(self, client: Any) -> None:
            self.client = client

        def register_script(self, text: str) -> Callable[..., Awaitable[Any]]:
            script = self.client.register_script(text)

            async def call(*, keys: list[str], args: list[Any]) -> Any:
                writes.append(1)
                return await script(keys=keys, args=args)

            return call

    async def go() -> None:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            source = GuardedSource(
                ScriptedSource("weather", [[weather_fact()]]),
                clock=clock,
                breaker=None,
                last_good=RedisLastGood(Counted(client), prefix=prefix, clock=clock),
            )
            for _ in range(50):
                await source.fetch(QUERY)

    run(go)
    assert len(writes) == 1


def test_redis_down_serves_no_last_good_fact_but_a_store_unavailable_silence(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = FakeClock(START)
    fact = weather_fact()
    script = ScriptedSource("weather", [[fact], SourceError()])

    async def go() -> tuple[list[Fact], list[Fact], int]:
        url = f"redis://127.0.0.1:{closed_port()}/0"
        async with redis.asyncio.Redis.from_url(url) as client:
            shared = RedisLastGood(client, prefix="unused", clock=clock)
            source = GuardedSource(
                script, clock=clock, breaker=None, deadline=2.0, last_good=shared
            )
            first = await source.fetch(QUERY)
            other = await source.fetch({"subject": "Rome"})  # never seen: a silence
            return first + await source.fetch(QUERY), other, shared.failures

    with caplog.at_level(logging.WARNING, logger="vouched.sources"):
        facts, other, failures = run(go)
    assert facts[0] == fact
    assert [f.silent_reason for f in facts[1:]] == ["store_unavailable"]
    assert [f.silent_reason for f in other] == ["source_error"]
    assert failures == 3
    assert len([r for r in caplog.records if "Redis write failed" in r.message]) == 1
