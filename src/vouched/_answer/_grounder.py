"""The Grounder: question -> sources -> gate -> prompt -> phraser -> scan -> answer.

One async implementation (:meth:`Grounder.answer`); :meth:`Grounder.answer_sync`
runs it for synchronous callers. Nothing on the answer path raises for an
outage or a model failure: sources fail into silences, a phraser failure or
timeout becomes a refused answer with a typed reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol, runtime_checkable

from vouched._answer._echoes import caller_texts, echoed_numbers
from vouched._answer._gathering import (
    Queries,
    as_queries,
    every_source_failed,
    gather_each,
    stated_silences,
)
from vouched._answer._onfail import (
    REFUSAL_TEXT,
    UNPHRASED_TEXT,
    FindingLike,
    OnFail,
    OnFailLike,
    RefusalReason,
    drop_sentences,
    plan,
    problems_for,
    unconfirmed,
)
from vouched._answer._phrasers import PhraserLike, TemplatePhraser, as_phraser, phraser_name
from vouched._answer._prompt import Prompt, build_prompt
from vouched._answer._result import (
    Answer,
    AnswerStatus,
    Attempt,
    error_reason,
    finding_reasons,
    finding_span,
    too_long_reason,
)
from vouched._answer._snapshots import StoreHook, record
from vouched._answer._streaming import AnswerEvent, DoneEvent, StreamedPhrasing
from vouched._answer._tracing import (
    NO_SPAN,
    NO_TRACING,
    AnswerTracing,
    TraceSpan,
    in_span,
    trace_answer,
    trace_findings,
    trace_gate,
)
from vouched._exceptions import ConfigError
from vouched._fact import Fact
from vouched._gate import GateResult, Verdict, partition
from vouched._policy import DEFAULT_POLICY, Policy
from vouched._replay._attempts import AttemptAction, once_per_span
from vouched._replay._redaction import require_key
from vouched._replay._store import SnapshotStore
from vouched._scan._lexicon import Lexicon
from vouched._scan._scanner import Scanner
from vouched._sources._source import GATHER_DEADLINE, Query, Source
from vouched._time import Clock, SystemClock, seconds_setting

__all__ = [
    "MAX_OUTPUT_CHARS",
    "AnswerObserver",
    "Grounder",
    "Queries",
    "as_queries",
    "stated_silences",
]

_log = logging.getLogger("vouched.grounder")

MAX_OUTPUT_CHARS = 20_000
"""Default cap on a phrased text (about 3,000 words): longer is refused unscanned."""
SCAN_IN_THREAD_CHARS = 2_000
"""Texts longer than this are scanned in a worker thread, off the event loop."""


@runtime_checkable
class AnswerObserver(Protocol):
    """Told about every answer, with the gate's verdicts behind it (metrics
    exporters, audit logs). Called after the answer is complete; an observer
    that raises is logged and ignored, never breaking the answer."""

    def observe(self, answer: Answer, verdicts: Sequence[Verdict]) -> None: ...


@dataclass(frozen=True, slots=True)
class _Prepared:
    """What the Grounder has before it phrases: facts, verdicts, the prompt."""

    query: Query
    facts: tuple[Fact, ...]
    gate: GateResult
    silences: tuple[Fact, ...]
    prompt: Prompt
    created_at: datetime
    now: datetime
    started: float
    timings: dict[str, float]
    span: TraceSpan = NO_SPAN


class Grounder:
    """Answers questions from sources, phrasing only what the gate vouches for.

    - ``sources``: :class:`vouched.Source` objects, asked at once under
      ``deadline`` seconds (wrap flaky ones in :class:`vouched.GuardedSource`).
    - ``policy``: the gate's (and scanner's) rules.
    - ``phraser``: a :class:`vouched.Phraser` or plain callable; default
      :class:`vouched.TemplatePhraser`. Bounded by ``phrase_timeout`` seconds.
    - ``lexicon``: binds phrases to attributes for the scanner.
    - ``on_fail``: ``"retry"`` (default: retry once, then refuse), ``"partial"``,
      ``"refuse"``, or steps such as ``("retry", "partial")``.
    - ``clock``: where time is read (``now`` for the gate, monotonic for timings).
    - ``store``: optional; a :class:`vouched.SnapshotStore` (its ``write``
      is what the Grounder calls). Each answer's :class:`vouched.Snapshot` is built and
      written off the answer path; failures are logged and counted in
      :attr:`store_failures`, never raised.
    - ``observers``: :class:`AnswerObserver` objects told about every answer
      (e.g. :class:`vouched.PrometheusMetrics`).
    - ``redaction_key``: the secret that keys the tokens of sensitive values in
      snapshots; required (:class:`vouched.ConfigError`) when a ``store`` is
      given and the policy names sensitive subjects or attributes.
    - ``max_output_chars``: a phrased text longer than this is refused
      (``output_too_long``) without being scanned. Texts longer than
      ``SCAN_IN_THREAD_CHARS`` are scanned in a worker thread, so a long or
      hostile text never blocks the event loop. The same cap holds for a
      streamed answer (the stream is closed and refused past it).
    - ``executor``: where scans run off the event loop (default: asyncio's
      default executor for long texts, on the loop for stream pieces). A
      service passes its bounded pool (``vouched serve`` does); snapshot
      writes never use it: they have their own thread.
    - ``tracing``: where each answer's trace goes (one span per answer, a
      child per step; codes and counts, never values), e.g.
      :class:`vouched.OpenTelemetryTracing`; default none.

    ``answer`` and ``answer_stream`` take ``facts=`` (the caller's facts,
    gated instead of asking the sources) and ``messages=`` (a conversation
    the data block is added to, for a chat model), for the OpenAI-compatible
    route of ``vouched serve``.
    """

    def __init__(
        self,
        sources: Iterable[Source],
        *,
        policy: Policy = DEFAULT_POLICY,
        phraser: PhraserLike | None = None,
        lexicon: Lexicon | None = None,
        on_fail: OnFailLike = OnFail.RETRY,
        clock: Clock | None = None,
        store: SnapshotStore | None = None,
        deadline: float = GATHER_DEADLINE,
        phrase_timeout: float = 30.0,
        observers: Iterable[AnswerObserver] = (),
        redaction_key: bytes | None = None,
        max_output_chars: int = MAX_OUTPUT_CHARS,
        executor: Executor | None = None,
        tracing: AnswerTracing | None = None,
    ) -> None:
        seconds_setting("Grounder deadline", deadline)
        seconds_setting("Grounder phrase_timeout", phrase_timeout)
        if type(max_output_chars) is not int or max_output_chars < 1:
            raise ConfigError("max_output_chars must be a whole number >= 1")
        if store is not None:
            require_key(policy, redaction_key, where="Grounder")
        self.redaction_key = redaction_key
        self.max_output_chars = max_output_chars
        self.sources = tuple(sources)
        self.policy = policy
        self._phraser_given = phraser if phraser is not None else TemplatePhraser()
        self.phraser = as_phraser(self._phraser_given)
        self.lexicon = lexicon
        self.on_fail = plan(on_fail)
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.deadline = deadline
        self.phrase_timeout = phrase_timeout
        self._store = StoreHook(store) if store is not None else None
        self.observers = tuple(observers)
        self.executor = executor
        self.tracing = tracing if tracing is not None else NO_TRACING

    @property
    def store_failures(self) -> int:
        """Snapshot writes that failed (logged, never raised)."""
        return 0 if self._store is None else self._store.failed

    async def answer(
        self,
        question: str,
        query: Queries | None = None,
        *,
        facts: Sequence[Fact] | None = None,
        messages: Sequence[Mapping[str, str]] = (),
    ) -> Answer:
        """Answer ``question`` from what the sources say for ``query``.

        ``query`` may also be a sequence of queries, one per subject ("Berlin
        and Munich?"): each is sent to every source, all at once under the one
        ``deadline``, and the facts are gathered in the order of the queries.
        """
        with in_span(self.tracing.answer(streamed=False)) as span:
            ready = await self._prepare(question, query, facts, messages, span)
            answer = await self._phrase(
                ready.prompt, ready.gate, ready.silences, caller_texts(ready.query), span
            )
            return self._deliver(ready, answer)

    async def answer_stream(
        self,
        question: str,
        query: Queries | None = None,
        *,
        facts: Sequence[Fact] | None = None,
        messages: Sequence[Mapping[str, str]] = (),
    ) -> AsyncIterator[AnswerEvent]:
        """Answer ``question`` as a stream of :class:`vouched.AnswerEvent`:
        sentences only after they pass the scan, the on-fail policy at the
        first that does not, and a last ``done`` event with the whole
        :class:`vouched.Answer` (observers told and the snapshot written as
        for :meth:`answer`). The phraser streams when it can
        (``phrase_stream``); ``phrase_timeout`` bounds each attempt, and
        ``max_output_chars`` the text read. A reader that stops reading (the
        stream is closed before ``done``) still leaves the answer's snapshot:
        the sentences handed on, marked partial with the reason
        ``disconnected``."""
        with in_span(self.tracing.answer(streamed=True)) as span:
            # aclosing: a reader that leaves closes the inner stream at once (its
            # snapshot of what was shown is written then, not when it is collected).
            stream = self._stream(question, query, facts, messages, span)
            async with contextlib.aclosing(stream) as events:
                async for event in events:
                    yield event

    async def _stream(
        self,
        question: str,
        query: Queries | None,
        facts: Sequence[Fact] | None,
        messages: Sequence[Mapping[str, str]],
        span: TraceSpan,
    ) -> AsyncGenerator[AnswerEvent, None]:
        ready = await self._prepare(question, query, facts, messages, span)
        phrasing = StreamedPhrasing(
            phraser=self.phraser,
            phraser_name=phraser_name(self._phraser_given),
            on_fail=self.on_fail,
            lexicon=self.lexicon,
            policy=self.policy,
            clock=self.clock,
            phrase_timeout=self.phrase_timeout,
            max_output_chars=self.max_output_chars,
            caller=caller_texts(ready.query),
            executor=self.executor,
            span=span,
        )
        try:
            run = phrasing.run(ready.prompt, ready.gate, ready.silences)
            async with contextlib.aclosing(run) as events:  # a reader that leaves closes it now
                async for event in events:
                    yield event
        except (GeneratorExit, asyncio.CancelledError):
            if phrasing.answer is None:
                self._deliver(ready, phrasing.left(ready.prompt, ready.gate, ready.silences))
            raise
        if phrasing.answer is None:  # pragma: no cover - run() always ends in an answer
            raise RuntimeError("a streamed phrasing ended without an answer")
        extra = {}
        if phrasing.first_sentence is not None:
            extra["first_sentence"] = phrasing.first_sentence - ready.started
        answer = self._deliver(ready, phrasing.answer, extra)
        yield DoneEvent(len(answer.trail) - 1, answer)

    async def _prepare(
        self,
        question: str,
        query: Queries | None,
        given: Sequence[Fact] | None = None,
        messages: Sequence[Mapping[str, str]] = (),
        span: TraceSpan = NO_SPAN,
    ) -> _Prepared:
        """Sources (or the caller's facts), gate and prompt: everything before
        the phraser."""
        queries = as_queries(query)
        clock = self.clock
        created_at = clock.now()
        started = clock.monotonic()
        if given is not None:
            facts = list(given)
        else:
            gathering = span.child(
                "vouched.gather", sources=len(self.sources), queries=len(queries)
            )
            with in_span(gathering):
                facts = await gather_each(
                    self.sources, queries, deadline=self.deadline, clock=clock, span=gathering
                )
        recorded: Query = queries[0] if len(queries) == 1 else {"queries": list(queries)}
        fetched = clock.monotonic()
        now = clock.now()
        with in_span(span.child("vouched.gate")) as gating:
            gate = partition(facts, self.policy, now)
            silences = stated_silences(gate)
            prompt = build_prompt(question, gate.grounded, silences, messages=messages)
            trace_gate(gating, gate)
        gated = clock.monotonic()
        return _Prepared(
            query=recorded,
            facts=tuple(facts),
            gate=gate,
            silences=silences,
            prompt=prompt,
            created_at=created_at,
            now=now,
            started=started,
            timings={"sources": fetched - started, "gate": gated - fetched},
            span=span,
        )

    def _deliver(
        self, ready: _Prepared, answer: Answer, extra: dict[str, float] | None = None
    ) -> Answer:
        """The answer with its timings and honest status; observers told, the
        snapshot scheduled."""
        if answer.status is AnswerStatus.OK and every_source_failed(ready.gate):
            answer = replace(answer, status=AnswerStatus.UNAVAILABLE)
        timings = {
            **ready.timings,
            **answer.timings,
            **(extra or {}),
            "total": self.clock.monotonic() - ready.started,
        }
        answer = replace(answer, timings=timings)
        trace_answer(ready.span, answer)
        for observer in self.observers:
            try:
                observer.observe(answer, ready.gate.verdicts)
            except Exception:  # noqa: BLE001 - an observer must never break an answer
                _log.warning(
                    "answer observer %r failed; answer unaffected", observer, exc_info=True
                )
        if self._store is not None:
            done = answer
            self._store.schedule(
                lambda: record(
                    done,
                    facts=ready.facts,
                    query=ready.query,
                    policy=self.policy,
                    now=ready.now,
                    created_at=ready.created_at,
                    on_fail=self.on_fail,
                    redaction_key=self.redaction_key,
                )
            )
        return answer

    def answer_sync(self, question: str, query: Queries | None = None) -> Answer:
        """:meth:`answer` for synchronous callers (runs its own event loop)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self._answer_and_settle(question, query))
        raise RuntimeError("answer_sync() cannot run inside a running event loop; await answer()")

    async def _answer_and_settle(self, question: str, query: Queries | None) -> Answer:
        answer = await self.answer(question, query)
        await self.settle()
        return answer

    async def settle(self) -> None:
        """Wait until the snapshots of the answers given so far are written."""
        if self._store is not None:
            await self._store.settle()

    # -- phrase, scan, on-fail ----------------------------------------------------

    def _compile(self, prompt: Prompt, silences: Sequence[Fact]) -> Scanner:
        """The scanner of one answer, compiled once for all its attempts (the
        streamed answer compiles the same one)."""
        return Scanner(
            [*prompt.grounded, *silences],
            self.lexicon,
            # text values are what a model may quote
            sources=[f.value for f in prompt.grounded if isinstance(f.value, str)],
            question=prompt.question,
            policy=self.policy,
        )

    async def _check_off_loop(
        self,
        prompt: Prompt,
        scanner: Scanner,
        text: str,
        caller: Sequence[str],
        attempt: TraceSpan = NO_SPAN,
    ) -> list[FindingLike]:
        """:meth:`_check`, in a worker thread when the text is long (a
        ``vouched.scan`` span under the attempt's)."""
        with in_span(attempt.child("vouched.scan")) as scanning:
            if len(text) <= SCAN_IN_THREAD_CHARS and self.executor is None:
                findings = self._check(prompt, scanner, text, caller)
            else:
                work = functools.partial(self._check, prompt, scanner, text, caller)
                findings = await asyncio.get_running_loop().run_in_executor(self.executor, work)
            trace_findings(scanning, findings)
        return findings

    def _check(
        self, prompt: Prompt, scanner: Scanner, text: str, caller: Sequence[str] = ()
    ) -> list[FindingLike]:
        found = echoed_numbers(text, caller, prompt.grounded, self.lexicon, self.policy)
        report = scanner.scan(text)
        return once_per_span([*found, *report.findings], finding_span)

    async def _phrase(
        self,
        first: Prompt,
        gate: GateResult,
        silences: Sequence[Fact],
        caller: Sequence[str],
        span: TraceSpan = NO_SPAN,
    ) -> Answer:
        clock = self.clock
        trail: list[Attempt] = []
        phrase_seconds = 0.0
        scan_seconds = 0.0
        prompt = first
        name = phraser_name(self._phraser_given)
        compiled = self._compile(first, silences)  # once for every attempt of this answer

        def finish(
            text: str,
            status: AnswerStatus,
            *,
            refusal: RefusalReason | None = None,
            reasons: Iterable[str] = (),
            dropped: Iterable[str] = (),
            extra: Iterable[FindingLike] = (),
        ) -> Answer:
            findings = [f for attempt in trail for f in attempt.findings]
            findings.extend(extra)
            return Answer(
                text=text,
                status=status,
                question=first.question,
                grounded=first.grounded,
                silences=tuple(silences),
                violations=gate.violations,
                findings=tuple(findings),
                prompt_version=first.version,
                attempts=len(trail),
                timings={"phrase": phrase_seconds, "scan": scan_seconds},
                trail=tuple(trail),
                dropped=tuple(dropped),
                refusal=refusal,
                reasons=tuple(reasons),
                counts=gate.counts,
                phraser=name,
            )

        for step in self.on_fail:
            attempt = span.child(
                "vouched.phrase",
                attempt=len(trail) + 1,
                prompt_version=prompt.version,
                phraser=name,
            )
            with in_span(attempt):
                began = clock.monotonic()
                try:
                    async with asyncio.timeout(self.phrase_timeout):
                        with attempt.current():  # the phraser's own spans nest under it
                            text = await self.phraser.phrase(prompt)
                except Exception as error:  # noqa: BLE001 - any phraser failure is a refusal, by design
                    spent = clock.monotonic() - began
                    phrase_seconds += spent
                    trail.append(Attempt("", (), spent, AttemptAction.ERROR, prompt.version))
                    # PhraserTimeoutError is a TimeoutError too.
                    timed_out = isinstance(error, TimeoutError)
                    attempt.set(action=str(AttemptAction.ERROR))
                    attempt.fail(type(error).__name__)
                    return finish(
                        UNPHRASED_TEXT,
                        AnswerStatus.REFUSED,
                        refusal=RefusalReason.PHRASER_TIMEOUT
                        if timed_out
                        else RefusalReason.PHRASER_ERROR,
                        reasons=(error_reason(error, self.phrase_timeout),),
                    )
                phrased = clock.monotonic()
                phrase_seconds += phrased - began
                if len(text) > self.max_output_chars:
                    trail.append(Attempt(text[: self.max_output_chars], (), phrased - began))
                    attempt.set(action=str(AttemptAction.REFUSE),
                                refusal=str(RefusalReason.OUTPUT_TOO_LONG))  # fmt: skip
                    return finish(
                        REFUSAL_TEXT,
                        AnswerStatus.REFUSED,
                        refusal=RefusalReason.OUTPUT_TOO_LONG,
                        reasons=(too_long_reason(len(text), self.max_output_chars),),
                    )
                findings = await self._check_off_loop(prompt, compiled, text, caller, attempt)
                scan_seconds += clock.monotonic() - phrased
                action = AttemptAction.ACCEPT if not findings else AttemptAction(step.value)
                trail.append(
                    Attempt(text, tuple(findings), phrased - began, action, prompt.version)
                )
                trace_findings(attempt, findings, action=str(action))
            if not findings:
                return finish(text, AnswerStatus.OK)
            deciding = span.child("vouched.on_fail", attempt=len(trail), step=str(step.value))
            with in_span(deciding):
                if step is OnFail.RETRY:
                    prompt = first.with_problems(problems_for(first, text, findings))
                    continue
                if step is OnFail.PARTIAL:
                    checked = clock.monotonic()
                    partial = await asyncio.get_running_loop().run_in_executor(
                        self.executor,
                        drop_sentences,
                        text,
                        findings,
                        lambda rest: self._check(first, compiled, rest, caller),
                    )
                    scan_seconds += clock.monotonic() - checked
                    extra = partial.findings[len(findings) :]
                    deciding.set(dropped=len(partial.dropped))
                    if partial.text:
                        told = " ".join([partial.text, *unconfirmed(partial.findings)])
                        return finish(
                            told, AnswerStatus.PARTIAL, dropped=partial.dropped, extra=extra
                        )
                    return finish(
                        REFUSAL_TEXT,
                        AnswerStatus.REFUSED,
                        refusal=RefusalReason.NOTHING_LEFT,
                        reasons=finding_reasons(partial.findings),
                        dropped=partial.dropped,
                        extra=extra,
                    )
            break  # REFUSE
        last = trail[-1].findings if trail else ()
        return finish(
            REFUSAL_TEXT,
            AnswerStatus.REFUSED,
            refusal=RefusalReason.FINDINGS,
            reasons=finding_reasons(last),
        )

    def __repr__(self) -> str:
        names = ", ".join(repr(getattr(s, "name", "?")) for s in self.sources)
        return f"Grounder(sources=[{names}], phraser={phraser_name(self._phraser_given)!r})"
