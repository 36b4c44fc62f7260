"""Which facts an answer needs: those of the periods the question asks about.

A five-day forecast is hundreds of facts; "What's the high in Vienna tomorrow?"
needs one day of them. Before the gate, the Grounder keeps:

- every fact without a period (current conditions, a country);
- a fact with a period only when its period overlaps a period asked about.

The periods asked about come from the query's ``"when"`` (taken out of the query
before the sources see it) or, when the caller gives none, from the question,
read with the scanner's own time words in each place's zone (the offset of the
subject's first fact with a period): "today", "tomorrow", "tonight", a weekday,
"Friday afternoon", "the weekend", "next week", a date ("7 December",
"2026-12-07") or a range ("from Friday to Sunday", ``"2026-12-07/2026-12-09"``).
A question that names no time, or speaks of the whole forecast ("this week",
"the next five days"), keeps every fact; so does ``"when": "all"``. A ``"when"``
that names no time vouched reads is an :class:`vouched.InputError`, never a
silent "everything".

Then at most ``max_facts`` facts are kept (sent to the model, scanned against
and stored in the snapshot): facts without a period first, then the earliest
periods, in the sources' order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from vouched._exceptions import InputError
from vouched._fact import Fact
from vouched._scan._read._times import Calendar, Period, read_times
from vouched._sources._source import Query

__all__ = ["MAX_FACTS", "WHEN", "check_when", "narrow", "split_when"]

WHEN = "when"
"""The query key that names the periods an answer is about."""
MAX_FACTS = 400
"""Default cap on the facts one answer sends, scans against and stores."""

_EVERYTHING = frozenset({"all", "any", "everything", "whole", "*"})
_ISO_RANGE = re.compile(r"^\s*(\d{4}-\d{2}-\d{2})\s*(?:/|\.\.)\s*(\d{4}-\d{2}-\d{2})\s*$")
_MARGIN = timedelta(days=800)
_FIRST = datetime.combine(date.min + _MARGIN, time(), UTC)
_LAST = datetime.combine(date.max - _MARGIN, time(), UTC)
_DAY = timedelta(days=1)


def split_when(queries: Sequence[Query]) -> tuple[tuple[Query, ...], str | None]:
    """The queries without their ``"when"`` (sources never see it), and the first
    ``"when"`` given (a string; anything else is an :class:`InputError`)."""
    when: str | None = None
    out: list[Query] = []
    for query in queries:
        if WHEN not in query:
            out.append(query)
            continue
        value = query[WHEN]
        check_when(value)
        assert isinstance(value, str)  # noqa: S101 - checked above
        when = when if when is not None else value
        out.append({k: v for k, v in query.items() if k != WHEN})
    return tuple(out), when


_ANY_DAY = date(2001, 1, 1)  # a Monday: whether a text names a time does not depend on it


def check_when(value: object) -> None:
    """An :class:`InputError` unless ``value`` is "all" or a time vouched reads."""
    if not isinstance(value, str) or not value.strip():
        raise InputError("a time such as 'tomorrow', 'Friday' or '2026-12-07'", field=WHEN)
    lowered = value.strip().lower()
    if lowered in _EVERYTHING:
        return
    calendar = Calendar(timedelta(0), _ANY_DAY, (_ANY_DAY,))
    if _iso_range(lowered, calendar) is None and read_times(lowered, calendar).periods == ():
        raise InputError(f"{value.strip()[:60]!r} names no time vouched reads", field=WHEN)


def narrow(
    facts: Sequence[Fact],
    question: str,
    when: str | None,
    now: datetime,
    max_facts: int = MAX_FACTS,
) -> list[Fact]:
    """The facts an answer about ``question`` (or ``when``) needs, at most
    ``max_facts`` of them (see the module's docstring for the rule)."""
    if when is not None:
        check_when(when)
    asked = _Asked(facts, question, when, now)
    kept = [f for f in facts if asked.keeps(f)]
    if len(kept) <= max_facts:
        return kept
    order = sorted(range(len(kept)), key=lambda i: _rank(kept[i]))
    chosen = set(order[:max_facts])
    return [fact for i, fact in enumerate(kept) if i in chosen]


def _rank(fact: Fact) -> tuple[int, datetime]:
    period = fact.period
    return (0, _FIRST) if period is None else (1, period[0])


class _Asked:
    """The periods asked about, per zone (read once per zone)."""

    def __init__(self, facts: Sequence[Fact], question: str, when: str | None, now: datetime):
        self.text = question if when is None else when
        self.explicit = when is not None
        self.now = now
        self.zones: dict[str, tzinfo] = {}
        self.days: dict[tzinfo, set[date]] = {}
        for fact in facts:
            period = fact.period
            if period is None:
                continue
            zone = period[0].tzinfo
            assert zone is not None  # noqa: S101 - a period keeps its offset
            self.zones.setdefault(fact.subject, zone)
            start, end = period
            if end - start <= _DAY and _FIRST <= start <= _LAST:
                self.days.setdefault(zone, set()).add(start.date())
        self.read: dict[tzinfo, tuple[Period, ...] | None] = {}

    def periods(self, zone: tzinfo) -> tuple[Period, ...] | None:
        """The periods asked about in ``zone``; None: every fact."""
        if zone not in self.read:
            lowered = self.text.strip().lower()
            found = None if lowered in _EVERYTHING and self.explicit else self._read(zone)
            self.read[zone] = found or None  # naming no time keeps every fact
        return self.read[zone]

    def _read(self, zone: tzinfo) -> tuple[Period, ...] | None:
        lowered = self.text.strip().lower()
        offset = zone.utcoffset(None)
        assert offset is not None  # noqa: S101 - fixed offsets only
        today = min(max(self.now, _FIRST), _LAST).astimezone(zone).date()
        calendar = Calendar(offset, today, tuple(sorted(self.days.get(zone, ()))))
        found = _iso_range(lowered, calendar)
        return read_times(lowered, calendar).periods if found is None else found

    def keeps(self, fact: Fact) -> bool:
        period = fact.period
        if period is None:
            return True
        zone = self.zones.get(fact.subject, period[0].tzinfo)
        assert zone is not None  # noqa: S101 - a period keeps its offset
        asked = self.periods(zone)
        if asked is None:
            return True
        start, end = period
        return any(start < a_end and a_start < end for a_start, a_end in asked)


def _iso_range(text: str, calendar: Calendar) -> tuple[Period, ...] | None:
    """``2026-12-07/2026-12-09`` (or ``..``): those days, both ends included."""
    match = _ISO_RANGE.match(text)
    if match is None:
        return None
    try:
        first, last = (date.fromisoformat(match.group(i)) for i in (1, 2))
    except ValueError:
        return None
    if last < first or not (_FIRST.date() <= first and last <= _LAST.date()):
        return None
    return ((calendar.bounds(first)[0], calendar.bounds(last)[1]),)
