"""max_in_flight: a bulkhead in front of the source; waiting is never the source's fault."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from sourcefacts import weather_fact

from vouched import BreakerSettings, Fact, GuardedSource, Query, fetch_sync, gather
from vouched.testing import FakeClock, ScriptedSource, virtual_time

QUERY = {"subject": "Berlin"}


class Crowded:
    """Counts how many calls are inside at once."""

    name = "crowded"

    def __init__(self) -> None:
        self.inside = 0
        self.peak = 0

    async def fetch(self, query: Query) -> Sequence[Fact]:
        self.inside += 1
        self.peak = max(self.peak, self.inside)
        await asyncio.sleep(0.01)
        self.inside -= 1
        return [weather_fact()]


def test_at_most_max_in_flight_calls_reach_the_source_and_all_are_answered() -> None:
    source = Crowded()
    guarded = GuardedSource(source, max_in_flight=3, deadline=2.0)

    async def burst() -> list[list[Fact]]:
        queries = [{"subject": "Berlin", "n": n} for n in range(12)]  # distinct: no single flight
        return [list(a) for a in await asyncio.gather(*(guarded.fetch(q) for q in queries))]

    with virtual_time() as loop:
        answers = loop.run(burst())
    assert source.peak == 3
    assert all(a == [weather_fact()] for a in answers)


def test_without_a_limit_every_call_goes_in_at_once() -> None:
    source = Crowded()
    guarded = GuardedSource(source, deadline=2.0)

    async def burst() -> None:
        await asyncio.gather(*(guarded.fetch({"subject": "Berlin", "n": n}) for n in range(12)))

    with virtual_time() as loop:
        loop.run(burst())
    assert source.peak == 12


def test_waiting_past_the_deadline_is_a_timeout_but_not_a_breaker_failure() -> None:
    script = ScriptedSource("slow", [ScriptedSource.HANG])
    guarded = GuardedSource(
        script,
        max_in_flight=1,
        deadline=5.0,
        breaker=BreakerSettings(fail_max=1),
        clock=FakeClock("2026-11-29T12:00:00Z"),
    )

    async def run() -> list[Fact]:
        holder = asyncio.ensure_future(guarded.fetch(QUERY))
        await asyncio.sleep(0.01)
        waited = await gather([guarded], QUERY, deadline=0.05)
        holder.cancel()
        with pytest.raises(asyncio.CancelledError):
            await holder
        return waited

    with virtual_time() as loop:
        answer = loop.run(run())
    elapsed = loop.elapsed
    assert [f.silent_reason for f in answer] == ["timeout"]
    assert elapsed <= 0.01 + 0.05  # the wait ended by the gather's deadline
    assert script.calls == 1
    assert guarded.state == "closed"
    assert guarded.breaker is not None
    assert guarded.breaker.fail_counter == 0


def test_the_limit_works_across_event_loops() -> None:
    guarded = GuardedSource(ScriptedSource("s", [[weather_fact()]]), max_in_flight=1)
    assert fetch_sync(guarded, QUERY) == [weather_fact()]
    assert fetch_sync(guarded, QUERY) == [weather_fact()]


@pytest.mark.parametrize("limit", [0, -1, 1.5, True])
def test_max_in_flight_must_be_a_positive_whole_number(limit: object) -> None:
    with pytest.raises(ValueError, match="max_in_flight"):
        GuardedSource(ScriptedSource("s", [[]]), max_in_flight=limit)  # type: ignore[arg-type]  # wrong on purpose
