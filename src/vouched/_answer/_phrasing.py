"""One phrasing of one answer: the model's attempts, each decided by the
on-fail machine (:mod:`vouched._answer._machine`), and the one builder of
:class:`vouched.Answer`.

:meth:`Phrasing.run` is the only loop over attempts. An attempt is read
whole (:meth:`vouched.Grounder.answer`: phrase, then check the text) or
streamed (:meth:`vouched.Grounder.answer_stream`: each sentence checked as
it closes and yielded once it passed, the model's stream closed at the
first that does not); either way the attempt ends as one
:class:`~vouched._answer._machine.Outcome`, and the machine says what
follows. A partial answer keeps what passed: the whole text's other
sentences (re-checked), or the sentences a stream already showed.

The Grounder owns everything before (sources, gate, prompt) and after
(timings, observers, snapshot).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TypeVar

from vouched._answer._chatstream import StreamEnd
from vouched._answer._checks import Checks
from vouched._answer._events import (
    PARTIAL_NOTE,
    AnswerEvent,
    NoteEvent,
    RefusalEvent,
    RetryEvent,
    SentenceEvent,
)
from vouched._answer._machine import (
    AnswerMode,
    GuardErrorPolicy,
    Next,
    Outcome,
    after_partial,
    next_action,
    provisional,
)
from vouched._answer._onfail import (
    REFUSAL_TEXT,
    UNCHECKED_TEXT,
    UNPHRASED_TEXT,
    FindingLike,
    OnFail,
    RefusalReason,
    drop_sentences,
    problems_for,
    unconfirmed,
)
from vouched._answer._phrasers import Phraser, phrase_of, stream_of
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
from vouched._answer._tracing import (
    NO_SPAN,
    AttributeValue,
    TraceSpan,
    in_span,
    interrupted,
    trace_findings,
)
from vouched._answer._upstream import UpstreamFailure, failure_of
from vouched._fact import Fact
from vouched._gate import GateResult
from vouched._replay._attempts import AttemptAction, once_per_span
from vouched._scan._stream import ScannedSentence, StreamScanner
from vouched._time import Clock

__all__ = ["SCAN_IN_THREAD_CHARS", "Phrasing"]

_log = logging.getLogger("vouched.grounder")
_T = TypeVar("_T")

SCAN_IN_THREAD_CHARS = 2_000
"""Texts longer than this are scanned in a worker thread, off the event loop."""

_INTERRUPTIONS = {
    "disconnected": AttemptAction.DISCONNECTED,
    "shutdown": AttemptAction.SHUTDOWN,
    "deadline": AttemptAction.DEADLINE,
}


@dataclass(slots=True)
class _Read:
    """One attempt as it is read: the text, what was shown, how it ended."""

    began: float
    span: TraceSpan
    end: StreamEnd = field(default_factory=StreamEnd)
    text: str = ""
    findings: tuple[FindingLike, ...] = ()
    failing: str = ""  # a stream's first failing sentence
    shown: list[str] = field(default_factory=list)
    error: BaseException | None = None
    too_long: int = 0  # the characters read when the output cap was passed
    guard_error: BaseException | None = None
    scan_seconds: float = 0.0

    def outcome(self) -> Outcome:
        if self.error is not None:
            return Outcome.TIMEOUT if isinstance(self.error, TimeoutError) else Outcome.ERROR
        if self.too_long:
            return Outcome.TOO_LONG
        if self.guard_error is not None:
            return Outcome.GUARD_ERROR
        return Outcome.FINDINGS if self.findings else Outcome.PASSED


class Phrasing:
    """The attempts of one answer under its plan; :meth:`run` yields the
    events before ``done`` (none when read whole), then :attr:`answer` is
    the answer they add up to."""

    def __init__(
        self,
        *,
        first: Prompt,
        gate: GateResult,
        silences: Sequence[Fact],
        checks: Checks,
        phraser: Phraser,
        phraser_name: str,
        steps: Sequence[OnFail],
        clock: Clock,
        phrase_timeout: float,
        max_output_chars: int,
        streamed: bool,
        mode: AnswerMode = AnswerMode.ENFORCE,
        on_guard_error: GuardErrorPolicy = GuardErrorPolicy.CLOSED,
        executor: Executor | None = None,
        span: TraceSpan = NO_SPAN,
    ) -> None:
        self._first = first
        self._gate = gate
        self._silences = tuple(silences)
        self._checks = checks
        self._phraser = phraser
        self._name = phraser_name
        self._steps = tuple(steps)
        self._clock = clock
        self._timeout = phrase_timeout
        self._max_chars = max_output_chars
        self._streamed = streamed
        self._mode = mode
        self._on_guard_error = on_guard_error
        self._executor = executor
        self._span = span  # the answer's; each attempt and on-fail decision a child
        self.trail: list[Attempt] = []
        self.phrase_seconds = 0.0
        self.scan_seconds = 0.0
        self.first_sentence: float | None = None  # monotonic instant of the first one shown
        self.answer: Answer | None = None
        self.shown: list[str] = []  # the sentences handed on so far, over all segments
        self._usage: dict[str, int] = {}
        self._model = ""
        self._response_id = ""
        self._fingerprint = ""
        self._upstream = ""  # the fallback upstream that answered the last attempt, if one did
        self._reading: _Read | None = None  # the attempt under way

    @property
    def steps(self) -> tuple[OnFail, ...]:
        """The steps this answer runs (audit: only the plan's last)."""
        return self._steps

    # -- the loop --------------------------------------------------------------

    async def run(self) -> AsyncGenerator[AnswerEvent, None]:
        prompt = self._first
        for index in range(len(self._steps)):
            if index:
                yield RetryEvent(index)
            read = _Read(self._clock.monotonic(), self._attempt_span(index, prompt))
            self._reading = read
            try:
                if self._streamed:
                    reading = self._read_streamed(prompt, index, read)
                    async with contextlib.aclosing(reading) as events:
                        async for event in events:  # closed at once (the model's stream with it)
                            yield event
                else:
                    await self._read_whole(prompt, read)
            except BaseException as error:  # the reader left (or a cancellation): end its span
                interrupted(read.span, error)
                read.span.end()
                raise
            self._reading = None
            decided = next_action(self._steps, index, read.outcome(), mode=self._mode,
                                  on_guard_error=self._on_guard_error)  # fmt: skip
            self._record(read, decided.action, prompt.version)
            if decided.status is None:  # retry, the findings quoted
                self._decided(index, OnFail.RETRY)
                prompt = self._first.with_problems(
                    problems_for(self._first, read.text, read.findings)
                )
                continue
            async for event in self._conclude(index, read, decided):
                yield event
            return

    async def _conclude(
        self, index: int, read: _Read, decided: Next
    ) -> AsyncGenerator[AnswerEvent]:
        """The answer the decision after the last attempt gives (and its event)."""
        if decided.passes_text:  # audit, or a guard that failed open: the model's words
            if decided.action in (AttemptAction.PARTIAL, AttemptAction.REFUSE):
                self._decided(index, OnFail(decided.action.value))
            told = read.text if not self._streamed else "".join(read.shown).strip()
            reasons = finding_reasons(read.findings)
            if read.guard_error is not None:
                reasons = (str(RefusalReason.GUARD_ERROR), *reasons)
            self._finish(told, decided.status or AnswerStatus.OK, refusal=decided.refusal,
                         reasons=reasons)  # fmt: skip
            return
        if decided.status is AnswerStatus.OK:
            self._finish(read.text if not self._streamed else "".join(read.shown).strip(),
                         AnswerStatus.OK)  # fmt: skip
            return
        if decided.refusal in (RefusalReason.PHRASER_ERROR, RefusalReason.PHRASER_TIMEOUT):
            error = read.error or RuntimeError("no text")
            failure = failure_of(error)
            yield RefusalEvent(index, UNPHRASED_TEXT, (str(failure.code),))
            reasons = (error_reason(error, self._timeout),)
            self._finish(UNPHRASED_TEXT, AnswerStatus.REFUSED, refusal=decided.refusal,
                         reasons=reasons, failure=failure)  # fmt: skip
            return
        if decided.refusal is RefusalReason.OUTPUT_TOO_LONG:
            yield RefusalEvent(index, UNCHECKED_TEXT, (str(decided.refusal),))
            why = (too_long_reason(read.too_long, self._max_chars),)
            self._finish(UNCHECKED_TEXT, AnswerStatus.REFUSED, refusal=decided.refusal,
                         reasons=why)  # fmt: skip
            return
        if decided.refusal is RefusalReason.GUARD_ERROR:
            yield RefusalEvent(index, UNCHECKED_TEXT, (str(decided.refusal),))
            self._finish(UNCHECKED_TEXT, AnswerStatus.REFUSED, refusal=decided.refusal,
                         reasons=(str(decided.refusal),))  # fmt: skip
            return
        if decided.action is AttemptAction.PARTIAL:
            async for event in self._partial(index, read):
                yield event
            return
        self._decided(index, OnFail.REFUSE)
        yield RefusalEvent(index, REFUSAL_TEXT, finding_codes(read.findings))
        self._finish(REFUSAL_TEXT, AnswerStatus.REFUSED, refusal=RefusalReason.FINDINGS,
                     reasons=finding_reasons(read.findings))  # fmt: skip

    async def _partial(self, index: int, read: _Read) -> AsyncGenerator[AnswerEvent]:
        """Partial: keep what passed (a whole text's other sentences, re-checked
        until what is left passes; a stream's sentences already shown)."""
        deciding = self._span.child("vouched.on_fail", attempt=index + 1, step="partial")
        with in_span(deciding):
            extra: tuple[FindingLike, ...] = ()
            if self._streamed:
                kept = "".join(read.shown).strip()
                dropped: tuple[str, ...] = (read.failing.strip(),)
                named = unconfirmed((f for f in read.findings if f.attribute), self._checks.phrase)
                note = " ".join([*named, PARTIAL_NOTE])
                told = f"{kept} {note}"
                caught: Sequence[FindingLike] = read.findings
            else:
                checked = self._clock.monotonic()
                partial = await self._off_loop(
                    functools.partial(drop_sentences, read.text, read.findings, self._checks.whole),
                    always=True,
                )
                self.scan_seconds += self._clock.monotonic() - checked
                kept, dropped, caught = partial.text, partial.dropped, partial.findings
                extra = partial.findings[len(read.findings) :]
                told = " ".join([kept, *unconfirmed(caught, self._checks.phrase)])
            deciding.set(dropped=len(dropped))
        decided = after_partial(bool(kept))
        if decided.status is AnswerStatus.PARTIAL:
            if self._streamed:
                yield NoteEvent(index, note)
            self._finish(told, AnswerStatus.PARTIAL, dropped=dropped, extra=extra)
            return
        yield RefusalEvent(index, REFUSAL_TEXT, finding_codes(read.findings))
        self._finish(REFUSAL_TEXT, AnswerStatus.REFUSED, refusal=decided.refusal,
                     reasons=finding_reasons(caught), dropped=dropped, extra=extra)  # fmt: skip

    # -- reading one attempt ---------------------------------------------------

    async def _read_whole(self, prompt: Prompt, read: _Read) -> None:
        try:
            async with asyncio.timeout(self._timeout):
                with read.span.current():  # the phraser's own spans nest under it
                    text = await phrase_of(self._phraser, prompt, read.end)
        except Exception as error:  # noqa: BLE001 - any phraser failure is a refusal, by design
            read.error = error
            return
        if len(text) > self._max_chars:
            read.too_long, read.text = len(text), text[: self._max_chars]
            return
        read.text = text
        scanning = self._clock.monotonic()
        with in_span(read.span.child("vouched.scan")) as span:
            try:
                long = len(text) > SCAN_IN_THREAD_CHARS
                work = functools.partial(self._checks.whole, text)
                read.findings = tuple(await self._off_loop(work, always=long))
            except Exception as error:  # noqa: BLE001 - a failing check is a guard error, by design
                read.guard_error = error
                _log.warning("the checks of an answer failed", exc_info=True)
            trace_findings(span, read.findings)
        read.scan_seconds += self._clock.monotonic() - scanning

    async def _read_streamed(
        self, prompt: Prompt, segment: int, read: _Read
    ) -> AsyncGenerator[AnswerEvent, None]:
        """One attempt: the phraser's pieces through the scanner, each sentence
        that passes yielded, up to the first that does not (in audit mode,
        every sentence, to the end)."""
        audit = self._mode is AnswerMode.AUDIT
        held = provisional(self._steps, segment)
        scanner = self._checks.scanner.stream()
        stream = stream_of(self._phraser, prompt, read.end)
        deadline = asyncio.get_running_loop().time() + self._timeout
        failed: list[FindingLike] = []
        said: list[str] = []  # every piece read
        size = 0
        try:
            while audit or not failed:
                try:
                    async with asyncio.timeout_at(deadline):
                        piece = await anext(stream)
                except StopAsyncIteration:
                    break
                said.append(piece)
                size += len(piece)
                if size > self._max_chars:  # refused unscanned, as a whole answer is
                    read.too_long, read.text = size, "".join(said)[: self._max_chars]
                    return
                if read.guard_error is not None:  # failed open: the rest passes unchecked
                    yield self._show(read, SentenceEvent(segment, piece, provisional=held))
                    continue
                judged = await self._judge(read, scanner, piece)
                if judged is None:  # the checks failed
                    if self._on_guard_error is GuardErrorPolicy.CLOSED and not audit:
                        read.text = "".join(said)
                        return
                    unshown = "".join(said)[len("".join(read.shown)) :]
                    yield self._show(read, SentenceEvent(segment, unshown, provisional=held))
                    continue
                for sentence, findings in judged:
                    if findings and not failed:
                        read.failing = sentence.text
                    failed.extend(findings)
                    if findings and not audit:
                        break
                    yield self._show(read, SentenceEvent(segment, sentence.text,
                                                         provisional=held))  # fmt: skip
            if failed and not audit:
                await self._drain(stream, deadline, said, self._max_chars - size)
        except Exception as error:  # noqa: BLE001 - any phraser failure is a refusal, by design
            read.error = error
            return
        finally:
            close = getattr(stream, "aclose", None)
            if close is not None:
                await close()
        read.text = "".join(said)
        if read.guard_error is not None:
            return
        if failed and not audit:
            read.findings = tuple(once_per_span(failed, finding_span))
            return
        async for event in self._close_stream(scanner, segment, read, failed, held=held):
            yield event

    @staticmethod
    async def _drain(
        stream: AsyncIterator[str], deadline: float, said: list[str], room: int
    ) -> None:
        """The rest of an attempt already judged, read for its token counts
        (the model's tokens are paid whether read or not: the answer's usage
        is the same streamed or whole). Bounded by the attempt's deadline and
        the output cap; a failure here costs only the counts."""
        try:
            async with asyncio.timeout_at(deadline):
                async for piece in stream:
                    room -= len(piece)
                    if room < 0:
                        return
                    said.append(piece)
        except Exception:  # noqa: BLE001 - the verdict stands; only the token counts are lost
            _log.debug("the rest of a judged stream could not be read", exc_info=True)

    async def _close_stream(
        self,
        scanner: StreamScanner,
        segment: int,
        read: _Read,
        failed: list[FindingLike],
        *,
        held: bool,
    ) -> AsyncGenerator[AnswerEvent, None]:
        """The stream ended: its last sentence (no terminator after it) is
        judged by the whole scan; so are findings the sentence-by-sentence
        reading did not report, should the whole text read differently."""
        audit = self._mode is AnswerMode.AUDIT
        closed_at = scanner.closed
        try:
            report = await self._timed(read, scanner.close)
            tail = scanner.tail()
            late: list[FindingLike] = [f for f in report.findings if f.start >= closed_at]
            late = late or list(report.findings)
            if tail.strip() and not late:
                late = list(self._checks.echoes(tail))
        except Exception as error:  # noqa: BLE001 - a failing check is a guard error, by design
            read.guard_error = error
            _log.warning("the checks of a streamed answer failed", exc_info=True)
            return
        if late and not failed:
            read.failing = tail
        failed.extend(late)
        read.findings = tuple(once_per_span(failed, finding_span))
        if tail.strip() and (audit or not late):
            yield self._show(read, SentenceEvent(segment, tail, provisional=held))

    async def _judge(
        self, read: _Read, scanner: StreamScanner, piece: str
    ) -> list[tuple[ScannedSentence, tuple[FindingLike, ...]]] | None:
        """The sentences ``piece`` closed, each with its findings; ``None``
        when the checks themselves failed (a guard error, recorded)."""
        try:
            closed = await self._timed(read, functools.partial(scanner.feed, piece))
            return [(s, (*s.findings, *self._checks.sentence(s))) for s in closed]
        except Exception as error:  # noqa: BLE001 - a failing check is a guard error, by design
            read.guard_error = error
            _log.warning("the checks of a streamed answer failed", exc_info=True)
            return None

    def _show(self, read: _Read, event: SentenceEvent) -> SentenceEvent:
        read.shown.append(event.text)
        self.shown.append(event.text)
        if self.first_sentence is None:
            self.first_sentence = self._clock.monotonic()
        return event

    async def _timed(self, read: _Read, work: Callable[[], _T]) -> _T:
        scanning = self._clock.monotonic()
        try:
            return await self._off_loop(work, always=False)
        finally:
            read.scan_seconds += self._clock.monotonic() - scanning

    async def _off_loop(self, work: Callable[[], _T], *, always: bool) -> _T:
        """``work()`` in the caller's bounded pool (or asyncio's default one
        when ``always``), else here."""
        if self._executor is None and not always:
            return work()
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)

    # -- recording -------------------------------------------------------------

    def _attempt_span(self, index: int, prompt: Prompt) -> TraceSpan:
        span = self._span.child("vouched.phrase", attempt=index + 1,
                                prompt_version=prompt.version, phraser=self._name)  # fmt: skip
        model = getattr(self._phraser, "model", None)
        if isinstance(model, str) and model and span.recording:  # a model server: GenAI names
            span.set(**{"gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai",
                        "gen_ai.request.model": model})  # fmt: skip
        return span

    def _record(self, read: _Read, action: AttemptAction, prompt_version: str) -> None:
        """Record one attempt and end its span."""
        spent = max(0.0, self._clock.monotonic() - read.began - read.scan_seconds)
        self.phrase_seconds += spent
        self.scan_seconds += read.scan_seconds
        for failed in read.end.failed:  # upstreams that failed before a fallback answered
            self.trail.append(Attempt("", (), 0.0, AttemptAction.ERROR, prompt_version, failed))
            self._log_failure(failed, read.end.upstream)
        failure = None if read.error is None else failure_of(read.error)
        if failure is not None and read.end.upstream:  # the fallback failed too
            failure = dataclasses.replace(failure, upstream=read.end.upstream)
        self.trail.append(Attempt(read.text, read.findings, spent, action, prompt_version, failure))
        if failure is not None:
            self._log_failure(failure, None)
        else:
            self._upstream = read.end.upstream or ""
        for key, value in read.end.usage.items():
            if isinstance(value, int) and not isinstance(value, bool):
                self._usage[key] = self._usage.get(key, 0) + value
        if read.end.model:
            self._model = read.end.model
        self._response_id = read.end.id or self._response_id
        self._fingerprint = read.end.system_fingerprint or self._fingerprint
        span = read.span
        trace_findings(span, read.findings, action=str(action), scan_seconds=read.scan_seconds)
        if read.error is not None:
            span.fail(type(read.error).__name__)
        if read.guard_error is not None:
            span.fail(type(read.guard_error).__name__)
        if read.too_long:
            span.set(refusal=str(RefusalReason.OUTPUT_TOO_LONG))
        span.set(**_genai_response(read.end))
        span.end()

    def _log_failure(self, failure: UpstreamFailure, fallback: str | None) -> None:
        """The documented log line of a failed call (its upstream's name, and
        the fallback that answered in its place, when there is one)."""
        named = f" upstream={failure.upstream}" if failure.upstream else ""
        named += f" fallback={fallback}" if fallback else ""
        _log.warning(
            "phrasing attempt %d failed: status=%s code=%s message=%s%s",
            *(len(self.trail), failure.status, failure.code, failure.message, named),
        )

    def _decided(self, index: int, step: OnFail) -> None:
        """The on-fail decision after an attempt, as an instant span."""
        self._span.child("vouched.on_fail", attempt=index + 1, step=str(step.value)).end()

    def left(self, reason: str) -> Answer:
        """The answer of a stream cut short (``disconnected``, ``shutdown``,
        ``deadline``): the sentences handed on so far, marked partial, the
        attempt under way in the trail with the reason as its action."""
        read = self._reading
        if read is not None:
            self._reading = None
            read.text = read.text or "".join(read.shown)
            self._record(read, _INTERRUPTIONS.get(reason, AttemptAction.DISCONNECTED),
                         self._first.version)  # fmt: skip
        self._finish("".join(self.shown).strip(), AnswerStatus.PARTIAL, reasons=(reason,))
        return self.built()

    def built(self) -> Answer:
        if self.answer is None:  # pragma: no cover - run() always ends in an answer
            raise RuntimeError("a phrasing ended without an answer")
        return self.answer

    def _finish(
        self,
        text: str,
        status: AnswerStatus,
        *,
        refusal: RefusalReason | None = None,
        reasons: Sequence[str] = (),
        dropped: Sequence[str] = (),
        extra: Iterable[FindingLike] = (),
        failure: UpstreamFailure | None = None,
    ) -> None:
        """The one builder of :class:`vouched.Answer`."""
        first, gate = self._first, self._gate
        findings = [f for attempt in self.trail for f in attempt.findings]
        findings.extend(extra)
        self.answer = Answer(
            text=text,
            status=status,
            question=first.question,
            grounded=first.grounded,
            silences=self._silences,
            violations=gate.violations,
            findings=tuple(findings),
            prompt_version=first.version,
            attempts=len(self.trail),
            timings={"phrase": self.phrase_seconds, "scan": self.scan_seconds},
            trail=tuple(self.trail),
            dropped=tuple(dropped),
            refusal=refusal,
            reasons=tuple(reasons),
            counts=gate.counts,
            phraser=self._name,
            failure=failure,
            usage=self._usage,
            model=self._model,
            mode=str(self._mode),
            response_id=self._response_id,
            system_fingerprint=self._fingerprint,
            upstream=self._upstream,
        )


def _genai_response(end: StreamEnd) -> dict[str, AttributeValue]:
    """What the model server said about its answer, under the GenAI semantic
    conventions' names (token counts, the model that answered, why it stopped)."""
    names = {"prompt_tokens": "gen_ai.usage.input_tokens",
             "completion_tokens": "gen_ai.usage.output_tokens"}  # fmt: skip
    told: dict[str, AttributeValue] = {
        names[k]: v for k, v in end.usage.items() if k in names and isinstance(v, int)
    }
    if end.model:
        told["gen_ai.response.model"] = end.model
    if end.finish_reason:
        told["gen_ai.response.finish_reasons"] = (end.finish_reason,)
    return told
