"""Properties of the gate that hold for every valid fact."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from vouched import Fact, Policy, VerdictKind, classify, grounding_rate, partition

instants = st.datetimes(
    min_value=datetime(2000, 1, 1),
    max_value=datetime(2100, 1, 1),
    timezones=st.just(UTC),
)
values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.decimals(allow_nan=False, allow_infinity=False, places=4),
    st.text(max_size=20),
)


@st.composite
def facts(draw: st.DrawFn) -> Fact:
    silent = draw(st.booleans())
    return Fact(
        subject=draw(st.sampled_from(["Berlin", "Munich", "EUR/USD"])),
        attribute=draw(st.sampled_from(["temperature", "rate", "uv_index"])),
        value=None if silent else draw(values),
        source=draw(st.one_of(st.none(), st.just(""), st.just("open-meteo"))),
        observed_at=draw(st.one_of(st.none(), instants)),
        confidence=draw(st.one_of(st.none(), st.floats(0, 1))),
        ttl=draw(st.one_of(st.none(), st.integers(0, 10**7))),
        silent_reason=draw(st.sampled_from(["timeout", "no_data", "custom"])) if silent else None,
    )


policies = st.builds(
    Policy,
    cardinal_confidence=st.floats(0, 1),
    min_confidence=st.one_of(st.none(), st.floats(0, 1)),
    demoted=st.frozensets(st.sampled_from(["temperature", "rate", "uv_index"])),
    max_clock_skew=st.integers(0, 3600).map(lambda s: timedelta(seconds=s)),
)


@settings(max_examples=300, deadline=None)
@given(fact=facts(), policy=policies, now=instants)
def test_every_fact_gets_exactly_one_verdict_and_classify_never_raises(
    fact: Fact, policy: Policy, now: datetime
) -> None:
    verdict = classify(fact, policy, now)
    assert verdict.kind in set(VerdictKind)
    assert verdict.fact is fact
    assert verdict.cardinal == (verdict.reason == "confident_without_source")


@settings(max_examples=300, deadline=None)
@given(fact=facts(), policy=policies, now=instants)
def test_the_gates_short_way_gives_the_verdict_of_the_long_way(
    fact: Fact, policy: Policy, now: datetime
) -> None:
    # A validated fact says when it passes rules 1, 3 and 4 and classify skips them;
    # a fact built without validation says nothing, so every rule is read in order.
    unvalidated = Fact.model_construct(**{name: getattr(fact, name) for name in Fact.model_fields})
    assert classify(fact, policy, now)[:3] == classify(unvalidated, policy, now)[:3]


@settings(max_examples=300, deadline=None)
@given(fact=facts(), policy=policies, now=instants)
def test_a_grounded_fact_has_provenance_and_is_fresh(
    fact: Fact, policy: Policy, now: datetime
) -> None:
    verdict = classify(fact, policy, now)
    if verdict.kind is VerdictKind.GROUNDED:
        assert fact.source
        assert fact.observed_at is not None
        assert fact.value is not None
        assert fact.attribute not in policy.demoted
        ttl = fact.ttl if fact.ttl is not None else policy.default_ttl
        assert now - fact.observed_at <= ttl
        assert fact.observed_at - now <= policy.max_clock_skew


@settings(max_examples=100, deadline=None)
@given(items=st.lists(facts(), max_size=30), policy=policies, now=instants)
def test_partition_accounts_for_every_fact_and_the_rate_is_a_share(
    items: list[Fact], policy: Policy, now: datetime
) -> None:
    result = partition(items, policy, now)
    counts = result.counts
    assert sum(counts.values()) == len(items) == len(result.verdicts)
    rate = grounding_rate(result)
    assert 0.0 <= rate <= 1.0
    if items:
        assert rate == (counts["grounded"] + counts["silent"]) / len(items)
