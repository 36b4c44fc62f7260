"""The last-good cache never brings back what a source withdrew, and only moves forward."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st
from sourcefacts import START

from vouched import BreakerSettings, Fact, GuardedSource, Query, SourceError, fetch_sync
from vouched._time import parse_instant
from vouched.testing import FakeClock, ScriptedSource

QUERY = {"subject": "Berlin"}
KEY = [("Berlin", "temperature")]


def reading(value: str, minutes: int) -> Fact:
    return Fact(
        subject="Berlin",
        attribute="temperature",
        value=value,
        unit="degC",
        source="s",
        observed_at=parse_instant(START) + timedelta(minutes=minutes),
        ttl=86_400,
    )


def silence() -> Fact:
    return Fact.silence("Berlin", "temperature", "no_data", source="s")


def guarded(script: ScriptedSource, clock: FakeClock) -> GuardedSource:
    return GuardedSource(script, clock=clock, breaker=None, deadline=5.0)


def values(facts: list[Fact]) -> list[object]:
    return [f.value for f in facts if not f.is_silent]


def test_a_live_silence_then_an_outage_states_no_value(clock: FakeClock) -> None:
    source = guarded(
        ScriptedSource(
            "s", [[reading("21.4", 0)], [silence()], SourceError("HTTP 500")], expects=KEY
        ),
        clock,
    )
    assert values(fetch_sync(source, QUERY)) == ["21.4"]
    assert values(fetch_sync(source, QUERY)) == []
    assert values(fetch_sync(source, QUERY)) == []


def test_an_empty_live_answer_then_an_outage_states_no_value(clock: FakeClock) -> None:
    source = guarded(
        ScriptedSource("s", [[reading("21.4", 0)], [], SourceError("HTTP 500")], expects=KEY), clock
    )
    fetch_sync(source, QUERY)
    fetch_sync(source, QUERY)
    assert values(fetch_sync(source, QUERY)) == []


class _SlowOldFastNew:
    """First call: an older reading, answered only after the second call's newer one."""

    name = "s"

    def __init__(self) -> None:
        self.calls = 0
        self.newer_given = asyncio.Event()

    async def fetch(self, query: Query) -> list[Fact]:
        self.calls += 1
        if self.calls == 1:
            await self.newer_given.wait()
            return [reading("19.0", 0)]
        if self.calls == 2:
            self.newer_given.set()
            return [reading("21.4", 10)]
        raise SourceError("down")


def test_a_slow_older_reading_does_not_overwrite_a_newer_one(clock: FakeClock) -> None:
    # two real calls in flight (coalescing would make the second wait on the first)
    source = GuardedSource(
        _SlowOldFastNew(), clock=clock, breaker=None, deadline=None, coalesce=False
    )

    async def both() -> list[list[Fact]]:
        first = asyncio.create_task(source.fetch(QUERY))
        await asyncio.sleep(0)
        second = asyncio.create_task(source.fetch(QUERY))
        return [await first, await second]

    old, new = asyncio.run(both())
    assert values(new) == ["21.4"]
    assert values(old) == ["21.4"]  # the newer value it already gave, not the older one
    assert values(fetch_sync(source, QUERY)) == ["21.4"]  # after the outage: still the newest


# One step of a script: a reading (value, minutes), a live silence, or a fault.
_STEP = st.one_of(
    st.tuples(st.just("reading"), st.integers(0, 9), st.integers(0, 30)),
    st.just(("silence",)),
    st.just(("fault",)),
    st.just(("empty",)),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_STEP, min_size=1, max_size=12))
def test_any_interleaving_states_only_the_newest_value_never_a_withdrawn_one(
    steps: list[tuple[object, ...]],
) -> None:
    clock = FakeClock(START)
    outcomes: list[object] = []
    for step in steps:
        if step[0] == "reading":
            outcomes.append([reading(str(step[1]), int(step[2]))])  # type: ignore[call-overload]  # tuple shape from the strategy
        elif step[0] == "silence":
            outcomes.append([silence()])
        elif step[0] == "empty":
            outcomes.append([])
        else:
            outcomes.append(SourceError("HTTP 500"))
    source = GuardedSource(
        ScriptedSource("s", outcomes, expects=KEY),  # type: ignore[arg-type]  # built above
        clock=clock,
        breaker=BreakerSettings(fail_max=1000),
        deadline=5.0,
    )
    newest: Fact | None = None  # the newest value the source gave and has not withdrawn
    for step in steps:
        stated = values(fetch_sync(source, QUERY))
        if step[0] == "reading":
            given_now = reading(str(step[1]), int(step[2]))  # type: ignore[call-overload]  # as above
            if newest is None or given_now.observed_at >= newest.observed_at:  # type: ignore[operator]  # both set
                newest = given_now
        elif step[0] in ("silence", "empty"):
            newest = None
        assert stated == ([] if newest is None else [newest.value])


def day_high(value: str, day: int) -> Fact:
    return reading(value, 0).model_copy(
        update={
            "attribute": "temperature_max",
            "valid_from": parse_instant(f"2026-12-0{day}T00:00:00+01:00"),
            "valid_until": parse_instant(f"2026-12-0{day + 1}T00:00:00+01:00"),
        }
    )


def test_each_period_of_a_forecast_is_stated_and_kept_as_its_own_fact(clock: FakeClock) -> None:
    friday, saturday = day_high("12", 4), day_high("9", 5)
    source = guarded(ScriptedSource("s", [[friday, saturday], SourceError("HTTP 500")]), clock)
    assert fetch_sync(source, QUERY) == [friday, saturday]
    assert fetch_sync(source, QUERY) == [friday, saturday]


def test_a_silence_for_a_pair_withdraws_every_period_of_it(clock: FakeClock) -> None:
    withdrawn = Fact.silence("Berlin", "temperature_max", "no_data", source="s")
    source = guarded(
        ScriptedSource(
            "s", [[day_high("12", 4), day_high("9", 5)], [withdrawn], SourceError("HTTP 500")]
        ),
        clock,
    )
    fetch_sync(source, QUERY)
    fetch_sync(source, QUERY)
    assert values(fetch_sync(source, QUERY)) == []
