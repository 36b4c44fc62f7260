"""The scanner's public values and inputs: frozen results, JSON shapes, fact forms."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from vouched import (
    Fact,
    Finding,
    FindingKind,
    InputError,
    Lexicon,
    Policy,
    ScanReport,
    partition,
    scan,
    unsupported_quotes,
)

NOW = datetime(2026, 11, 29, 12, 10, tzinfo=UTC)


def fact(
    subject: str, attribute: str, value: object, unit: str | None = None, **kw: object
) -> Fact:
    data: dict[str, object] = {
        "subject": subject,
        "attribute": attribute,
        "value": value,
        "unit": unit,
        "source": "open-meteo",
        "observed_at": "2026-11-29T12:00:00Z",
        "ttl": 900,
    }
    data.update(kw)
    return Fact.model_validate(data)


FACTS = [
    fact("Berlin", "temperature", 21.43, "degC"),
    fact("Berlin", "humidity", 63, "%"),
    Fact.silence("Berlin", "wind_speed", "circuit_open", unit="km/h"),
]
LEXICON = Lexicon(attributes={"wind_speed": ["wind", "winds"]})


def test_clean_text_passes_with_full_score() -> None:
    report = scan("Berlin is 21 °C with 63% humidity.", FACTS)
    assert report == ScanReport(passed=True, score=1.0, findings=())


def test_report_and_finding_are_frozen() -> None:
    report = scan("Berlin is 30 °C.", FACTS)
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.passed = True  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.findings[0].start = 0  # type: ignore[misc]


def test_finding_json_has_the_contract_keys() -> None:
    finding = scan("Berlin is 30 °C.", FACTS).findings[0]
    assert finding.to_json() == {
        "kind": "value_mismatch",
        "start": 10,
        "end": 15,
        "text": "30 °C",
        "detail": finding.detail,
        "subject": "Berlin",
        "attribute": "temperature",
    }
    assert "21.43" in finding.detail
    assert "open-meteo" in finding.detail


def test_report_json_has_passed_score_findings() -> None:
    document = scan("Berlin is 30 °C.", FACTS).to_json()
    assert list(document) == ["passed", "score", "findings"]
    assert document["passed"] is False
    assert 0.0 <= document["score"] < 1.0


def test_finding_kinds_are_the_documented_codes() -> None:
    assert [str(k) for k in FindingKind] == [
        "ungrounded_number",
        "value_mismatch",
        "unit_mismatch",
        "silent_spoken",
        "inconsistency",
        "placeholder",
        "internal_vocabulary",
        "template_fallback",
        "unsupported_quote",
        "subject_mismatch",
        "attribute_mismatch",
        "relation_mismatch",
        "ungrounded_claim",
    ]


def test_finding_text_is_the_span_of_the_input() -> None:
    text = "Berlin: 21 °C, humidity 80%, wind 7 km/h, see {link}."
    report = scan(text, FACTS, LEXICON)
    assert report.findings
    assert all(text[f.start : f.end] == f.text for f in report.findings)
    assert isinstance(report.findings[0], Finding)


def test_gate_result_violations_vouch_for_nothing() -> None:
    stale = fact("Hamburg", "temperature", 9.6, "degC", observed_at="2026-11-28T12:00:00Z")
    gated = partition([*FACTS, stale], Policy(), NOW)
    report = scan("Hamburg is 9.6 °C.", gated)
    assert [f.kind for f in report.findings] == [FindingKind.UNGROUNDED_NUMBER]


def test_plain_fact_list_silences_mark_pairs() -> None:
    report = scan("Berlin wind: 12 km/h.", FACTS, LEXICON)
    assert [f.kind for f in report.findings] == [FindingKind.SILENT_SPOKEN]


def test_demoted_attribute_in_gate_result_is_silent() -> None:
    gated = partition(FACTS, Policy(demoted=frozenset({"humidity"})), NOW)
    report = scan("Humidity in Berlin is 63%.", gated)
    assert [f.kind for f in report.findings] == [FindingKind.SILENT_SPOKEN]


def test_exact_policy_refuses_rounding() -> None:
    facts = [fact("EUR/USD", "rate", 1.0842, "USD")]
    assert scan("The EUR/USD rate is 1.08.", facts).passed
    exact = Policy(exact=frozenset({"rate"}))
    report = scan("The EUR/USD rate is 1.08.", facts, policy=exact)
    assert [f.kind for f in report.findings] == [FindingKind.VALUE_MISMATCH]


def test_question_numbers_may_be_repeated() -> None:
    text = "Yes: Berlin is 21.4 °C; you asked about 25 °C."
    assert not scan(text, FACTS).passed
    assert scan(text, FACTS, question="Will it reach 25 °C in Berlin?").passed


def test_a_comparison_is_checked_against_the_bound_fact() -> None:
    assert scan("Berlin is 21.4 °C, above 20 °C.", FACTS).passed
    assert not scan("Berlin is 21.4 °C, below 20 °C.", FACTS).passed


def test_empty_text_passes() -> None:
    assert scan("", FACTS).passed


def test_lexicon_from_json_round_trips() -> None:
    data = {
        "attributes": {"humidity": ["humidity", "% humidity"]},
        "subjects": {},
        "internal": ["x"],
    }
    lexicon = Lexicon.from_json(data)
    assert lexicon.to_json() == data
    assert lexicon == Lexicon.from_json(data)
    assert hash(lexicon) == hash(Lexicon.from_json(data))


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"attributes": {"humidity": "humidity"}}, "attributes.humidity"),
        ({"attributes": ["humidity"]}, "attributes"),
        ({"subjects": {"Berlin": [""]}}, "subjects.Berlin"),
        ({"colours": {}}, "colours"),
    ],
)
def test_lexicon_from_json_names_the_bad_field(data: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as caught:
        Lexicon.from_json(data)
    assert caught.value.field == field


def test_lexicon_load_names_the_file(tmp_path: object) -> None:
    from pathlib import Path  # noqa: PLC0415

    path = Path(str(tmp_path)) / "lexicon.json"
    path.write_text('{"attributes": {"a": [1]}}', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        Lexicon.load(path)
    assert str(path) in str(caught.value)
    assert "attributes.a" in str(caught.value)


def test_lexicon_load_reports_invalid_json_with_its_line(tmp_path: object) -> None:
    from pathlib import Path  # noqa: PLC0415

    path = Path(str(tmp_path)) / "lexicon.json"
    path.write_text('{\n  "attributes": {,}\n}', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        Lexicon.load(path)
    assert str(caught.value).startswith(f"{path}:2: invalid JSON:")


def test_lexicon_load_of_an_empty_file_says_it_is_empty(tmp_path: object) -> None:
    from pathlib import Path  # noqa: PLC0415

    path = Path(str(tmp_path)) / "lexicon.json"
    path.write_text("\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        Lexicon.load(path)
    assert str(caught.value) == f"{path}: file is empty; expected JSON"


def test_lexicon_load_of_a_directory_says_so(tmp_path: object) -> None:
    from pathlib import Path  # noqa: PLC0415

    with pytest.raises(InputError) as caught:
        Lexicon.load(Path(str(tmp_path)))
    assert str(caught.value) == f"{tmp_path}: is a directory, not a file"


def test_unsupported_quotes_seed_example() -> None:
    sources = [
        "Foreclosure of a floating-rate home loan attracts no "
        "prepayment charge for individual borrowers."
    ]
    answer = (
        'Per policy, "foreclosure of a floating-rate home loan attracts no '
        'prepayment charge". Fixed-rate loans carry "a 2% charge on the '
        'outstanding principal".'
    )
    assert unsupported_quotes(answer, sources) == ["a 2% charge on the outstanding principal"]


def test_a_subject_named_like_a_reference_stays_that_subject() -> None:
    # "The Workshop Kiln" is a subject, not "the workshop" pointing back at Berlin
    facts = [
        Fact(subject="Workshop Kiln", attribute="rate", value=0, source="feed",
             observed_at="2026-11-29T12:00:00Z"),
        Fact.silence("Berlin", "rate", "circuit_open", source="feed"),
    ]  # fmt: skip
    text = "Berlin is quiet. The Workshop Kiln exchange rate is 0."
    assert scan(text, facts).passed
    assert not scan("The Berlin exchange rate is 0.", facts).passed
