"""The facts a sentence may be checked against, by the time it speaks of.

A fact without a period (current conditions, a country) is visible to every
sentence. A fact with a period is visible to a sentence about a period it
overlaps: "on Friday" sees Friday's slots and Friday's high, "Friday afternoon"
the slots of that afternoon, and the afternoon's extremes and totals computed from
them in place of the day's (a day's high is no afternoon's high), "from Friday to Sunday"
every slot and day in between. A sentence that names no time reads with the time
the sentence before it named; one that speaks of the whole forecast (or comes
before any time is named) sees every fact, as without periods. A period no fact
covers (day six of a five-day forecast) sees only the facts without a period, so
what it states is vouched by nothing.

Views are built from the facts (never from the text) and kept per scanner, at most
:data:`MAX_VIEWS` of them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from vouched._fact import Fact
from vouched._scan._facts._conditions import Conditions, ConditionWords, conditions_of
from vouched._scan._facts._extremes import Extreme, extremes_of
from vouched._scan._facts._factindex import FactIndex
from vouched._scan._facts._wordmatch import WordFacts
from vouched._scan._read._times import Calendar, Period

__all__ = ["MAX_VIEWS", "PeriodViews"]

_DAY = timedelta(days=1)
MAX_VIEWS = 256
"""Views one scanner keeps (distinct periods are days and their parts: few)."""

_MARGIN = timedelta(days=800)
_FIRST = datetime.combine(date.min + _MARGIN, time(), UTC)
_LAST = datetime.combine(date.max - _MARGIN, time(), UTC)
"""The instants time words are resolved between. A fact may hold until
9999-12-31 ("until further notice"): its period is compared, never shifted,
so it is read; but a calendar day that near datetime's limits is no day a text
can name relative to today (a time word moves a day by at most a year), so the
calendar is built only from days inside this range and ``now`` is held in it."""
_EARLIEST = datetime.min.replace(tzinfo=UTC)


class PeriodViews:
    """The fact index and word facts per period, for facts of which some have one."""

    __slots__ = (
        "_cache",
        "_covered",
        "_exact",
        "_flat",
        "_longest",
        "_now",
        "_present",
        "_starts",
        "_timed",
        "calendar",
        "conditions",
        "extremes",
        "families",
        "slot_starts",
        "whole",
    )

    def __init__(  # noqa: PLR0917 - the compiled inputs, in flow order
        self,
        grounded: Sequence[Fact],
        silent: Sequence[Fact],
        rejected: Sequence[Fact],
        exact: frozenset[str],
        now: datetime | None,
        whole: tuple[FactIndex, WordFacts],
        families: tuple[ConditionWords, ...] = (),
        extremes: tuple[Extreme, ...] = (),
    ) -> None:
        self.whole = whole
        self.families = families
        self.extremes = extremes
        self._exact = exact
        self._now = now
        split = [_by_period(group) for group in (grounded, silent, rejected)]
        self._flat = (split[0][0], split[1][0], split[2][0])
        self._timed = (split[0][1], split[1][1], split[2][1])
        self._starts = {id(group): [_start(f) for f in group] for group in self._timed}
        timed = [f for group in self._timed for f in group]
        self._longest = max((s for f in timed if (s := _span(f)) is not None), default=_DAY)
        self.calendar = _calendar_of(timed, now)
        self.slot_starts = _slot_starts(timed)
        """Local clock times (minutes) at which a slot shorter than a day starts: a
        text naming one ("at 14:00") names the slot, a time, not a value."""
        self._cache: dict[tuple[Period, ...], tuple[FactIndex, WordFacts]] = {}
        self._present: dict[tuple[Period, ...] | None, frozenset[str]] = {}
        self._covered: dict[tuple[Period, ...], bool] = {}
        self.conditions = Conditions(families, whole[0].grounded)

    @classmethod
    def build(  # noqa: PLR0917 - as __init__
        cls,
        grounded: Sequence[Fact],
        silent: Sequence[Fact],
        rejected: Sequence[Fact],
        exact: frozenset[str],
        now: datetime | None,
        whole: tuple[FactIndex, WordFacts],
        conditions: Mapping[str, Any] | None = None,
        extremes: Mapping[str, Any] | None = None,
    ) -> PeriodViews | None:
        """Views when any fact has a period; None otherwise (nothing changes).
        ``conditions``: the lexicon's condition families."""
        if not any(f.valid_from is not None for f in (*grounded, *silent, *rejected)):
            return None
        families = conditions_of(conditions or {})
        declared = extremes_of(extremes or {})
        return cls(grounded, silent, rejected, exact, now, whole, families, declared)

    def view(self, periods: tuple[Period, ...] | None) -> tuple[FactIndex, WordFacts]:
        """The index and word facts for a sentence about ``periods`` (None: all)."""
        if not periods:
            return self.whole
        found = self._cache.get(periods)
        if found is None:
            picked = [
                [*flat, *(f for f in self._near(timed, periods) if _overlaps(f, periods))]
                for flat, timed in zip(self._flat, self._timed, strict=True)
            ]
            if all(end - begin < _DAY for begin, end in periods):
                picked[0] = _of_the_part(picked[0], periods)
            index = FactIndex.build(
                picked[0], picked[1], self._exact, picked[2], self.whole[0].names
            )
            found = (index, WordFacts(index, self._now, self.whole[1].occasions))
            if len(self._cache) < MAX_VIEWS:
                self._cache[periods] = found
        return found

    def _near(self, timed: list[Fact], periods: tuple[Period, ...]) -> list[Fact]:
        """The facts of ``timed`` (sorted by start) that may overlap ``periods``: those
        that start before the periods end and no longer than the longest period
        before they begin (a bisect, not a pass over every fact)."""
        starts = self._starts[id(timed)]
        out: list[Fact] = []
        for begin, end in periods:
            # begin - longest would leave datetime's range when a fact lasts
            # until 9999 (or began in year 1): then every earlier fact may overlap.
            reach = begin - _EARLIEST
            low = 0 if self._longest >= reach else bisect_left(starts, begin - self._longest)
            high = bisect_left(starts, end)
            out.extend(timed[low:high])
        return out

    def present(self, periods: tuple[Period, ...] | None) -> frozenset[str]:
        """The condition families some fact valid in ``periods`` belongs to."""
        found = self._present.get(periods)
        if found is None:
            found = self.conditions.present(self.view(periods)[0].grounded)
            if len(self._present) < MAX_VIEWS:
                self._present[periods] = found
        return found

    def covered(self, periods: tuple[Period, ...]) -> bool:
        """Does any fact's period overlap ``periods``? (Kept per periods, as the views
        are: a pass over every fact with a period.)"""
        found = self._covered.get(periods)
        if found is None:
            found = any(_overlaps(f, periods) for group in self._timed for f in group)
            if len(self._covered) < MAX_VIEWS:
                self._covered[periods] = found
        return found


