"""The rule every last good store follows: forward only in observed_at per
(subject, attribute), a live silence evicts; and GuardedSource's use of a
shared store (a fake here; the Redis one is tested in tests/fleet/)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta

from sourcefacts import weather_fact

from vouched import Fact, GuardedSource, Query, SourceError
from vouched._sources._lastgood import advance
from vouched.testing import FakeClock, ScriptedSource

KEY = ("Berlin", "temperature", None)  # (subject, attribute, period): a current reading


def later(fact: Fact, minutes: int) -> Fact:
    assert fact.observed_at is not None
    return fact.model_copy(update={"observed_at": fact.observed_at + timedelta(minutes=minutes)})


def test_a_newer_fact_replaces_the_kept_one() -> None:
    new = later(weather_fact("5.0"), 10)
    assert advance({KEY: weather_fact("4.3")}, [new]) == {KEY: new}


def test_an_older_fact_is_ignored() -> None:
    kept = later(weather_fact("5.0"), 10)
    assert advance({KEY: kept}, [weather_fact("4.3")]) == {KEY: kept}


def test_a_fact_observed_at_the_same_instant_replaces_the_kept_one() -> None:
    assert advance({KEY: weather_fact("4.3")}, [weather_fact("4.4")]) == {KEY: weather_fact("4.4")}


def test_a_live_silence_evicts_the_kept_fact() -> None:
    silence = Fact.silence("Berlin", "temperature", "no_data", source="weather")
    humidity = weather_fact("63", "humidity")
    kept = {KEY: weather_fact(), ("Berlin", "humidity", None): humidity}
    assert advance(kept, [silence]) == {("Berlin", "humidity", None): humidity}


class Broken:
    """A shared last good store with a bug: it raises."""

    async def load(self, source: str, query: Query) -> tuple[Fact, ...] | None:
        raise RuntimeError("bug")

    async def save(self, source: str, query: Query, answer: Sequence[Fact]) -> None:
        raise RuntimeError("bug")


class Kept:
    """A shared last good store holding one answer."""

    def __init__(self, facts: Sequence[Fact]) -> None:
        self.facts = tuple(facts)

    async def load(self, source: str, query: Query) -> tuple[Fact, ...] | None:
        return self.facts

    async def save(self, source: str, query: Query, answer: Sequence[Fact]) -> None:
        return None


def test_a_shared_store_that_raises_breaks_nothing(clock: FakeClock) -> None:
    fact = weather_fact()
    script = ScriptedSource("weather", [[fact], SourceError()])
    source = GuardedSource(script, clock=clock, breaker=None, last_good=Broken())

    async def go() -> list[list[Fact]]:
        return [await source.fetch({"subject": "Berlin"}) for _ in range(2)]

    first, second = asyncio.run(go())  # no exception: a store_unavailable silence
    assert (first, [f.silent_reason for f in second]) == ([fact], ["store_unavailable"])


def test_this_processs_newer_fact_wins_over_the_fleets_older_one(clock: FakeClock) -> None:
    ours = later(weather_fact("5.0"), 10)
    script = ScriptedSource("weather", [[ours], SourceError()])
    source = GuardedSource(script, clock=clock, breaker=None, last_good=Kept([weather_fact()]))

    async def go() -> list[Fact]:
        await source.fetch({"subject": "Berlin"})
        return await source.fetch({"subject": "Berlin"})

    assert asyncio.run(go()) == [ours]


def test_the_fleets_fact_stands_in_for_a_source_this_process_never_saw_up(
    clock: FakeClock,
) -> None:
    theirs = weather_fact()
    script = ScriptedSource("weather", [SourceError()])
    source = GuardedSource(script, clock=clock, breaker=None, last_good=Kept([theirs]))
    assert asyncio.run(source.fetch({"subject": "Berlin"})) == [theirs]
