from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanContext

from vouched import Fact, Grounder, OpenTelemetryTracing, Query
from vouched.testing import FakeClock, ScriptedPhraser

exporter = InMemorySpanExporter()  # yours: a BatchSpanProcessor and an OTLP exporter
provider = TracerProvider()  # or none: the global provider is the default
provider.add_span_processor(SimpleSpanProcessor(exporter))


class Weather:
    name = "open-meteo"

    async def fetch(self, query: Query) -> list[Fact]:
        return [
            Fact(
                subject="Berlin",
                attribute="temperature",
                value=21.4,
                unit="degC",
                source="open-meteo",
                observed_at="2026-11-29T12:00:00Z",
            )
        ]


model = ScriptedPhraser(["It is 21.4 °C in Berlin, winds 18 km/h.", "It is 21.4 °C in Berlin."])
grounder = Grounder(
    [Weather()],
    phraser=model,
    clock=FakeClock("2026-11-29T12:05:00Z"),
    tracing=OpenTelemetryTracing(provider),
)
grounder.answer_sync("How is the weather in Berlin?", {"subject": "Berlin"})


def span_id(context: SpanContext | None) -> int | None:
    return None if context is None else context.span_id


spans = exporter.get_finished_spans()
parents = {span_id(span.context): span_id(span.parent) for span in spans}
SHOWN = (
    "status",
    "attempts",
    "source",
    "facts",
    "grounded",
    "attempt",
    "action",
    "finding_kinds",
    "step",
)


def depth(span: ReadableSpan) -> int:
    parent, levels = span_id(span.parent), 0
    while parent is not None:
        parent, levels = parents[parent], levels + 1
    return levels


for span in sorted(spans, key=lambda span: span.start_time or 0):
    codes = {key: (span.attributes or {}).get(f"vouched.{key}") for key in SHOWN}
    shown = " ".join(f"{key}={value}" for key, value in codes.items() if value not in (None, ()))
    print(f"{'  ' * depth(span)}{span.name} {shown}".rstrip())
