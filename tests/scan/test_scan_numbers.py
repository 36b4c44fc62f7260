"""The number reader on its own: what it reads, what it keeps whole, what it skips."""

from __future__ import annotations

from decimal import Decimal

import pytest

from vouched import Fact, scan
from vouched._scan._lex._numbers import QuantityKind, read_numbers
from vouched._scan._lex._units import canonical_unit, units_compatible


def _read(text: str) -> list[tuple[str, str, Decimal, str | None]]:
    return [(q.text, str(q.kind), q.value, q.unit) for q in read_numbers(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,234.5", [("1,234.5", "number", Decimal("1234.5"), None)]),
        ("1.234,5", [("1.234,5", "number", Decimal("1234.5"), None)]),
        ("21,4 °C", [("21,4 °C", "number", Decimal("21.4"), "degC")]),
        ("-5 °C", [("-5 °C", "number", Decimal("-5"), "degC")]),
        ("\u22125", [("\u22125", "number", Decimal("-5"), None)]),
        ("minus 7", [("minus 7", "number", Decimal("-7"), None)]),
        ("63%", [("63%", "number", Decimal("63"), "%")]),
        ("€45", [("€45", "number", Decimal("45"), "EUR")]),
        ("USD 12.50", [("USD 12.50", "number", Decimal("12.50"), "USD")]),
        ("12 km/h", [("12 km/h", "number", Decimal("12"), "km/h")]),
        ("9 mph", [("9 mph", "number", Decimal("9"), "mph")]),
        ("4.5 m/s", [("4.5 m/s", "number", Decimal("4.5"), "m/s")]),
        ("48 °F", [("48 °F", "number", Decimal("48"), "degF")]),
        ("1.2 million", [("1.2 million", "number", Decimal("1200000"), None)]),
        ("12k", [("12k", "number", Decimal("12000"), None)]),
        ("twenty-one", [("twenty-one", "number", Decimal("21"), None)]),
        ("one hundred and five", [("one hundred and five", "number", Decimal("105"), None)]),
        ("a dozen", [("a dozen", "number", Decimal("12"), None)]),
        ("14:05", [("14:05", "time", Decimal(845), None)]),
        ("2 pm", [("2 pm", "time", Decimal(840), None)]),
        ("12 a.m.", [("12 a.m.", "time", Decimal(0), None)]),
        ("2026-11-29", [("2026-11-29", "date", Decimal(20261129), None)]),
        ("29 November 2026", [("29 November 2026", "date", Decimal(20261129), None)]),
        ("Nov 29", [("Nov 29", "date", Decimal(1129), None)]),
    ],
)
def test_reads_quantities(text: str, expected: list[tuple[str, str, Decimal, str | None]]) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "COVID-19",
        "ICE 1537",
        "A4 paper",
        "H2O",
        "#12",
        "10.0.0.1",
        "v2.3.1",
        "https://example.com/a/123",
        "5G",
        "24/7",
        "a 52-week high",
        "First, second, third",
        "1. Berlin",
    ],
)
def test_identifiers_and_markers_are_not_quantities(text: str) -> None:
    assert read_numbers(text) == []


def test_digit_runs_are_never_split() -> None:
    assert [q.value for q in read_numbers("port 8443")] == [Decimal(8443)]


def test_bullet_dash_is_not_a_minus() -> None:
    assert [q.value for q in read_numbers("- 5 items\n-5 °C")] == [Decimal(5), Decimal(-5)]


def test_range_dash_is_not_a_minus() -> None:
    quantities = read_numbers("10-12 °C")
    assert [q.value for q in quantities] == [Decimal(10), Decimal(12)]
    assert all(q.in_range for q in quantities)
    assert quantities[0].unit == "degC"


def test_score_reads_both_numbers() -> None:
    assert [q.value for q in read_numbers("won 107-99")] == [Decimal(107), Decimal(99)]


def test_quantum_is_the_precision_shown() -> None:
    assert [q.quantum for q in read_numbers("21.4 and 21 and 1.08")] == [
        Decimal("0.1"),
        Decimal(1),
        Decimal("0.01"),
    ]


def test_approximate_round_numbers_widen_the_quantum() -> None:
    (quantity,) = read_numbers("about 1,200 people")
    assert quantity.quantum == Decimal(100)


def test_ambiguous_thousands_keep_both_readings() -> None:
    (quantity,) = read_numbers("1.234")
    assert quantity.values == (Decimal("1.234"), Decimal(1234))


def test_small_number_words_are_soft() -> None:
    assert [q.soft for q in read_numbers("two trains and forty seats")] == [True, False]


def test_time_range_takes_the_meridiem() -> None:
    quantities = read_numbers("from 2 to 3 pm")
    assert [(q.kind, q.value) for q in quantities] == [
        (QuantityKind.TIME, Decimal(840)),
        (QuantityKind.TIME, Decimal(900)),
    ]


def test_known_capital_name_does_not_swallow_the_number() -> None:
    assert read_numbers("ACME 178") == []
    assert [q.value for q in read_numbers("ACME 178", frozenset({"ACME"}))] == [Decimal(178)]


@pytest.mark.parametrize(
    ("unit", "canonical"),
    [("°C", "degC"), ("degC", "degC"), ("Fahrenheit", "degF"), ("kph", "km/h"), ("€", "EUR")],
)
def test_canonical_units(unit: str, canonical: str) -> None:
    assert canonical_unit(unit) == canonical


def test_unit_compatibility() -> None:
    assert units_compatible("deg", "degC")
    assert units_compatible("$", "USD")
    assert units_compatible(None, "degC")
    assert units_compatible("furlongs", "degC")  # unknown units are not judged
    assert not units_compatible("degF", "degC")
    assert not units_compatible("km/h", "mph")
    assert not units_compatible("$", "GBP")


def test_a_fall_word_before_zero_never_raises() -> None:
    # "fell 0": zero has no sign to turn; it is read as written (it used to raise)
    facts = [
        Fact(
            subject="ACME",
            attribute="change",
            value=-2.18,
            unit="USD",
            source="s",
            observed_at="2026-11-27T21:00:00Z",
        )
    ]
    assert [f.text for f in scan("ACME fell 0 today.", facts).findings] == ["0"]
