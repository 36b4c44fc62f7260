"""Ranges and extremes for a period never pool subjects (issue 39, item 8): with
Salzburg's facts beside Vienna's, Vienna's range is Vienna's, and "the coldest day
in Vienna" is checked against Vienna's days."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from vouched import Fact, FindingKind, Lexicon, scan

VIENNA_TZ = timezone(timedelta(hours=1))
NOW = datetime(2026, 12, 6, 12, tzinfo=UTC)  # Sunday
LEXICON = Lexicon.load("weather")
# (day, low, high) per subject: Vienna's coldest day is Wednesday, Salzburg's Monday
DAYS = {"Vienna": ((7, "4.9", "7.2"), (8, "5.4", "7.7"), (9, "2.9", "8.2")),
        "Salzburg": ((7, "-1.1", "4.2"), (8, "0.4", "4.7"), (9, "0.9", "5.2"))}  # fmt: skip


def _fact(subject: str, attribute: str, value: str, day: int, hour: int, hours: int) -> Fact:  # noqa: PLR0917 - a fact in one line
    start = datetime(2026, 12, day, hour, tzinfo=VIENNA_TZ)
    return Fact(subject=subject, attribute=attribute, value=Decimal(value), unit="°C",
                source="om", observed_at="2026-12-06T10:00:00Z", ttl=86400,
                valid_from=start, valid_until=start + timedelta(hours=hours))  # fmt: skip


def _facts() -> list[Fact]:
    out = []
    for subject, days in DAYS.items():
        for day, low, high in days:
            out += [_fact(subject, "temperature", low, day, 0, 12),
                    _fact(subject, "temperature", high, day, 12, 12),
                    _fact(subject, "temperature_min", low, day, 0, 24),
                    _fact(subject, "temperature_max", high, day, 0, 24)]  # fmt: skip
    return out


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(f.kind.value, f.text) for f in scan(text, _facts(), LEXICON, now=NOW).findings]


@pytest.mark.parametrize(
    "text",
    [
        "On Monday temperatures in Vienna range between 4.9 °C and 7.2 °C.",
        "In Salzburg, Monday's temperatures range between -1.1 °C and 4.2 °C.",
    ],
)
def test_a_subjects_own_range_passes_beside_another_subjects_facts(text: str) -> None:
    assert _kinds(text) == []


def test_the_coldest_day_in_vienna_is_checked_against_viennas_days() -> None:
    assert _kinds("The coldest day in Vienna will be Monday.") == [
        (FindingKind.RELATION_MISMATCH.value, "coldest")
    ]


def test_viennas_true_coldest_day_passes_beside_salzburg() -> None:
    assert _kinds("The coldest day in Vienna will be Wednesday.") == []


def test_a_coldest_day_true_of_some_subject_passes_when_none_is_named() -> None:
    assert _kinds("The coldest day will be Monday.") == []
