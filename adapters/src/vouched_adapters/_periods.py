"""What the forecast adapters share: slot facts with periods, and a day's aggregates.

A forecast slot (an hour, three hours) is a fact per quantity whose period is
the slot; a slot lasts as long as the body's step, the smallest gap between two
of its slots' starts (:func:`slot_step`), never a length assumed from the API,
and ends at the latest at the local midnight after it starts (:func:`slot_end`).
A local day (midnight to midnight in the place's offset) gets its extremes and
totals, computed here from the slots when the source gives none, and its date
(a ``date`` fact whose value is the ISO date, so a weekday written for that day
can be checked). An aggregate computed from slots that cover less than the day
(the first day of a forecast fetched in the afternoon, the last one cut short)
is valid for the hours its slots cover, not the whole day: "Monday's high" from
three evening slots is the evening's high, and says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from itertools import pairwise

from vouched import Fact

__all__ = [
    "DAILY_RULES",
    "Issue",
    "Slot",
    "daily_facts",
    "day_bounds",
    "slot_end",
    "slot_facts",
    "slot_step",
]

Number = int | Decimal


@dataclass(frozen=True)
class Issue:
    """Who issued a forecast, when, and how long it is fresh (every fact shares it)."""

    subject: str
    source: str
    observed_at: datetime
    ttl: timedelta
    confidence: float | None
    citation: str


@dataclass(frozen=True)
class Slot:
    """One forecast slot: its period and its values (attribute -> (value, unit))."""

    start: datetime
    end: datetime
    values: Mapping[str, tuple[Number | str, str | None]]


DAILY_RULES: Mapping[str, tuple[tuple[str, str], ...]] = {
    "temperature": (("temperature_max", "max"), ("temperature_min", "min")),
    "temperature_high": (("temperature_max", "max"),),
    "temperature_low": (("temperature_min", "min"),),
    "feels_like": (("feels_like_max", "max"), ("feels_like_min", "min")),
    "pressure": (("pressure_max", "max"), ("pressure_min", "min")),
    "wind_speed": (("wind_speed_max", "max"), ("wind_speed_min", "min")),
    "wind_gust": (("wind_gust_max", "max"),),
    "cloud_cover": (("cloud_cover_max", "max"), ("cloud_cover_min", "min")),
    "humidity": (("humidity_max", "max"), ("humidity_min", "min")),
    "rain": (("rain_total", "sum"), ("rain_max", "max")),
    "snow": (("snow_total", "sum"), ("snow_max", "max")),
    "precipitation": (("precipitation_total", "sum"), ("precipitation_max", "max")),
}
"""A slot attribute -> the day's aggregates made from it: (attribute, how).
``temperature_high`` / ``temperature_low`` are a slot's own spread (OpenWeather's
``temp_max`` / ``temp_min``): they widen the day's extremes but are no slot facts."""

_SLOT_ONLY_SPREAD = frozenset({"temperature_high", "temperature_low"})


def day_bounds(day: date, offset: timedelta) -> tuple[datetime, datetime]:
    """Midnight to midnight of ``day`` in a place whose UTC offset is ``offset``."""
    from datetime import timezone  # noqa: PLC0415 - kept beside its one use

    zone = timezone(offset)
    start = datetime.combine(day, time(0), zone)
    return start, start + timedelta(days=1)


def slot_step(starts: Sequence[datetime], lone: timedelta) -> timedelta:
    """How long each slot of a body lasts: the smallest positive gap between two
    starts (a gap in the body stays a gap); ``lone`` (the API's documented step)
    only for a body of one slot, which shows no spacing."""
    ordered = sorted(set(starts))
    gaps = [b - a for a, b in pairwise(ordered)]
    return min(gaps) if gaps else lone


def slot_end(start: datetime, step: timedelta) -> datetime:
    """Where a slot starting at ``start`` ends: one step later, but never past the
    local midnight after its start (a value given for 23:00 is that evening's, not
    the next morning's: a slot belongs to the day it starts on)."""
    offset = start.utcoffset()
    assert offset is not None  # noqa: S101 - slots are built with an offset
    return min(start + step, day_bounds(start.date(), offset)[1])


