"""The scanner's number reader and the redaction reader read the same number forms
(issue 37): each form below is the same value to both."""

from __future__ import annotations

from decimal import Decimal

import pytest

from vouched._replay._folding import fold, read_amounts
from vouched._scan._lex._numbers import read_numbers
from vouched._scan._lex._numforms import roman_value

FORMS = [
    (".99 °C", Decimal("0.99")),
    ("0x63 °C", Decimal(99)),
    ("0o143 °C", Decimal(99)),
    ("0b1100011 °C", Decimal(99)),
    ("XCIX °C", Decimal(99)),
    ("⁹⁹ °C", Decimal(99)),
    ("9,9e1 °C", Decimal(99)),
    ("½ °C", Decimal("0.5")),
    ("2½ °C", Decimal("2.5")),
]


@pytest.mark.parametrize(("text", "value"), FORMS)
def test_the_scanner_reads_the_form(text: str, value: Decimal) -> None:
    read = read_numbers(f"It is {text} now.")
    assert [q.value for q in read] == [value]
    assert read[0].unit == "degC"


@pytest.mark.parametrize(("text", "value"), FORMS)
def test_the_redaction_reader_reads_the_same_value(text: str, value: Decimal) -> None:
    folded = fold(text.removesuffix(" °C"))
    assert any(value in readings for _, _, readings, _ in read_amounts(folded.text))


def test_a_roman_numeral_or_a_fraction_without_a_unit_is_no_amount() -> None:
    assert read_numbers("Louis XIV kept it open 24/7.") == []


def test_a_form_inside_a_word_or_a_decimal_stays_unread() -> None:
    assert [q.text for q in read_numbers("It is 21.4 °C in area m² 5.")] == ["21.4 °C", "5"]


def test_a_roman_numeral_is_read_only_when_well_formed() -> None:
    assert [roman_value(t) for t in ("XCIX", "MMXXVI", "IIII", "")] == [99, 2026, None, None]
