"""Property: whatever a source does, a guarded answer holds only real facts or typed silence."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from vouched import (
    BreakerSettings,
    CacheSettings,
    Fact,
    GuardedSource,
    MalformedPayloadError,
    gather,
)
from vouched.testing import FakeClock, ScriptedSource, virtual_time

REASONS = {"circuit_open", "timeout", "source_error", "source_bug", "malformed", "no_data"}


def _fact(n: int) -> Fact:
    return Fact(
        subject="Berlin",
        attribute=f"a{n % 3}",
        value=Decimal(n),
        source="s",
        observed_at="2026-11-29T12:00:00Z",
        ttl=900,
    )


outcomes = st.one_of(
    st.lists(st.integers(0, 99).map(_fact), min_size=0, max_size=3),
    st.sampled_from(
        [
            RuntimeError("boom"),
            MalformedPayloadError("bad"),
            TimeoutError(),
            ScriptedSource.HANG,
            "garbage",
        ]
    ),
)


@settings(max_examples=60, deadline=None)
@given(
    script=st.lists(st.tuples(outcomes, st.floats(0, 120)), min_size=1, max_size=12),
    fresh_for=st.sampled_from([0.0, 30.0]),
)
def test_every_item_is_a_fact_from_a_success_or_a_silence_with_a_reason(
    script: list[tuple[object, float]], fresh_for: float
) -> None:
    clock = FakeClock("2026-11-29T12:00:00Z")
    played = [
        (lambda q, v=o: v) if isinstance(o, str) else o  # type: ignore[misc]  # a default binds the loop value
        for o, _ in script
    ]
    source = ScriptedSource("s", played)  # type: ignore[arg-type]  # garbage on purpose
    guarded = GuardedSource(
        source,
        breaker=BreakerSettings(fail_max=2, reset_timeout=60),
        deadline=0.005,
        cache=CacheSettings(fresh_for=fresh_for),
        clock=clock,
    )
    delivered: set[Fact] = set()
    for outcome, pause in script:
        if isinstance(outcome, list):
            delivered.update(outcome)
        with virtual_time() as loop:
            answer = loop.run(guarded.fetch({"subject": "Berlin"}))
        assert answer, "an answer is never empty"
        for item in answer:
            if item.is_silent:
                assert item.silent_reason in REASONS
            else:
                assert item in delivered
        clock.advance(seconds=pause)


def _owned(index: int, values: list[int]) -> list[Fact]:
    return [f.model_copy(update={"source": f"s{index}"}) for f in map(_fact, values)]


kinds = st.one_of(
    st.lists(st.integers(0, 99), max_size=3),
    st.sampled_from([RuntimeError("boom"), TimeoutError(), ScriptedSource.HANG, "garbage"]),
)


@settings(max_examples=30, deadline=None)
@given(plays=st.lists(kinds, min_size=1, max_size=5))
def test_gather_keeps_source_order_and_answers_only_with_facts_or_reasoned_silence(
    plays: list[object],
) -> None:
    scripted = [_owned(i, p) if isinstance(p, list) else p for i, p in enumerate(plays)]
    sources = [
        ScriptedSource(f"s{i}", [(lambda q, v=o: v) if isinstance(o, str) else o])  # type: ignore[misc]  # a default binds the loop value
        for i, o in enumerate(scripted)
    ]
    with virtual_time() as loop:
        answer = loop.run(gather(sources, {"subject": "Berlin"}, deadline=0.02))
    owners = [int(str(f.source).removeprefix("s")) for f in answer]
    assert owners == sorted(owners), "facts come in the order of the sources"
    assert set(owners) == set(range(len(plays))), "every source answers"
    for item, owner in zip(answer, owners, strict=True):
        if item.is_silent:
            assert item.silent_reason in REASONS
        else:
            assert item in scripted[owner]