def _fact(  # noqa: PLR0917 - one fact's fields, in the contract's order
    issue: Issue,
    attribute: str,
    value: Number | str,
    unit: str | None,
    start: datetime,
    end: datetime,
) -> Fact:
    return Fact(
        subject=issue.subject,
        attribute=attribute,
        value=value,
        unit=unit,
        source=issue.source,
        observed_at=issue.observed_at,
        ttl=issue.ttl,
        confidence=issue.confidence,
        citation=f"{issue.citation}/{start.isoformat(timespec='minutes')}",
        valid_from=start,
        valid_until=end,
    )


def slot_facts(issue: Issue, slots: Iterable[Slot]) -> list[Fact]:
    """One fact per slot and quantity (a slot's own spread stays out: see DAILY_RULES)."""
    return [
        _fact(issue, attribute, value, unit, slot.start, slot.end)
        for slot in slots
        for attribute, (value, unit) in slot.values.items()
        if attribute not in _SLOT_ONLY_SPREAD
    ]


def daily_facts(
    issue: Issue,
    slots: Sequence[Slot],
    given: Mapping[date, Mapping[str, tuple[Number | str, str | None]]] | None = None,
) -> list[Fact]:
    """Per local day: its ``date``, the aggregates the source ``given`` for it, and
    those of :data:`DAILY_RULES` computed from the day's slots that the source did
    not give. A day's slots are those that start on it (local time)."""
    days: dict[date, list[Slot]] = {}
    for slot in slots:
        days.setdefault(slot.start.date(), []).append(slot)
    for day in given or {}:
        days.setdefault(day, [])
    facts: list[Fact] = []
    for day in sorted(days):
        members = days[day]
        offset = (members[0].start if members else _any_start(slots, day)).utcoffset()
        if offset is None:  # pragma: no cover - slots are built with an offset
            continue
        start, end = day_bounds(day, offset)
        values: dict[str, tuple[Number | str, str | None]] = dict((given or {}).get(day, {}))
        facts.append(_fact(issue, "date", day.isoformat(), None, start, end))
        facts.extend(_fact(issue, a, v, u, start, end) for a, (v, u) in values.items())
        seen_from, seen_until = _covered(start, end, members)
        facts.extend(
            _fact(issue, a, v, u, seen_from, seen_until)
            for a, (v, u) in _aggregates(members).items()
            if a not in values
        )
    return facts


def _covered(start: datetime, end: datetime, slots: Sequence[Slot]) -> tuple[datetime, datetime]:
    """The period a day's aggregate speaks for: the whole day when its slots last a
    day between them, else from its first slot's start to its last slot's end
    (within the day)."""
    if not slots or sum((s.end - s.start for s in slots), timedelta(0)) >= end - start:
        return start, end
    return max(start, min(s.start for s in slots)), min(end, max(s.end for s in slots))


def _any_start(slots: Sequence[Slot], day: date) -> datetime:
    if slots:
        return slots[0].start
    raise ValueError(f"no slot gives the offset of {day}")  # pragma: no cover


def _aggregates(slots: Sequence[Slot]) -> dict[str, tuple[Number, str | None]]:
    gathered: dict[str, tuple[list[Number], str | None, str]] = {}
    for slot in slots:
        for attribute, (value, unit) in slot.values.items():
            if isinstance(value, str | bool):
                continue
            for name, how in DAILY_RULES.get(attribute, ()):
                numbers, _, _ = gathered.setdefault(name, ([], unit, how))
                numbers.append(value)
    out: dict[str, tuple[Number, str | None]] = {}
    for name, (numbers, unit, how) in gathered.items():
        if how == "max":
            out[name] = (max(numbers), unit)
        elif how == "min":
            out[name] = (min(numbers), unit)
        else:
            out[name] = (sum(numbers, Decimal(0)), unit)
    return out
