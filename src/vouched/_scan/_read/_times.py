"""Time expressions in a sentence, resolved to periods of the place's local time.

Pure functions: a sentence's lowered text and a :class:`Calendar` (the place's
offset, the local date of ``now``, the days the facts cover) in, the periods it
speaks of out. Understood (README "Periods"): dates ("January 5", "5 Jan",
"Jan. 5th, 2024", "2024-01-05", "the 5th", "January 4-6"), weekdays (checked
against a date written beside them), yesterday / today / tonight / tomorrow / the day after
tomorrow, the following / next day (after the day named last), this morning /
afternoon / evening, a day's part ("Thursday afternoon", "the night of the 5th"),
the weekend, later this week, early / next
week, "day three" and "the third / last day" of the forecast, ranges
("from Friday to Sunday", "Friday through Sunday", "between the 4th and the 6th"),
and, when asked (facts that change within a day), clock times ("at 9 a.m.", "15:00",
"tomorrow at 9am", "this morning at 9"): the minute they state on the day spoken of.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone

from vouched._scan._lex._timewords import (
    FOLLOWING_DAY,
    MONTHS,
    ORDINALS,
    PARTS_OF_DAY,
    RELATIVE_DAYS,
    WEEKDAYS,
    WHOLE_PERIOD,
)

__all__ = ["Calendar", "Period", "SentenceTime", "TimeMention", "has_clock", "read_times"]

Period = tuple[datetime, datetime]
"""[start, end) in the place's offset."""

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_FULL_WEEKDAY = "|".join(w for w in WEEKDAYS if len(w) > 5)
_ORD = r"(?:st|nd|rd|th)?"
_NTH_WORD = "|".join(sorted(ORDINALS, key=len, reverse=True))
_PART = "|".join(PARTS_OF_DAY)
_RELATIVE = "|".join(sorted(RELATIVE_DAYS, key=len, reverse=True))
_WHOLE = "|".join(re.escape(p) for p in sorted(WHOLE_PERIOD, key=len, reverse=True))
_FOLLOWING = "|".join(sorted(FOLLOWING_DAY, key=len, reverse=True))

_PATTERN = re.compile(
    rf"\b(?:"
    rf"(?P<md>(?P<m1>{_MONTH})\.?\s+(?P<d1>\d{{1,2}}){_ORD}"
    rf"(?:\s*(?:-|\u2013|to|through|and)\s*(?P<d1b>\d{{1,2}}){_ORD}(?![\d:]))?"
    rf"(?:,?\s+(?P<y1>\d{{4}}))?)(?![\d:])"
    rf"|(?P<dm>(?P<d2>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<m2>{_MONTH})\b\.?(?:,?\s+(?P<y2>\d{{4}}))?)"
    rf"|(?P<iso>(?P<y3>\d{{4}})-(?P<m3>\d{{2}})-(?P<d3>\d{{2}}))"
    rf"|(?P<slash>(?<![\d.,/])(?P<a5>\d{{1,2}})/(?P<b5>\d{{1,2}})(?:/(?P<y5>\d{{4}}|\d{{2}}))?)(?![\d/]|\s*(?:°|%|mm|cm|km|m/s|mph|hpa)|\s+of\b)"
    rf"|(?P<dotted>(?<![\d.,])(?P<d6>\d{{1,2}})\.(?P<m6>\d{{1,2}})\.(?P<y6>\d{{4}})?)(?![\d])(?!\s*$)"
    rf"|(?P<nth>the\s+(?P<d4>\d{{1,2}})(?:st|nd|rd|th))\b"
    rf"|(?P<wd>{_FULL_WEEKDAY})(?:'s)?\b"
    rf"|(?P<tonight>tonight)\b"
    rf"|(?P<this>this\s+(?P<tpart>morning|afternoon|evening))\b"
    rf"|(?P<rel>{_RELATIVE})\b"
    rf"|(?P<following>{_FOLLOWING})\b"
    rf"|(?P<weekend>(?:this\s+|the\s+|next\s+)?weekend)\b"
    rf"|(?P<later>later\s+(?:this|in\s+the)\s+week|(?:the\s+)?end\s+of\s+the\s+week)\b"
    rf"|(?P<nextweek>(?P<early>early\s+)?next\s+week)\b"
    rf"|(?P<dayn>day\s+(?P<dn>{_NTH_WORD}|\d))\b"
    rf"|(?P<nthday>(?:the\s+)?(?P<nd>{_NTH_WORD}|last|final)\s+day)\b"
    rf"|(?P<part>{_PART})\b"
    rf"|(?P<whole>{_WHOLE})\b"
    rf")"
)
_RANGE_LINK = re.compile(r"^\s*(?:to|through|thru|until|till|into|-|\u2013|\u2014)\s*$")
_AND_LINK = re.compile(r"^\s*,?\s*(?:and|&)\s*$")
_BESIDE = re.compile(r"^[\s,(]*(?:the\s+)?$")
_PART_AFTER_DAY = re.compile(r"^\s*(?:'s\s*)?(?:in\s+the\s+|during\s+the\s+)?$")
_PART_BEFORE_DAY = re.compile(r"^\s*(?:of\s+)$")


