"""Fakes for users' own tests (and ours): drive time without sleeping.

>>> from vouched.testing import FakeClock
>>> clock = FakeClock("2026-11-29T12:00:00Z")
>>> clock.advance(seconds=901).now().isoformat()
'2026-11-29T12:15:01+00:00'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta

from vouched._exceptions import PhraserError
from vouched._prompt import Prompt
from vouched._time import parse_instant, to_utc

__all__ = ["FakeClock", "ScriptedPhraser"]


class FakeClock:
    """A :class:`vouched.Clock` that moves only when told to.

    ``now()`` and ``monotonic()`` advance together, so code that mixes wall
    time (freshness) and monotonic time (caches, deadlines) stays consistent.
    Pass ``clock.monotonic`` wherever a cache timer is expected.
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


class ScriptedPhraser:
    """A :class:`vouched.Phraser` that says what it is told, in order.

    Each item is the text to return, an exception to raise (a
    :class:`vouched.PhraserTimeoutError`, say), or a callable ``prompt -> str``.
    Every prompt received is kept in ``prompts`` (so a test can check that a
    retry quoted the findings). When the script runs out it raises
    :class:`vouched.PhraserError`, unless ``cycle=True``.
    """

    name = "scripted"

    def __init__(
        self,
        script: Iterable[str | BaseException | Callable[[Prompt], str]],
        *,
        cycle: bool = False,
    ) -> None:
        self._script = list(script)
        if not self._script:
            raise ValueError("a script needs at least one item")
        self._cycle = cycle
        self.prompts: list[Prompt] = []

    @property
    def calls(self) -> int:
        return len(self.prompts)

    async def phrase(self, prompt: Prompt) -> str:
        index = len(self.prompts)
        self.prompts.append(prompt)
        if index >= len(self._script):
            if not self._cycle:
                raise PhraserError(f"script exhausted after {len(self._script)} calls")
            index %= len(self._script)
        item = self._script[index]
        if isinstance(item, BaseException):
            raise item
        if callable(item):
            return item(prompt)
        return item

    def __repr__(self) -> str:
        return f"ScriptedPhraser({len(self._script)} items, {self.calls} calls)"
