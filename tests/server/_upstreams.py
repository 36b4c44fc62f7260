"""A fake OpenAI-compatible upstream serving several models, and vouched serve
in front of it from a TOML config (real uvicorn on 127.0.0.1, real HTTP)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import openai
import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from chatstream import completion_events
from vouched._server._app import create_app
from vouched._server._config import load_config
from vouched.testing import FakeClock, MemorySnapshotStore

from ._serving import EXAMPLES, NOW, serving

FACTS = json.loads((EXAMPLES / "facts.json").read_text(encoding="utf-8"))
BERLIN = [f for f in FACTS if f["subject"] == "Berlin"]
GOOD = "The temperature in Berlin is 21.4 °C."
BAD = "Winds reach 18 km/h."
ASK = [{"role": "user", "content": "How warm is it in Berlin?"}]
USAGE = {"prompt_tokens": 120, "completion_tokens": 9, "total_tokens": 129}
VOUCHED = {"vouched": {"facts": BERLIN}}


@dataclass
class Call:
    """One call the upstream got: which upstream (its path prefix) and the body."""

    upstream: str
    body: dict[str, Any]


@dataclass
class FakeUpstreams:
    """Upstreams ``a`` and ``b`` on one HTTP server (``/a/v1``, ``/b/v1``).
    ``texts`` are said in turn (the last one again once used up); ``failures``
    per upstream: a (status, message, headers) answered instead, every call."""

    texts: list[str] = field(default_factory=lambda: [GOOD])
    failures: dict[str, tuple[int, str, dict[str, str]]] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)

    def handler(self, name: str) -> Callable[[Request], Response]:
        def answer(request: Request) -> Response:
            body = json.loads(request.get_data())
            self.calls.append(Call(name, body))
            if name in self.failures:
                status, message, headers = self.failures[name]
                error = json.dumps({"error": {"message": message}})
                return Response(error, status=status, headers=headers,
                                content_type="application/json")  # fmt: skip
            text = self.texts[min(len(self.calls_to(name)) - 1, len(self.texts) - 1)]
            if body.get("stream"):
                pieces = [text[i : i + 7] for i in range(0, len(text), 7)]
                return Response(iter(completion_events(pieces, usage=USAGE)),
                                content_type="text/event-stream")  # fmt: skip
            document = {"id": f"chatcmpl-{name}-{len(self.calls)}", "object": "chat.completion",
                        "model": body.get("model"), "usage": USAGE,
                        "system_fingerprint": "fp_fake_1",
                        "choices": [{"index": 0, "finish_reason": "stop", "message":
                                     {"role": "assistant", "content": text}}]}  # fmt: skip
            return Response(json.dumps(document), content_type="application/json")

        return answer

    def calls_to(self, name: str) -> list[Call]:
        return [c for c in self.calls if c.upstream == name]


def config_text(server: HTTPServer, *, answer: str = "", upstreams: str | None = None) -> str:
    """A serve config: the example's lexicon and sources, ``[answer]`` lines
    ``answer``, and ``[[upstream]]`` tables (default: ``a`` serves alpha and
    alpha-mini, ``b`` serves beta)."""
    if upstreams is None:
        upstreams = f"""
[[upstream]]
name = "a"
base_url = "{server.url_for("/a/v1")}"
models = ["alpha", "alpha-mini"]
max_tokens = 50

[[upstream]]
name = "b"
base_url = "{server.url_for("/b/v1")}"
model = "beta"
"""
    return f"""
[lexicons]
weather = "{EXAMPLES / "lexicon.json"}"

[answer]
lexicon = "weather"
{answer}

[[answer.sources]]
name = "weather"
facts = "{EXAMPLES / "facts.json"}"
{upstreams}
"""


Start = Callable[..., tuple[str, Any]]


@pytest.fixture
def gateway(httpserver: HTTPServer, tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """``gateway(fake, answer=..., upstreams=...)``: vouched serve in front of
    ``fake``; returns its URL and the service (its store is in memory)."""
    contexts: list[Any] = []

    def start(fake: FakeUpstreams, **texts: Any) -> tuple[str, Any]:
        for name in ("a", "b"):
            httpserver.expect_request(f"/{name}/v1/chat/completions", method="POST")\
                .respond_with_handler(fake.handler(name))  # fmt: skip
        path = tmp_path / "serve.toml"
        path.write_text(config_text(httpserver, **texts), encoding="utf-8")
        config = replace(load_config(path), store=MemorySnapshotStore())
        app = create_app(config, clock=FakeClock(NOW))
        context = serving(app)
        contexts.append(context)
        return context.__enter__(), app.service

    yield start
    for context in contexts:
        context.__exit__(None, None, None)


def sdk(url: str, **kw: Any) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0, **kw)


def snapshots(service: Any) -> list[Any]:
    """The snapshots written so far (waited for on the service's own loop)."""
    import asyncio  # noqa: PLC0415 - only this helper needs it

    asyncio.run_coroutine_threadsafe(service.settle(), service._loop).result(timeout=30)
    return list(service.config.store.iter())
