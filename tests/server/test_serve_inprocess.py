"""The service in-process (httpx's ASGI transport): per-request deadlines on
looptime's virtual clock, and the snapshot store a config names."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import httpx

from vouched import Grounder, SqliteSnapshotStore
from vouched._server._app import create_app
from vouched._server._config import load_config
from vouched.testing import FakeClock, MemorySnapshotStore, ScriptedSource, virtual_time

from ._serving import EXAMPLES, NOW, sse


def test_a_request_past_its_deadline_is_504_deadline_exceeded() -> None:
    config = replace(load_config(EXAMPLES / "serve.toml"), request_timeout=5.0)
    hanging = Grounder(
        [ScriptedSource("slow", [ScriptedSource.HANG])],
        clock=FakeClock(NOW),
        deadline=600,
    )
    app = create_app(config, clock=FakeClock(NOW), grounder=hanging)

    async def ask() -> tuple[httpx.Response, float]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            loop = asyncio.get_running_loop()
            began = loop.time()
            response = await client.post("/v1/answer", json={"question": "Berlin?"})
            return response, loop.time() - began

    with virtual_time() as loop:
        response, spent = loop.run(ask())
    assert response.status_code == 504
    assert response.json()["error"]["code"] == "deadline_exceeded"
    assert spent == 5.0


def test_a_streamed_answer_leaves_a_snapshot_in_the_configured_store(tmp_path: Path) -> None:
    for name in ("lexicon.json", "catalog.csv", "contract.toml", "facts.json", "serve.toml"):
        (tmp_path / name).write_bytes((EXAMPLES / name).read_bytes())
    config_file = tmp_path / "serve.toml"
    config_file.write_text(
        config_file.read_text(encoding="utf-8").replace(
            "[answer]\n", '[answer]\nstore = "snapshots.db"\n'
        ),
        encoding="utf-8",
    )
    app = create_app(load_config(config_file), clock=FakeClock(NOW))

    async def ask() -> str:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            body = {"question": "How is Berlin?", "query": {"subject": "Berlin"}}
            response = await client.post("/v1/answer/stream", json=body)
        await app.service.settle()
        return response.text

    streamed = asyncio.run(ask())
    assert "event: done" in streamed
    with SqliteSnapshotStore(tmp_path / "snapshots.db", read_only=True) as store:
        (snapshot,) = list(store.iter())
    assert snapshot.question == "How is Berlin?"
    assert snapshot.status == "ok"


class _Stalling:
    """Streams one sentence, then nothing, ever (a model that stalls mid-answer)."""

    name = "stalling"

    async def phrase(self, prompt: object) -> str:  # pragma: no cover - streamed only
        return "The temperature in Berlin is 21.4 °C."

    async def phrase_stream(self, prompt: object) -> AsyncIterator[str]:
        yield "The temperature in Berlin is 21.4 °C. It"
        await asyncio.Event().wait()


def test_a_stream_ends_within_the_request_timeout_and_records_why() -> None:
    config = replace(load_config(EXAMPLES / "serve.toml"), request_timeout=5.0)
    store = MemorySnapshotStore()
    stalling = Grounder(config.sources, phraser=_Stalling(), clock=FakeClock(NOW),
                        phrase_timeout=600, store=store)  # fmt: skip
    app = create_app(config, clock=FakeClock(NOW), grounder=stalling)

    async def ask() -> tuple[str, float]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            loop = asyncio.get_running_loop()
            began = loop.time()
            body = {"question": "Berlin?", "query": {"subject": "Berlin"}}
            response = await client.post("/v1/answer/stream", json=body)
            await stalling.settle()
            return response.text, loop.time() - began

    with virtual_time() as loop:
        text, spent = loop.run(ask())
    assert spent == 5.0
    assert "event: sentence" in text
    kind, data = sse(text)[-1]
    assert (kind, json.loads(data)["reasons"]) == ("error", ["deadline_exceeded"])
    (snapshot,) = store.iter()
    assert snapshot.status == "partial"
    assert [a.action for a in snapshot.trail] == ["deadline"]


def test_a_list_of_queries_past_max_queries_is_a_422_naming_the_limit() -> None:
    config = replace(load_config(EXAMPLES / "serve.toml"), max_queries=32)
    app = create_app(config, clock=FakeClock(NOW))

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            body = {"question": "Berlin?", "query": [{"subject": "Berlin"}] * 33}
            return await client.post("/v1/answer", json=body)

    response = asyncio.run(ask())
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "query"
    assert "answer.max_queries" in response.json()["error"]["message"]
