"""The gate: every rule, its order, and the boundaries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from freezegun import freeze_time

from factories import NOW, make_fact
from vouched import (
    Fact,
    Policy,
    SilenceReason,
    SystemClock,
    VerdictKind,
    classify,
    grounding_rate,
    partition,
)

POLICY = Policy()
TTL = timedelta(seconds=900)


def kind_and_reason(fact: Fact, policy: Policy = POLICY) -> tuple[str, str]:
    verdict = classify(fact, policy, NOW)
    return str(verdict.kind), str(verdict.reason)


def test_a_sourced_fresh_fact_is_grounded() -> None:
    assert kind_and_reason(make_fact()) == ("grounded", "grounded")


def test_silent_reason_makes_a_fact_silent_with_that_reason() -> None:
    fact = make_fact(value=None, silent_reason=SilenceReason.TIMEOUT)
    assert kind_and_reason(fact) == ("silent", "timeout")


def test_null_value_without_a_reason_is_silent_no_value() -> None:
    assert kind_and_reason(make_fact(value=None)) == ("silent", "no_value")


def test_silence_wins_over_missing_provenance() -> None:
    fact = make_fact(value=None, source=None, observed_at=None, silent_reason="circuit_open")
    assert kind_and_reason(fact) == ("silent", "circuit_open")


def test_demoted_attribute_is_silent_even_when_grounded() -> None:
    policy = Policy(demoted=frozenset({"temperature"}))
    assert kind_and_reason(make_fact(), policy) == ("silent", "demoted")


def test_demotion_wins_over_a_cardinal_violation() -> None:
    policy = Policy(demoted=frozenset({"temperature"}))
    assert kind_and_reason(make_fact(source=None), policy) == ("silent", "demoted")


def test_confident_fact_without_source_is_a_cardinal_violation() -> None:
    verdict = classify(make_fact(source=None, confidence=0.7), POLICY, NOW)
    assert verdict.kind is VerdictKind.VIOLATION
    assert verdict.reason == "confident_without_source"
    assert verdict.cardinal is True


def test_empty_source_string_counts_as_no_source() -> None:
    assert kind_and_reason(make_fact(source="")) == ("violation", "confident_without_source")


def test_unconfident_fact_without_source_is_a_non_cardinal_missing_source() -> None:
    verdict = classify(make_fact(source=None, confidence=0.69), POLICY, NOW)
    assert (verdict.reason, verdict.cardinal) == ("missing_source", False)


def test_fact_without_source_or_confidence_is_missing_source_not_cardinal() -> None:
    verdict = classify(make_fact(source=None, confidence=None), POLICY, NOW)
    assert (verdict.reason, verdict.cardinal) == ("missing_source", False)


def test_cardinal_threshold_comes_from_the_policy() -> None:
    strict = Policy(cardinal_confidence=0.5)
    verdict = classify(make_fact(source=None, confidence=0.6), strict, NOW)
    assert (verdict.reason, verdict.cardinal) == ("confident_without_source", True)


def test_cardinal_check_comes_before_missing_observed_at() -> None:
    fact = make_fact(source=None, observed_at=None)
    assert kind_and_reason(fact) == ("violation", "confident_without_source")


def test_missing_observed_at_is_a_violation() -> None:
    assert kind_and_reason(make_fact(observed_at=None)) == ("violation", "missing_observed_at")


def test_observation_beyond_the_clock_skew_is_in_the_future() -> None:
    fact = make_fact(observed_at=NOW + timedelta(seconds=61))
    assert kind_and_reason(fact) == ("violation", "observed_in_future")


def test_observation_within_the_clock_skew_is_grounded() -> None:
    assert kind_and_reason(make_fact(observed_at=NOW + timedelta(seconds=60))) == (
        "grounded",
        "grounded",
    )


def test_clock_skew_comes_from_the_policy() -> None:
    policy = Policy(max_clock_skew=timedelta(0))
    fact = make_fact(observed_at=NOW + timedelta(seconds=1))
    assert kind_and_reason(fact, policy) == ("violation", "observed_in_future")


def test_stale_exactly_at_ttl_is_still_fresh() -> None:
    assert kind_and_reason(make_fact(observed_at=NOW - TTL)) == ("grounded", "grounded")


def test_stale_one_second_past_ttl_is_a_violation() -> None:
    fact = make_fact(observed_at=NOW - TTL - timedelta(seconds=1))
    assert kind_and_reason(fact) == ("violation", "stale")


def test_iso_8601_ttl_is_honoured_at_its_boundary() -> None:
    fresh = make_fact(ttl="PT15M", observed_at=NOW - timedelta(minutes=15))
    stale = make_fact(ttl="PT15M", observed_at=NOW - timedelta(minutes=15, seconds=1))
    assert kind_and_reason(fresh)[0] == "grounded"
    assert kind_and_reason(stale) == ("violation", "stale")


def test_missing_ttl_falls_back_to_the_24_hour_default() -> None:
    fresh = make_fact(ttl=None, observed_at=NOW - timedelta(hours=24))
    stale = make_fact(ttl=None, observed_at=NOW - timedelta(hours=24, seconds=1))
    assert kind_and_reason(fresh)[0] == "grounded"
    assert kind_and_reason(stale) == ("violation", "stale")


def test_default_ttl_comes_from_the_policy() -> None:
    policy = Policy(default_ttl=timedelta(minutes=5))
    fact = make_fact(ttl=None, observed_at=NOW - timedelta(minutes=6))
    assert kind_and_reason(fact, policy) == ("violation", "stale")


def test_zero_ttl_is_fresh_only_at_the_instant_observed() -> None:
    assert kind_and_reason(make_fact(ttl=0))[0] == "grounded"
    later = make_fact(ttl=0, observed_at=NOW - timedelta(microseconds=1))
    assert kind_and_reason(later) == ("violation", "stale")


def test_low_confidence_is_a_violation_only_when_the_policy_sets_a_minimum() -> None:
    fact = make_fact(confidence=0.4)
    assert kind_and_reason(fact)[0] == "grounded"
    assert kind_and_reason(fact, Policy(min_confidence=0.5)) == ("violation", "low_confidence")


def test_unknown_confidence_fails_a_minimum_confidence_policy() -> None:
    fact = make_fact(confidence=None)
    assert kind_and_reason(fact, Policy(min_confidence=0.5)) == ("violation", "low_confidence")


def test_staleness_is_reported_before_low_confidence() -> None:
    fact = make_fact(confidence=0.1, observed_at=NOW - timedelta(days=2))
    assert kind_and_reason(fact, Policy(min_confidence=0.5)) == ("violation", "stale")


@freeze_time("2026-11-29T12:15:00Z")
def test_exactly_at_ttl_is_fresh_under_a_frozen_system_clock() -> None:
    verdict = classify(make_fact(observed_at=NOW), POLICY, SystemClock().now())
    assert verdict.kind is VerdictKind.GROUNDED


@freeze_time("2026-11-29T12:15:01Z")
def test_one_second_past_ttl_is_stale_under_a_frozen_system_clock() -> None:
    verdict = classify(make_fact(observed_at=NOW), POLICY, SystemClock().now())
    assert verdict.reason == "stale"


def test_naive_now_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        classify(make_fact(), POLICY, NOW.replace(tzinfo=None))


def test_partition_keeps_input_order_within_each_pile() -> None:
    facts = [
        make_fact(subject="A"),
        make_fact(subject="B", source=None),
        make_fact(subject="C", value=None, silent_reason="timeout"),
        make_fact(subject="D"),
        make_fact(subject="E", observed_at=NOW - timedelta(days=1)),
    ]
    result = partition(facts, POLICY, NOW)
    assert [f.subject for f in result.grounded] == ["A", "D"]
    assert [f.subject for f in result.silent] == ["C"]
    assert [v.fact.subject for v in result.violations] == ["B", "E"]
    assert [v.fact.subject for v in result.verdicts] == ["A", "B", "C", "D", "E"]
    assert result.counts == {"grounded": 2, "silent": 1, "violation": 2}
    assert result.reasons == {
        "grounded": 2,
        "confident_without_source": 1,
        "timeout": 1,
        "stale": 1,
    }
    assert result.grounding_rate == pytest.approx(3 / 5)


def test_a_demoted_fact_reaches_the_silent_pile_without_its_value() -> None:
    result = partition([make_fact()], Policy(demoted=frozenset({"temperature"})), NOW)
    (silence,) = result.silent
    assert silence.value is None
    assert silence.silent_reason == "demoted"
    assert result.grounded == ()


def test_grounding_rate_of_nothing_is_one() -> None:
    assert grounding_rate([]) == 1.0
    assert partition([], POLICY, NOW).grounding_rate == 1.0


def test_silence_counts_as_integrity_in_the_grounding_rate() -> None:
    facts = [make_fact(value=None, silent_reason="timeout"), make_fact(source=None)]
    result = partition(facts, POLICY, NOW)
    assert grounding_rate(result) == 0.5
    assert grounding_rate(result.verdicts) == 0.5
    assert grounding_rate({"grounded": 3, "silent": 1, "violation": 0}) == 1.0


def test_gate_json_document_has_the_contract_keys() -> None:
    document = partition([make_fact(), make_fact(source=None)], POLICY, NOW).to_json()
    assert document["counts"] == {"grounded": 1, "silent": 0, "violation": 1}
    assert document["grounding_rate"] == 0.5
    assert document["verdicts"][1] == {
        "index": 1,
        "subject": "Berlin",
        "attribute": "temperature",
        "kind": "violation",
        "reason": "confident_without_source",
        "cardinal": True,
    }


def test_policy_rejects_out_of_range_thresholds() -> None:
    with pytest.raises(ValueError, match="cardinal_confidence"):
        Policy(cardinal_confidence=1.2)
    with pytest.raises(ValueError, match="min_confidence"):
        Policy(min_confidence=-0.1)


def test_policy_accepts_iso_durations_and_is_a_value() -> None:
    policy = Policy(default_ttl="PT1H", demoted={"uv_index"})  # type: ignore[arg-type]
    assert policy.default_ttl == timedelta(hours=1)
    assert policy.demoted == frozenset({"uv_index"})
    assert policy == Policy.from_json({"default_ttl": 3600, "demoted": ["uv_index"]})
    assert policy.with_changes(min_confidence=0.5).min_confidence == 0.5
    assert policy.min_confidence is None


def test_max_ttl_caps_a_declared_ttl() -> None:
    fact = make_fact(ttl="PT1H", observed_at=NOW - timedelta(minutes=10, seconds=1))
    assert kind_and_reason(fact)[0] == "grounded"
    capped = Policy(max_ttl=timedelta(minutes=10))
    assert kind_and_reason(fact, capped) == ("violation", "stale")


def test_max_ttl_never_lengthens_a_shorter_ttl() -> None:
    fact = make_fact(ttl=60, observed_at=NOW - timedelta(seconds=61))
    assert kind_and_reason(fact, Policy(max_ttl=timedelta(hours=1))) == ("violation", "stale")


def test_policy_reads_json_numbers_as_decimals() -> None:
    from decimal import Decimal  # noqa: PLC0415 - only this test needs it

    policy = Policy.from_json(
        {"min_confidence": Decimal("0.5"), "max_ttl": Decimal("600"), "demoted": ["uv_index"]}
    )
    assert policy.min_confidence == 0.5
    assert policy.max_ttl == timedelta(minutes=10)


def test_a_fact_knows_when_its_own_ttl_runs_out() -> None:
    fact = make_fact(ttl=900, observed_at=NOW - timedelta(minutes=5))
    assert fact.expires_at == NOW + timedelta(minutes=10)
    assert make_fact(ttl=None).expires_at is None


def test_a_copy_with_another_ttl_is_judged_by_the_copys_ttl() -> None:
    fact = make_fact(ttl=900, observed_at=NOW - timedelta(minutes=20))
    assert kind_and_reason(fact) == ("violation", "stale")
    longer = fact.model_copy(update={"ttl": timedelta(hours=1)})
    assert kind_and_reason(longer) == ("grounded", "grounded")


def test_a_fact_built_without_validation_is_judged_like_a_validated_one() -> None:
    stale = make_fact(ttl=900, observed_at=NOW - timedelta(minutes=20))
    unvalidated = Fact.model_construct(**{name: getattr(stale, name) for name in Fact.model_fields})
    assert classify(unvalidated, POLICY, NOW)[:3] == classify(stale, POLICY, NOW)[:3]


def test_policy_takes_its_names_from_any_iterable_even_a_generator() -> None:
    policy = Policy(demoted=(name for name in ["uv_index", "pollen"]))  # type: ignore[arg-type]  # any iterable of names
    assert policy.demoted == frozenset({"uv_index", "pollen"})


def test_a_whole_number_threshold_keeps_its_type_so_the_policy_version_is_stable() -> None:
    assert type(Policy(cardinal_confidence=1).to_json()["cardinal_confidence"]) is int
