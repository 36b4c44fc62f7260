"""Traces of answers (the optional ``otel`` extra: opentelemetry-api).

With ``Grounder(tracing=OpenTelemetryTracing())`` every answer is one span
with a child per step::

    vouched.answer        status, attempts, prompt_version, refusal, finding_kinds,
    |                     silence_reasons, grounded, silent, violations, streamed
    +- vouched.gather     sources, queries (absent when the caller gave the facts)
    |  +- vouched.source  source, query, facts, silence_reasons: one per source and query
    +- vouched.gate       grounded, silent, violations, violation_reasons, silence_reasons
    +- vouched.phrase     attempt, prompt_version, phraser, action, findings,
    |  |                  finding_kinds, refusal, error: one per attempt of the model
    |  +- vouched.scan    findings, finding_kinds
    +- vouched.on_fail    attempt, step (retry | partial | refuse), dropped

Attributes are codes and counts, all under ``vouched.``: never a fact's value,
subject or citation, the question, or a word the model wrote (a caller's own
silence reason or finding kind is traced as ``custom``, as the Prometheus
exporter counts it; an error is its type name, never its message).

The Grounder talks to the :class:`AnswerTracing` seam; the default,
:data:`NO_TRACING`, records nothing and imports nothing. opentelemetry is
imported when an :class:`OpenTelemetryTracing` is made, never when vouched is
imported; without it the constructor raises :class:`vouched.MissingExtraError`
naming ``pip install 'vouched[otel]'``. The SDK, its exporters and the
provider are the application's: by default the global tracer provider.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from vouched._answer._result import Answer
from vouched._exceptions import MissingExtraError
from vouched._fact import Fact, SilenceReason
from vouched._gate import GateResult, VerdictReason
from vouched._scan._scanner import FindingKind

if TYPE_CHECKING:
    from opentelemetry.trace import Span, Tracer, TracerProvider

__all__ = [
    "NO_SPAN",
    "NO_TRACING",
    "AnswerTracing",
    "AttributeValue",
    "OpenTelemetryTracing",
    "TraceSpan",
    "finding_kinds",
    "in_span",
    "interrupted",
    "silence_reasons",
    "trace_answer",
    "trace_facts",
    "trace_findings",
    "trace_gate",
    "violation_reasons",
]

AttributeValue = str | bool | int | float | Sequence[str]
"""What a span attribute may hold: a code, a count, a flag, or a list of codes."""

CUSTOM = "custom"
"""The code a caller-defined silence reason or finding kind is traced as."""


@runtime_checkable
class TraceSpan(Protocol):
    """One step of an answer as the Grounder records it. Attribute names are
    given without the ``vouched.`` prefix (``span.set(status="ok")``)."""

    @property
    def recording(self) -> bool:
        """False for :data:`NO_SPAN`: callers skip work only a trace needs."""
        ...

    def child(self, name: str, **attributes: AttributeValue) -> TraceSpan:
        """A span for a step inside this one (started now)."""
        ...

    def set(self, **attributes: AttributeValue) -> None: ...

    def fail(self, code: str) -> None:
        """Mark the step failed; ``code`` is a code (an error's type name), never a message."""
        ...

    def end(self) -> None: ...

    def current(self) -> contextlib.AbstractContextManager[object]:
        """This span as the current one (so a phraser's or source's own spans
        nest under it). Only within one coroutine, never across a ``yield``."""
        ...


@runtime_checkable
class AnswerTracing(Protocol):
    """Where the Grounder's traces go: ``Grounder(tracing=...)``."""

    def answer(self, **attributes: AttributeValue) -> TraceSpan:
        """The span of one answer, started now, a child of the current span."""
        ...


class _NoSpan:
    """Records nothing; every child is itself."""

    __slots__ = ()

    @property
    def recording(self) -> bool:
        return False

    def child(self, name: str, **attributes: AttributeValue) -> TraceSpan:
        return self

    def set(self, **attributes: AttributeValue) -> None:
        pass

    def fail(self, code: str) -> None:
        pass

    def end(self) -> None:
        pass

    def current(self) -> contextlib.AbstractContextManager[object]:
        return contextlib.nullcontext()


class _NoTracing:
    __slots__ = ()

    def answer(self, **attributes: AttributeValue) -> TraceSpan:
        return NO_SPAN


NO_SPAN: TraceSpan = _NoSpan()
NO_TRACING: AnswerTracing = _NoTracing()
"""The Grounder's default: no spans, no imports, no cost."""


@contextlib.contextmanager
def in_span(span: TraceSpan) -> Iterator[TraceSpan]:
    """``span`` until the block ends; an exception ends it as :func:`interrupted` says."""
    try:
        yield span
    except BaseException as error:
        interrupted(span, error)
        raise
    finally:
        span.end()


def interrupted(span: TraceSpan, error: BaseException) -> None:
    """A step cut short: a reader that stopped reading a stream (``GeneratorExit``)
    is ``disconnected``, not a failure; anything else (a cancellation, a bug)
    marks the span failed with the exception's type name."""
    if isinstance(error, GeneratorExit):
        span.set(disconnected=True)
    else:
        span.fail(type(error).__name__)


_STANDARD = ("gen_ai.",)
"""Attribute namespaces of the OpenTelemetry semantic conventions: kept as named."""


def _attributes(attributes: Mapping[str, AttributeValue]) -> dict[str, Any]:
    return {
        (key if key.startswith(_STANDARD) else f"vouched.{key}"): value
        if isinstance(value, str | bool | int | float)
        else list(value)
        for key, value in attributes.items()
    }


class _OpenTelemetrySpan:
    __slots__ = ("_span", "_trace", "_tracer")

    def __init__(self, trace: Any, tracer: Tracer, span: Span) -> None:
        self._trace = trace
        self._tracer = tracer
        self._span = span

    @property
    def recording(self) -> bool:
        return True

    def child(self, name: str, **attributes: AttributeValue) -> TraceSpan:
        context = self._trace.set_span_in_context(self._span)
        span = self._tracer.start_span(name, context=context, attributes=_attributes(attributes))
        return _OpenTelemetrySpan(self._trace, self._tracer, span)

    def set(self, **attributes: AttributeValue) -> None:
        self._span.set_attributes(_attributes(attributes))

    def fail(self, code: str) -> None:
        self._span.set_attribute("vouched.error", code)
        self._span.set_status(self._trace.Status(self._trace.StatusCode.ERROR, code))

    def end(self) -> None:
        self._span.end()

    def current(self) -> contextlib.AbstractContextManager[object]:
        # Exceptions are traced by `step` as codes: never their messages.
        used: contextlib.AbstractContextManager[object] = self._trace.use_span(
            self._span, end_on_exit=False, record_exception=False, set_status_on_exception=False
        )
        return used


class OpenTelemetryTracing:
    """Answers traced through the OpenTelemetry API: pass it as
    ``Grounder(..., tracing=OpenTelemetryTracing())``.

    ``tracer_provider`` defaults to the global one (what the application set
    with ``opentelemetry.trace.set_tracer_provider``); vouched configures no
    SDK and no exporter. The answer's span is a child of the span current when
    the answer starts (the application's request span, say).
    """

    def __init__(self, tracer_provider: TracerProvider | None = None) -> None:
        try:
            from opentelemetry import trace  # noqa: PLC0415 - the optional extra, loaded on use
        except ImportError:
            raise MissingExtraError("otel", "opentelemetry-api") from None
        self._trace = trace
        self._tracer = trace.get_tracer("vouched", tracer_provider=tracer_provider)

    def answer(self, **attributes: AttributeValue) -> TraceSpan:
        span = self._tracer.start_span("vouched.answer", attributes=_attributes(attributes))
        return _OpenTelemetrySpan(self._trace, self._tracer, span)

    def __repr__(self) -> str:
        return "OpenTelemetryTracing()"


# -- codes, never values -------------------------------------------------------------

_SILENCE_CODES = frozenset(str(r) for r in SilenceReason)
_FINDING_CODES = frozenset(str(k) for k in FindingKind)
_VERDICT_CODES = frozenset(str(r) for r in VerdictReason)


def _codes(values: Iterable[object], known: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted({str(v) if str(v) in known else CUSTOM for v in values}))


def silence_reasons(facts: Iterable[Fact]) -> tuple[str, ...]:
    """The distinct silence codes of the silent ones of ``facts`` (``no_value``
    for a null value without a reason)."""
    reasons = (
        f.silent_reason if f.silent_reason is not None else "no_value" for f in facts if f.is_silent
    )
    return _codes(reasons, _SILENCE_CODES | {"no_value"})


def finding_kinds(findings: Iterable[object]) -> tuple[str, ...]:
    """The distinct finding kinds (codes) of ``findings``."""
    return _codes((getattr(f, "kind", CUSTOM) for f in findings), _FINDING_CODES)


def violation_reasons(reasons: Iterable[object]) -> tuple[str, ...]:
    """The distinct verdict reason codes of the gate's violations."""
    return _codes(reasons, _VERDICT_CODES)


def trace_answer(span: TraceSpan, answer: Answer) -> None:
    """The answer's outcome on its span, as codes and counts."""
    if not span.recording:
        return
    span.set(
        status=str(answer.status),
        attempts=answer.attempts,
        prompt_version=answer.prompt_version,
        phraser=answer.phraser,
        grounded=len(answer.grounded),
        silent=len(answer.silences),
        violations=len(answer.violations),
        finding_kinds=finding_kinds(answer.findings),
        silence_reasons=silence_reasons(answer.silences),
    )
    if answer.refusal is not None:
        span.set(refusal=str(answer.refusal))
    first = answer.timings.get("first_sentence")
    if first is not None:  # a stream: how long the reader waited for its first words
        span.set(first_sentence_seconds=first)


def trace_facts(span: TraceSpan, facts: Sequence[Fact]) -> None:
    """What a source answered: how many facts, and the silences' codes."""
    if span.recording:
        span.set(facts=len(facts), silence_reasons=silence_reasons(facts))


def trace_gate(span: TraceSpan, gate: GateResult) -> None:
    """The gate's piles as counts, and the codes of its violations and silences."""
    if span.recording:
        span.set(
            grounded=len(gate.grounded),
            silent=len(gate.silent),
            violations=len(gate.violations),
            violation_reasons=violation_reasons(v.reason for v in gate.violations),
            silence_reasons=silence_reasons(gate.silent),
        )


def trace_findings(
    span: TraceSpan, findings: Sequence[object], **attributes: AttributeValue
) -> None:
    """A scan's or an attempt's findings (count and kinds), with more codes."""
    if span.recording:
        span.set(findings=len(findings), finding_kinds=finding_kinds(findings), **attributes)