@dataclass(frozen=True)
class Calendar:
    """What resolves time words: the place's offset, the local date of ``now`` and
    the local days the facts cover (sorted)."""

    offset: timedelta
    today: date
    days: tuple[date, ...]

    def bounds(self, day: date, first_hour: int = 0, end_hour: int = 24) -> Period:
        zone = timezone(self.offset)
        midnight = datetime.combine(day, time(0), zone)
        return midnight + timedelta(hours=first_hour), midnight + timedelta(hours=end_hour)

    def next_weekday(self, weekday: int) -> date:
        return self.today + timedelta(days=(weekday - self.today.weekday()) % 7)

    def day_of_month(self, number: int) -> date | None:
        for day in self.days:
            if day.day == number:
                return day
        try:
            guess = self.today.replace(day=number)
        except ValueError:
            return None
        if guess < self.today - timedelta(days=7):  # "the 2nd" said on the 30th: next month
            month = self.today.month % 12 + 1
            year = self.today.year + (month == 1)
            try:
                return date(year, month, number)
            except ValueError:
                return None
        return guess


@dataclass(frozen=True)
class TimeMention:
    """A time expression: its span in the sentence and the periods it names."""

    start: int
    end: int
    periods: tuple[Period, ...]
    weekday: int | None = None
    day: date | None = None
    part: tuple[int, int] | None = None
    whole: bool = False
    following: bool = False  # "the following day": the day after the one named last


@dataclass(frozen=True)
class SentenceTime:
    """What a sentence says about time: the periods it speaks of (``None``: the
    whole forecast; empty: it names no time), and weekdays that contradict the
    date written beside them (start, end, detail)."""

    periods: tuple[Period, ...] | None
    mentions: tuple[TimeMention, ...]
    wrong_weekdays: tuple[tuple[int, int, str], ...]


def _year_for(month: int, calendar: Calendar) -> int:
    year = calendar.today.year
    if month < calendar.today.month - 6:
        return year + 1
    if month > calendar.today.month + 6:
        return year - 1
    return year


def _date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _mention(match: re.Match[str], calendar: Calendar) -> TimeMention | None:
    """The time one match of the pattern names: a written date, else a day or a
    stretch named relative to today."""
    for group in ("md", "dm", "iso", "nth"):
        if match.group(group):
            return _dated(group, match, calendar)
    if match.group("slash") or match.group("dotted"):
        return _numeric_date(match, calendar)
    return _relative(match, calendar)


def _numeric_date(match: re.Match[str], calendar: Calendar) -> TimeMention | None:
    """ "1/5", "01/05/2024" (month/day or day/month: both readings are weighed) and
    "05.01." / "5.1.2024" (day.month, with its closing dot or a year: "5.1" alone is a
    number, and so is "a gust of 1.1." at the end of a sentence). A reading on a day
    the facts cover wins; else each valid reading is a period the sentence may speak
    of (a value is wrong only when both fail)."""
    start, end = match.span()
    if match.group("dotted"):
        readings = [(int(match.group("d6")), int(match.group("m6")), match.group("y6"))]
    else:
        a, b, year = int(match.group("a5")), int(match.group("b5")), match.group("y5")
        readings = [(b, a, year), (a, b, year)]  # month/day first, then day/month
    days: list[date] = []
    for day_number, month, written in readings:
        if not 1 <= month <= 12:
            continue
        year = int(written) if written else _year_for(month, calendar)
        year += 2000 if written and len(written) == 2 else 0
        found = _date(year, month, day_number)
        if found is not None and found not in days:
            days.append(found)
    covered = [d for d in days if d in calendar.days]
    return _on_days(covered or days, start, end, calendar)


