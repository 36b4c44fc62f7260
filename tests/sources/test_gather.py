"""gather: all sources at once, stable order, bounded by the deadline; the sync facade."""

from __future__ import annotations

import asyncio

import pytest
from sourcefacts import weather_fact

from vouched import BreakerSettings, GuardedSource, SourceError, fetch_sync, gather, gather_sync
from vouched.testing import Delay, FakeClock, ScriptedSource, virtual_time

QUERY = {"subject": "Berlin"}


def test_results_follow_the_order_of_the_sources_not_of_completion() -> None:
    first = weather_fact("1.0", attribute="a")
    second = weather_fact("2.0", attribute="b")
    sources = [
        ScriptedSource("slow", [Delay(0.05, [first])]),
        ScriptedSource("fast", [[second]]),
    ]
    with virtual_time() as loop:
        answer = loop.run(gather(sources, QUERY, deadline=1.0))
    elapsed = loop.elapsed
    assert answer == [first, second]
    assert elapsed == pytest.approx(0.05)  # the slow one answered; no deadline was waited


def test_one_hanging_source_costs_exactly_the_deadline() -> None:
    fact = weather_fact()
    sources = [ScriptedSource("ok", [[fact]]), ScriptedSource("hangs", [ScriptedSource.HANG])]
    with virtual_time() as loop:
        answer = loop.run(gather(sources, QUERY, deadline=0.2))
    elapsed = loop.elapsed
    assert answer[0] == fact
    assert [(f.source, f.silent_reason) for f in answer[1:]] == [("hangs", "timeout")]
    assert elapsed == pytest.approx(0.2)


def test_several_hanging_sources_still_cost_only_the_deadline() -> None:
    sources = [ScriptedSource(f"h{i}", [ScriptedSource.HANG]) for i in range(5)]
    with virtual_time() as loop:
        answer = loop.run(gather(sources, QUERY, deadline=0.2))
    elapsed = loop.elapsed
    assert elapsed == pytest.approx(0.2)
    assert [f.silent_reason for f in answer] == ["timeout"] * 5


def test_a_raw_source_that_raises_answers_with_silence() -> None:
    fact = weather_fact()
    sources = [
        ScriptedSource("bad", [SourceError("HTTP 500")], expects=[("Berlin", "wind")]),
        ScriptedSource("ok", [[fact]]),
    ]
    answer = gather_sync(sources, QUERY, deadline=1.0)
    assert [(f.attribute, f.silent_reason) for f in answer] == [
        ("wind", "source_error"),
        ("temperature", None),
    ]


def test_an_empty_answer_becomes_no_data() -> None:
    answer = gather_sync([ScriptedSource("empty", [[]])], QUERY, deadline=1.0)
    assert [f.silent_reason for f in answer] == ["no_data"]


def test_guarded_sources_compose_with_gather() -> None:
    clock = FakeClock("2026-11-29T12:00:00Z")
    guarded = GuardedSource(ScriptedSource("hangs", [ScriptedSource.HANG]), deadline=0.05)
    answer = gather_sync([guarded], QUERY, deadline=1.0, clock=clock)
    assert [f.silent_reason for f in answer] == ["timeout"]


def test_gather_silences_use_the_given_clock() -> None:
    clock = FakeClock("2030-01-01T00:00:00Z")
    answer = gather_sync([ScriptedSource("x", [SourceError()])], QUERY, deadline=1.0, clock=clock)
    assert answer[0].observed_at == clock.now()


def test_gather_of_nothing_is_nothing() -> None:
    assert gather_sync([], QUERY, deadline=1.0) == []


def test_gather_refuses_a_non_positive_deadline() -> None:
    with pytest.raises(ValueError, match="deadline"):
        gather_sync([], QUERY, deadline=0)


def test_cancelling_gather_cancels_every_source() -> None:
    hangs = [ScriptedSource(f"h{i}", [ScriptedSource.HANG]) for i in range(3)]

    async def run() -> int:
        task = asyncio.ensure_future(gather(hangs, QUERY, deadline=10))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0)
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        return len([t for t in others if not t.done()])

    with virtual_time() as loop:
        still_running = loop.run(run())
    elapsed = loop.elapsed
    assert still_running == 0
    assert elapsed < 10  # cancelled, not timed out


def test_fetch_sync_returns_the_sources_facts() -> None:
    fact = weather_fact()
    assert fetch_sync(ScriptedSource("s", [[fact]]), QUERY) == [fact]


def test_the_sync_facade_refuses_to_run_inside_an_event_loop() -> None:
    async def run() -> None:
        fetch_sync(ScriptedSource("s", [[]]), QUERY)

    with pytest.raises(RuntimeError, match="await"):
        asyncio.run(run())


def test_a_guarded_source_cut_by_gather_counts_a_timeout_against_its_breaker() -> None:
    clock = FakeClock("2026-11-29T12:00:00Z")
    guarded = GuardedSource(
        ScriptedSource("hangs", [ScriptedSource.HANG]),
        deadline=5.0,
        breaker=BreakerSettings(fail_max=2),
        clock=clock,
    )
    for _ in range(2):
        answer = gather_sync([guarded], QUERY, deadline=0.05, clock=clock)
        assert [f.silent_reason for f in answer] == ["timeout"]
    assert guarded.state == "open"


def test_a_guarded_source_cut_by_gather_serves_its_last_good_facts() -> None:
    fact = weather_fact()
    guarded = GuardedSource(
        ScriptedSource("flaky", [[fact], ScriptedSource.HANG]),
        deadline=5.0,
        clock=FakeClock("2026-11-29T12:00:00Z"),
    )
    assert gather_sync([guarded], QUERY, deadline=0.05) == [fact]
    with virtual_time() as loop:
        answer = loop.run(gather([guarded], QUERY, deadline=0.1))
    elapsed = loop.elapsed
    assert answer == [fact]
    assert elapsed < 0.1  # the guarded source gave up just before the gather's deadline


def test_a_guarded_deadline_shorter_than_the_gathers_still_applies() -> None:
    guarded = GuardedSource(ScriptedSource("hangs", [ScriptedSource.HANG]), deadline=0.05)
    with virtual_time() as loop:
        answer = loop.run(gather([guarded], QUERY, deadline=2.0))
    elapsed = loop.elapsed
    assert [f.silent_reason for f in answer] == ["timeout"]
    assert elapsed == pytest.approx(0.05)
