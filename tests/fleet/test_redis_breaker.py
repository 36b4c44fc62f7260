"""Breakers shared through the real Redis on 127.0.0.1: one state and one probe
for the fleet, no round trip on a closed breaker's happy path, and Redis
failing degrades to this process's own state, never to an invented value.

Each "worker" here is a GuardedSource with its own client and store, as a
process has; the multi-process test is test_fleet_processes.py, and what every
shared store does (the in-memory twin too) is in test_breaker_store_contract.py. Time is a
FakeClock shared by the workers (the fleet shares wall time).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
import redis.asyncio
from sourcefacts import START, weather_fact

from fleet.services import REDIS_URL, Proxy, closed_port
from vouched import (
    BreakerEvent,
    BreakerEventKind,
    BreakerSettings,
    Fact,
    GuardedSource,
    RedisBreakerStore,
    SourceError,
)
from vouched.testing import Delay, FakeClock, ScriptedSource

SETTINGS = BreakerSettings(fail_max=3, reset_timeout=30)
QUERY = {"subject": "Berlin"}
T = TypeVar("T")


class Counting:
    """A redis.asyncio client that counts its round trips (the real server answers)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.trips = 0

    def register_script(self, text: str) -> Callable[..., Awaitable[Any]]:
        script = self.client.register_script(text)

        async def run(*, keys: list[str], args: list[Any]) -> Any:
            self.trips += 1
            return await script(keys=keys, args=args)

        return run


