"""Scripted fakes: a phraser that says what it is told, a source that plays outcomes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from vouched._answer._prompt import Prompt
from vouched._exceptions import PhraserError
from vouched._fact import Fact
from vouched._sources._source import Key, Query

__all__ = ["Delay", "Outcome", "ScriptedPhraser", "ScriptedSource"]


class ScriptedPhraser:
    """A :class:`vouched.Phraser` that says what it is told, in order.

    Each item is the text to return, an exception to raise (a
    :class:`vouched.PhraserTimeoutError`, say), or a callable ``prompt -> str``.
    Every prompt received is kept in ``prompts`` (so a test can check that a
    retry quoted the findings). When the script runs out it raises
    :class:`vouched.PhraserError`, unless ``cycle=True``. It streams too
    (``phrase_stream``): each text in pieces of ``piece_size`` characters.

    >>> from vouched import Fact, Grounder
    >>> from vouched.testing import FakeClock, ScriptedPhraser, ScriptedSource
    >>> fact = Fact(subject="Berlin", attribute="temperature", value=4.3, unit="°C",
    ...             source="weather", observed_at="2026-11-29T11:58:00Z", ttl=900)
    >>> model = ScriptedPhraser(["It is 9 °C in Berlin.", "It is 4.3 °C in Berlin."])
    >>> grounder = Grounder([ScriptedSource("weather", [[fact]])], phraser=model,
    ...                     clock=FakeClock("2026-11-29T12:00:00Z"))
    >>> answer = grounder.answer_sync("How warm is Berlin?")
    >>> answer.text, answer.attempts, model.calls
    ('It is 4.3 °C in Berlin.', 2, 2)
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
    """An outcome that arrives after ``seconds`` of event-loop time.

    >>> from vouched.testing import Delay, ScriptedSource
    >>> slow = ScriptedSource("weather", [Delay(5.0, TimeoutError())])
    """

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

    >>> from vouched import GuardedSource, fetch_sync
    >>> from vouched.testing import ScriptedSource
    >>> script = ScriptedSource("weather", [TimeoutError(), []],
    ...                         expects=[("Berlin", "temperature")])
    >>> source = GuardedSource(script)
    >>> [(f.attribute, str(f.silent_reason)) for f in fetch_sync(source, {"subject": "Berlin"})]
    [('temperature', 'timeout')]
    >>> [str(f.silent_reason) for f in fetch_sync(source, {"subject": "Berlin"})], script.calls
    (['no_data'], 2)
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
