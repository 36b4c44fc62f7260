"""How a number is bound (issue 27): what may vouch for a number, on small fact sets.

The six worlds' cases (``cases/*_bound.toml``) state each rule in an assistant's
words; these tests pin the edges the worlds do not have (unitless box-score columns).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from vouched import Fact, FindingKind, Lexicon, scan
from vouched._scan._lex._numbers import read_numbers
from vouched._scan._lex._splitter import SentenceSplitter, sentence_spans
from vouched._scan._lex._units import vouches_in_unit

from ._cases import world


def _fact(subject: str, attribute: str, value: float, unit: str | None = None) -> Fact:
    return Fact(
        subject=subject,
        attribute=attribute,
        value=value,
        unit=unit,
        source="box-score",
        observed_at="2026-11-29T12:00:00Z",
    )


@pytest.mark.parametrize(
    ("stated", "fact", "vouches"),
    [
        (None, None, True),
        (None, "degC", True),  # a bare number may be any fact's
        ("degF", None, False),  # a unitless fact vouches for no temperature
        ("mph", None, False),
        ("EUR", None, False),
        ("degF", "degC", False),  # another scale: a unit mismatch, not a vouch
        ("degC", "degC", True),
        ("$", "USD", True),
        ("%", None, True),  # a share is often stored bare (a shooting percentage)
        ("deg", None, True),  # a bare degree sign may be a bearing
        ("pips", None, True),  # a unit the reader does not know is not judged
    ],
)
def test_a_unit_is_vouched_only_by_a_fact_of_its_dimension(
    stated: str | None, fact: str | None, vouches: bool
) -> None:
    assert vouches_in_unit(stated, fact) is vouches


def test_a_unitless_fact_does_not_vouch_for_a_temperature() -> None:
    facts = [_fact("Berlin", "uv_index", 3)]
    report = scan("Berlin is 3 °F.", facts)
    assert [(f.kind, f.text) for f in report.findings] == [(FindingKind.UNGROUNDED_NUMBER, "3 °F")]


def test_a_unit_that_names_a_unitless_attribute_reads_as_bare() -> None:
    # "minutes" is the phrase of the unitless MIN column: "12 minutes" is a count of it
    facts = [_fact("Smith", "MIN", 12), _fact("Smith", "PTS", 3)]
    lexicon = Lexicon(attributes={"MIN": ["minutes"], "PTS": ["points"]})
    assert scan("The home side pulled away over the final 12 minutes.", facts, lexicon).passed


BERLIN = [_fact("Berlin", "temperature", 21.4, "degC"), _fact("Berlin", "humidity", 63, "%")]


@pytest.mark.parametrize(
    "text",
    [
        "In Munich it is 21.4 °C right now.",
        "It is 21.4 °C in Berlin and 21.4 °C in Munich.",
        "Munich is 21.4 °C.",
    ],
)
def test_a_subject_no_fact_is_about_is_not_vouched_by_another(text: str) -> None:
    report = scan(text, BERLIN)
    assert [(f.kind, f.text) for f in report.findings] == [
        (FindingKind.UNGROUNDED_NUMBER, "21.4 °C")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Berlin, Germany is at 21.4 °C.",  # an apposition names no other subject
        "The Berlin weather station at Tempelhof reads 21.4 °C.",
        "Berlin is 21.4 °C in Friday's update.",  # a weekday is no subject
    ],
)
def test_a_name_that_governs_nothing_leaves_the_number_to_its_subject(text: str) -> None:
    assert scan(text, BERLIN).passed


@pytest.mark.parametrize(
    ("text", "value", "quantum"),
    [
        ("9.9e1", "99", "1"),
        ("3.7e6", "3700000", "100000"),
        ("2.14E+01", "21.4", "0.1"),
        ("4.5e-1", "0.45", "0.01"),
        ("1e999999999", "1e1000", "1e1000"),  # the exponent is bounded
        ("1e-999999999", "1e-1000", "1e-1000"),
    ],
)
def test_scientific_notation_is_read_with_the_precision_shown(
    text: str, value: str, quantum: str
) -> None:
    (quantity,) = read_numbers(f"It is {text} today.")
    assert (quantity.text, quantity.value, quantity.quantum) == (
        text,
        Decimal(value),
        Decimal(quantum),
    )


WORLDS = ("weather", "currency", "stock", "trains", "workshops", "services")
LONG_RUN = "7" * 3000  # past the splitter's hard cut (2,400 characters)


@pytest.mark.parametrize("name", WORLDS)
def test_a_digit_run_of_any_length_is_a_number_that_matches_nothing(name: str) -> None:
    # beside the case suite: a 1,300-digit literal has no place in a readable case file
    w = world(name)
    text = f"The latest figure is {LONG_RUN} today."
    report = scan(text, w.gated, w.lexicon, sources=w.sources, policy=w.policy)
    assert [(f.kind, f.text) for f in report.findings] == [
        (FindingKind.UNGROUNDED_NUMBER, LONG_RUN)
    ]


@pytest.mark.parametrize(
    "text",
    [
        f"It is {LONG_RUN} °C in Berlin. Then it rains.",
        "It is " + "7" * 1300 + " °C in Berlin. Then it rains.",  # the 1,300 digits
        "It is 1" + ",000" * 1000 + " °C. Then it rains.",
        "7" * 3000 + ".5 is it. Then it rains.",
        "It is " + "9" * 3000 + "e5 °C. Then it rains.",
        "7" * 7000,
    ],
)
def test_a_long_number_is_one_sentence_fed_whole_or_in_pieces(text: str) -> None:
    whole = [end for _, end in sentence_spans(text)]
    for size in (1, 7, 500):
        splitter = SentenceSplitter()
        ends: list[int] = []
        for at in range(size, len(text) + size, size):
            ends += splitter.ends(text[:at])
        ends += splitter.ends(text, final=True)
        assert ends == whole
    assert read_numbers(text)[0].end <= whole[0]  # the number, unit too, is not cut


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ('He said "a b\nc d" and left.\nNext.', [27, 33]),  # the quote runs over the line
        ('He said "a b\n\nc d" and left.', [12, 28]),  # a blank line ends it all the same
        ('Line one.\nHe said "a b" then.\nNext.', [9, 29, 35]),  # closed quotes: lines end
    ],
)
def test_a_newline_inside_an_open_quote_does_not_end_the_sentence(
    text: str, ends: list[int]
) -> None:
    assert [end for _, end in sentence_spans(text)] == ends
    for size in (1, 3):
        splitter = SentenceSplitter()
        found: list[int] = []
        for at in range(size, len(text) + size, size):
            found += splitter.ends(text[:at])
        found += splitter.ends(text, final=True)
        assert found == ends
