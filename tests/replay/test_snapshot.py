"""Snapshots: canonical JSON, content ids, recorded verdicts, redaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.population import T0, SnapshotFactory, weather_facts
from vouched import Fact, InputError, Policy, Snapshot
from vouched._jsonio import canonical_by_orjson, dumps, dumps_pure, loads


def test_same_generation_built_twice_is_one_id(make_snapshot: SnapshotFactory) -> None:
    assert make_snapshot().id == make_snapshot().id


def test_any_change_of_content_changes_the_id(make_snapshot: SnapshotFactory) -> None:
    base = make_snapshot()
    assert make_snapshot(output=base.output + " ").id != base.id
    assert make_snapshot(prompt_version="p2").id != base.id
    assert make_snapshot(created_at=T0 + timedelta(microseconds=1)).id != base.id


def test_canonical_json_round_trips_byte_for_byte(make_snapshot: SnapshotFactory) -> None:
    snapshot = make_snapshot(
        query={"city": "Zürich", "nested": {"b": [1, 2.5, None], "a": True}},
        timings={"total": 0.00001, "phrase": 1.5},
        facts=[
            Fact(
                subject="EUR/CHF",
                attribute="rate",
                value=Decimal("0.9400"),
                source="ecb",
                observed_at=T0,
                ttl="PT1H30M",
                confidence=0.9,
                citation="ecb/2026-11-24",
            ),
        ],
    )
    text = snapshot.canonical_json()
    assert Snapshot.from_json(loads(text)).canonical_json() == text
    assert Snapshot.from_canonical(text).canonical_json() == text
    assert dumps(snapshot.to_json(), canonical=True) == text


def test_canonical_json_is_sorted_and_compact(make_snapshot: SnapshotFactory) -> None:
    text = make_snapshot().canonical_json()
    assert text.startswith('{"attempts":1,"catalog_version":null,"claims":[],"created_at":')
    assert list(loads(text)) == sorted(loads(text))


def test_decimal_precision_is_kept_as_given(make_snapshot: SnapshotFactory) -> None:
    fact = Fact(subject="x", attribute="price", value=Decimal("27.50"), source="s", observed_at=T0)
    snapshot = make_snapshot(facts=[fact])
    assert '"value":27.50' in snapshot.canonical_json()
    assert Snapshot.from_canonical(snapshot.canonical_json()).facts[0].value == Decimal("27.50")


@settings(max_examples=40, deadline=None)
@given(
    question=st.text(max_size=40),
    output=st.text(max_size=80),
    value=st.decimals(allow_nan=False, allow_infinity=False, places=4),
    total=st.floats(min_value=0, max_value=1e6, allow_nan=False),
)
def test_round_trip_holds_for_any_text_and_number(
    question: str, output: str, value: Decimal, total: float
) -> None:
    fact = Fact(subject="s", attribute="a", value=value, source="x", observed_at=T0)
    snapshot = Snapshot.build(
        created_at=T0,
        question=question,
        facts=[fact],
        policy=Policy(),
        prompt_version="p",
        phraser="t",
        output=output,
        status="ok",
        timings={"total": total},
    )
    text = snapshot.canonical_json()
    again = Snapshot.from_json(loads(text))
    assert again.canonical_json() == text
    assert again.id == snapshot.id


def test_facts_are_kept_as_received_and_verdicts_recorded_at_now(
    make_snapshot: SnapshotFactory,
) -> None:
    facts = weather_facts(T0, age=timedelta(hours=2))  # humidity has ttl 1 h: stale
    snapshot = make_snapshot(facts=facts)
    assert snapshot.facts == tuple(facts)
    assert [(v.kind, v.reason) for v in snapshot.verdicts] == [
        ("grounded", "grounded"),
        ("violation", "stale"),
        ("silent", "circuit_open"),
    ]
    assert not snapshot.passed


def test_gate_runs_at_now_when_given(make_snapshot: SnapshotFactory) -> None:
    snapshot = make_snapshot(now=T0 + timedelta(hours=3))
    assert snapshot.judged_at == T0 + timedelta(hours=3)
    assert snapshot.verdicts[1].reason == "stale"


def test_policy_is_stored_as_data_with_its_version(make_snapshot: SnapshotFactory) -> None:
    policy = Policy(demoted=frozenset({"uv_index"}), default_ttl=timedelta(hours=1))
    snapshot = make_snapshot(policy=policy)
    assert snapshot.policy_object() == policy
    assert snapshot.policy_version == make_snapshot(policy=policy).policy_version
    assert snapshot.policy_version != make_snapshot().policy_version


@dataclass(frozen=True)
class _FindingLike:
    kind: str

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "start": 0,
            "end": 2,
            "text": "18",
            "detail": "d",
            "subject": None,
            "attribute": None,
        }


def test_findings_are_stored_as_plain_json(make_snapshot: SnapshotFactory) -> None:
    snapshot = make_snapshot(findings=[_FindingLike("ungrounded_number")])
    assert snapshot.findings[0]["kind"] == "ungrounded_number"
    assert not snapshot.passed


def test_a_phraser_object_is_stored_by_name(make_snapshot: SnapshotFactory) -> None:
    class Phraser:
        name = "gpt-test"

    assert make_snapshot(phraser=Phraser()).phraser == "gpt-test"


def test_edited_snapshot_is_refused_by_its_id(make_snapshot: SnapshotFactory) -> None:
    data = make_snapshot().to_json()
    data["output"] = "Berlin: 25 degC."
    with pytest.raises(InputError, match="id: does not match"):
        Snapshot.from_json(data)


def test_missing_field_is_named(make_snapshot: SnapshotFactory) -> None:
    data = make_snapshot().to_json()
    del data["output"], data["id"]
    with pytest.raises(InputError, match="output: is required"):
        Snapshot.from_json(data)


def test_invalid_fact_names_its_index_and_field(make_snapshot: SnapshotFactory) -> None:
    data = make_snapshot().to_json()
    data["facts"][1]["confidence"] = 7
    del data["id"]
    with pytest.raises(InputError, match=r"facts\.1\.confidence"):
        Snapshot.from_json(data)


def test_unknown_format_is_refused(make_snapshot: SnapshotFactory) -> None:
    data = make_snapshot().to_json()
    data["format"] = 99
    with pytest.raises(InputError, match="format: unsupported"):
        Snapshot.from_json(data, check_id=False)


# -- redaction ------------------------------------------------------------------


def _sensitive(make_snapshot: SnapshotFactory, **overrides: Any) -> Snapshot:
    facts = [
        Fact(
            subject="Alice Example",
            attribute="salary",
            value=85000,
            unit="EUR",
            source="hr",
            observed_at=T0,
            citation="hr/Alice Example",
        ),
        Fact(
            subject="Alice Example",
            attribute="office",
            value="Room 4.12",
            source="hr",
            observed_at=T0,
        ),
    ]
    options: dict[str, Any] = {
        "facts": facts,
        "question": "What does alice example earn?",
        "query": {"person": "Alice Example"},
        "output": "Alice Example earns 85000 EUR (not 185000) in Room 4.12.",
        "policy": Policy(
            sensitive_subjects=frozenset({"Alice Example"}),
            sensitive_attributes=frozenset({"salary"}),
        ),
        "findings": [{"kind": "ungrounded_number", "text": "85000", "subject": "Alice Example"}],
    }
    options.update(overrides)
    return make_snapshot(**options)


def test_sensitive_subject_is_hashed_everywhere(make_snapshot: SnapshotFactory) -> None:
    text = _sensitive(make_snapshot).canonical_json()
    assert "alice" not in text.casefold()
    assert "[redacted:" in text


def test_sensitive_value_is_hashed_in_facts_and_text(make_snapshot: SnapshotFactory) -> None:
    snapshot = _sensitive(make_snapshot)
    assert "85000" not in snapshot.canonical_json().replace("185000", "")
    assert str(snapshot.facts[0].value).startswith("[redacted:")
    assert "185000" in snapshot.output  # only whole tokens are redacted
    assert snapshot.facts[1].value == "Room 4.12"  # not a sensitive attribute


def test_the_same_secret_hashes_to_the_same_token(make_snapshot: SnapshotFactory) -> None:
    one = _sensitive(make_snapshot)
    two = _sensitive(make_snapshot, question="Where does Alice Example sit?")
    assert one.facts[0].subject == two.facts[0].subject
    assert one.facts[0].value == two.facts[0].value


def test_a_redaction_key_changes_the_tokens(make_snapshot: SnapshotFactory) -> None:
    plain = _sensitive(make_snapshot)
    keyed = _sensitive(make_snapshot, redaction_key=b"team secret")
    assert plain.facts[0].value != keyed.facts[0].value


def test_redacted_tokens_carry_no_digits(make_snapshot: SnapshotFactory) -> None:
    # The scanner must not read a redaction as a number when the output is replayed.
    snapshot = _sensitive(make_snapshot)
    token = str(snapshot.facts[0].value)
    assert not any(character.isdigit() for character in token)


def test_redaction_matches_beyond_ascii_case(make_snapshot: SnapshotFactory) -> None:
    snapshot = make_snapshot(
        policy=Policy(sensitive_subjects=frozenset({"Jürgen Straße"})),
        facts=[
            Fact(subject="Jürgen Straße", attribute="desk", value="D4", source="hr", observed_at=T0)
        ],
        question="Where is JÜRGEN STRASSE today?",
        output="Jürgen Straße sits at D4; jürgen straße is in.",
    )
    text = snapshot.canonical_json().casefold()
    assert "jürgen" not in text
    assert "strasse" not in text  # casefold turns ß into ss: covers both spellings


def test_a_snapshot_with_times_under_a_tenth_of_a_millisecond_is_written_by_orjson(
    make_snapshot: SnapshotFactory,
) -> None:
    # Python writes 1e-05 with an exponent, orjson not: a float like it would send the
    # snapshot to the pure emitter; the snapshot holds it as the Decimal it reads back.
    snapshot = make_snapshot(timings={"total": 0.00001, "gate": 3.2e-05})
    text = snapshot.canonical_json()
    assert '"timings":{"gate":0.000032,"total":0.00001}' in text
    assert canonical_by_orjson(snapshot.to_json()) == text
    assert dumps_pure(snapshot.to_json(), canonical=True) == text
