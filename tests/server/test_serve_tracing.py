"""``[tracing] enabled = true``: the service's answers are traced through the
global tracer provider the process set up.

The global provider can be set once per process, so the service runs
in-process (httpx's ASGI transport) in a child Python of its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ._serving import EXAMPLES, NOW

_CHILD = """
import asyncio, json, sys
import httpx
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from vouched._server._app import create_app
from vouched._server._config import load_config
from vouched.testing import FakeClock

exporter = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
trace.set_tracer_provider(provider)  # what the application does at start
app = create_app(load_config(sys.argv[1]), clock=FakeClock(sys.argv[2]))

async def ask():
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        body = {"question": "How is Berlin?", "query": {"subject": "Berlin"}}
        response = await client.post("/v1/answer", json=body)
        return response.json()["status"]

status = asyncio.run(ask())
spans = {span.context.span_id: span for span in exporter.get_finished_spans()}
print(json.dumps({
    "status": status,
    "spans": sorted(
        [span.name, spans[span.parent.span_id].name if span.parent else None]
        for span in spans.values()
    ),
    "answer": dict(next(s for s in spans.values() if s.name == "vouched.answer").attributes),
}))
"""


def test_the_config_traces_answers_through_the_global_provider(tmp_path: Path) -> None:
    for name in ("lexicon.json", "catalog.csv", "contract.toml", "facts.json", "serve.toml"):
        (tmp_path / name).write_bytes((EXAMPLES / name).read_bytes())
    config = tmp_path / "serve.toml"
    config.write_text(
        config.read_text(encoding="utf-8") + "\n[tracing]\nenabled = true\n", encoding="utf-8"
    )
    run = subprocess.run(
        [sys.executable, "-c", _CHILD, str(config), NOW],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["status"] == "ok"
    assert report["spans"] == [
        ["vouched.answer", None],
        ["vouched.gate", "vouched.answer"],
        ["vouched.gather", "vouched.answer"],
        ["vouched.phrase", "vouched.answer"],
        ["vouched.scan", "vouched.phrase"],
        ["vouched.source", "vouched.gather"],
    ]
    assert report["answer"]["vouched.status"] == "ok"
    assert report["answer"]["vouched.attempts"] == 1
