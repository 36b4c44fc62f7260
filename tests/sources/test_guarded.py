"""GuardedSource: every outcome becomes facts or typed silence; caches keep observed_at."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sourcefacts import weather_fact

from vouched import (
    BreakerSettings,
    CacheSettings,
    Fact,
    GuardedSource,
    MalformedPayloadError,
    Policy,
    Query,
    QueryError,
    SilenceReason,
    Source,
    SourceError,
    fetch_sync,
    partition,
)
from vouched.testing import FakeClock, ScriptedSource, virtual_time

QUERY = {"subject": "Berlin"}
KEYS = [("Berlin", "temperature"), ("Berlin", "humidity")]


def guarded(script: ScriptedSource, clock: FakeClock, **kw: object) -> GuardedSource:
    kw.setdefault("deadline", 2.0)  # ample: tests about deadlines set their own
    return GuardedSource(script, clock=clock, **kw)  # type: ignore[arg-type]  # test shorthand for keywords


def test_a_guarded_source_is_a_source_with_the_same_name(clock: FakeClock) -> None:
    source = guarded(ScriptedSource("weather", [[weather_fact()]]), clock)
    assert isinstance(source, Source)
    assert source.name == "weather"


def test_facts_pass_through_unchanged(clock: FakeClock) -> None:
    fact = weather_fact()
    assert fetch_sync(guarded(ScriptedSource("s", [[fact]]), clock), QUERY) == [fact]


@pytest.mark.parametrize(
    ("outcome", "reason"),
    [
        (SourceError("HTTP 503"), SilenceReason.SOURCE_ERROR),
        (ConnectionRefusedError(), SilenceReason.SOURCE_ERROR),
        (MalformedPayloadError("not JSON"), SilenceReason.MALFORMED),
        (TimeoutError(), SilenceReason.TIMEOUT),
        (lambda query: "not a list of facts", SilenceReason.MALFORMED),
        (lambda query: [{"subject": "Berlin"}], SilenceReason.MALFORMED),
        ([], SilenceReason.NO_DATA),
    ],
)
def test_each_failure_becomes_a_silence_per_declared_key(
    clock: FakeClock, outcome: object, reason: SilenceReason
) -> None:
    script = ScriptedSource("weather", [outcome], expects=KEYS)  # type: ignore[list-item]  # any outcome
    answer = fetch_sync(guarded(script, clock), QUERY)
    assert [(f.subject, f.attribute, f.silent_reason) for f in answer] == [
        ("Berlin", "temperature", reason),
        ("Berlin", "humidity", reason),
    ]
    assert all(f.source == "weather" and f.observed_at == clock.now() for f in answer)


def test_without_declared_keys_a_silence_names_the_query_subject(clock: FakeClock) -> None:
    answer = fetch_sync(guarded(ScriptedSource("s", [SourceError()]), clock), QUERY)
    assert [(f.subject, f.attribute) for f in answer] == [("Berlin", "*")]


def test_a_hanging_source_costs_the_deadline_and_no_more(clock: FakeClock) -> None:
    source = guarded(ScriptedSource("s", [ScriptedSource.HANG]), clock, deadline=0.2)
    with virtual_time() as loop:
        answer = loop.run(source.fetch(QUERY))
    elapsed = loop.elapsed
    assert [f.silent_reason for f in answer] == ["timeout"]
    assert elapsed == pytest.approx(0.2)


def test_empty_answers_are_not_breaker_failures(clock: FakeClock) -> None:
    source = guarded(
        ScriptedSource("s", [[]]), clock, breaker=BreakerSettings(fail_max=1), cache=None
    )
    for _ in range(3):
        fetch_sync(source, QUERY)
    assert source.state == "closed"


def test_last_good_facts_are_served_with_their_original_observed_at(clock: FakeClock) -> None:
    fact = weather_fact()
    source = guarded(ScriptedSource("s", [[fact], SourceError()]), clock)
    fetch_sync(source, QUERY)
    clock.advance(seconds=600)
    answer = fetch_sync(source, QUERY)
    assert answer == [fact]
    assert answer[0].observed_at == fact.observed_at != clock.now()


def test_last_good_facts_stand_in_while_the_circuit_is_open(clock: FakeClock) -> None:
    fact = weather_fact()
    script = ScriptedSource("s", [[fact], SourceError()])
    source = guarded(script, clock, breaker=BreakerSettings(fail_max=1))
    fetch_sync(source, QUERY)
    fetch_sync(source, QUERY)
    assert source.state == "open"
    assert fetch_sync(source, QUERY) == [fact]
    assert script.calls == 2


def test_the_gate_strips_cached_facts_once_past_their_ttl(clock: FakeClock) -> None:
    fact = weather_fact(ttl=900)
    source = guarded(ScriptedSource("s", [[fact], SourceError()]), clock)
    fetch_sync(source, QUERY)
    clock.advance(seconds=900)
    fresh = partition(fetch_sync(source, QUERY), Policy(), clock.now())
    clock.advance(seconds=1)
    stale = partition(fetch_sync(source, QUERY), Policy(), clock.now())
    assert fresh.grounded == (fact,)
    assert stale.grounded == ()
    assert [v.reason for v in stale.violations] == ["stale"]


def test_cached_answers_are_forgotten_after_keep_for(clock: FakeClock) -> None:
    source = guarded(
        ScriptedSource("s", [[weather_fact()], SourceError()]),
        clock,
        cache=CacheSettings(keep_for=3600),
    )
    fetch_sync(source, QUERY)
    clock.advance(seconds=3601)
    answer = fetch_sync(source, QUERY)
    assert [(f.attribute, f.silent_reason) for f in answer] == [("temperature", "source_error")]


def test_keys_the_cached_answer_lacks_get_silences(clock: FakeClock) -> None:
    fact = weather_fact()
    source = guarded(ScriptedSource("s", [[fact], SourceError()], expects=KEYS), clock)
    fetch_sync(source, QUERY)
    answer = fetch_sync(source, QUERY)
    assert answer[0] == fact
    assert [(f.attribute, f.silent_reason) for f in answer[1:]] == [("humidity", "source_error")]


def test_the_cache_is_per_query(clock: FakeClock) -> None:
    source = guarded(ScriptedSource("s", [[weather_fact()], SourceError()]), clock)
    fetch_sync(source, QUERY)
    answer = fetch_sync(source, {"subject": "Paris"})
    assert [(f.subject, f.silent_reason) for f in answer] == [("Paris", "source_error")]


def test_queries_with_the_same_items_share_a_cache_entry(clock: FakeClock) -> None:
    fact = weather_fact()
    source = guarded(ScriptedSource("s", [[fact], SourceError()]), clock)
    fetch_sync(source, {"subject": "Berlin", "latitude": 52.52, "vars": ["a", "b"]})
    assert fetch_sync(source, {"vars": ["a", "b"], "latitude": 52.52, "subject": "Berlin"}) == [
        fact
    ]


def test_within_the_fresh_window_the_source_is_not_asked_again(clock: FakeClock) -> None:
    script = ScriptedSource("s", [[weather_fact("4.3")], [weather_fact("5.0")]])
    source = guarded(script, clock, cache=CacheSettings(fresh_for=60))
    fetch_sync(source, QUERY)
    clock.advance(seconds=59)
    assert fetch_sync(source, QUERY)[0].value == weather_fact("4.3").value
    clock.advance(seconds=1)
    assert fetch_sync(source, QUERY)[0].value == weather_fact("5.0").value
    assert script.calls == 2


def test_the_fresh_window_never_outlives_a_facts_ttl(clock: FakeClock) -> None:
    script = ScriptedSource("s", [[weather_fact(ttl=30)], [weather_fact(ttl=30)]])
    source = guarded(script, clock, cache=CacheSettings(fresh_for=600))
    fetch_sync(source, QUERY)
    clock.advance(seconds=31)
    fetch_sync(source, QUERY)
    assert script.calls == 2


def test_by_default_every_fetch_asks_the_source(clock: FakeClock) -> None:
    script = ScriptedSource("s", [[weather_fact()]])
    source = guarded(script, clock)
    fetch_sync(source, QUERY)
    fetch_sync(source, QUERY)
    assert script.calls == 2


def test_silences_from_the_source_pass_through_and_are_not_cached(clock: FakeClock) -> None:
    silence = Fact.silence("Berlin", "humidity", "no_data", source="s")
    fact = weather_fact()
    source = guarded(ScriptedSource("s", [[fact, silence], SourceError()]), clock)
    assert fetch_sync(source, QUERY) == [fact, silence]
    answer = fetch_sync(source, QUERY)
    assert answer[0] == fact
    assert [(f.attribute, f.silent_reason) for f in answer[1:]] == [("humidity", "source_error")]


def test_without_a_breaker_failures_never_reject(clock: FakeClock) -> None:
    script = ScriptedSource("s", [SourceError()])
    source = guarded(script, clock, breaker=None)
    for _ in range(20):
        fetch_sync(source, QUERY)
    assert script.calls == 20
    assert source.state == "closed"


def test_cancellation_of_the_caller_is_re_raised(clock: FakeClock) -> None:
    source = guarded(ScriptedSource("s", [ScriptedSource.HANG]), clock, deadline=None)

    async def run() -> None:
        task = asyncio.ensure_future(source.fetch(QUERY))
        await asyncio.sleep(0)
        task.cancel()
        await task

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(run())


def test_a_source_error_message_never_reaches_the_silence(clock: FakeClock) -> None:
    source = guarded(ScriptedSource("s", [RuntimeError("token=abc123")]), clock)
    answer = fetch_sync(source, QUERY)
    assert "abc123" not in repr(answer)


@pytest.mark.parametrize("deadline", [0, -1.0])
def test_a_deadline_must_be_positive(clock: FakeClock, deadline: float) -> None:
    with pytest.raises(ValueError, match="deadline"):
        guarded(ScriptedSource("s", [[]]), clock, deadline=deadline)


def test_cache_settings_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="CacheSettings"):
        CacheSettings(maxsize=0)
    with pytest.raises(ValueError, match="CacheSettings"):
        CacheSettings(fresh_for=-timedelta(seconds=1).total_seconds())


class _Refusing:
    """A source that finds out only in ``fetch`` that it cannot ask the query."""

    name = "refusing"

    async def fetch(self, query: Query) -> list[Fact]:
        raise QueryError("latitude", "a number", got=query.get("latitude"))


def test_a_query_error_from_fetch_is_a_malformed_query_and_never_a_breaker_failure() -> None:
    source = GuardedSource(_Refusing(), breaker=BreakerSettings(fail_max=2))
    for _ in range(5):
        facts = fetch_sync(source, {"subject": "Berlin"})
        assert [f.silent_reason for f in facts] == ["malformed_query"]
    assert source.state == "closed"


def test_a_query_the_source_checks_and_refuses_is_never_fetched() -> None:
    class Checked(ScriptedSource):
        def check_query(self, query: Query) -> None:
            raise QueryError("subject", "known")

    script = Checked("s", [SourceError()])
    source = GuardedSource(script, breaker=BreakerSettings(fail_max=1))
    facts = fetch_sync(source, {"subject": "Berlin"})
    assert [f.silent_reason for f in facts] == ["malformed_query"]
    assert (script.calls, source.state) == (0, "closed")