def _dated(group: str, match: re.Match[str], calendar: Calendar) -> TimeMention | None:
    """A date as written: "January 4-6", "5 Jan", "2024-01-05", "the 5th"."""
    start, end = match.span()
    if group == "md":
        month = MONTHS[match.group("m1")]
        year = int(match.group("y1") or _year_for(month, calendar))
        first = _date(year, month, int(match.group("d1")))
        last = _date(year, month, int(match.group("d1b"))) if match.group("d1b") else first
        if first is None or last is None or last < first:
            return None
        periods = (calendar.bounds(first)[0], calendar.bounds(last)[1])
        return TimeMention(start, end, (periods,), day=first if first == last else None)
    if group == "dm":
        month = MONTHS[match.group("m2")]
        day = _date(
            int(match.group("y2") or _year_for(month, calendar)), month, int(match.group("d2"))
        )
    elif group == "iso":
        day = _date(int(match.group("y3")), int(match.group("m3")), int(match.group("d3")))
    else:
        day = calendar.day_of_month(int(match.group("d4")))
    return _on_days([day] if day else [], start, end, calendar)


def _on_days(days: list[date], start: int, end: int, calendar: Calendar) -> TimeMention | None:
    if not days:
        return None
    return TimeMention(start, end, tuple(calendar.bounds(d) for d in days), day=days[0])


def _relative(match: re.Match[str], calendar: Calendar) -> TimeMention | None:
    """A time named from today: a weekday, tonight, this morning, tomorrow, the
    weekend, later this week, next week, day three, a part of a day, the whole."""
    start, end = match.span()
    if match.group("wd"):
        weekday = WEEKDAYS[match.group("wd")]
        day = calendar.next_weekday(weekday)
        return TimeMention(start, end, (calendar.bounds(day),), weekday=weekday, day=day)
    if match.group("tonight"):
        return TimeMention(start, end, (calendar.bounds(calendar.today, 18, 30),))
    if match.group("this"):
        first_hour, end_hour = PARTS_OF_DAY[match.group("tpart")]
        return TimeMention(start, end, (calendar.bounds(calendar.today, first_hour, end_hour),))
    if match.group("rel"):
        days = [calendar.today + timedelta(days=RELATIVE_DAYS[match.group("rel")])]
        return _on_days(days, start, end, calendar)
    if match.group("following"):
        return TimeMention(start, end, (), following=True)
    if match.group("weekend"):
        saturday = calendar.next_weekday(5)
        if calendar.today.weekday() == 6:
            saturday = calendar.today - timedelta(days=1)
        return TimeMention(start, end, (calendar.bounds(saturday, 0, 48),))
    if match.group("later"):
        first = calendar.today + timedelta(days=2)
        sunday = calendar.next_weekday(6)
        last = max(sunday, calendar.days[-1] if calendar.days else sunday)
        return TimeMention(start, end, ((calendar.bounds(first)[0], calendar.bounds(last)[1]),))
    if match.group("nextweek"):
        monday = calendar.today + timedelta(days=7 - calendar.today.weekday())
        length = 3 if match.group("early") else 7
        return TimeMention(start, end, (calendar.bounds(monday, 0, 24 * length),))
    if match.group("dayn") or match.group("nthday"):
        return _forecast_day(match, calendar)
    if match.group("part"):
        first_hour, end_hour = PARTS_OF_DAY[match.group("part")]
        return TimeMention(start, end, (), part=(first_hour, end_hour))
    if match.group("whole"):
        return TimeMention(start, end, (), whole=True)
    return None


