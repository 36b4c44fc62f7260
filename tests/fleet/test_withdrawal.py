"""A withdrawal wins everywhere: no worker serves a value a source withdrew, with
Redis up, stopped and started (keys lost) or frozen (keys kept). Each test runs
a redis-server of its own on a free port, never the shared one."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
import redis.asyncio

from fleet.services import OwnRedis, own_redis
from vouched import Fact, GuardedSource, Query, RedisLastGood, SourceError
from vouched.testing import FakeClock

QUERY = {"subject": "Berlin"}
WITHDRAWN = Decimal("21.4")
TIMEOUT = 0.2  # a frozen Redis costs each call this long (real time, not asserted)


@pytest.fixture
def server() -> Iterator[OwnRedis]:
    yield from own_redis()


class Weather:
    """Up with 21.4 (observed now) until the step ``withdraws`` it (an empty
    answer), then down for good; ``sees_withdrawal`` is False for a worker whose
    calls all fail from that step on."""

    name = "weather"

    def __init__(self, clock: FakeClock, *, sees_withdrawal: bool) -> None:
        self.clock = clock
        self.step = 0
        self.withdraws = 6
        self.sees_withdrawal = sees_withdrawal

    async def fetch(self, query: Query) -> list[Fact]:
        if self.step < self.withdraws - 1:
            return [
                Fact(subject="Berlin", attribute="temperature", value=WITHDRAWN, unit="degC",
                     source="weather", observed_at=self.clock.now(), ttl=3600)
            ]  # fmt: skip
        if self.step == self.withdraws and self.sees_withdrawal:
            return []
        raise SourceError("HTTP 503")


def worker(client: Any, clock: FakeClock, source: Weather) -> GuardedSource:
    return GuardedSource(
        source,
        clock=clock,
        breaker=None,
        deadline=5.0,
        last_good=RedisLastGood(client, prefix="fleet", clock=clock, timeout=TIMEOUT),
    )


def revived(facts: list[Fact], step: int, withdrawn_at: int) -> int:
    return sum(1 for f in facts if step >= withdrawn_at and f.value == WITHDRAWN)


async def run_fleet(server: OwnRedis, outage: str) -> tuple[int, list[str]]:
    """Two workers, 18 steps a minute apart; Redis away from step 5 to 12 (stopped
    and started again, or frozen); worker B sees the withdrawal at step 6, worker A
    only failures, and A asks first. Returns (values served after the withdrawal,
    A's silence reasons while Redis was away)."""
    clock = FakeClock("2026-11-29T12:00:00Z")
    a_source, b_source = (Weather(clock, sees_withdrawal=s) for s in (False, True))
    count, reasons = 0, []
    async with (
        redis.asyncio.Redis.from_url(server.url) as a_client,
        redis.asyncio.Redis.from_url(server.url) as b_client,
    ):
        a, b = worker(a_client, clock, a_source), worker(b_client, clock, b_source)
        for step in range(18):
            if step == 5:
                server.stop() if outage == "restart" else server.pause()
            if step == 12:
                server.start() if outage == "restart" else server.resume()
            a_source.step = b_source.step = step
            for name, source in (("a", a), ("b", b)):
                facts = await source.fetch(QUERY)
                count += revived(facts, step, a_source.withdraws)
                if name == "a" and 5 < step < 12:
                    reasons += [str(f.silent_reason) for f in facts if f.is_silent]
            clock.advance(seconds=60)
    return count, reasons


def test_no_worker_serves_a_withdrawn_value_while_redis_is_restarted(server: OwnRedis) -> None:
    count, reasons = asyncio.run(run_fleet(server, "restart"))
    assert count == 0
    assert set(reasons) == {"store_unavailable"}


def test_no_worker_serves_a_withdrawn_value_after_a_frozen_redis_comes_back(
    server: OwnRedis,
) -> None:
    count, reasons = asyncio.run(run_fleet(server, "freeze"))
    assert count == 0
    assert set(reasons) == {"store_unavailable"}


def test_a_withdrawal_redis_missed_is_written_when_it_answers_again(server: OwnRedis) -> None:
    clock = FakeClock("2026-11-29T12:00:00Z")
    fact = Fact(subject="Berlin", attribute="temperature", value=WITHDRAWN, unit="degC",
                source="weather", observed_at=clock.now(), ttl=3600)  # fmt: skip

    async def go() -> tuple[tuple[Fact, ...] | None, int, tuple[Fact, ...] | None]:
        async with redis.asyncio.Redis.from_url(server.url) as client:
            b = RedisLastGood(client, prefix="fleet", clock=clock, timeout=TIMEOUT)
            await b.save("weather", QUERY, [fact])
            server.pause()
            clock.advance(seconds=60)
            await b.save("weather", QUERY, [])  # the source withdrew it; Redis is away
            pending = b.withdrawals_pending
            server.resume()
            before = await b.load("weather", {"subject": "Rome"})  # any call writes it first
        async with redis.asyncio.Redis.from_url(server.url) as client:
            other = RedisLastGood(client, prefix="fleet", clock=clock)  # never saw Redis fail
            return before, pending, await other.load("weather", QUERY)

    before, pending, seen_by_another = asyncio.run(go())
    assert (before, pending, seen_by_another) == ((), 1, ())


def test_a_withdrawal_keeps_a_fact_observed_after_it(server: OwnRedis) -> None:
    clock = FakeClock("2026-11-29T12:00:00Z")
    soon = clock.now() + timedelta(minutes=5)
    later = Fact(subject="Berlin", attribute="temperature", value=Decimal("3.0"), unit="degC",
                 source="weather", observed_at=soon, ttl=3600)  # fmt: skip

    async def go() -> tuple[Fact, ...] | None:
        async with redis.asyncio.Redis.from_url(server.url) as client:
            b = RedisLastGood(client, prefix="fleet", clock=clock, timeout=TIMEOUT)
            server.pause()
            await b.save("weather", QUERY, [])  # withdrawn now; Redis is away
            server.resume()
            async with redis.asyncio.Redis.from_url(server.url) as other_client:
                other = RedisLastGood(other_client, prefix="fleet", clock=clock)
                await other.save("weather", QUERY, [later])  # another worker, later value
            await b.load("weather", {"subject": "Rome"})  # b writes its withdrawal now
            async with redis.asyncio.Redis.from_url(server.url) as other_client:
                return await RedisLastGood(other_client, prefix="fleet", clock=clock).load(
                    "weather", QUERY
                )

    assert asyncio.run(go()) == (later,)
