"""Clock times name an instant (issue 39, time binding): over hourly forecast facts,
"at 9 a.m." is checked against the hour holding 9:00 on the day the sentence speaks
of, and the clock's own digits are no value to ground."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from vouched import Fact, FindingKind, Lexicon, scan

ZONE = timezone(timedelta(hours=1))
NOW = datetime(2026, 12, 3, 6, tzinfo=UTC)  # Thursday 07:00 local
LEXICON = Lexicon.load("weather")


def _temperature(hour: int, day: int) -> Decimal:
    """Thursday: 3 °C from 09:00 to 12:00, 5 °C from 15:00 to 18:00, 7 °C at 21:00;
    Friday ten degrees warmer."""
    return Decimal(hour // 3 + (day - 3) * 10)


def _facts() -> list[Fact]:
    out: list[Fact] = []
    for day in (3, 4):
        for hour in range(24):
            start = datetime(2026, 12, day, hour, tzinfo=ZONE)
            out.append(
                Fact(
                    subject="Berlin",
                    attribute="temperature",
                    value=_temperature(hour, day),
                    unit="°C",
                    source="ow",
                    observed_at=NOW,
                    ttl=86400 * 5,
                    valid_from=start,
                    valid_until=start + timedelta(hours=1),
                )
            )
    return out


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(f.kind.value, f.text) for f in scan(text, _facts(), LEXICON, now=NOW).findings]


@pytest.mark.parametrize(
    "text",
    [
        "At 9 a.m. it will be 3 °C in Berlin.",
        "At 9am Berlin will see 3 °C.",
        "At 09:00 it will be 3 °C in Berlin.",
        "At 15:00 it will be 5 °C in Berlin.",
        "By 3 p.m. Berlin will reach 5 °C.",
        "This morning at 9 it will be 3 °C in Berlin.",
        "Tonight at 9 it will be 7 °C in Berlin.",
        "Tomorrow at 9am it will be 13 °C in Berlin.",
        "Berlin will be 13 °C at 9 a.m. on Friday.",
        "Berlin will be 3 °C at 9 a.m. and 5 °C at 3 p.m.",
    ],
)
def test_a_value_at_a_clock_time_that_holds_then_passes(text: str) -> None:
    assert _kinds(text) == []


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("At 9 a.m. it will be 5 °C in Berlin.", "5 °C"),
        ("At 15:00 it will be 3 °C in Berlin.", "3 °C"),
        ("This morning at 9 it will be 5 °C in Berlin.", "5 °C"),
        ("Tomorrow at 9am it will be 3 °C in Berlin.", "3 °C"),
        ("Berlin will be 5 °C at 9 a.m. on Friday.", "5 °C"),
        ("Berlin will be 5 °C at 9 a.m. and 5 °C at 3 p.m.", "5 °C"),
    ],
)
def test_another_hours_value_at_a_clock_time_is_mismatch(text: str, number: str) -> None:
    assert _kinds(text) == [(FindingKind.VALUE_MISMATCH.value, number)]


def test_a_sentence_stating_only_a_time_claims_it() -> None:
    """ "The sunrise will be at 7:42 AM": no other number, so the time is the claim
    (no fact states sunrise) and no period."""
    assert _kinds("The sunrise in Berlin will be at 7:42 AM.") == [
        (FindingKind.UNGROUNDED_NUMBER.value, "7:42 AM")
    ]