def _forecast_day(match: re.Match[str], calendar: Calendar) -> TimeMention | None:
    """ "day three", "the first day", "the last day": counted over the days the facts
    cover. A first day the forecast covers only in part (it starts after noon) may
    be skipped by a writer who counts whole days: then day N is either of two."""
    if not calendar.days:
        return None
    word = match.group("dn") or match.group("nd")
    start, end = match.span()
    if word in ("last", "final"):
        return TimeMention(start, end, (calendar.bounds(calendar.days[-1]),))
    number = ORDINALS[word] if word in ORDINALS else int(word)
    chosen = calendar.days[number - 1 : number + 1] if number >= 1 else ()
    if not chosen:
        return TimeMention(
            start,
            end,
            (calendar.bounds(calendar.days[-1] + timedelta(days=number - len(calendar.days))),),
        )
    return TimeMention(start, end, tuple(calendar.bounds(d) for d in chosen))


def read_times(
    lowered: str,
    calendar: Calendar,
    before: tuple[Period, ...] | None = None,
    *,
    clocks: bool = False,
) -> SentenceTime:
    """The periods one sentence (lowered) speaks of, in the place's local time
    (``before``: the time the sentence before handed on, for "the following day";
    ``clocks``: whether a time of day names the instant it states, as when the facts
    change within a day)."""
    mentions = [m for m in (_mention(x, calendar) for x in _PATTERN.finditer(lowered)) if m]
    if any(m.following for m in mentions):
        mentions = _following(lowered, mentions, before, calendar)
    said = _clock_times(lowered, mentions) if clocks else []
    if not mentions and not said:
        return SentenceTime((), (), ())
    wrong: list[tuple[int, int, str]] = []
    days = _check_weekdays(lowered, mentions, wrong)
    days = _apply_parts(lowered, days, calendar)
    days = _join_ranges(lowered, days)
    days = _join_lists(lowered, days)
    if said:
        days = _place_clocks(lowered, said, mentions, days, (calendar, before))
    periods = tuple(p for m in days for p in m.periods)
    if not periods:
        whole = any(m.whole for m in mentions)
        return SentenceTime(None if whole else (), tuple(mentions), tuple(wrong))
    return SentenceTime(periods, tuple(days), tuple(wrong))


def _following(
    lowered: str,
    mentions: list[TimeMention],
    before: tuple[Period, ...] | None,
    calendar: Calendar,
) -> list[TimeMention]:
    """ "The following day", "the next day", "the day after": the day after each day
    named last, in this sentence or handed on by the one before ("day three" read two
    ways is followed two ways). With no day named before, "the day after" is the day
    after tomorrow and the others name nothing."""
    out: list[TimeMention] = []
    last = before or ()
    for mention in mentions:
        resolved = mention
        if mention.following:
            days = [
                p[0].date() + timedelta(days=1) for p in last if p[1] - p[0] <= _ONE_DAY_OR_NIGHT
            ]
            if not days and lowered.startswith("the day after", mention.start):
                days = [calendar.today + timedelta(days=2)]
            if not days:
                continue
            periods = tuple(calendar.bounds(d) for d in days)
            resolved = dataclasses.replace(mention, periods=periods, following=False)
        if resolved.periods:
            last = resolved.periods
        out.append(resolved)
    return out


_ONE_DAY_OR_NIGHT = timedelta(hours=30)

_CLOCK_GATE = re.compile(r"\d(?::\d|\s*[ap]\.?m\b)|\bat\s+\d")
_CLOCK = re.compile(
    r"(?<![\d.,:/])(?P<h>\d{1,2})(?::(?P<mi>[0-5]\d))?\s*(?P<ap>[ap])\.?m\b\.?"
    r"|(?<![\d.,:/])(?P<h24>\d{1,2}):(?P<mi24>[0-5]\d)(?![\d:]|[.,]\d)"
    r"|\bat\s+(?P<bare>\d{1,2})(?![\d:]|[.,]\d|\s*(?:[ap]\.?m\b|°|%|mm|cm|km|m/s|mph|hpa|degrees))"
)
_CLOCK_AFTER_DAY = re.compile(r"^[\s,]*(?:at|by|around|about|from|until|till)?\s*$")
_CLOCK_BEFORE_DAY = re.compile(r"^[\s,]*(?:on\s+)?(?:the\s+)?$")
_Clock = tuple[int, int, tuple[int, ...], int]
"""A time of day as written: start, end, the hours it may mean, the minute."""


