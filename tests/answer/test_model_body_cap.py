"""The model's body is capped while it is read, streamed or not: a server that
never stops sending costs the cap, never the memory it would take."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from factories import berlin_prompt
from vouched import OpenAIChatPhraser, PhraserResponseError

PATH = "/v1/chat/completions"
CAP = 64 * 1024


_prompt = berlin_prompt


def _endless(prefix: bytes) -> Iterator[bytes]:
    """``prefix``, then spaces: 16 times the cap, as good as endless for the
    reader, and finite so the server thread ends its response on its own."""
    yield prefix
    for _ in range(16 * CAP // 4096):
        yield b" " * 4096


def _serve(server: HTTPServer, body: Iterator[bytes], content_type: str) -> None:
    def handler(request: Request) -> Response:
        return Response(body, content_type=content_type)

    server.expect_request(PATH, method="POST").respond_with_handler(handler)


def test_a_whole_reply_past_the_cap_is_a_response_error(httpserver: HTTPServer) -> None:
    _serve(httpserver, _endless(b'{"choices": [{"message": {"content": "'), "application/json")
    phraser = OpenAIChatPhraser(
        httpserver.url_for("/v1"), "m", "", timeout=10.0, max_response_bytes=CAP
    )
    with pytest.raises(PhraserResponseError, match="more than 65,536 bytes"):
        asyncio.run(phraser.phrase(_prompt()))


def test_a_stream_line_that_never_ends_is_a_response_error(httpserver: HTTPServer) -> None:
    _serve(httpserver, _endless(b'data: {"choices": [{"delta": {"content": "'), "text/event-stream")
    phraser = OpenAIChatPhraser(
        httpserver.url_for("/v1"), "m", "", timeout=10.0, max_response_bytes=CAP
    )

    async def read() -> list[str]:
        return [piece async for piece in phraser.phrase_stream(_prompt())]

    with pytest.raises(PhraserResponseError, match="more than 65,536 bytes"):
        asyncio.run(read())
