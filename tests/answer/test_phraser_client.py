"""One pooled HTTP client per phraser: calls reuse a keep-alive connection,
and aclose() closes it (serve does at shutdown)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from vouched import OpenAIChatPhraser, Prompt
from vouched._answer._prompt import build_prompt

ANSWER = json.dumps(
    {"choices": [{"index": 0, "message": {"content": "It is mild."}, "finish_reason": "stop"}]}
).encode()


class _KeepAlive(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive
    ports: list[int] = []  # noqa: RUF012 - the test's record of client ports

    def do_POST(self) -> None:
        type(self).ports.append(self.client_address[1])
        self.rfile.read(int(self.headers["content-length"]))
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(ANSWER)))
        self.end_headers()
        self.wfile.write(ANSWER)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def upstream() -> Iterator[str]:
    _KeepAlive.ports = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _KeepAlive)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _prompt() -> Prompt:
    return build_prompt("How is it?", [], [])


def test_calls_of_one_phraser_share_one_keep_alive_connection(upstream: str) -> None:
    phraser = OpenAIChatPhraser(upstream, "m", "")

    async def three() -> None:
        for _ in range(3):
            await phraser.phrase(_prompt())
        await phraser.aclose()

    asyncio.run(three())
    assert len(_KeepAlive.ports) == 3
    assert len(set(_KeepAlive.ports)) == 1  # one connection, reused


def test_aclose_closes_the_phrasers_client_and_a_later_call_opens_a_new_one(
    upstream: str,
) -> None:
    phraser = OpenAIChatPhraser(upstream, "m", "")

    async def around_a_close() -> None:
        await phraser.phrase(_prompt())
        await phraser.aclose()
        await phraser.phrase(_prompt())
        await phraser.aclose()

    asyncio.run(around_a_close())
    assert len(set(_KeepAlive.ports)) == 2


def test_a_phraser_works_from_one_event_loop_after_another(upstream: str) -> None:
    phraser = OpenAIChatPhraser(upstream, "m", "")

    async def once() -> str:
        try:
            return await phraser.phrase(_prompt())
        finally:
            await phraser.aclose()

    assert asyncio.run(once()) == asyncio.run(once()) == "It is mild."
