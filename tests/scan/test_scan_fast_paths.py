"""Behaviours the scanner's fast paths must keep (each shortcut is a pre-check
that may only skip work whose answer it already knows)."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest

from vouched import Fact, FindingKind, Lexicon, partition, scan
from vouched._policy import Policy
from vouched._scan._lex._numbers import read_numbers

NOW = datetime(2026, 11, 29, 12, 40, tzinfo=UTC)


def fact(subject: str, attribute: str, value: object, unit: str | None, seen: str) -> Fact:
    return Fact.model_validate(
        {
            "subject": subject,
            "attribute": attribute,
            "value": value,
            "unit": unit,
            "source": "open-meteo",
            "observed_at": seen,
            "ttl": 3600,
        }
    )


def test_a_fall_word_spelled_with_a_long_s_still_marks_a_change() -> None:
    # "\u017f" (long s) matches "s" case-insensitively: the fall look-back must still run.
    (quantity,) = read_numbers("Some shares \u017fhed 5 points today")
    assert Decimal(-5) in quantity.alternatives


def test_a_fall_word_is_read_only_where_the_text_has_one() -> None:
    (quantity,) = read_numbers("Some shares gained 5 points today")
    assert quantity.alternatives == ()


def test_a_three_place_decimal_may_also_be_a_thousands_group() -> None:
    assert [q.alternatives for q in read_numbers("1.234 and 0.234 and 1234.567")] == [
        (Decimal(1234),),
        (),
        (),
    ]


def test_plain_decimals_keep_the_precision_they_show() -> None:
    assert [q.quantum for q in read_numbers("21.4 and 21.40 and 7")] == [
        Decimal("0.1"),
        Decimal("0.01"),
        Decimal(1),
    ]


def test_only_round_numbers_after_about_read_as_approximate() -> None:
    round_, exact = read_numbers("about 1,200 and about 1,234")
    assert round_.quantum == Decimal(100)
    assert exact.quantum == Decimal(1)


def test_a_time_of_any_observation_instant_is_vouched() -> None:
    facts = [
        fact("Berlin", "temperature", 21.4, "degC", "2026-11-29T12:00:00Z"),
        fact("Munich", "temperature", 17.8, "degC", "2026-11-29T12:30:00Z"),
    ]
    gated = partition(facts, Policy(), NOW)
    assert scan("Munich: 17.8 °C at 12:30 UTC.", gated).passed
    report = scan("Munich: 17.8 °C at 12:45 UTC.", gated)
    assert [f.kind for f in report.findings] == [FindingKind.UNGROUNDED_NUMBER]


def test_a_unit_binds_the_one_attribute_of_the_sentence_subject() -> None:
    facts = [
        fact("Berlin", "temperature", 21.4, "degC", "2026-11-29T12:00:00Z"),
        fact("Berlin", "humidity", 63, "%", "2026-11-29T12:00:00Z"),
        fact("Munich", "temperature", 17.8, "degC", "2026-11-29T12:00:00Z"),
    ]
    gated = partition(facts, Policy(), NOW)
    report = scan("In Munich it is 21 °C.", gated, Lexicon())
    assert [(f.kind, f.subject, f.attribute) for f in report.findings] == [
        (FindingKind.VALUE_MISMATCH, "Munich", "temperature")
    ]


@pytest.mark.parametrize(
    ("text", "kind", "said"),
    [
        ("on 5 May", "date", "5 May"),
        ("on 5 of May", "date", "5 of May"),
        ("at 5 pm", "time", "5 pm"),
        ("at 10 am", "time", "10 am"),
        ("at 12:30 today", "time", "12:30"),
        ("on 13.9.2026", "date", "13.9.2026"),
        ("is 13.9°C", "number", "13.9°C"),
        ("is 42 km/h", "number", "42 km/h"),
        ("is 1.234 km", "number", "1.234 km"),
    ],
)
def test_what_follows_a_number_after_a_space_decides_its_reading(
    text: str, kind: str, said: str
) -> None:
    (quantity,) = read_numbers(text)
    assert (str(quantity.kind), quantity.text) == (kind, said)


def test_a_version_after_a_space_is_not_a_claim() -> None:
    assert read_numbers("runs 1.2.3 now") == []
