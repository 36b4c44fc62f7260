"""Traces of answers: one span per answer, a child per step, codes only.

Read through the OpenTelemetry SDK's in-memory exporter, with a provider of
the test's own (no global state)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator, Sequence
from decimal import Decimal
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from vouched import (
    AnswerEventKind,
    Fact,
    Grounder,
    OpenTelemetryTracing,
    PhraserError,
    Query,
)
from vouched.testing import FakeClock, ScriptedPhraser, ScriptedSource

NOW = "2026-11-29T12:10:00Z"
QUESTION = "How is the weather in Berlin?"
TRUE = "The temperature in Berlin is 21.4 °C. The relative humidity in Berlin is 63%."
FABRICATED = "The temperature in Berlin is 21.4 °C. Winds reach 18 km/h."


def _fact(attribute: str, value: object, unit: str, subject: str = "Berlin") -> Fact:
    return Fact(subject=subject, attribute=attribute, value=value, unit=unit,
                source="open-meteo", observed_at="2026-11-29T12:00:00Z", ttl=900,
                citation=f"om/{subject}/{attribute}")  # fmt: skip


FACTS = [_fact("temperature", Decimal("21.4"), "degC"), _fact("relative_humidity", 63, "%")]


class _Weather:
    name = "open-meteo"

    def __init__(self) -> None:
        self.current: list[trace.SpanContext] = []

    async def fetch(self, query: Query) -> Sequence[Fact]:
        self.current.append(trace.get_current_span().get_span_context())
        return [f.model_copy(update={"subject": query.get("subject", "Berlin")}) for f in FACTS]


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    exported = InMemorySpanExporter()
    yield exported
    exported.clear()


@pytest.fixture
def provider(exporter: InMemorySpanExporter) -> Iterator[TracerProvider]:
    made = TracerProvider()
    made.add_span_processor(SimpleSpanProcessor(exporter))
    yield made
    made.shutdown()


def _grounder(provider: TracerProvider | None, script: list[Any], **kw: Any) -> Grounder:
    sources = [_Weather(), ScriptedSource("rates", [ConnectionError("no route to host")])]
    return Grounder(
        sources,
        phraser=ScriptedPhraser(script),
        clock=FakeClock(NOW),
        tracing=None if provider is None else OpenTelemetryTracing(provider),
        **kw,
    )


def _tree(spans: Sequence[ReadableSpan]) -> list[Any]:
    """The spans as nested ``(name, [children])`` in start order."""
    ordered = sorted(spans, key=lambda s: s.start_time or 0)

    def children(parent: int | None) -> list[Any]:
        return [
            (span.name, children(span.context.span_id))
            for span in ordered
            if (span.parent.span_id if span.parent else None) == parent
        ]

    return children(None)


def _attrs(span: ReadableSpan) -> dict[str, Any]:
    return dict(span.attributes or {})


def _one(spans: Sequence[ReadableSpan], name: str) -> ReadableSpan:
    (found,) = [s for s in spans if s.name == name]
    return found


def _named(spans: Sequence[ReadableSpan], name: str) -> list[ReadableSpan]:
    return sorted((s for s in spans if s.name == name), key=lambda s: s.start_time or 0)


def test_an_answer_is_one_span_with_a_child_per_step(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    answer = _grounder(provider, [FABRICATED, TRUE]).answer_sync(QUESTION, {"subject": "Berlin"})
    assert answer.attempts == 2
    assert _tree(exporter.get_finished_spans()) == [
        ("vouched.answer", [
            ("vouched.gather", [("vouched.source", []), ("vouched.source", [])]),
            ("vouched.gate", []),
            ("vouched.phrase", [("vouched.scan", [])]),
            ("vouched.on_fail", []),
            ("vouched.phrase", [("vouched.scan", [])]),
        ]),
    ]  # fmt: skip


def test_attributes_are_the_codes_and_counts_of_each_step(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    answer = _grounder(provider, [FABRICATED, TRUE]).answer_sync(QUESTION, {"subject": "Berlin"})
    spans = exporter.get_finished_spans()
    root = _one(spans, "vouched.answer").attributes or {}
    assert root["vouched.status"] == "ok"
    assert root["vouched.attempts"] == 2
    assert root["vouched.prompt_version"] == answer.prompt_version
    assert root["vouched.finding_kinds"] == ("ungrounded_number",)
    assert root["vouched.silence_reasons"] == ("source_error",)
    assert root["vouched.streamed"] is False
    sources = {
        s.attributes["vouched.source"]: s.attributes for s in _named(spans, "vouched.source")
    }  # type: ignore[index]
    assert sources["open-meteo"]["vouched.facts"] == 2
    assert sources["open-meteo"]["vouched.silence_reasons"] == ()
    assert sources["rates"]["vouched.silence_reasons"] == ("source_error",)
    gate = _one(spans, "vouched.gate").attributes or {}
    assert (gate["vouched.grounded"], gate["vouched.silent"], gate["vouched.violations"]) == (
        2,
        1,
        0,
    )
    first, second = (s.attributes or {} for s in _named(spans, "vouched.phrase"))
    assert (first["vouched.attempt"], first["vouched.action"]) == (1, "retry")
    assert first["vouched.finding_kinds"] == ("ungrounded_number",)
    assert (second["vouched.attempt"], second["vouched.action"]) == (2, "accept")
    assert second["vouched.findings"] == 0
    on_fail = _one(spans, "vouched.on_fail").attributes or {}
    assert (on_fail["vouched.step"], on_fail["vouched.attempt"]) == ("retry", 1)
    assert all(s.status.status_code is StatusCode.UNSET for s in spans)


def _values(spans: Sequence[ReadableSpan]) -> list[object]:
    out: list[object] = []
    for span in spans:
        for value in (span.attributes or {}).values():
            out.extend(value if isinstance(value, tuple) else [value])
    return out


def test_no_attribute_holds_a_fact_value_a_subject_or_the_models_words(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    grounder = _grounder(provider, [FABRICATED, FABRICATED], on_fail=("retry", "partial"))
    answer = grounder.answer_sync(QUESTION, {"subject": "Berlin"})
    assert answer.status == "partial"
    values = _values(exporter.get_finished_spans())
    assert values
    for value in values:
        assert value not in (21.4, 63, "21.4", "63", 18, "18")
        if isinstance(value, str):
            for secret in ("Berlin", "21.4", "km/h", "°C", "om/", "weather", "Winds"):
                assert secret not in value


def test_a_streamed_answer_traces_its_attempts_and_the_on_fail_decision(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    grounder = _grounder(provider, [FABRICATED], on_fail="partial")

    async def read() -> list[Any]:
        return [e async for e in grounder.answer_stream(QUESTION, {"subject": "Berlin"})]

    events = asyncio.run(read())
    assert events[-1].kind is AnswerEventKind.DONE
    spans = exporter.get_finished_spans()
    assert _tree(spans) == [
        ("vouched.answer", [
            ("vouched.gather", [("vouched.source", []), ("vouched.source", [])]),
            ("vouched.gate", []),
            ("vouched.phrase", []),  # the scan ran piece by piece inside it
            ("vouched.on_fail", []),
        ]),
    ]  # fmt: skip
    root = _one(spans, "vouched.answer").attributes or {}
    assert (root["vouched.status"], root["vouched.streamed"]) == ("partial", True)
    attempt = _one(spans, "vouched.phrase").attributes or {}
    assert attempt["vouched.action"] == "partial"
    assert attempt["vouched.finding_kinds"] == ("ungrounded_number",)
    assert isinstance(attempt["vouched.scan_seconds"], float)
    assert (_one(spans, "vouched.on_fail").attributes or {})["vouched.dropped"] == 1


def test_a_reader_that_leaves_ends_every_span_as_disconnected(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    grounder = _grounder(provider, [TRUE])

    async def first_sentence() -> None:
        stream = grounder.answer_stream(QUESTION, {"subject": "Berlin"})
        async for _ in stream:
            break
        await stream.aclose()

    asyncio.run(first_sentence())
    spans = exporter.get_finished_spans()
    root = _one(spans, "vouched.answer").attributes or {}
    assert root["vouched.disconnected"] is True
    assert root["vouched.status"] == "partial"
    assert (_one(spans, "vouched.phrase").attributes or {})["vouched.disconnected"] is True
    assert all(s.status.status_code is StatusCode.UNSET for s in spans)


def test_a_phraser_failure_is_an_error_span_named_by_type(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    answer = _grounder(
        provider, [PhraserError("HTTP 500 from http://model.internal/")]
    ).answer_sync(QUESTION, {"subject": "Berlin"})
    assert answer.status == "refused"
    spans = exporter.get_finished_spans()
    attempt = _one(spans, "vouched.phrase")
    assert attempt.status.status_code is StatusCode.ERROR
    assert (attempt.attributes or {})["vouched.error"] == "PhraserError"
    assert attempt.status.description == "PhraserError"
    assert (_one(spans, "vouched.answer").attributes or {})["vouched.refusal"] == "phraser_error"
    assert not any("model.internal" in str(v) for v in _values(spans))


def test_the_answer_span_is_a_child_of_the_callers_span(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    grounder = _grounder(provider, [TRUE])
    with provider.get_tracer("app").start_as_current_span("request") as request:
        grounder.answer_sync(QUESTION, {"subject": "Berlin"})
    answer = _one(exporter.get_finished_spans(), "vouched.answer")
    assert answer.parent is not None
    assert answer.parent.span_id == request.get_span_context().span_id


def test_a_sources_own_spans_nest_under_its_span(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    grounder = _grounder(provider, [TRUE])
    grounder.answer_sync(QUESTION, {"subject": "Berlin"})
    weather = grounder.sources[0]
    assert isinstance(weather, _Weather)
    spans = _named(exporter.get_finished_spans(), "vouched.source")
    (mine,) = [s for s in spans if (s.attributes or {})["vouched.source"] == "open-meteo"]
    assert weather.current == [mine.get_span_context()]


def test_tracing_changes_no_answer(provider: TracerProvider) -> None:
    queries = [{"subject": "Berlin"}, {"subject": "Munich"}]
    traced = _grounder(provider, [TRUE]).answer_sync(QUESTION, queries)
    plain = _grounder(None, [TRUE]).answer_sync(QUESTION, queries)
    assert traced.to_json() == plain.to_json()


def test_one_source_span_per_source_and_query(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    queries = [{"subject": "Berlin"}, {"subject": "Munich"}]
    _grounder(provider, [TRUE]).answer_sync(QUESTION, queries)
    spans = _named(exporter.get_finished_spans(), "vouched.source")
    pairs = sorted((_attrs(s)["vouched.source"], _attrs(s)["vouched.query"]) for s in spans)
    assert pairs == [("open-meteo", 0), ("open-meteo", 1), ("rates", 0), ("rates", 1)]


def test_facts_given_by_the_caller_have_no_gather_span(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    grounder = _grounder(provider, [TRUE])
    asyncio.run(grounder.answer(QUESTION, facts=FACTS))
    names = [name for name, _ in _tree(exporter.get_finished_spans())[0][1]]
    assert names == ["vouched.gate", "vouched.phrase"]


def _python(code: str) -> str:
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_vouched_imports_no_opentelemetry_and_names_the_extra_when_it_is_missing() -> None:
    # opentelemetry made unimportable: vouched (and a Grounder) work without it,
    # and asking for tracing names the install.
    out = _python(
        "import sys\n"
        "sys.modules['opentelemetry'] = None\n"
        "import vouched\n"
        "vouched.Grounder([])\n"
        "try:\n"
        "    vouched.OpenTelemetryTracing()\n"
        "except ImportError as error:\n"
        "    print(type(error).__name__, error)\n"
    )
    assert out == (
        "MissingExtraError this feature needs opentelemetry-api: pip install 'vouched[otel]'"
    )


def test_a_model_call_carries_the_genai_semantic_convention_attributes(
    provider: TracerProvider, exporter: InMemorySpanExporter, httpserver: Any
) -> None:

    from vouched import OpenAIChatPhraser  # noqa: PLC0415

    choice = {"index": 0, "message": {"content": TRUE}, "finish_reason": "stop"}
    usage = {"prompt_tokens": 40, "completion_tokens": 9}
    document = {"model": "served-model-1", "usage": usage, "choices": [choice]}
    httpserver.expect_request("/v1/chat/completions").respond_with_json(document)
    phraser = OpenAIChatPhraser(httpserver.url_for("/v1"), "asked-model", "", timeout=10)
    grounder = Grounder([_Weather()], phraser=phraser, clock=FakeClock(NOW),
                        tracing=OpenTelemetryTracing(provider))  # fmt: skip
    asyncio.run(grounder.answer(QUESTION, {"subject": "Berlin"}))
    (phrase,) = [s for s in exporter.get_finished_spans() if s.name == "vouched.phrase"]
    attributes = dict(phrase.attributes or {})
    assert attributes["gen_ai.operation.name"] == "chat"
    assert attributes["gen_ai.request.model"] == "asked-model"
    assert attributes["gen_ai.response.model"] == "served-model-1"
    assert (attributes["gen_ai.usage.input_tokens"], attributes["gen_ai.usage.output_tokens"]) == (
        40,
        9,
    )
    assert tuple(attributes["gen_ai.response.finish_reasons"]) == ("stop",)


def test_a_streamed_answer_traces_its_time_to_the_first_sentence(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    grounder = _grounder(provider, [FABRICATED], on_fail="partial")

    async def read() -> list[Any]:
        return [e async for e in grounder.answer_stream(QUESTION, {"subject": "Berlin"})]

    asyncio.run(read())
    root = _one(exporter.get_finished_spans(), "vouched.answer").attributes or {}
    assert isinstance(root["vouched.first_sentence_seconds"], float)
