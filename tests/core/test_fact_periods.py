"""Facts valid for a period: valid_from / valid_until, in the model, JSON and the gate."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from pydantic import ValidationError

from factories import BERLIN_JSON, NOW, make_fact
from vouched import Fact, Policy, VerdictKind, dump_facts, load_facts, partition

FRIDAY = {"valid_from": "2026-12-04T00:00:00+01:00", "valid_until": "2026-12-05T00:00:00+01:00"}


def test_a_period_keeps_the_places_offset() -> None:
    fact = make_fact(**FRIDAY)
    assert fact.valid_from is not None
    assert fact.valid_from.utcoffset() == timedelta(hours=1)


def test_a_period_reads_back_equal_from_json_text() -> None:
    fact = make_fact(**FRIDAY)
    again = Fact.model_validate_json(fact.model_dump_json())
    assert again == fact
    assert again.to_json()["valid_from"] == "2026-12-04T00:00:00+01:00"


def test_a_fact_without_a_period_writes_no_period_keys() -> None:
    assert "valid_from" not in make_fact().to_json()


def test_an_existing_fact_file_reads_unchanged(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "facts.json"
    path.write_text(json.dumps([BERLIN_JSON]), encoding="utf-8")
    (fact,) = load_facts(path)
    assert fact.period is None


def test_a_period_file_round_trips(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "facts.jsonl"
    dump_facts([make_fact(**FRIDAY)], path)
    (fact,) = load_facts(path)
    assert fact.period == (make_fact(**FRIDAY).valid_from, make_fact(**FRIDAY).valid_until)


def test_a_period_without_an_offset_is_refused() -> None:
    with pytest.raises(ValidationError, match="timezone"):
        make_fact(valid_from="2026-12-04T00:00:00", valid_until="2026-12-05T00:00:00+01:00")


def test_a_period_needs_both_ends() -> None:
    with pytest.raises(ValidationError, match="come together"):
        make_fact(valid_from="2026-12-04T00:00:00+01:00")


def test_a_period_that_ends_before_it_starts_is_refused() -> None:
    with pytest.raises(ValidationError, match="later than valid_from"):
        make_fact(valid_from="2026-12-05T00:00:00+01:00", valid_until="2026-12-04T00:00:00+01:00")


def _kinds(facts: list[Fact]) -> list[tuple[str, str]]:
    return [(str(v.kind), str(v.reason)) for v in partition(facts, Policy(), NOW).verdicts]


def test_facts_for_different_periods_are_all_grounded() -> None:
    saturday = {
        "valid_from": "2026-12-05T00:00:00+01:00",
        "valid_until": "2026-12-06T00:00:00+01:00",
    }
    facts = [make_fact(value=3, **FRIDAY), make_fact(value=7, **saturday)]
    assert _kinds(facts) == [("grounded", "grounded"), ("grounded", "grounded")]


def test_an_older_forecast_of_the_same_period_is_superseded() -> None:
    older = make_fact(value=3, observed_at=NOW - timedelta(hours=6), ttl=86400, **FRIDAY)
    newer = make_fact(value=4, **FRIDAY)
    assert _kinds([older, newer]) == [("silent", "superseded"), ("grounded", "grounded")]


def test_two_values_for_one_period_at_one_instant_are_both_violations() -> None:
    facts = [make_fact(value=3, **FRIDAY), make_fact(value=4, **FRIDAY)]
    assert {kind for kind, _ in _kinds(facts)} == {str(VerdictKind.VIOLATION)}


def test_overlapping_periods_of_different_lengths_stand_side_by_side() -> None:
    slot = {"valid_from": "2026-12-04T12:00:00+01:00", "valid_until": "2026-12-04T15:00:00+01:00"}
    facts = [make_fact(value=3, **FRIDAY), make_fact(value=4, **slot)]
    assert _kinds(facts) == [("grounded", "grounded"), ("grounded", "grounded")]


def test_facts_without_a_period_are_never_compared() -> None:
    assert _kinds([make_fact(value=3), make_fact(value=4)])[1] == ("grounded", "grounded")


def test_the_same_period_in_another_offset_is_another_fact_for_the_scanner_cache() -> None:
    from vouched._fact import fact_key  # noqa: PLC0415 - the cache's own key

    berlin = make_fact(**FRIDAY)
    utc = make_fact(valid_from="2026-12-03T23:00:00Z", valid_until="2026-12-04T23:00:00Z")
    assert berlin == utc  # the same instants
    assert fact_key(berlin) != fact_key(utc)  # read as different local days
