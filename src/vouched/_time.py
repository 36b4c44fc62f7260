"""Time as values: instants, durations and the clock seam.

The core never reads a clock; callers pass ``now``. The edges (sources,
caches, the Grounder) take a :class:`Clock` so tests can drive time.
"""

from __future__ import annotations

import math
import re
import time
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Protocol, runtime_checkable

from vouched._exceptions import ConfigError, shown

__all__ = [
    "Clock",
    "DurationLike",
    "InstantLike",
    "SystemClock",
    "format_instant",
    "format_local_instant",
    "is_whole_day",
    "later_by",
    "local_day",
    "local_time",
    "parse_day_or_instant",
    "parse_duration",
    "parse_instant",
    "parse_local_instant",
    "period_words",
    "seconds_setting",
    "to_utc",
]

_DURATION = re.compile(
    r"^P(?!$)(?:(?P<weeks>\d+(?:[.,]\d+)?)W)?(?:(?P<days>\d+(?:[.,]\d+)?)D)?"
    r"(?:T(?!$)(?:(?P<hours>\d+(?:[.,]\d+)?)H)?(?:(?P<minutes>\d+(?:[.,]\d+)?)M)?"
    r"(?:(?P<seconds>\d+(?:[.,]\d+)?)S)?)?$"
)

InstantLike = datetime | str
"""An instant with a timezone, as constructors accept it: a ``datetime`` or
ISO 8601 text (``"2026-11-29T12:00:00Z"``)."""

DurationLike = timedelta | int | float | Decimal | str
"""A duration, as constructors accept it: a ``timedelta``, seconds, or ISO
8601 text (``"PT15M"``)."""

_MAX_SECONDS = timedelta.max.total_seconds()


@runtime_checkable
class Clock(Protocol):
    """Where the edges of vouched read time. ``now`` is timezone-aware UTC."""

    def now(self) -> datetime: ...

    def monotonic(self) -> float: ...


class SystemClock:
    """The real clock: wall time in UTC and a monotonic counter."""

    __slots__ = ()

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    def __repr__(self) -> str:
        return "SystemClock()"


def to_utc(value: datetime) -> datetime:
    """The same instant with the UTC tzinfo; naive datetimes are refused."""
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        raise ValueError("datetime has no timezone; give an offset such as Z or +01:00")
    if value.tzinfo is UTC:
        return value
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError(f"{value.isoformat()} is out of range in UTC (years 1 to 9999)") from None


END_OF_TIME = datetime.max.replace(tzinfo=UTC)


def later_by(instant: datetime, span: timedelta) -> datetime:
    """``instant + span``, or the last instant there is when that is past year 9999
    (a fact observed on 9999-12-31 with a day's TTL is fresh to the end of time)."""
    try:
        return instant + span
    except OverflowError:
        return END_OF_TIME