def has_clock(lowered: str) -> bool:
    """May the sentence name a time of day (a digit before ':' or am / pm, "at N")?"""
    return _CLOCK_GATE.search(lowered) is not None


def _clock_times(lowered: str, mentions: Sequence[TimeMention]) -> list[_Clock]:
    """ "at 9 a.m.", "9am", "15:00", "by 3 p.m.", and "at 9" beside a part of the day
    ("this morning at 9": 9 or 21, whichever the part holds). Digits inside a date
    named are no time of day."""
    taken = [(m.start, m.end) for m in mentions]
    out: list[_Clock] = []
    for match in _CLOCK.finditer(lowered):
        start = match.start("bare") if match.group("bare") else match.start()
        if any(a <= start < b for a, b in taken):
            continue
        if match.group("h"):
            hour, minute = int(match.group("h")), int(match.group("mi") or 0)
            if not 1 <= hour <= 12:
                continue
            hours: tuple[int, ...] = (hour % 12 + (12 if match.group("ap") == "p" else 0),)
        elif match.group("h24"):
            hour, minute = int(match.group("h24")), int(match.group("mi24"))
            hours = (hour,)
        else:
            hour, minute = int(match.group("bare")), 0
            hours = (hour % 12, hour % 12 + 12)
        if hours[0] < 24:
            out.append((start, match.end(), hours, minute))
    return out


def _windows(
    clock: _Clock,
    lowered: str,
    mentions: Sequence[TimeMention],
    days: Sequence[TimeMention],
    context: tuple[Calendar, tuple[Period, ...] | None],
) -> tuple[int | None, tuple[Period, ...]]:
    """The periods a time of day falls in: the nearest day named in the sentence (its
    index, when the time stands beside it), else a part of the day named alone on the
    day carried (or today), else the day carried, else today."""
    calendar, before = context
    near = [
        i
        for i, m in enumerate(days)
        if m.periods and all(e - s <= _ONE_DAY_OR_NIGHT for s, e in m.periods)
    ]
    if near:
        best = min(near, key=lambda i: abs(days[i].start - clock[0]))
        mention = days[best]
        if mention.end <= clock[0]:
            beside = _CLOCK_AFTER_DAY.match(lowered[mention.end : clock[0]])
        else:
            beside = _CLOCK_BEFORE_DAY.match(lowered[clock[1] : mention.start])
        return (best if beside else None), mention.periods
    carried = [p for p in before or () if p[1] - p[0] <= _ONE_DAY_OR_NIGHT]
    dates = sorted({p[0].date() for p in carried}) or [calendar.today]
    part = next((m.part for m in mentions if m.part is not None), None)
    if part is not None:
        return None, tuple(calendar.bounds(d, *part) for d in dates)
    return None, tuple(carried) or (calendar.bounds(calendar.today),)


def _instants(clock: _Clock, windows: tuple[Period, ...]) -> tuple[Period, ...]:
    """The minute a time of day names in each window (a night's "2 a.m." is the next
    day's); an hour read two ways ("at 9") only where the window holds it."""
    out: list[Period] = []
    _, _, hours, minute = clock
    for start, end in windows:
        if len(hours) > 1 and end - start >= _DAY:
            continue  # "at 9" names an hour only beside a part of the day
        midnight = datetime.combine(start.date(), time(0), start.tzinfo)
        fits = [
            t
            for hour in hours
            for extra in (0, 24)
            if start <= (t := midnight + timedelta(hours=hour + extra, minutes=minute)) < end
        ]
        if fits:
            out.append((fits[0], fits[0] + _MINUTE))
        elif len(hours) == 1:
            instant = midnight + timedelta(hours=hours[0], minutes=minute)
            out.append((instant, instant + _MINUTE))
    return tuple(out)


_MINUTE = timedelta(minutes=1)
_DAY = timedelta(days=1)


