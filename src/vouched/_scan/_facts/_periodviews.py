"""The facts a sentence may be checked against, by the time it speaks of.

A fact without a period (current conditions, a country) is visible to every
sentence. A fact with a period is visible to a sentence about a period it
overlaps: "on Friday" sees Friday's slots and Friday's high, "Friday afternoon"
the slots of that afternoon and the day's extremes, "from Friday to Sunday"
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
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
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


class PeriodViews:
    """The fact index and word facts per period, for facts of which some have one."""

    __slots__ = (
        "_cache",
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
        self._flat = (
            [f for f in grounded if f.valid_from is None],
            [f for f in silent if f.valid_from is None],
            [f for f in rejected if f.valid_from is None],
        )
        self._timed = (
            [f for f in grounded if f.valid_from is not None],
            [f for f in silent if f.valid_from is not None],
            [f for f in rejected if f.valid_from is not None],
        )
        for group in self._timed:
            group.sort(key=_start)
        self._starts = {id(group): [_start(f) for f in group] for group in self._timed}
        self._longest = max(
            (
                f.valid_until - f.valid_from
                for g in self._timed
                for f in g
                if f.valid_from is not None and f.valid_until is not None
            ),
            default=_DAY,
        )
        first = next(f for group in self._timed for f in group)
        start = first.valid_from
        assert start is not None  # noqa: S101 - chosen for having one
        offset = start.utcoffset()
        assert offset is not None  # noqa: S101 - a period keeps its offset
        today = (now.astimezone(start.tzinfo) if now is not None else start).date()
        days = sorted(
            {
                f.valid_from.astimezone(start.tzinfo).date()
                for group in self._timed
                for f in group
                if f.valid_from is not None
                and f.valid_until is not None
                and f.valid_until - f.valid_from <= _DAY
            }
        )
        self.calendar = Calendar(offset, today, tuple(days))
        self.slot_starts = frozenset(
            f.valid_from.hour * 60 + f.valid_from.minute
            for group in self._timed
            for f in group
            if f.valid_from is not None
            and f.valid_until is not None
            and f.valid_until - f.valid_from < _DAY
        )
        """Local clock times (minutes) at which a slot shorter than a day starts: a
        text naming one ("at 14:00") names the slot, a time, not a value."""
        self._cache: dict[tuple[Period, ...], tuple[FactIndex, WordFacts]] = {}
        self._present: dict[tuple[Period, ...] | None, frozenset[str]] = {}
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
            index = FactIndex.build(picked[0], picked[1], self._exact, picked[2])
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
            low = bisect_left(starts, begin - self._longest)
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
        """Does any fact's period overlap ``periods``?"""
        return any(_overlaps(f, periods) for group in self._timed for f in group)


def _start(fact: Fact) -> datetime:
    start = fact.valid_from
    assert start is not None  # noqa: S101 - only facts with a period are sorted
    return start


def _overlaps(fact: Fact, periods: tuple[Period, ...]) -> bool:
    start, end = fact.valid_from, fact.valid_until
    if start is None or end is None:
        return False
    return any(start < p_end and p_start < end for p_start, p_end in periods)
