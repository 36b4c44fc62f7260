"""Properties of the scanner that hold for any text (hypothesis)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vouched import Fact, FindingKind, Scanner, scan

from ._cases import Case, load_cases, world

WORLDS = ("weather", "currency", "stock", "trains", "workshops", "services")
CLEAN = [c for c in load_cases() if not c.findings and c.question is None and not c.xfail]
NUMBERISH = st.lists(
    st.sampled_from(
        [
            *"0123456789.,:-\u2212+%°CFkmh/$€£ \n\"'\u201c\u201d\u2018\u2019{}<>()[]#_aAnNoOeEt",
            *("None", "null", "minus ", "twenty-", "one", "dozen", "pm", "May ", "ICE ", "Berlin"),
        ]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(max_size=200), NUMBERISH), name=st.sampled_from(WORLDS))
def test_scan_never_raises_and_spans_are_exact(text: str, name: str) -> None:
    w = world(name)
    report = scan(text, w.gated, w.lexicon, sources=w.sources, question=text[:20], policy=w.policy)
    assert 0.0 <= report.score <= 1.0
    assert report.passed == (not report.findings)
    for finding in report.findings:
        assert 0 <= finding.start <= finding.end <= len(text)
        assert text[finding.start : finding.end] == finding.text


def _fresh(number: Decimal) -> str:
    return f"{number:,}" if number == number.to_integral() else str(number)


@settings(max_examples=100, deadline=None)
@given(
    case_index=st.integers(min_value=0, max_value=max(0, len(CLEAN) - 1)),
    number=st.one_of(
        st.integers(min_value=100_001, max_value=9_999_999).map(Decimal),
        st.decimals(min_value=100_001, max_value=999_999, places=2),
    ),
    where=st.floats(min_value=0, max_value=1),
)
def test_a_fresh_number_inserted_into_a_clean_answer_is_found(
    case_index: int, number: Decimal, where: float
) -> None:
    case = CLEAN[case_index]
    w = world(case.world)
    stated = _fresh(number)
    boundaries = [0] + [i + 2 for i, c in enumerate(case.text) if case.text[i : i + 2] == ". "]
    at = boundaries[int(where * (len(boundaries) - 1))]
    sentence = f"Meanwhile the count reached {stated}. "
    text = case.text[:at] + sentence + case.text[at:]
    report = scan(text, w.gated, w.lexicon, sources=w.sources, policy=w.policy)
    start = at + sentence.index(stated)
    assert any(f.start <= start < f.end for f in report.findings), (text, report.findings)


def _phrase(fact: Fact) -> str:
    unit = f" {fact.unit}" if fact.unit else ""
    attribute = fact.attribute.replace("_", " ")
    return f"The {attribute} in {fact.subject} is {fact.value}{unit}."


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(WORLDS), data=st.data())
def test_a_text_of_only_grounded_values_passes(name: str, data: st.DataObject) -> None:
    w = world(name)
    facts = [f for f in w.gated.grounded if not isinstance(f.value, bool)]
    chosen = data.draw(st.lists(st.sampled_from(facts), min_size=1, max_size=8))
    text = " ".join(_phrase(f) for f in chosen)
    report = scan(text, w.gated, w.lexicon, sources=w.sources, policy=w.policy)
    assert report.passed, [(f.kind, f.text, f.detail) for f in report.findings]


def test_every_world_has_grounded_silent_and_rejected_facts() -> None:
    for name in WORLDS:
        w = world(name)
        assert w.gated.grounded, name
    assert any(world(n).gated.silent for n in WORLDS)
    assert any(world(n).gated.violations for n in WORLDS)
    assert FindingKind.UNGROUNDED_NUMBER == "ungrounded_number"


@pytest.mark.parametrize(
    "text",
    [
        "9" * 5000 + " km/h",
        "about 1" + "0" * 40,
        "about 1,000,000,000,000,000,000,000,000,000,000,000 million",
        "1.2 billion billion",
        "0." + "0" * 100 + "1%",
        "-" * 1000 + "5",
        "12:00" * 500,
        "minus minus 5",
        "a dozen dozen",
        "one hundred thousand million billion",
        "\u0130stanbul 21 \u00b0C",
        "2026-13-45 and 31/02/2026 and 99:99",
        "\u0663 \u00b2 \u00bd \u2460 1e5 1_000",
        "{ < None ' \" \u201c \u2018a\u2019",
    ],
)
def test_scan_never_raises_on_extreme_inputs(text: str) -> None:
    w = world("weather")
    report = scan(text, w.gated, w.lexicon, sources=w.sources, question=text, policy=w.policy)
    assert all(text[f.start : f.end] == f.text for f in report.findings)


_UNIT_TEXT = {"degC": " °C", "degF": " °F", "%": "%", "km/h": " km/h", "mph": " mph", "ms": " ms"}


def _swappable() -> list[tuple[str, str, Fact, Fact]]:
    """(world, phrase, fact, fact): two subjects' grounded values of one attribute in
    one unit we can write, with different values."""
    found = []
    for name in WORLDS:
        w = world(name)
        by_attribute: dict[str, list[Fact]] = {}
        for fact in w.gated.grounded:
            if fact.unit in _UNIT_TEXT and isinstance(fact.value, Decimal | int):
                by_attribute.setdefault(fact.attribute, []).append(fact)
        for attribute, facts in sorted(by_attribute.items()):
            phrase = (w.lexicon.attributes.get(attribute) or (attribute.replace("_", " "),))[0]
            for a in facts:
                for b in facts:
                    if a.subject < b.subject and a.unit == b.unit and a.value != b.value:
                        found.append((name, phrase, a, b))
    return found


SWAPPABLE = _swappable()
TEMPLATES = (
    "{a}'s {phrase} is {va}, and {b}'s {phrase} is {vb}.",
    "The {phrase} in {a} is {va}, while the {phrase} in {b} is {vb}.",
    "{a} reports a {phrase} of {va}. {b} reports a {phrase} of {vb}.",
)


def test_there_are_values_to_swap() -> None:
    assert len(SWAPPABLE) >= 5


@settings(max_examples=80, deadline=None)
@given(pick=st.sampled_from(SWAPPABLE), template=st.sampled_from(TEMPLATES))
def test_swapping_two_subjects_values_is_always_found(
    pick: tuple[str, str, Fact, Fact], template: str
) -> None:
    name, phrase, a, b = pick
    w = world(name)

    def written(fact: Fact) -> str:
        return f"{fact.value}{_UNIT_TEXT[str(fact.unit)]}"

    clean = template.format(a=a.subject, b=b.subject, phrase=phrase, va=written(a), vb=written(b))
    swapped = template.format(a=a.subject, b=b.subject, phrase=phrase, va=written(b), vb=written(a))
    assert scan(clean, w.gated, w.lexicon, policy=w.policy).passed, clean
    report = scan(swapped, w.gated, w.lexicon, policy=w.policy)
    kinds = {f.kind for f in report.findings}
    assert kinds & {FindingKind.VALUE_MISMATCH, FindingKind.SUBJECT_MISMATCH}, swapped


ALL_CASES = load_cases()


@settings(max_examples=150, deadline=None)
@given(case=st.sampled_from(ALL_CASES), extra=st.one_of(st.text(max_size=80), NUMBERISH))
def test_a_compiled_scanner_reports_what_scan_reports(case: Case, extra: str) -> None:
    # One Scanner reused over several texts (as Grounder reuses it across attempts) says
    # exactly what a fresh scan() of each text says: nothing leaks from one text to the next.
    w = world(case.world)
    lexicon = w.lexicon if case.lexicon else None
    scanner = Scanner(w.gated, lexicon, w.sources, case.question, w.policy)
    for text in (case.text, extra, case.text + " " + extra):
        expected = scan(text, w.gated, lexicon, w.sources, case.question, w.policy)
        assert scanner.scan(text) == expected
