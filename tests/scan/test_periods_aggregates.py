"""Aggregate wording means the aggregate (issue 39, item 4): "a high of", "the lowest
pressure on <day>", "the strongest gusts on <day>" speak of a day's extreme, over a
forecast whose first and last days it covers only in part (it starts at 19:00 and
ends at 13:00, as a five-day forecast fetched in the evening does)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from vouched import Fact, FindingKind, Lexicon, scan

ZONE = timezone(timedelta(hours=1))
NOW = datetime(2026, 12, 6, 18, tzinfo=UTC)  # Sunday 19:00 local
LEXICON = Lexicon.load("weather")
# (day, hour, temperature, pressure, gust) per 6-hour slot: Sunday evening to Wednesday
SLOTS = (
    (6, 19, "3.42", 1004, "9.1"), (7, 1, "2.18", 1001, "12.6"), (7, 7, "1.67", 998, "15.3"),
    (7, 13, "4.81", 997, "14.2"), (7, 19, "3.05", 999, "11.4"), (8, 1, "0.72", 1003, "8.3"),
    (8, 7, "-0.46", 1008, "6.1"), (8, 13, "2.94", 1012, "5.2"), (8, 19, "1.13", 1015, "4.4"),
    (9, 1, "-1.37", 1018, "3.9"), (9, 7, "-2.25", 1021, "3.1"), (9, 13, "1.86", 1023, "2.7"),
)  # fmt: skip


def _fact(attribute: str, value: Decimal | int, unit: str, start: datetime, end: datetime) -> Fact:
    return Fact(subject="Graz", attribute=attribute, value=value, unit=unit, source="ow",
                observed_at=NOW, ttl=86400 * 10, valid_from=start, valid_until=end)  # fmt: skip


def _facts() -> list[Fact]:
    out: list[Fact] = []
    days: dict[int, list[tuple[datetime, datetime, Decimal, int, Decimal]]] = {}
    for day, hour, temperature, pressure, gust in SLOTS:
        start = datetime(2026, 12, day, hour, tzinfo=ZONE)
        end = min(start + timedelta(hours=6), datetime(2026, 12, day + 1, tzinfo=ZONE))
        row = (start, end, Decimal(temperature), pressure, Decimal(gust))
        days.setdefault(day, []).append(row)
        out += [_fact("temperature", row[2], "°C", start, end),
                _fact("pressure", pressure, "hPa", start, end),
                _fact("wind_gust", row[4], "m/s", start, end)]  # fmt: skip
    for rows in days.values():  # each day covers only the slots it saw
        start, end = rows[0][0], rows[-1][1]
        out += [_fact("temperature_max", max(r[2] for r in rows), "°C", start, end),
                _fact("temperature_min", min(r[2] for r in rows), "°C", start, end),
                _fact("pressure_min", min(r[3] for r in rows), "hPa", start, end),
                _fact("pressure_max", max(r[3] for r in rows), "hPa", start, end),
                _fact("wind_gust_max", max(r[4] for r in rows), "m/s", start, end)]  # fmt: skip
    return out


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(f.kind.value, f.text) for f in scan(text, _facts(), LEXICON, now=NOW).findings]


@pytest.mark.parametrize(
    "text",
    [
        "Pressure bottoms out on Monday, with the lowest pressure expected on Monday afternoon.",
        "The highest gusts are expected on Monday, up to 15.3 m/s.",
        "Wednesday brings the highest pressure of the period.",
    ],
)
def test_an_extreme_on_the_day_that_holds_it_passes_over_partial_days(text: str) -> None:
    assert _kinds(text) == []


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Pressure will range from 997 to 1023 hPa, with the lowest pressure expected "
         "on Wednesday.", "lowest pressure"),
        ("The strongest gusts are expected on Tuesday.", "strongest gusts"),
        ("The lowest temperature is expected on Monday.", "lowest temperature"),
    ],
)  # fmt: skip
def test_an_extreme_on_another_day_is_a_relation_mismatch(text: str, phrase: str) -> None:
    assert _kinds(text) == [(FindingKind.RELATION_MISMATCH.value, phrase)]


def test_a_high_stated_with_a_slots_temperature_is_wrong_on_the_number() -> None:
    """Monday's high is 4.81 °C; 3.05 °C is its evening slot: the number is wrong, not
    the word "high" (a slot's value vouches only for wording about that slot)."""
    assert _kinds("On Monday, expect light rain with a high of 3.05 °C.") == [
        (FindingKind.VALUE_MISMATCH.value, "3.05 °C")
    ]


def test_a_slots_temperature_stated_for_its_slot_passes() -> None:
    assert _kinds("On Monday evening the temperature will be 3.05 °C.") == []


def test_a_days_high_passes() -> None:
    assert _kinds("On Monday, expect light rain with a high of 4.81 °C.") == []


@pytest.mark.parametrize(
    "text",
    [
        "On Monday temperatures will range from 2 to 4 °C.",  # rounded inward: 1.67..4.81
        "On Monday temperatures will range from 1 to 4 °C.",  # truncated
        "On Monday temperatures will range from 1.7 to 4.8 °C.",  # rounded as shown
    ],
)
def test_range_ends_rounded_inward_or_truncated_pass(text: str) -> None:
    """Item 6: a range's ends within the precision the text states, rounded inward or
    truncated, describe the day's span."""
    assert _kinds(text) == []


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("On Monday temperatures will range from 3 to 4 °C.", "3 to 4 °C"),  # low is 1.67
        ("On Monday temperatures will range from 1.7 to 4.9 °C.", "1.7 to 4.9 °C"),  # past 4.81
    ],
)
def test_range_ends_beyond_the_precision_shown_are_mismatch(text: str, span: str) -> None:
    assert _kinds(text) == [(FindingKind.VALUE_MISMATCH.value, span)]
