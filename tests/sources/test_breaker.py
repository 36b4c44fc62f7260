"""The breaker's admission: open after fail_max, one probe in half-open, cancellation free."""

from __future__ import annotations

import asyncio

import pytest
from sourcefacts import weather_fact

from vouched import (
    BreakerEvent,
    BreakerEventKind,
    BreakerSettings,
    BreakerState,
    GuardedSource,
    SourceError,
)
from vouched.testing import Delay, FakeClock, ScriptedSource

QUERY = {"subject": "Berlin"}
SETTINGS = BreakerSettings(fail_max=3, reset_timeout=30, success_threshold=2)


def guarded(source: ScriptedSource, clock: FakeClock, **kw: object) -> GuardedSource:
    kw.setdefault("breaker", SETTINGS)
    kw.setdefault("deadline", 2.0)  # ample: tests about deadlines set their own
    return GuardedSource(source, clock=clock, cache=None, **kw)  # type: ignore[arg-type]  # test shorthand for keywords


def fetch_n(source: GuardedSource, n: int) -> list[list[object]]:
    async def run() -> list[list[object]]:
        return [list(await source.fetch(QUERY)) for _ in range(n)]

    return asyncio.run(run())


def reasons(facts: list[object]) -> list[str | None]:
    return [getattr(f, "silent_reason", None) for f in facts]


def test_breaker_opens_after_fail_max_consecutive_failures(clock: FakeClock) -> None:
    source = guarded(ScriptedSource("s", [SourceError("HTTP 500")]), clock)
    fetch_n(source, 2)
    assert source.state == "closed"
    fetch_n(source, 1)
    assert source.state == BreakerState.OPEN


def test_open_breaker_answers_circuit_open_without_calling_the_source(clock: FakeClock) -> None:
    script = ScriptedSource("s", [SourceError("HTTP 500")])
    source = guarded(script, clock)
    fetch_n(source, 3)
    answers = fetch_n(source, 10)
    assert script.calls == 3
    assert all(reasons(a) == ["circuit_open"] for a in answers)


def test_a_success_resets_the_failure_count(clock: FakeClock) -> None:
    fact = weather_fact()
    script = ScriptedSource(
        "s", [SourceError(), SourceError(), [fact], SourceError(), SourceError()]
    )
    source = guarded(script, clock)
    fetch_n(source, 5)
    assert source.state == "closed"


def test_exactly_one_probe_is_admitted_in_half_open(clock: FakeClock) -> None:
    fact = weather_fact()
    script = ScriptedSource("s", [SourceError()] * 3 + [Delay(0.05, [fact])])
    source = guarded(script, clock)
    fetch_n(source, 3)
    clock.advance(seconds=30)

    async def burst() -> list[list[object]]:
        # Five different questions: identical ones would share one call (single flight).
        queries = [{"subject": "Berlin", "n": n} for n in range(5)]
        return [list(r) for r in await asyncio.gather(*(source.fetch(q) for q in queries))]

    answers = asyncio.run(burst())
    assert script.calls == 4
    assert sum(a == [fact] for a in answers) == 1
    assert sum(reasons(a) == ["circuit_open"] for a in answers) == 4


def test_open_breaker_still_rejects_just_before_reset_timeout(clock: FakeClock) -> None:
    script = ScriptedSource("s", [SourceError()])
    source = guarded(script, clock)
    fetch_n(source, 3)
    clock.advance(seconds=29.9)
    fetch_n(source, 1)
    assert script.calls == 3


def test_breaker_closes_after_success_threshold_successful_probes(clock: FakeClock) -> None:
    fact = weather_fact()
    source = guarded(ScriptedSource("s", [SourceError()] * 3 + [[fact]]), clock)
    fetch_n(source, 3)
    clock.advance(seconds=30)
    fetch_n(source, 1)
    assert source.state == BreakerState.HALF_OPEN
    fetch_n(source, 1)
    assert source.state == BreakerState.CLOSED


def test_failed_probe_reopens_the_breaker_for_another_reset_timeout(clock: FakeClock) -> None:
    script = ScriptedSource("s", [SourceError()])
    source = guarded(script, clock)
    fetch_n(source, 3)
    clock.advance(seconds=30)
    fetch_n(source, 1)
    assert source.state == BreakerState.OPEN
    clock.advance(seconds=29)
    fetch_n(source, 3)
    assert script.calls == 4


def test_timeouts_count_as_failures(clock: FakeClock) -> None:
    source = guarded(ScriptedSource("s", [ScriptedSource.HANG]), clock, deadline=0.01)
    answers = fetch_n(source, 3)
    assert [reasons(a) for a in answers] == [["timeout"]] * 3
    assert source.state == BreakerState.OPEN


def test_cancellation_is_not_counted_as_a_failure(clock: FakeClock) -> None:
    script = ScriptedSource("s", [ScriptedSource.HANG])
    source = guarded(script, clock, deadline=None)

    async def cancel_three() -> None:
        for _ in range(3):
            task = asyncio.ensure_future(source.fetch(QUERY))
            await asyncio.sleep(0)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(cancel_three())
    assert script.calls == 3
    assert source.state == BreakerState.CLOSED
    assert source.breaker is not None
    assert source.breaker.fail_counter == 0


