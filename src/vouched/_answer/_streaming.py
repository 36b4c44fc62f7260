"""Streamed answers: sentences are handed on only after they pass the scan.

:meth:`vouched.Grounder.answer_stream` yields :class:`AnswerEvent` values:

- ``sentence``: one sentence that passed the scan (``text`` is exactly the
  model's words, with the whitespace before them, so the sentences of a
  segment joined rebuild its text);
- ``retry``: the model is asked again; what follows is a new ``segment`` that
  replaces the one shown so far (its sentences passed, but the answer as a
  whole is phrased anew);
- ``note``: a partial answer ends here; the rest is unavailable (``text``);
- ``refusal``: no answer is given (``text``, and ``reasons``);
- ``done``: always last, with the whole :class:`vouched.Answer`.

At the first sentence with a finding the model's stream is closed and the
on-fail policy decides: ``retry`` (a ``retry`` event, then the new segment),
``partial`` (a ``note``; the rest is dropped) or ``refuse`` (a ``refusal``).
Not a character of a sentence with a finding is ever yielded. A phraser that
cannot stream is phrased whole and then handed on sentence by sentence.

:class:`StreamedPhrasing` holds the state of one streamed phrasing (the
attempts, the sentences shown, the time spent) and makes the answer at the
end; the Grounder owns everything before (sources, gate, prompt) and after
(observers, snapshot).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import functools
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from vouched._answer._echoes import echoed_numbers
from vouched._answer._onfail import (
    REFUSAL_TEXT,
    UNPHRASED_TEXT,
    OnFail,
    RefusalReason,
    problems_for,
    unconfirmed,
)
from vouched._answer._phrasers import Phraser, stream_of
from vouched._answer._prompt import Prompt
from vouched._answer._result import (
    Answer,
    AnswerStatus,
    Attempt,
    error_reason,
    finding_codes,
    finding_reasons,
    finding_span,
    too_long_reason,
)
from vouched._answer._tracing import NO_SPAN, TraceSpan, interrupted, trace_findings
from vouched._fact import Fact
from vouched._gate import GateResult
from vouched._policy import Policy
from vouched._replay._attempts import AttemptAction, once_per_span
from vouched._scan._lexicon import Lexicon
from vouched._scan._scanner import Finding, Scanner
from vouched._scan._stream import ScannedSentence, StreamScanner
from vouched._time import Clock

__all__ = [
    "DISCONNECTED",
    "PARTIAL_NOTE",
    "AnswerEvent",
    "AnswerEventKind",
    "DoneEvent",
    "NoteEvent",
    "RefusalEvent",
    "RetryEvent",
    "SentenceEvent",
    "StreamedPhrasing",
]

_T = TypeVar("_T")

PARTIAL_NOTE = "The rest of the answer is unavailable right now: it could not be checked."
"""The note that ends a partial streamed answer, after one sentence per
subject and attribute that could not be confirmed (as a whole partial
answer names them)."""

DISCONNECTED = "disconnected"
"""The reason an answer whose reader left mid-stream is recorded with."""


class AnswerEventKind(enum.StrEnum):
    """What one event of a streamed answer carries."""

    SENTENCE = "sentence"
    RETRY = "retry"
    NOTE = "note"
    REFUSAL = "refusal"
    DONE = "done"


def _event_json(
    kind: AnswerEventKind, segment: int, text: str, reasons: tuple[str, ...]
) -> dict[str, Any]:
    document: dict[str, Any] = {"kind": str(kind), "segment": segment, "text": text}
    if reasons:
        document["reasons"] = list(reasons)
    return document


@dataclass(frozen=True, slots=True)
class SentenceEvent:
    """One sentence that passed the scan (``text`` with the whitespace before it)."""

    segment: int
    text: str
    reasons: tuple[str, ...] = ()
    kind: Literal[AnswerEventKind.SENTENCE] = field(default=AnswerEventKind.SENTENCE, init=False)

    def to_json(self) -> dict[str, Any]:
        return _event_json(self.kind, self.segment, self.text, self.reasons)


@dataclass(frozen=True, slots=True)
class RetryEvent:
    """The model is asked again: a new ``segment`` replaces the one shown so far."""

    segment: int
    text: str = ""
    reasons: tuple[str, ...] = ()
    kind: Literal[AnswerEventKind.RETRY] = field(default=AnswerEventKind.RETRY, init=False)

    def to_json(self) -> dict[str, Any]:
        return _event_json(self.kind, self.segment, self.text, self.reasons)


@dataclass(frozen=True, slots=True)
class NoteEvent:
    """A partial answer ends here; ``text`` names what could not be confirmed."""

    segment: int
    text: str
    reasons: tuple[str, ...] = ()
    kind: Literal[AnswerEventKind.NOTE] = field(default=AnswerEventKind.NOTE, init=False)

    def to_json(self) -> dict[str, Any]:
        return _event_json(self.kind, self.segment, self.text, self.reasons)


@dataclass(frozen=True, slots=True)
class RefusalEvent:
    """No answer is given: ``text`` says so, ``reasons`` are finding codes and
    spans (never the failing sentence's words) or the phraser's failure."""

    segment: int
    text: str
    reasons: tuple[str, ...] = ()
    kind: Literal[AnswerEventKind.REFUSAL] = field(default=AnswerEventKind.REFUSAL, init=False)

    def to_json(self) -> dict[str, Any]:
        return _event_json(self.kind, self.segment, self.text, self.reasons)


@dataclass(frozen=True, slots=True)
class DoneEvent:
    """Always last: the whole :class:`vouched.Answer` (written for a reader by
    ``to_json``: :meth:`vouched.Answer.client_json`)."""

    segment: int
    answer: Answer
    text: str = ""
    reasons: tuple[str, ...] = ()
    kind: Literal[AnswerEventKind.DONE] = field(default=AnswerEventKind.DONE, init=False)

    def to_json(self) -> dict[str, Any]:
        return {"kind": str(self.kind), "segment": self.segment,
                "answer": self.answer.client_json()}  # fmt: skip


AnswerEvent = SentenceEvent | RetryEvent | NoteEvent | RefusalEvent | DoneEvent
"""One event of a streamed answer, discriminated by ``kind``: after
``event.kind is AnswerEventKind.DONE`` a type checker knows ``event.answer``
is an :class:`vouched.Answer`. Every event has ``kind``, ``segment``,
``text`` and ``reasons`` and ``to_json()``; what an event carries is meant for
the reader (no word of a failing sentence)."""


async def _aclose(stream: AsyncIterator[str]) -> None:
    close = getattr(stream, "aclose", None)
    if close is not None:
        await close()


@dataclass(slots=True)
class _Reading:
    """The state of one attempt: what was shown, the first failing sentence."""

    scanner: StreamScanner
    began: float
    shown: list[str] = field(default_factory=list)
    failed: tuple[Finding, ...] = ()
    failing: str = ""
    error: Exception | None = None
    too_long: int = 0  # the characters read when the output cap was passed
    span: TraceSpan = NO_SPAN  # the attempt's ``vouched.phrase``, ended by _attempt
    scan_seconds: float = 0.0


class StreamedPhrasing:
    """One streamed phrasing under an on-fail plan; :meth:`run` yields the
    events before ``done``, then :attr:`answer` is the answer they add up to."""

    def __init__(
        self,
        *,
        phraser: Phraser,
        phraser_name: str,
        on_fail: Sequence[OnFail],
        lexicon: Lexicon | None,
        policy: Policy,
        clock: Clock,
        phrase_timeout: float,
        max_output_chars: int,
        caller: Sequence[str] = (),
        executor: Executor | None = None,
        span: TraceSpan = NO_SPAN,
    ) -> None:
        self._span = span  # the answer's; each attempt and on-fail decision a child
        self._phraser = phraser
        self._max_chars = max_output_chars
        self._caller = tuple(caller)
        self._executor = executor
        self._name = phraser_name
        self._on_fail = tuple(on_fail)
        self._lexicon = lexicon
        self._policy = policy
        self._clock = clock
        self._timeout = phrase_timeout
        self.trail: list[Attempt] = []
        self.phrase_seconds = 0.0
        self.scan_seconds = 0.0
        self.first_sentence: float | None = None  # monotonic instant of the first one shown
        self.answer: Answer | None = None
        self.shown: list[str] = []  # the sentences handed on so far, over all segments

    def _scanner(self, prompt: Prompt, silences: Sequence[Fact]) -> Scanner:
        """One compiled scanner per answer; each attempt reads with its ``stream()``."""
        return Scanner(
            [*prompt.grounded, *silences],
            self._lexicon,
            sources=[f.value for f in prompt.grounded if isinstance(f.value, str)],
            question=prompt.question,
            policy=self._policy,
        )

    async def run(
        self, first: Prompt, gate: GateResult, silences: Sequence[Fact]
    ) -> AsyncGenerator[AnswerEvent, None]:
        prompt = first
        compiled = self._scanner(first, silences)  # compiled once for every attempt
        for segment, step in enumerate(self._on_fail):
            if segment:
                yield RetryEvent(segment)
            attempt = self._span.child(
                "vouched.phrase", attempt=segment + 1, prompt_version=prompt.version
            )
            attempt.set(phraser=self._name)
            reading = _Reading(compiled.stream(), self._clock.monotonic(), span=attempt)
            try:
                async with contextlib.aclosing(self._read(prompt, segment, reading)) as events:
                    async for event in events:  # closed at once (the model's stream with it)
                        yield event
            except BaseException as error:  # the reader left (or a cancellation): end its span
                interrupted(attempt, error)
                attempt.end()
                raise
            text = reading.scanner.text
            if reading.error is not None:
                self._attempt(reading, text, (), AttemptAction.ERROR, prompt.version)
                refusal = (
                    RefusalReason.PHRASER_TIMEOUT
                    if isinstance(reading.error, TimeoutError)
                    else RefusalReason.PHRASER_ERROR
                )
                reasons: tuple[str, ...] = (error_reason(reading.error, self._timeout),)
                yield RefusalEvent(segment, UNPHRASED_TEXT, reasons)
                self._finish(first, gate, silences, UNPHRASED_TEXT, AnswerStatus.REFUSED,
                             refusal=refusal, reasons=reasons)  # fmt: skip
                return
            if reading.too_long:
                self._attempt(reading, text[: self._max_chars], (), AttemptAction.REFUSE,
                              prompt.version)  # fmt: skip
                reasons = (too_long_reason(reading.too_long, self._max_chars),)
                yield RefusalEvent(segment, REFUSAL_TEXT, reasons)
                self._finish(first, gate, silences, REFUSAL_TEXT, AnswerStatus.REFUSED,
                             refusal=RefusalReason.OUTPUT_TOO_LONG, reasons=reasons)  # fmt: skip
                return
            action = AttemptAction(step.value) if reading.failed else AttemptAction.ACCEPT
            self._attempt(reading, text, reading.failed, action, prompt.version)
            shown = "".join(reading.shown).strip()
            if not reading.failed:
                self._finish(first, gate, silences, shown, AnswerStatus.OK)
                return
            if step is OnFail.RETRY:
                self._decided(segment, step)
                prompt = first.with_problems(problems_for(first, text, reading.failed))
                continue
            dropped = (reading.failing.strip(),) if step is OnFail.PARTIAL else ()
            self._decided(segment, step, len(dropped))
            if step is OnFail.PARTIAL and shown:
                # What could not be confirmed, by name, then that the rest is left out.
                named = unconfirmed(f for f in reading.failed if f.attribute)
                note = " ".join([*named, PARTIAL_NOTE])
                yield NoteEvent(segment, note)
                told = f"{shown} {note}"
                self._finish(first, gate, silences, told, AnswerStatus.PARTIAL, dropped=dropped)
                return
            refusal = RefusalReason.NOTHING_LEFT if dropped else RefusalReason.FINDINGS
            reasons = finding_reasons(reading.failed)
            told_codes = finding_codes(reading.failed)
            yield RefusalEvent(segment, REFUSAL_TEXT, told_codes)
            self._finish(first, gate, silences, REFUSAL_TEXT, AnswerStatus.REFUSED,
                         refusal=refusal, reasons=reasons, dropped=dropped)  # fmt: skip
            return

    async def _read(
        self, prompt: Prompt, segment: int, reading: _Reading
    ) -> AsyncGenerator[AnswerEvent, None]:
        """One attempt: the phraser's pieces through the scanner, each sentence
        that passes yielded, up to the first that does not (or the end)."""
        clock = self._clock
        scanner = reading.scanner
        stream = stream_of(self._phraser, prompt)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._timeout
        read = 0
        try:
            while not reading.failed:
                try:
                    async with asyncio.timeout_at(deadline):
                        piece = await anext(stream)
                except StopAsyncIteration:
                    break
                read += len(piece)
                if read > self._max_chars:  # refused unscanned, as a whole answer is
                    reading.too_long = read
                    return
                closed = await self._feed(reading, piece)
                for sentence in closed:
                    findings = sentence.findings or self._echoes(prompt, sentence.text)
                    if findings:
                        reading.failed, reading.failing = findings, sentence.text
                        break
                    reading.shown.append(sentence.text)
                    self.shown.append(sentence.text)
                    self._mark_first()
                    yield SentenceEvent(segment, sentence.text)
        except Exception as error:  # noqa: BLE001 - any phraser failure is a refusal, by design
            reading.error = error
            return
        finally:
            await _aclose(stream)
        if reading.failed:
            return
        scanning = clock.monotonic()
        report = await self._off_loop(scanner.close)
        reading.scan_seconds += clock.monotonic() - scanning
        # The last sentence (no terminator after it) is judged by the whole
        # scan; so are findings the sentence-by-sentence reading did not
        # report, should the whole text read differently.
        tail = scanner.tail()
        reading.failed = tuple(f for f in report.findings if f.start >= scanner.closed) or tuple(
            report.findings
        )
        reading.failing = tail
        if not reading.failed and tail.strip():
            reading.failed = self._echoes(prompt, tail)
        if not reading.failed and tail.strip():
            reading.shown.append(tail)
            self.shown.append(tail)
            self._mark_first()
            yield SentenceEvent(segment, tail)

    async def _feed(self, reading: _Reading, piece: str) -> tuple[ScannedSentence, ...]:
        scanning = self._clock.monotonic()
        closed = await self._off_loop(functools.partial(reading.scanner.feed, piece))
        reading.scan_seconds += self._clock.monotonic() - scanning
        return closed

    async def _off_loop(self, work: Callable[[], _T]) -> _T:
        """``work()`` in the caller's bounded pool, or here when there is none."""
        if self._executor is None:
            return work()
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)

    def _echoes(self, prompt: Prompt, text: str) -> tuple[Finding, ...]:
        """Numbers of the caller's query the sentence repeats, checked as a
        whole answer checks them."""
        if not self._caller:
            return ()
        found = echoed_numbers(text, self._caller, prompt.grounded, self._lexicon, self._policy)
        return tuple(found)

    def left(self, first: Prompt, gate: GateResult, silences: Sequence[Fact]) -> Answer:
        """The answer of a stream its reader left before the end: the
        sentences handed on so far, marked partial, for the snapshot."""
        self._finish(first, gate, silences, "".join(self.shown).strip(),
                     AnswerStatus.PARTIAL, reasons=(DISCONNECTED,))  # fmt: skip
        return self._answer()

    def _answer(self) -> Answer:
        if self.answer is None:  # pragma: no cover - _finish always makes one
            raise RuntimeError("a streamed phrasing ended without an answer")
        return self.answer

    def _mark_first(self) -> None:
        if self.first_sentence is None:
            self.first_sentence = self._clock.monotonic()

    def _attempt(
        self,
        reading: _Reading,
        text: str,
        findings: tuple[Finding, ...],
        action: AttemptAction,
        prompt_version: str,
    ) -> None:
        """Record one attempt (and end its span: the scan ran piece by piece
        inside it, so its time is the span's ``scan_seconds``, not a child)."""
        spent = self._clock.monotonic() - reading.began
        self.phrase_seconds += spent
        self.scan_seconds += reading.scan_seconds
        distinct = tuple(once_per_span(findings, finding_span))
        self.trail.append(Attempt(text, distinct, spent, action, prompt_version))
        span = reading.span
        trace_findings(span, distinct, action=str(action), scan_seconds=reading.scan_seconds)
        if reading.error is not None:
            span.fail(type(reading.error).__name__)
        if reading.too_long:
            span.set(refusal=str(RefusalReason.OUTPUT_TOO_LONG))
        span.end()

    def _decided(self, segment: int, step: OnFail, dropped: int = 0) -> None:
        """The on-fail decision after an attempt, as an instant span."""
        self._span.child("vouched.on_fail", attempt=segment + 1, step=str(step.value),
                         dropped=dropped).end()  # fmt: skip

    def _finish(
        self,
        first: Prompt,
        gate: GateResult,
        silences: Sequence[Fact],
        text: str,
        status: AnswerStatus,
        *,
        refusal: RefusalReason | None = None,
        reasons: tuple[str, ...] = (),
        dropped: tuple[str, ...] = (),
    ) -> None:
        self.answer = Answer(
            text=text,
            status=status,
            question=first.question,
            grounded=first.grounded,
            silences=tuple(silences),
            violations=gate.violations,
            findings=tuple(f for attempt in self.trail for f in attempt.findings),
            prompt_version=first.version,
            attempts=len(self.trail),
            timings={"phrase": self.phrase_seconds, "scan": self.scan_seconds},
            trail=tuple(self.trail),
            dropped=dropped,
            refusal=refusal,
            reasons=reasons,
            counts=gate.counts,
            phraser=self._name,
        )
