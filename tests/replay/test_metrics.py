"""The watched rates over a population of snapshots."""

from __future__ import annotations

from datetime import timedelta

import pytest

from replay.population import T0, SnapshotFactory, weather_facts
from vouched import abstention_rate, citation_precision, measure

VERIFIED = {"status": "verified", "citation": "row-1"}
WRONG_ROW = {"status": "citation_mismatch", "citation": "row-9"}
WRONG_VALUE = {"status": "value_mismatch", "citation": "row-2"}
UNCITED = {"status": "invalid_shape", "citation": None}


def test_citation_precision_counts_only_claims_with_a_citation() -> None:
    assert citation_precision([VERIFIED, WRONG_ROW, WRONG_VALUE, UNCITED]) == pytest.approx(1 / 3)


def test_citation_precision_of_no_cited_claims_is_unknown_not_perfect() -> None:
    assert citation_precision([UNCITED]) is None


def test_citation_precision_accepts_result_objects_with_to_json() -> None:
    class Result:
        def to_json(self) -> dict[str, object]:
            return dict(VERIFIED)

    assert citation_precision([Result()]) == 1.0


def test_abstention_counts_answers_with_a_silence_or_a_refusal(
    make_snapshot: SnapshotFactory,
) -> None:
    facts = [f for f in weather_facts(T0) if not f.is_silent]
    speaks = make_snapshot(facts=facts)
    silent = make_snapshot()  # wind speed is silent
    refused = make_snapshot(facts=facts, status="refused", output="I can't say right now.")
    assert abstention_rate([speaks, silent, refused, speaks]) == 0.5
    assert abstention_rate([]) is None


def test_measure_gives_every_rate_in_one_pass(make_snapshot: SnapshotFactory) -> None:
    snapshots = [
        make_snapshot(prompt_version="p1", claims=[VERIFIED, VERIFIED]),
        make_snapshot(
            prompt_version="p2",
            claims=[VERIFIED, WRONG_ROW, UNCITED],
            facts=weather_facts(T0, age=timedelta(hours=2)),  # humidity stale
        ),
    ]
    metrics = measure(iter(snapshots))
    assert metrics.answers == 2
    assert metrics.grounding_rate == pytest.approx(5 / 6)
    assert metrics.abstention_rate == 1.0
    assert metrics.claim_failure_share_by_prompt_version == {"p1": 0.0, "p2": pytest.approx(2 / 3)}
    assert metrics.citation_precision == pytest.approx(3 / 4)
    assert metrics.to_json()["claims"] == 5