def _place_clocks(
    lowered: str,
    said: list[_Clock],
    mentions: Sequence[TimeMention],
    days: list[TimeMention],
    context: tuple[Calendar, tuple[Period, ...] | None],
) -> list[TimeMention]:
    """A time of day names the minute it states on the day the sentence speaks of:
    beside a day named, it narrows that day ("tomorrow at 9 a.m."); else it is a time
    of its own, on the day named nearest, or carried, or today. Its digits are no
    value."""
    out = list(days)
    for clock in said:
        beside, windows = _windows(clock, lowered, mentions, out, context)
        instants = _instants(clock, windows)
        if not instants:
            continue
        if beside is None:
            out.append(TimeMention(clock[0], clock[1], instants))
            continue
        other = out[beside]
        span = (min(clock[0], other.start), max(clock[1], other.end))
        out[beside] = TimeMention(*span, instants)
    return sorted(out, key=lambda m: m.start)


def _check_weekdays(
    lowered: str, mentions: list[TimeMention], wrong: list[tuple[int, int, str]]
) -> list[TimeMention]:
    """A weekday written beside a date speaks of that date; when the date falls on
    another weekday, the weekday is wrong (and the date decides the period)."""
    out: list[TimeMention] = []
    skip: set[int] = set()
    for i, mention in enumerate(mentions):
        if i in skip:
            continue
        if mention.weekday is not None:
            for j in (i + 1, i - 1):
                if not 0 <= j < len(mentions) or j in skip:
                    continue
                other = mentions[j]
                if other.day is None or other.weekday is not None:
                    continue
                gap = (
                    lowered[mention.end : other.start]
                    if j > i
                    else lowered[other.end : mention.start]
                )
                if not _BESIDE.match(gap):
                    continue
                if other.day.weekday() != mention.weekday:
                    name = other.day.strftime("%A")
                    wrong.append(
                        (mention.start, mention.end, f"{other.day.isoformat()} is a {name}")
                    )
                skip.add(j)
                out = [m for m in out if m is not other]
                # one mention over both ("Saturday, December 5"): the weekday is part
                # of the time named, not a word left to the carried day
                start, end = min(mention.start, other.start), max(mention.end, other.end)
                out.append(dataclasses.replace(other, start=start, end=end))
                break
            else:
                out.append(mention)
            continue
        out.append(mention)
    return sorted(out, key=lambda m: m.start)


def _apply_parts(
    lowered: str, mentions: list[TimeMention], calendar: Calendar
) -> list[TimeMention]:
    """ "Thursday afternoon", "Friday in the morning", "the night of the 5th": a part
    of the day next to one day narrows it. A part alone narrows nothing."""
    out: list[TimeMention] = []
    used: set[int] = set()
    for i, mention in enumerate(mentions):
        if mention.part is None:
            continue
        first_hour, end_hour = mention.part
        before = mentions[i - 1] if i > 0 else None
        after = mentions[i + 1] if i + 1 < len(mentions) else None
        target = None
        if (
            before is not None
            and before.day is not None
            and _PART_AFTER_DAY.match(lowered[before.end : mention.start])
        ):
            target = i - 1
        elif (
            after is not None
            and after.day is not None
            and _PART_BEFORE_DAY.match(lowered[mention.end : after.start])
        ):
            target = i + 1
        if target is not None:
            day = mentions[target].day
            assert day is not None  # noqa: S101 - checked above
            used.add(target)
            other = mentions[target]
            span = (min(mention.start, other.start), max(mention.end, other.end))
            out.append(TimeMention(*span, (calendar.bounds(day, first_hour, end_hour),)))
        used.add(i)
    out.extend(m for i, m in enumerate(mentions) if i not in used and m.periods)
    return sorted(out, key=lambda m: m.start)


def _join_ranges(lowered: str, mentions: list[TimeMention]) -> list[TimeMention]:
    """ "from Friday to Sunday", "Friday through Sunday": one period from the first's
    start to the last's end ("between X and Y" too; "X and Y" stays two days)."""
    out: list[TimeMention] = []
    for mention in mentions:
        if out and out[-1].periods and mention.periods:
            previous = out[-1]
            gap = lowered[previous.end : mention.start]
            between = (
                lowered[max(0, previous.start - 8) : previous.start].rstrip().endswith("between")
            )
            if _RANGE_LINK.match(gap) or (between and _AND_LINK.match(gap)):
                start = min(p[0] for p in previous.periods)
                end = max(p[1] for p in mention.periods)
                if start < end:
                    out[-1] = TimeMention(previous.start, mention.end, ((start, end),))
                    continue
        out.append(mention)
    return out