def test_a_cancelled_probe_frees_the_probe_slot(clock: FakeClock) -> None:
    fact = weather_fact()
    script = ScriptedSource("s", [SourceError()] * 3 + [ScriptedSource.HANG, [fact]])
    source = guarded(script, clock, deadline=None)
    fetch_n(source, 3)
    clock.advance(seconds=30)

    async def cancel_probe_then_probe() -> list[object]:
        task = asyncio.ensure_future(source.fetch(QUERY))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return list(await source.fetch(QUERY))

    assert asyncio.run(cancel_probe_then_probe()) == [fact]
    assert script.calls == 5


def test_a_straggler_admitted_while_closed_does_not_close_an_open_breaker(
    clock: FakeClock,
) -> None:
    fact = weather_fact()
    script = ScriptedSource("s", [Delay(0.05, [fact]), SourceError()])
    source = guarded(script, clock, breaker=BreakerSettings(fail_max=3, reset_timeout=30))

    async def run() -> None:
        slow = asyncio.ensure_future(source.fetch(QUERY))
        await asyncio.sleep(0)
        for n in range(3):  # other questions: the same one would wait for the slow call
            await source.fetch({"subject": "Berlin", "n": n})
        assert source.state == BreakerState.OPEN
        assert await slow == [fact]

    asyncio.run(run())
    assert source.state == BreakerState.OPEN


def test_state_changes_are_reported_with_name_states_and_time(clock: FakeClock) -> None:
    events: list[BreakerEvent] = []
    fact = weather_fact()
    script = ScriptedSource("weather", [SourceError()] * 3 + [[fact]])
    source = guarded(script, clock, listeners=[events.append], breaker=BreakerSettings(fail_max=3))
    fetch_n(source, 3)
    opened_at = clock.now()
    clock.advance(seconds=30)
    fetch_n(source, 1)
    changes = [e for e in events if e.kind is BreakerEventKind.STATE_CHANGE]
    assert [(e.name, e.old_state, e.new_state) for e in changes] == [
        ("weather", "closed", "open"),
        ("weather", "open", "half_open"),
        ("weather", "half_open", "closed"),
    ]
    assert changes[0].at == opened_at
    assert changes[1].at == clock.now()


def test_failures_are_reported_with_reason_and_exception_class_only(clock: FakeClock) -> None:
    events: list[BreakerEvent] = []
    source = guarded(ScriptedSource("s", [KeyError("api_key=secret")]), clock)
    source.add_listener(events.append)
    fetch_n(source, 1)
    (failure,) = events
    assert failure.kind == "failure"
    assert (failure.reason, failure.detail) == ("source_bug", "KeyError")


def test_rejections_are_reported(clock: FakeClock) -> None:
    events: list[BreakerEvent] = []
    source = guarded(ScriptedSource("s", [SourceError()]), clock, listeners=[events.append])
    fetch_n(source, 4)
    assert events[-1].kind == BreakerEventKind.REJECTED
    assert events[-1].reason == "circuit_open"


def test_a_listener_that_raises_does_not_break_the_fetch(clock: FakeClock) -> None:
    def broken(event: BreakerEvent) -> None:
        raise RuntimeError("listener bug")

    source = guarded(ScriptedSource("s", [SourceError()]), clock, listeners=[broken])
    answers = fetch_n(source, 4)
    assert reasons(answers[-1]) == ["circuit_open"]


@pytest.mark.parametrize(
    "changes",
    [{"fail_max": 0}, {"success_threshold": 0}, {"reset_timeout": -1}, {"fail_max": 1.5}],
)
def test_breaker_settings_refuse_nonsense(changes: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="BreakerSettings"):
        BreakerSettings(**changes)  # type: ignore[arg-type]  # wrong on purpose


def test_state_reads_half_open_once_the_reset_timeout_has_passed_without_a_call(
    clock: FakeClock,
) -> None:
    script = ScriptedSource("s", [SourceError()])
    source = guarded(script, clock)
    fetch_n(source, 3)
    clock.advance(seconds=29.9)
    assert source.state == BreakerState.OPEN
    clock.advance(seconds=0.1)
    assert source.state == BreakerState.HALF_OPEN
    assert script.calls == 3


def test_a_failure_with_retry_after_opens_at_once_for_that_long(clock: FakeClock) -> None:
    script = ScriptedSource("s", [SourceError("HTTP 429", retry_after=300)])
    source = guarded(script, clock)
    fetch_n(source, 1)
    assert source.state == BreakerState.OPEN
    clock.advance(seconds=299)
    fetch_n(source, 5)
    assert script.calls == 1
    clock.advance(seconds=1)
    assert source.state == BreakerState.HALF_OPEN


def test_a_retry_after_on_a_failed_probe_keeps_the_circuit_open_that_long(
    clock: FakeClock,
) -> None:
    script = ScriptedSource("s", [SourceError()] * 3 + [SourceError("HTTP 503", retry_after=90)])
    source = guarded(script, clock)
    fetch_n(source, 3)
    clock.advance(seconds=30)
    fetch_n(source, 1)
    clock.advance(seconds=89)
    assert source.state == BreakerState.OPEN
    clock.advance(seconds=1)
    assert source.state == BreakerState.HALF_OPEN