def _by_period(facts: Sequence[Fact]) -> tuple[list[Fact], list[Fact]]:
    """The facts without a period, and those with one sorted by start."""
    flat = [f for f in facts if f.valid_from is None]
    timed = sorted((f for f in facts if f.valid_from is not None), key=_start)
    return flat, timed


def _calendar_of(timed: Sequence[Fact], now: datetime | None) -> Calendar:
    """The calendar time words resolve on: the offset of the first period, today at
    ``now`` (held in range; else the first period's day), the days the forecast holds."""
    start = _start(timed[0])
    offset = start.utcoffset()
    assert offset is not None  # noqa: S101 - a period keeps its offset
    anchor = min(max(now if now is not None else start, _FIRST), _LAST)
    today = anchor.astimezone(start.tzinfo).date()
    return Calendar(offset, today, _days_of(timed, start))


def _start(fact: Fact) -> datetime:
    start = fact.valid_from
    assert start is not None  # noqa: S101 - only facts with a period are sorted
    return start


def _overlaps(fact: Fact, periods: tuple[Period, ...]) -> bool:
    start, end = fact.valid_from, fact.valid_until
    if start is None or end is None:
        return False
    return any(start < p_end and p_start < end for p_start, p_end in periods)


def _span(fact: Fact) -> timedelta | None:
    """How long a fact's period lasts (None: it has no end)."""
    if fact.valid_from is None or fact.valid_until is None:
        return None
    return fact.valid_until - fact.valid_from


