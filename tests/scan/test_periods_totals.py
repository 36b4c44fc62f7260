"""Sums over several days (issue 39, item 9): "7 mm of rain in total over the weekend"
adds the days' amounts, over a forecast whose Saturday and Sunday both see rain."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from vouched import Fact, FindingKind, Lexicon, scan

ZONE = timezone(timedelta(hours=1))
NOW = datetime(2026, 12, 3, 10, tzinfo=UTC)  # Thursday 11:00 local
LEXICON = Lexicon.load("weather")
# (day, hour, rain in mm) per 6-hour slot with rain: Saturday 5.2 mm, Sunday 2.5 mm
RAIN = ((5, 0, "1.2"), (5, 6, "3.4"), (5, 12, "0.6"), (6, 6, "1.9"), (6, 12, "0.6"))


def _fact(attribute: str, value: Decimal, start: datetime, end: datetime) -> Fact:
    return Fact(subject="Graz", attribute=attribute, value=value, unit="mm", source="ow",
                observed_at=NOW, ttl=86400 * 10, valid_from=start, valid_until=end)  # fmt: skip


def _facts() -> list[Fact]:
    out: list[Fact] = []
    days: dict[int, Decimal] = {}
    for day, hour, amount in RAIN:
        start = datetime(2026, 12, day, hour, tzinfo=ZONE)
        out.append(_fact("rain", Decimal(amount), start, start + timedelta(hours=6)))
        days[day] = days.get(day, Decimal(0)) + Decimal(amount)
    for day in range(3, 8):  # every day of the forecast has a total, dry days 0
        start = datetime(2026, 12, day, tzinfo=ZONE)
        out.append(_fact("rain_total", days.get(day, Decimal(0)), start, start + timedelta(1)))
    return out


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(f.kind.value, f.text) for f in scan(text, _facts(), LEXICON, now=NOW).findings]


@pytest.mark.parametrize(
    "text",
    [
        "Graz gets 7.7 mm of rain in total over the weekend.",
        "Over the weekend Graz sees a total of 7.7 mm of rain.",
        "Between Saturday and Sunday, Graz collects about 8 mm of rain altogether.",
        "Saturday brings 5.2 mm of rain in total to Graz.",
    ],
)
def test_a_total_over_days_that_add_up_to_it_passes(text: str) -> None:
    assert _kinds(text) == []


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("Graz gets 5.2 mm of rain in total over the weekend.", "5.2 mm"),
        ("Over the weekend Graz sees a total of 3.4 mm of rain.", "3.4 mm"),
    ],
)
def test_one_days_amount_stated_as_the_total_of_several_is_mismatch(text: str, number: str) -> None:
    assert _kinds(text) == [(FindingKind.VALUE_MISMATCH.value, number)]