def parse_instant(text: str) -> datetime:
    """Parse an ISO 8601 instant with a timezone ("2026-11-29T12:00:00Z")."""
    candidate = text.strip()
    if candidate.endswith(("z", "Z")):
        candidate = candidate[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(candidate)
    except ValueError:
        raise ValueError(f"not an ISO 8601 date-time: {shown(text)}") from None
    return to_utc(parsed)


def parse_local_instant(text: str) -> datetime:
    """Parse an ISO 8601 instant with its UTC offset kept ("2026-12-04T00:00:00+01:00"):
    the offset says which local day the instant belongs to."""
    candidate = text.strip()
    if candidate.endswith(("z", "Z")):
        candidate = candidate[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(candidate)
    except ValueError:
        raise ValueError(f"not an ISO 8601 date-time: {shown(text)}") from None
    to_utc(parsed)  # refuses a naive date-time and one out of range in UTC
    return parsed


def format_local_instant(value: datetime) -> str:
    """ISO 8601 with the instant's own offset (``Z`` for UTC), seconds precision
    unless finer is needed."""
    spec = "seconds" if value.microsecond == 0 else "microseconds"
    return value.isoformat(timespec=spec).replace("+00:00", "Z")


_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def local_day(instant: datetime) -> str:
    """``Mon 2026-12-07``: the date and weekday of ``instant`` in its own offset
    (English names whatever the process's locale)."""
    return f"{_WEEKDAYS[instant.weekday()]} {instant.date().isoformat()}"


def local_time(instant: datetime) -> str:
    """``Mon 2026-12-07 15:00``: the date, weekday and clock time in its own offset."""
    return f"{local_day(instant)} {instant:%H:%M}"


def is_whole_day(start: datetime, end: datetime) -> bool:
    """Is ``[start, end)`` one local day, midnight to midnight?"""
    midnight = start.hour == start.minute == start.second == start.microsecond == 0
    return midnight and end - start == timedelta(days=1)


def period_words(start: datetime, end: datetime) -> str:
    """A period for a finding's detail, in the place's time: ``Mon 2026-12-07`` for a
    whole local day, else ``Mon 2026-12-07 12:00 to Mon 2026-12-07 15:00``."""
    if is_whole_day(start, end):
        return local_day(start)
    return f"{local_time(start)} to {local_time(end)}"


def parse_day_or_instant(text: str) -> datetime:
    """A date ("2026-12-02", read as midnight UTC) or an ISO 8601 instant with a
    timezone: how a time window's edges are given (``--since``, a page's filter)."""
    try:
        day = date.fromisoformat(text.strip())
    except ValueError:
        return parse_instant(text)
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def format_instant(value: datetime) -> str:
    """UTC ISO 8601 with a trailing Z, seconds precision unless finer is needed."""
    utc = to_utc(value)
    spec = "seconds" if utc.microsecond == 0 else "microseconds"
    return utc.isoformat(timespec=spec).replace("+00:00", "Z")


def parse_duration(value: object) -> timedelta:
    """Seconds (a number) or an ISO 8601 duration ("PT15M", "P1D") as a timedelta.

    Years and months are refused: their length depends on the calendar.
    Negative, NaN and infinite durations are refused.
    """
    if isinstance(value, timedelta):
        seconds = value.total_seconds()
    elif isinstance(value, bool):
        raise ValueError("a duration is seconds or an ISO 8601 duration, not a boolean")
    elif isinstance(value, int | float | Decimal):
        try:
            seconds = float(value)
        except OverflowError:
            seconds = math.inf
    elif isinstance(value, str):
        match = _DURATION.match(value.strip().upper())
        if match is None:
            raise ValueError(
                f"not a duration: {shown(value)} (give seconds or ISO 8601 such as 'PT15M')"
            )
        parts = {k: float(v.replace(",", ".")) for k, v in match.groupdict().items() if v}
        try:
            return timedelta(**parts)
        except OverflowError:
            raise ValueError(
                f"duration {shown(value)} is too long (at most 999999999 days)"
            ) from None
    else:
        raise ValueError(
            f"a duration is seconds or an ISO 8601 duration, not {type(value).__name__}"
        )
    if math.isnan(seconds) or math.isinf(seconds):
        raise ValueError("a duration must be finite")
    if seconds < 0:
        raise ValueError("a duration must not be negative")
    if seconds > _MAX_SECONDS:
        raise ValueError(f"duration of {shown(value)} seconds is too long (at most 999999999 days)")
    return timedelta(seconds=seconds)


def seconds_setting(
    setting: str, value: object, *, zero_allowed: bool = False, none_means: str | None = None
) -> float:
    """``value`` as the seconds a setting takes: a finite number above 0 (or
    at least 0 when ``zero_allowed``), else :class:`ConfigError` naming ``setting``
    (``none_means`` says what None means where the caller also accepts it)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float | Decimal)
        or not math.isfinite(value)
        or value < 0
        or (value == 0 and not zero_allowed)
    ):
        accepted = "seconds >= 0" if zero_allowed else "positive seconds"
        if none_means is not None:
            accepted += f" or None ({none_means})"
        raise ConfigError(setting, accepted, got=value)
    return float(value)
