"""Through the fleet's breaker (real Redis): a caller's malformed queries to one
worker never open the breaker another worker reads (3 such requests to worker
A used to give worker B ``circuit_open`` on 5 of 5 answers)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import redis.asyncio
from sourcefacts import START, weather_fact

from fleet.services import REDIS_URL
from vouched import BreakerSettings, Fact, GuardedSource, Query, QueryError, RedisBreakerStore
from vouched.testing import FakeClock

SETTINGS = BreakerSettings(fail_max=3, reset_timeout=30)
GOOD = {"subject": "Berlin", "latitude": 52.5}


class Weather:
    """Answers a query with a latitude; checks that it has one."""

    name = "weather"

    def __init__(self) -> None:
        self.calls = 0

    def check_query(self, query: Query) -> None:
        if not isinstance(query.get("latitude"), int | float):
            raise QueryError("latitude", "a number", got=query.get("latitude"))

    async def fetch(self, query: Query) -> Sequence[Fact]:
        self.calls += 1
        return [weather_fact()]


def worker(client: object, prefix: str, clock: FakeClock, source: Weather) -> GuardedSource:
    store = RedisBreakerStore(client, prefix=prefix, timeout=2.0)
    return GuardedSource(source, clock=clock, cache=None, deadline=2.0, breaker=SETTINGS,
                         breaker_store=store)  # fmt: skip


def test_malformed_queries_to_one_worker_leave_another_workers_answers_alone(prefix: str) -> None:
    clock = FakeClock(START)
    a_source, b_source = Weather(), Weather()

    async def go() -> tuple[list[list[Fact]], list[list[Fact]]]:
        async with (
            redis.asyncio.Redis.from_url(REDIS_URL) as a,
            redis.asyncio.Redis.from_url(REDIS_URL) as b,
        ):
            first = worker(a, prefix, clock, a_source)
            second = worker(b, prefix, clock, b_source)
            refused = []
            for _ in range(5):
                refused.append(await first.fetch({"subject": "Berlin"}))  # checked: refused
                refused.append(await first.fetch({"subject": "X", "latitude": None}))
            answers = [await second.fetch({**GOOD, "n": n}) for n in range(5)]
            return refused, answers

    refused, answers = asyncio.run(go())
    assert {f.silent_reason for facts in refused for f in facts} == {"malformed_query"}
    assert all(facts == [weather_fact()] for facts in answers)
    assert a_source.calls == 0
