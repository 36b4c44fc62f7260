"""Fakes for users' own tests (and ours): drive time without sleeping.

>>> from vouched.testing import FakeClock
>>> clock = FakeClock("2026-11-29T12:00:00Z")
>>> clock.advance(seconds=901).now().isoformat()
'2026-11-29T12:15:01+00:00'

A scripted phraser says what it is told (``ScriptedPhraser(["text", error])``);
a scripted source plays outcomes in order (the last one repeats)::

    source = ScriptedSource("weather", [[fact], TimeoutError(), ScriptedSource.HANG])
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, Final

from vouched._answer._prompt import Prompt
from vouched._exceptions import PhraserError
from vouched._fact import Fact
from vouched._sources._recorded import RecordedServer
from vouched._sources._source import Key, Query
from vouched._time import parse_instant, to_utc

__all__ = ["Delay", "FakeClock", "RecordedServer", "ScriptedPhraser", "ScriptedSource"]


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
    :class:`vouched.PhraserError`, unless ``cycle=True``. It streams too
    (``phrase_stream``): each text in pieces of ``piece_size`` characters.
    """

    name = "scripted"

    def __init__(
        self,
        script: Iterable[str | BaseException | Callable[[Prompt], str]],
        *,
        cycle: bool = False,
        piece_size: int = 5,
    ) -> None:
        self._script = list(script)
        if not self._script:
            raise ValueError("a script needs at least one item")
        if piece_size < 1:
            raise ValueError("piece_size must be at least 1")
        self._cycle = cycle
        self.piece_size = piece_size
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

    async def phrase_stream(self, prompt: Prompt) -> AsyncIterator[str]:
        text = await self.phrase(prompt)
        for start in range(0, len(text), self.piece_size):
            yield text[start : start + self.piece_size]

    def __repr__(self) -> str:
        return f"ScriptedPhraser({len(self._script)} items, {self.calls} calls)"


class _Hang:
    def __repr__(self) -> str:
        return "ScriptedSource.HANG"


_HANG: Final = _Hang()


@dataclass(frozen=True, slots=True)
class Delay:
    """An outcome that arrives after ``seconds`` of real (event-loop) time."""

    seconds: float
    then: Outcome


Outcome = (
    Sequence[Fact] | BaseException | type[BaseException] | Delay | _Hang | Callable[[Query], Any]
)
"""What one call of a :class:`ScriptedSource` does: return these facts, raise
this exception, wait then do something, hang until cancelled, or call a
function with the query (its result is returned as is)."""


class ScriptedSource:
    """A :class:`vouched.Source` that plays a script of outcomes, one per call.

    When the script runs out, the last outcome repeats. ``calls`` counts
    fetches; ``queries`` keeps what was asked. ``expects`` (optional) is what
    the source declares it answers, so silences name those keys.
    """

    HANG: ClassVar[_Hang] = _HANG

    def __init__(
        self,
        name: str,
        outcomes: Iterable[Outcome],
        *,
        expects: Iterable[Key] | None = None,
    ) -> None:
        self.name = name
        self._outcomes = list(outcomes)
        if not self._outcomes:
            raise ValueError("a script needs at least one outcome")
        self._expects = tuple(expects) if expects is not None else None
        self.calls = 0
        self.queries: list[Query] = []

    def expects(self, query: Query) -> tuple[Key, ...]:
        return self._expects or ()

    async def fetch(self, query: Query) -> Sequence[Fact]:
        index = min(self.calls, len(self._outcomes) - 1)
        self.calls += 1
        self.queries.append(query)
        result: Any = await _play(self._outcomes[index], query)
        return result  # type: ignore[no-any-return]  # scripts may return garbage on purpose

    def __repr__(self) -> str:
        return f"ScriptedSource({self.name!r}, calls={self.calls})"


async def _play(outcome: Outcome, query: Query) -> Any:
    if isinstance(outcome, Delay):
        await asyncio.sleep(outcome.seconds)
        return await _play(outcome.then, query)
    if isinstance(outcome, _Hang):
        return await asyncio.get_running_loop().create_future()  # until cancelled
    if isinstance(outcome, BaseException):
        raise outcome
    if isinstance(outcome, type) and issubclass(outcome, BaseException):
        raise outcome()
    if isinstance(outcome, Sequence):
        return list(outcome)
    call: Callable[[Query], Any] = outcome
    return call(query)
