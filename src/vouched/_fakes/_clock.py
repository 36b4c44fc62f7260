"""A clock that moves only when told to."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from vouched._time import parse_instant, to_utc

__all__ = ["FakeClock"]


class FakeClock:
    """A :class:`vouched.Clock` that moves only when told to.

    ``now()`` and ``monotonic()`` advance together, so code that mixes wall
    time (freshness) and monotonic time (caches, deadlines) stays consistent.
    Pass ``clock.monotonic`` wherever a cache timer is expected.

    >>> from vouched.testing import FakeClock
    >>> clock = FakeClock("2026-11-29T12:00:00Z")
    >>> clock.advance(seconds=901).now().isoformat()
    '2026-11-29T12:15:01+00:00'
    >>> clock.monotonic()
    901.0
    """

    def __init__(self, start: datetime | str = "2026-01-01T00:00:00Z") -> None:
        self._now = parse_instant(start) if isinstance(start, str) else to_utc(start)
        self._monotonic = 0.0

    def now(self) -> datetime:
        return self._now

    def monotonic(self) -> float:
        return self._monotonic

    def advance(self, delta: timedelta | float = 0.0, *, seconds: float = 0.0) -> FakeClock:
        """Move both clocks forward; returns the clock for chaining."""
        step = delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
        step += timedelta(seconds=seconds)
        if step < timedelta(0):
            raise ValueError("a clock does not go backwards; use set() for the wall clock")
        self._now += step
        self._monotonic += step.total_seconds()
        return self

    def set(self, instant: datetime | str) -> FakeClock:
        """Jump the wall clock (monotonic time is unchanged)."""
        self._now = parse_instant(instant) if isinstance(instant, str) else to_utc(instant)
        return self

    def __repr__(self) -> str:
        return f"FakeClock({self._now.astimezone(UTC).isoformat()!r})"
