"""The gateway's edges: a model's malformed text, a whole answer cut at its
deadline, the breaker gauge, the schema saying what the server enforces."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Any

import httpx

from vouched import Fact, Grounder
from vouched._server._app import create_app
from vouched._server._config import load_config
from vouched._server._openapi import openapi_document
from vouched.testing import FakeClock, MemorySnapshotStore

from ._serving import EXAMPLES, NOW, InProcess
from ._upstreams import ASK, GOOD, VOUCHED, FakeUpstreams, gateway, snapshots

__all__ = ["gateway"]  # the fixture, used by name

_BODY = {"model": "alpha", "messages": ASK, **VOUCHED}


def test_a_reply_ending_in_a_lone_surrogate_is_answered_and_kept(gateway: Any) -> None:
    url, service = gateway(FakeUpstreams(texts=[f"{GOOD} \ud800"]))
    response = httpx.post(f"{url}/v1/chat/completions", json=_BODY)
    assert response.status_code == 200
    assert response.json()["choices"][0]["message"]["content"].endswith("\ufffd")
    assert len(snapshots(service)) == 1


def test_a_streamed_lone_surrogate_ends_the_stream_as_usual(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams(texts=[f"{GOOD} \udc00"]))
    with httpx.stream("POST", f"{url}/v1/chat/completions", json={**_BODY, "stream": True}) as r:
        text = r.read().decode("utf-8")
    assert '"error"' not in text
    assert text.rstrip().endswith("[DONE]")


class _Berlin:
    name = "weather"

    async def fetch(self, query: Any) -> list[Fact]:
        return [Fact(subject="Berlin", attribute="temperature", value=Decimal("21.4"),
                     unit="degC", source="weather", observed_at="2026-11-29T12:00:00Z",
                     ttl=900)]  # fmt: skip


class _Stalling:
    """A phraser that never answers; ``entered`` is set once it was asked."""

    name = "stalling"

    def __init__(self) -> None:
        self.entered = asyncio.Event()

    async def phrase(self, prompt: Any) -> str:
        self.entered.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")  # pragma: no cover


def test_a_whole_answer_cancelled_at_its_deadline_keeps_its_snapshot() -> None:
    store = MemorySnapshotStore()
    phraser = _Stalling()
    grounder = Grounder([_Berlin()], phraser=phraser, clock=FakeClock(NOW), store=store)

    async def run() -> None:
        task = asyncio.create_task(
            grounder.answer("How warm is Berlin?", interruption=lambda: "deadline")
        )
        await phraser.entered.wait()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await grounder.settle()

    asyncio.run(run())
    (snapshot,) = store.iter()
    assert [a.action for a in snapshot.trail] == ["deadline"]


def test_the_breaker_gauge_has_a_sample_per_source_from_the_start() -> None:
    client = InProcess(create_app(load_config(EXAMPLES / "serve.toml"), clock=FakeClock(NOW)))
    metrics = client.get("/metrics").text
    assert 'vouched_breaker_state{source="weather"} 0.0' in metrics


def test_the_schema_says_a_lexicon_phrase_is_never_empty() -> None:
    schemas = openapi_document(catalogs=[], lexicons=[])["components"]["schemas"]
    internal = schemas["LexiconBody"]["properties"]["internal"]["items"]
    assert internal["minLength"] == 1


def test_an_empty_lexicon_phrase_is_a_422_naming_it() -> None:
    client = InProcess(create_app(load_config(EXAMPLES / "serve.toml"), clock=FakeClock(NOW)))
    body = {"text": "x", "facts": [], "lexicon": {"internal": [""]}}
    response = client.post("/v1/scan", json=body)
    assert response.status_code == 422
    assert response.json()["error"]["field"].startswith("lexicon")


def test_a_request_head_over_16_kib_is_a_431(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams())
    big = {"x-padding": "p" * (17 * 1024)}
    assert httpx.get(f"{url}/healthz", headers=big).status_code == 431
    assert httpx.get(f"{url}/healthz", headers={"x-padding": "p" * 1024}).status_code == 200


def test_a_streamed_answer_reports_its_time_to_the_first_sentence(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams())
    with httpx.stream("POST", f"{url}/v1/chat/completions", json={**_BODY, "stream": True}) as r:
        r.read()
    metrics = httpx.get(f"{url}/metrics").text
    assert "vouched_first_sentence_seconds_count 1.0" in metrics
