"""Per-request deadlines, on looptime's virtual clock (no test waits for real time)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import httpx
import looptime

from vouched import Grounder
from vouched._server._app import create_app
from vouched._server._config import load_config
from vouched.testing import FakeClock, ScriptedSource

from ._serving import EXAMPLES, NOW


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
        async with httpx.AsyncClient(transport=transport, base_url="http://vouched") as client:
            loop = asyncio.get_running_loop()
            began = loop.time()
            response = await client.post("/v1/answer", json={"question": "Berlin?"})
            return response, loop.time() - began

    loop = looptime.new_event_loop(start=0)
    try:
        response, spent = loop.run_until_complete(ask())
    finally:
        loop.close()
    assert response.status_code == 504
    assert response.json()["error"]["code"] == "deadline_exceeded"
    assert spent == 5.0