def _days_of(timed: Sequence[Fact], start: datetime) -> tuple[date, ...]:
    """The local days the forecast holds a period of at most a day for (in range)."""
    return tuple(
        sorted(
            {
                f.valid_from.astimezone(start.tzinfo).date()
                for f in timed
                if f.valid_from is not None
                and (span := _span(f)) is not None
                and span <= _DAY
                and _FIRST <= f.valid_from <= _LAST
            }
        )
    )


def _slot_starts(timed: Sequence[Fact]) -> frozenset[int]:
    """Local clock times (minutes) at which a slot shorter than a day starts."""
    return frozenset(
        f.valid_from.hour * 60 + f.valid_from.minute
        for f in timed
        if f.valid_from is not None and (span := _span(f)) is not None and span < _DAY
    )


def _total(values: list[Decimal]) -> Decimal:
    return sum(values, Decimal(0))


_AGGREGATES: dict[str, Callable[[list[Decimal]], Decimal]] = {
    "_max": max,
    "_min": min,
    "_total": _total,
}
"""Suffixes of aggregate attributes and how their slots make them."""


def _of_the_part(facts: list[Fact], periods: tuple[Period, ...]) -> list[Fact]:
    """``facts`` for a part of a day (``periods`` shorter than a day): an aggregate
    whose period is longer than the part (the day's ``temperature_max``, ``rain_total``)
    is replaced by the same aggregate of the slots of its attribute inside the part
    (the afternoon's highest ``temperature``), when the part holds such slots."""
    slots: dict[tuple[str, str], list[Fact]] = {}
    for fact in facts:
        if fact.period is not None and (_inside(fact, periods) or _holds(fact, periods)):
            slots.setdefault((fact.subject, fact.attribute), []).append(fact)
    out: list[Fact] = []
    for fact in facts:
        out.append(_part_aggregate(fact, periods, slots) or fact)
    return out


def _part_aggregate(
    fact: Fact, periods: tuple[Period, ...], slots: Mapping[tuple[str, str], list[Fact]]
) -> Fact | None:
    """The part's own value of an aggregate fact longer than the part, or None."""
    if fact.period is None or _inside(fact, periods):
        return None
    base, _, suffix = fact.attribute.rpartition("_")
    make = _AGGREGATES.get(f"_{suffix}")
    parts = slots.get((fact.subject, base), [])
    values = [Decimal(f.value) for f in parts if f.unit == fact.unit and _is_number(f.value)]  # type: ignore[arg-type]
    if make is None or not values:
        return None
    start = min(f.valid_from for f in parts if f.valid_from is not None)
    end = max(f.valid_until for f in parts if f.valid_until is not None)
    return fact.model_copy(update={"value": make(values), "valid_from": start, "valid_until": end})


def _inside(fact: Fact, periods: tuple[Period, ...]) -> bool:
    start, end = fact.valid_from, fact.valid_until
    if start is None or end is None:
        return False
    return any(p_start <= start and end <= p_end for p_start, p_end in periods)


def _holds(fact: Fact, periods: tuple[Period, ...]) -> bool:
    """Is ``fact`` a slot shorter than a day holding the whole of a period (the hour
    holding "9 a.m."): its value is the period's own, as a slot inside a part is."""
    start, end = fact.valid_from, fact.valid_until
    if start is None or end is None or end - start >= _DAY:
        return False
    return any(start <= p_start and p_end <= end for p_start, p_end in periods)


def _is_number(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | Decimal)
