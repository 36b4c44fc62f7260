"""The Grounder: question -> sources -> gate -> prompt -> phraser -> scan -> answer.

One async implementation (:meth:`Grounder.answer`); :meth:`Grounder.answer_sync`
runs it for synchronous callers. Nothing on the answer path raises for an
outage or a model failure: sources fail into silences, a phraser failure or
timeout becomes a refused answer with a typed reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import (
    AsyncGenerator,
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Mapping,
    Sequence,
)
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from vouched._answer._checks import Check, Checks
from vouched._answer._echoes import caller_texts
from vouched._answer._events import DISCONNECTED, AnswerEvent, DoneEvent
from vouched._answer._gathering import (
    Queries,
    as_queries,
    every_source_failed,
    gather_each,
    stated_silences,
)
from vouched._answer._machine import (
    AnswerMode,
    GuardErrorPolicy,
    answer_mode,
    guard_error_policy,
    steps_for,
)
from vouched._answer._onfail import OnFail, OnFailLike, plan
from vouched._answer._phrasers import PhraserLike, TemplatePhraser, as_phraser, phraser_name
from vouched._answer._phrasing import SCAN_IN_THREAD_CHARS, Phrasing
from vouched._answer._prompt import Prompt, build_prompt
from vouched._answer._result import Answer, AnswerStatus
from vouched._answer._snapshots import StoreHook, record
from vouched._answer._tracing import (
    NO_SPAN,
    NO_TRACING,
    AnswerTracing,
    TraceSpan,
    in_span,
    trace_answer,
    trace_gate,
)
from vouched._answer._when import MAX_FACTS, narrow, split_when
from vouched._exceptions import ConfigError
from vouched._fact import Fact
from vouched._gate import GateResult, Verdict, partition
from vouched._policy import DEFAULT_POLICY, Policy
from vouched._replay._lexicons import LexiconRecord
from vouched._replay._redaction import require_key
from vouched._replay._store import SnapshotStore
from vouched._scan._facts._lexicon import Lexicon
from vouched._sources._source import GATHER_DEADLINE, Query, Source
from vouched._time import Clock, SystemClock, seconds_setting

__all__ = [
    "MAX_OUTPUT_CHARS",
    "SCAN_IN_THREAD_CHARS",
    "AnswerObserver",
    "Grounder",
    "Queries",
    "as_queries",
    "stated_silences",
]

_log = logging.getLogger("vouched.grounder")

MAX_OUTPUT_CHARS = 20_000
"""Default cap on a phrased text (about 3,000 words): longer is refused unscanned."""


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
    request: Mapping[str, Any] | None = None


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
    - ``mode``: ``"enforce"`` (default) or ``"audit"``: the model's text is
      the answer's text as it was said (asked once), checked and recorded,
      the status the verdict beside it; for rolling a guard out safely.
    - ``on_guard_error``: ``"closed"`` (default: refused, ``guard_error``)
      or ``"open"`` (the model's text passed on, status ``unchecked``) when
      the checks themselves fail.
    - ``checks``: extra checks of every phrased text (callables from text to
      findings): their findings join the scanner's; one that raises is a
      guard error.
    - ``max_facts``: the most facts one answer sends to the model, is checked
      against and stores (default 400). Facts valid for a period are first
      narrowed to the periods the question asks about (a query's ``"when"``,
      else the time words of the question; see ``docs/guides/forecast-answers.md``).

    ``answer`` and ``answer_stream`` take ``facts=`` (the caller's facts,
    gated instead of asking the sources), ``messages=`` (a conversation the
    data block is added to, for a chat model) and ``sampling=`` (the
    request's parameters for the model server), for the OpenAI-compatible
    route of ``vouched serve``; and ``on_fail=`` and ``mode=`` for one
    answer (a request's own policy).
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
        mode: AnswerMode | str = AnswerMode.ENFORCE,
        on_guard_error: GuardErrorPolicy | str = GuardErrorPolicy.CLOSED,
        checks: Iterable[Check] = (),
        max_facts: int = MAX_FACTS,
    ) -> None:
        seconds_setting("Grounder deadline", deadline)
        if type(max_facts) is not int or max_facts < 1:
            raise ConfigError("max_facts must be a whole number >= 1")
        self.max_facts = max_facts
        seconds_setting("Grounder phrase_timeout", phrase_timeout)
        if type(max_output_chars) is not int or max_output_chars < 1:
            raise ConfigError("max_output_chars must be a whole number >= 1")
        if store is not None:
            require_key(policy, redaction_key, where="Grounder")
        self.redaction_key = redaction_key
        self.max_output_chars = max_output_chars
        self.sources = tuple(sources)
        self.policy = policy
        self._phraser_given = (
            phraser if phraser is not None else TemplatePhraser(words=_first_phrases(lexicon))
        )
        self.phraser = as_phraser(self._phraser_given)
        self.lexicon = lexicon
        # What its snapshots name (hash, shipped name) and the store keeps once.
        self._lexicon_record = None if lexicon is None else LexiconRecord.of(lexicon)
        self.on_fail = plan(on_fail)
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.deadline = deadline
        self.phrase_timeout = phrase_timeout
        self._store = StoreHook(store) if store is not None else None
        self.observers = tuple(observers)
        self.executor = executor
        self.tracing = tracing if tracing is not None else NO_TRACING
        self.mode = answer_mode(mode, "Grounder mode")
        self.on_guard_error = guard_error_policy(on_guard_error, "Grounder on_guard_error")
        self.checks = tuple(checks)

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
        messages: Sequence[Mapping[str, Any]] = (),
        sampling: Mapping[str, Any] | None = None,
        on_fail: OnFailLike | None = None,
        mode: AnswerMode | str | None = None,
        request: Mapping[str, Any] | None = None,
        interruption: Callable[[], str] | None = None,
    ) -> Answer:
        """Answer ``question`` from what the sources say for ``query``.

        ``query`` may also be a sequence of queries, one per subject ("Berlin
        and Munich?"): each is sent to every source, all at once under the one
        ``deadline``, and the facts are gathered in the order of the queries.
        ``on_fail`` and ``mode`` replace the Grounder's for this answer;
        ``request`` (an HTTP request's id, ...) is kept in its snapshot. An
        answer cancelled before it is done (a deadline) still leaves its
        snapshot, the attempt under way in its trail with the reason
        ``interruption()`` gives (default ``disconnected``).
        """
        with in_span(self.tracing.answer(streamed=False)) as span:
            ready = await self._prepare(question, query, given=facts, messages=messages,
                                        sampling=sampling, span=span, request=request)  # fmt: skip
            phrasing = self._phrasing(ready, on_fail, mode, streamed=False)
            try:
                async for _ in phrasing.run():  # read whole: no events before the answer
                    pass  # pragma: no cover - a whole reading yields none
            except asyncio.CancelledError:
                if phrasing.answer is None:
                    reason = DISCONNECTED if interruption is None else interruption()
                    self._deliver(ready, phrasing.left(reason), phrasing.steps)
                raise
            return self._deliver(ready, phrasing.built(), phrasing.steps)

    async def answer_stream(
        self,
        question: str,
        query: Queries | None = None,
        *,
        facts: Sequence[Fact] | None = None,
        messages: Sequence[Mapping[str, Any]] = (),
        sampling: Mapping[str, Any] | None = None,
        on_fail: OnFailLike | None = None,
        mode: AnswerMode | str | None = None,
        interruption: Callable[[], str] | None = None,
        request: Mapping[str, Any] | None = None,
    ) -> AsyncIterator[AnswerEvent]:
        """Answer ``question`` as a stream of :class:`vouched.AnswerEvent`:
        sentences only after they pass the scan, the on-fail policy at the
        first that does not, and a last ``done`` event with the whole
        :class:`vouched.Answer` (observers told and the snapshot written as
        for :meth:`answer`). The phraser streams when it can
        (``phrase_stream``); ``phrase_timeout`` bounds each attempt, and
        ``max_output_chars`` the text read. A reader that stops reading (the
        stream is closed before ``done``) still leaves the answer's snapshot:
        the sentences handed on, marked partial, the attempt under way in its
        trail, with the reason ``interruption()`` gives (default
        ``disconnected``; ``vouched serve`` says ``shutdown`` or ``deadline``
        when it was the one to close the stream)."""
        with in_span(self.tracing.answer(streamed=True)) as span:
            # aclosing: a reader that leaves closes the inner stream at once (its
            # snapshot of what was shown is written then, not when it is collected).
            stream = self._stream(question, query, facts=facts, messages=messages,
                                  sampling=sampling, on_fail=on_fail, mode=mode,
                                  interruption=interruption, span=span,
                                  request=request)  # fmt: skip
            async with contextlib.aclosing(stream) as events:
                async for event in events:
                    yield event

    async def _stream(
        self,
        question: str,
        query: Queries | None,
        *,
        facts: Sequence[Fact] | None,
        messages: Sequence[Mapping[str, Any]],
        sampling: Mapping[str, Any] | None,
        on_fail: OnFailLike | None,
        mode: AnswerMode | str | None,
        interruption: Callable[[], str] | None,
        span: TraceSpan,
        request: Mapping[str, Any] | None = None,
    ) -> AsyncGenerator[AnswerEvent, None]:
        ready = await self._prepare(question, query, given=facts, messages=messages,
                                    sampling=sampling, span=span, request=request)  # fmt: skip
        phrasing = self._phrasing(ready, on_fail, mode, streamed=True)
        try:
            async with contextlib.aclosing(phrasing.run()) as events:  # a reader that leaves
                async for event in events:  # closes it now
                    yield event
        except (GeneratorExit, asyncio.CancelledError):
            if phrasing.answer is None:
                reason = DISCONNECTED if interruption is None else interruption()
                self._deliver(ready, phrasing.left(reason), phrasing.steps)
            raise
        extra = {}
        if phrasing.first_sentence is not None:
            extra["first_sentence"] = phrasing.first_sentence - ready.started
        answer = self._deliver(ready, phrasing.built(), phrasing.steps, extra)
        yield DoneEvent(len(answer.trail) - 1, answer)

    def _phrasing(
        self,
        ready: _Prepared,
        on_fail: OnFailLike | None,
        mode: AnswerMode | str | None,
        *,
        streamed: bool,
    ) -> Phrasing:
        """The phrasing of one answer, under this answer's plan and mode."""
        chosen = self.mode if mode is None else answer_mode(mode)
        steps = self.on_fail if on_fail is None else plan(on_fail)
        checks = Checks.compile(
            ready.prompt,
            ready.silences,
            caller=caller_texts(ready.query),
            lexicon=self.lexicon,
            policy=self.policy,
            extra=self.checks,
        )
        return Phrasing(
            first=ready.prompt,
            gate=ready.gate,
            silences=ready.silences,
            checks=checks,
            phraser=self.phraser,
            phraser_name=phraser_name(self._phraser_given),
            steps=steps_for(steps, chosen),
            clock=self.clock,
            phrase_timeout=self.phrase_timeout,
            max_output_chars=self.max_output_chars,
            streamed=streamed,
            mode=chosen,
            on_guard_error=self.on_guard_error,
            executor=self.executor,
            span=ready.span,
        )

    async def _prepare(
        self,
        question: str,
        query: Queries | None,
        *,
        given: Sequence[Fact] | None = None,
        messages: Sequence[Mapping[str, Any]] = (),
        sampling: Mapping[str, Any] | None = None,
        span: TraceSpan = NO_SPAN,
        request: Mapping[str, Any] | None = None,
    ) -> _Prepared:
        """Sources (or the caller's facts), gate and prompt: everything before
        the phraser."""
        queries, when = split_when(as_queries(query))
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
        if when is not None:
            recorded = {**recorded, "when": when}
        fetched = clock.monotonic()
        now = clock.now()
        facts = narrow(facts, question, when, now, self.max_facts)
        with in_span(span.child("vouched.gate")) as gating:
            gate = partition(facts, self.policy, now)
            silences = stated_silences(gate)
            prompt = build_prompt(
                question, gate.grounded, silences, messages=messages, sampling=sampling, now=now
            )
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
            request=request,
        )

    def _deliver(
        self,
        ready: _Prepared,
        answer: Answer,
        steps: Sequence[OnFail],
        extra: dict[str, float] | None = None,
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
            if not (self.policy.sensitive_subjects or self.policy.sensitive_attributes):
                # a lexicon may name sensitive subjects: under redaction only its hash is kept
                self._store.keep_lexicon(self._lexicon_record)
            self._store.schedule(
                lambda: record(
                    done,
                    facts=ready.facts,
                    query=ready.query,
                    policy=self.policy,
                    now=ready.now,
                    created_at=ready.created_at,
                    on_fail=steps,
                    mode=answer.mode,
                    redaction_key=self.redaction_key,
                    lexicon=self._lexicon_record,
                    request=ready.request,
                )
            )
        return answer

    def answer_sync(
        self,
        question: str,
        query: Queries | None = None,
        *,
        facts: Sequence[Fact] | None = None,
        messages: Sequence[Mapping[str, Any]] = (),
        sampling: Mapping[str, Any] | None = None,
        on_fail: OnFailLike | None = None,
        mode: AnswerMode | str | None = None,
    ) -> Answer:
        """:meth:`answer` for synchronous callers, with its parameters (runs its own
        event loop, and writes the answer's snapshot before it returns)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            answering = self.answer(
                question,
                query,
                facts=facts,
                messages=messages,
                sampling=sampling,
                on_fail=on_fail,
                mode=mode,
            )
            return asyncio.run(self._answer_and_settle(answering))
        raise RuntimeError("answer_sync() cannot run inside a running event loop; await answer()")

    async def _answer_and_settle(self, answering: Awaitable[Answer]) -> Answer:
        try:
            answer = await answering
            await self.settle()
        finally:
            await self.aclose()  # the phraser's client belongs to this loop: closed with it
        return answer

    async def aclose(self) -> None:
        """Close what the phraser holds open (its HTTP client), if anything."""
        close = getattr(self.phraser, "aclose", None)
        if callable(close):
            await close()

    async def settle(self) -> None:
        """Wait until the snapshots of the answers given so far are written."""
        if self._store is not None:
            await self._store.settle()

    def __repr__(self) -> str:
        names = ", ".join(repr(getattr(s, "name", "?")) for s in self.sources)
        return f"Grounder(sources=[{names}], phraser={phraser_name(self._phraser_given)!r})"


def _first_phrases(lexicon: Lexicon | None) -> dict[str, str]:
    """Each attribute's first lexicon phrase: the words the offline phraser says it with."""
    if lexicon is None:
        return {}
    return {name: phrases[0] for name, phrases in lexicon.attributes.items() if phrases}