def run(make: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(make())  # type: ignore[arg-type]  # a coroutine


def worker(
    client: Any,
    prefix: str,
    clock: FakeClock,
    script: ScriptedSource,
    *,
    events: list[BreakerEvent] | None = None,
    **store: Any,
) -> GuardedSource:
    store.setdefault("timeout", 2.0)  # a loaded test machine is not a slow Redis
    return GuardedSource(
        script,
        clock=clock,
        cache=None,
        deadline=2.0,
        breaker=SETTINGS,
        breaker_store=RedisBreakerStore(client, prefix=prefix, **store),
        listeners=[events.append] if events is not None else [],
    )


def reasons(answers: list[list[Fact]]) -> list[str | None]:
    return [a[0].silent_reason for a in answers]


def test_a_probe_whose_worker_died_frees_the_fleet_after_its_lease(prefix: str) -> None:
    clock = FakeClock(START)
    dead = ScriptedSource("weather", [SourceError()] * 3 + [ScriptedSource.HANG])
    alive = ScriptedSource("weather", [[weather_fact()]])

    async def go() -> tuple[list[Fact], list[Fact]]:
        async with (
            redis.asyncio.Redis.from_url(REDIS_URL) as a,
            redis.asyncio.Redis.from_url(REDIS_URL) as b,
        ):
            first = worker(a, prefix, clock, dead, lease=5.0)
            second = worker(b, prefix, clock, alive, lease=5.0)
            for _ in range(3):
                await first.fetch(QUERY)
            clock.advance(seconds=30)
            breaker = first.breaker
            assert breaker is not None
            ticket = await breaker.admit()  # the probe, whose worker then dies silently
            assert ticket is not None
            assert ticket.probe
            during = await second.fetch(QUERY)
            clock.advance(seconds=5)
            after = await second.fetch(QUERY)
            return during, after

    during, after = run(go)
    assert during[0].silent_reason == "circuit_open"
    assert after == [weather_fact()]
    assert alive.calls == 1


def test_a_closed_breaker_makes_no_round_trip_on_the_happy_path(prefix: str) -> None:
    clock = FakeClock(START)
    script = ScriptedSource("weather", [[weather_fact()]])

    async def go() -> int:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            counting = Counting(client)
            source = worker(counting, prefix, clock, script)  # type: ignore[arg-type]  # a fake over the real client
            await source.fetch(QUERY)  # the first call reads the fleet's state once
            before = counting.trips
            for n in range(200):
                await source.fetch({"subject": "Berlin", "n": n})
            return counting.trips - before

    assert run(go) == 0


def test_a_closed_breaker_reads_the_fleets_state_once_per_sync_interval(prefix: str) -> None:
    clock = FakeClock(START)
    script = ScriptedSource("weather", [[weather_fact()]])

    async def go() -> int:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            counting = Counting(client)
            source = worker(counting, prefix, clock, script, sync_every=0.5)  # type: ignore[arg-type]  # a fake over the real client
            for n in range(100):
                await source.fetch({"subject": "Berlin", "n": n})
                clock.advance(seconds=0.01)  # 100 calls over one second
            return counting.trips

    # The first call is admitted through Redis and reports its success (two round
    # trips: this process had not seen the source answer); then one read at 0.5 s.
    assert run(go) == 3


def test_each_failure_costs_at_most_one_round_trip(prefix: str) -> None:
    clock = FakeClock(START)
    script = ScriptedSource("weather", [SourceError()])

    async def go() -> int:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            counting = Counting(client)
            source = worker(counting, prefix, clock, script)  # type: ignore[arg-type]  # a fake over the real client
            await source.fetch(QUERY)
            before = counting.trips
            await source.fetch({"subject": "Berlin", "n": 1})
            return counting.trips - before

    # The second call is the trial the first failure's reply granted: its
    # failure is its only round trip.
    assert run(go) == 1


def test_an_open_breaker_rejects_without_a_round_trip(prefix: str) -> None:
    clock = FakeClock(START)
    script = ScriptedSource("weather", [SourceError()])

    async def go() -> int:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            counting = Counting(client)
            source = worker(counting, prefix, clock, script)  # type: ignore[arg-type]  # a fake over the real client
            for n in range(3):
                await source.fetch({"subject": "Berlin", "n": n})
            before = counting.trips
            for n in range(100):
                await source.fetch({"subject": "Berlin", "m": n})
            return counting.trips - before

    assert run(go) == 0
    assert script.calls == 3


def test_once_a_failure_is_known_the_fleet_admits_at_most_fail_max_trials(prefix: str) -> None:
    clock = FakeClock(START)
    slow_failure = Delay(0.05, SourceError("HTTP 500"))
    first = ScriptedSource("weather", [SourceError()])
    others = [ScriptedSource("weather", [slow_failure]) for _ in range(4)]

    async def go() -> list[list[Fact]]:
        clients = [redis.asyncio.Redis.from_url(REDIS_URL) for _ in range(5)]
        workers = [
            worker(c, prefix, clock, s) for c, s in zip(clients, [first, *others], strict=True)
        ]
        await workers[0].fetch(QUERY)  # one failure: the fleet now admits trials only
        clock.advance(seconds=1)  # the trial reserved for the first worker's next call lapses
        answers = await asyncio.gather(*(w.fetch(QUERY) for w in workers[1:]))
        for c in clients:
            await c.aclose()
        return [list(a) for a in answers]

    answers = run(go)
    # fail_max = 3: one failure and two trials in flight; the other two are refused.
    assert sum(s.calls for s in others) == 2
    assert sorted(map(str, reasons(answers))) == [
        "circuit_open",
        "circuit_open",
        "source_error",
        "source_error",
    ]


def test_redis_at_a_closed_port_falls_back_to_local_state_and_says_so_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = FakeClock(START)
    script = ScriptedSource("weather", [SourceError()])
    events: list[BreakerEvent] = []
    url = f"redis://127.0.0.1:{closed_port()}/0"

    async def go() -> tuple[list[list[Fact]], RedisBreakerStore]:
        async with redis.asyncio.Redis.from_url(url) as client:
            source = worker(client, "unused", clock, script, events=events)
            answers = [list(await source.fetch({"n": n})) for n in range(6)]
            store = source.breaker._store  # type: ignore[union-attr]  # a RedisBreaker
            return answers, store

    with caplog.at_level(logging.WARNING, logger="vouched.sources"):
        answers, store = run(go)
    assert script.calls == 3  # the local breaker opened after fail_max
    assert reasons(answers) == ["source_error"] * 3 + ["circuit_open"] * 3
    assert all(a[0].value is None for a in answers)
    assert store.fallbacks == 1
    assert len([r for r in caplog.records if "Redis did not answer" in r.message]) == 1
    assert [e.kind for e in events].count(BreakerEventKind.LOCAL_FALLBACK) == 1


def test_traffic_to_redis_stopping_mid_run_falls_back_then_recovers(
    proxy: Proxy, prefix: str
) -> None:
    clock = FakeClock(START)
    script = ScriptedSource("weather", [[weather_fact()]])
    events: list[BreakerEvent] = []

    async def go() -> tuple[bool, bool, bool, list[Fact]]:
        async with redis.asyncio.Redis.from_url(proxy.url, socket_timeout=0.2) as client:
            source = worker(client, prefix, clock, script, events=events, retry_every=1.0)
            breaker = source.breaker
            await source.fetch({"n": 0})
            before = breaker.shared  # type: ignore[union-attr]  # a RedisBreaker
            proxy.cut()
            clock.advance(seconds=1)  # the next call reads the fleet's state: Redis is gone
            during = list(await source.fetch({"n": 1}))
            cut = breaker.shared  # type: ignore[union-attr]  # a RedisBreaker
            proxy.mend()
            clock.advance(seconds=1)
            await source.fetch({"n": 2})
            return before, cut, breaker.shared, during  # type: ignore[union-attr]  # a RedisBreaker

    before, cut, after, during = run(go)
    assert (before, cut, after) == (True, False, True)
    assert during == [weather_fact()]  # the source still answers: Redis is not on its path
    kinds = [e.kind for e in events]
    assert kinds.count(BreakerEventKind.LOCAL_FALLBACK) == 1
    assert kinds.count(BreakerEventKind.SHARED_RESTORED) == 1


def test_a_slow_redis_never_holds_an_answer_past_the_deadline(prefix: str) -> None:
    clock = FakeClock(START)
    script = ScriptedSource("weather", [[weather_fact()]])

    class Stalled:
        """Redis that never answers."""

        def register_script(self, text: str) -> Callable[..., Awaitable[Any]]:
            async def never(*, keys: list[str], args: list[Any]) -> Any:
                await asyncio.sleep(3600)

            return never

    async def go() -> list[Fact]:
        source = GuardedSource(
            script,
            clock=clock,
            cache=None,
            deadline=0.2,
            breaker=SETTINGS,
            breaker_store=RedisBreakerStore(Stalled(), prefix=prefix, timeout=10.0),
        )
        return await source.fetch(QUERY)

    answer = run(go)
    # The deadline (0.2 s) ended the wait: had Redis's own 10 s timeout ended it,
    # the breaker would have fallen back to local state and called the source.
    assert answer[0].silent_reason == "timeout"
    assert script.calls == 0


def test_a_breaker_store_refuses_nonsense_settings() -> None:
    with pytest.raises(ValueError, match=r"RedisBreakerStore\.lease"):
        RedisBreakerStore(redis.asyncio.Redis(), lease=0)


def test_a_fallback_to_local_state_is_counted_by_the_prometheus_exporter() -> None:
    from vouched import PrometheusMetrics  # noqa: PLC0415 - the one test that needs the extra

    metrics = PrometheusMetrics()
    clock = FakeClock(START)
    script = ScriptedSource("weather", [[weather_fact()]])
    url = f"redis://127.0.0.1:{closed_port()}/0"

    async def go() -> None:
        async with redis.asyncio.Redis.from_url(url) as client:
            source = worker(client, "unused", clock, script)
            source.add_listener(metrics.on_breaker_event)
            for n in range(5):
                await source.fetch({"n": n})

    run(go)
    text = metrics.exposition().decode()
    assert 'vouched_breaker_store_fallbacks_total{source="weather"} 1.0' in text


def test_a_cold_workers_concurrent_callers_wait_for_its_first_call_then_all_go(
    prefix: str,
) -> None:
    clock = FakeClock(START)
    script = ScriptedSource("weather", [Delay(0.05, [weather_fact()])])

    async def go() -> list[list[Fact]]:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            source = worker(client, prefix, clock, script)
            answers = await asyncio.gather(
                *(source.fetch({"subject": "Berlin", "n": n}) for n in range(10))
            )
            return [list(a) for a in answers]

    answers = run(go)
    assert answers == [[weather_fact()]] * 10  # none refused on a healthy source
    assert script.calls == 10


def test_a_source_down_from_the_start_is_called_fail_max_times_by_concurrent_cold_workers(
    prefix: str,
) -> None:
    clock = FakeClock(START)
    scripts = [ScriptedSource("weather", [Delay(0.05, SourceError("HTTP 503"))]) for _ in range(6)]

    async def go() -> None:
        clients = [redis.asyncio.Redis.from_url(REDIS_URL) for _ in scripts]
        workers = [worker(c, prefix, clock, s) for c, s in zip(clients, scripts, strict=True)]
        await asyncio.gather(
            *(w.fetch({"subject": "Berlin", "n": n}) for w in workers for n in range(4))
        )
        for c in clients:
            await c.aclose()

    run(go)
    assert sum(s.calls for s in scripts) == SETTINGS.fail_max