_LIST_LINK = re.compile(r"^\s*(?:,|,?\s*(?:and|&|or))\s*$")


def _join_lists(lowered: str, mentions: list[TimeMention]) -> list[TimeMention]:
    """ "On Saturday and Sunday, highs of 9 and 4 °C", "Friday, Saturday and Sunday":
    days listed together govern together (every day of the list binds what follows,
    not only the last one); their values are checked against each listed day."""
    out: list[TimeMention] = []
    for mention in mentions:
        if out and out[-1].periods and mention.periods:
            previous = out[-1]
            if _LIST_LINK.match(lowered[previous.end : mention.start]):
                out[-1] = TimeMention(
                    previous.start, mention.end, (*previous.periods, *mention.periods)
                )
                continue
        out.append(mention)
    return out


_SEPARATOR = re.compile(r"[,;()]|:(?=\s)|\s(?:and|while|but|whereas|then|before|after)\s")
_LEAD_FILLER = re.compile(
    r"^(?:\s|\b(?:on|by|for|from|during|in|into|through|over|the|early|late|later|then|and|"
    r"until|starting|beginning|as|of|at|also|meanwhile|moving|looking|ahead|to|come|comes|"
    r"heading|towards?|next|this|day)\b)*$"
)
Segment = tuple[int, int, "tuple[Period, ...] | None"]


def _leads(lowered: str, mention: TimeMention) -> bool:
    """Does the mention open its clause ("On Friday, ...", "Friday will be ...")?"""
    before = lowered[: mention.start]
    cut = max((m.end() for m in _SEPARATOR.finditer(before)), default=0)
    return bool(_LEAD_FILLER.match(before[cut:]))


def _clause_end(lowered: str, mention: TimeMention, following: Sequence[TimeMention]) -> int | None:
    """Where the clause of a time named inside it ends: the next separator before the
    next time named (``None``: none, or the next time opens that clause itself)."""
    stop = following[0].start if following else len(lowered)
    found = _SEPARATOR.search(lowered, mention.end, stop)
    if found is None or (following and _leads(lowered, following[0])):
        return None
    return found.end()


def governing(
    lowered: str, timing: SentenceTime, carried: tuple[Period, ...] | None
) -> tuple[list[Segment], tuple[Period, ...] | None]:
    """Which time governs each stretch of a sentence, and the time it hands on.

    A time that opens its clause ("On Friday, highs of 12 and winds of 5") governs
    what follows it, up to the next time named; a time after its values ("12 °C on
    Friday and 14 °C on Saturday") governs back to the previous separator (a
    comma, "and", "while", ...) and on to the next time, or, after a time that
    opened a clause before it, only to the end of its own clause (then the opener's
    time resumes). What no time governs reads with the time carried from the
    sentence before. A sentence that opens
    with a time hands it on (the topic's time); a time named inside a clause stays
    in it. A phrase about the whole forecast governs like a time and hands on "all".
    """
    if timing.periods is None:
        return [(0, len(lowered), None)], None
    mentions = [m for m in timing.mentions if m.periods]
    if not mentions:
        return [(0, len(lowered), carried)], carried
    cuts: list[Segment] = []
    position = 0
    current = carried
    topic: tuple[Period, ...] | None = None  # the time that opened a clause before
    for index, mention in enumerate(mentions):
        if _leads(lowered, mention):
            cuts.append((position, mention.start, current))
            topic = mention.periods
        else:
            gap = lowered[position : mention.start]
            seps = [m.end() for m in _SEPARATOR.finditer(gap)]
            split = position + seps[-1] if seps else position
            cuts.append((position, split, current))
            cuts.append((split, mention.start, mention.periods))
            after = _clause_end(lowered, mention, mentions[index + 1 : index + 2])
            if topic is not None and after is not None:
                # "Thursday and Friday ..., with rain on Thursday morning and highs of
                # 29 °C": a time inside a clause stays in it; the opener's time resumes
                cuts.append((mention.start, after, mention.periods))
                position, current = after, topic
                continue
        position = mention.start
        current = mention.periods
    cuts.append((position, len(lowered), current))
    leading = [m for m in mentions if _leads(lowered, m)]
    handed = leading[-1].periods if leading else carried
    return [c for c in cuts if c[0] < c[1]], handed
