"""OpenAIChatPhraser behaves the same over either HTTP client (``http_client``):
httpx (the default) and aiohttp (vouched serve's). Each test runs on both,
against a real server on 127.0.0.1: pytest-httpserver for whole answers, a raw
asyncio server on the test's own loop where the server must stall or break
off (on virtual time, so deadlines are exact and cost no waiting)."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from chatstream import chunk, completion_events, events
from factories import berlin_prompt
from vouched import (
    ConfigError,
    MissingExtraError,
    OpenAIChatPhraser,
    PhraserConnectionError,
    PhraserHTTPError,
    PhraserResponseError,
    PhraserStreamError,
    PhraserTimeoutError,
    StreamEnd,
)
from vouched.testing import virtual_time

PATH = "/v1/chat/completions"
CLIENTS = pytest.mark.parametrize("http_client", ["httpx", "aiohttp"])
USAGE = {"prompt_tokens": 50, "completion_tokens": 7, "total_tokens": 57}


_prompt = berlin_prompt


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-9",
        "model": "local-model",
        "usage": USAGE,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"content": content}}],
    }


def _phraser(url: str, http_client: Any, **kw: Any) -> OpenAIChatPhraser:
    kw.setdefault("timeout", 10.0)
    return OpenAIChatPhraser(url, "local-model", "sk-test", http_client=http_client, **kw)


async def _whole(phraser: OpenAIChatPhraser, end: StreamEnd | None = None) -> str:
    try:
        return await phraser.phrase_told(_prompt(), StreamEnd() if end is None else end)
    finally:
        await phraser.aclose()


async def _streamed(phraser: OpenAIChatPhraser, end: StreamEnd | None = None) -> list[str]:
    try:
        return [piece async for piece in phraser.phrase_stream(_prompt(), end)]
    finally:
        await phraser.aclose()


@CLIENTS
def test_an_answer_its_usage_and_the_request_sent(httpserver: HTTPServer, http_client: Any) -> None:
    seen: list[Request] = []

    def handler(request: Request) -> Response:
        seen.append(request)
        return Response(json.dumps(_completion("It is 21.4 °C.")), content_type="application/json")

    httpserver.expect_request(PATH, method="POST").respond_with_handler(handler)
    end = StreamEnd()
    text = asyncio.run(_whole(_phraser(httpserver.url_for("/v1"), http_client), end))
    assert text == "It is 21.4 °C."
    assert dict(end.usage) == USAGE
    assert seen[0].headers["authorization"] == "Bearer sk-test"
    assert seen[0].headers["content-type"] == "application/json"
    assert json.loads(seen[0].get_data())["model"] == "local-model"


@CLIENTS
def test_an_error_status_keeps_the_servers_message_and_retry_after(
    httpserver: HTTPServer, http_client: Any
) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_json(
        {"error": {"message": "slow down"}}, status=429, headers={"Retry-After": "7"}
    )
    with pytest.raises(PhraserHTTPError, match="slow down") as caught:
        asyncio.run(_whole(_phraser(httpserver.url_for("/v1"), http_client)))
    assert (caught.value.status, caught.value.retry_after) == (429, "7")


@CLIENTS
def test_a_body_that_is_not_json_is_a_response_error(
    httpserver: HTTPServer, http_client: Any
) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_data("<html>oops</html>")
    with pytest.raises(PhraserResponseError, match="not JSON"):
        asyncio.run(_whole(_phraser(httpserver.url_for("/v1"), http_client)))


@CLIENTS
def test_a_body_past_the_cap_is_a_response_error(httpserver: HTTPServer, http_client: Any) -> None:
    big = json.dumps(_completion("x" * 5000))
    httpserver.expect_request(PATH, method="POST").respond_with_data(big)
    phraser = _phraser(httpserver.url_for("/v1"), http_client, max_response_bytes=1024)
    with pytest.raises(PhraserResponseError, match="more than 1,024 bytes"):
        asyncio.run(_whole(phraser))


@CLIENTS
def test_a_redirect_is_not_followed(httpserver: HTTPServer, http_client: Any) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_data(
        "", status=307, headers={"Location": httpserver.url_for("/elsewhere")}
    )
    httpserver.expect_request("/elsewhere").respond_with_data(json.dumps(_completion("moved")))
    with pytest.raises(PhraserResponseError, match="not JSON"):
        asyncio.run(_whole(_phraser(httpserver.url_for("/v1"), http_client)))
    assert [entry[0].path for entry in httpserver.log] == [PATH]


@CLIENTS
def test_a_closed_port_is_unreachable(http_client: Any) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    phraser = _phraser(f"http://127.0.0.1:{port}/v1", http_client)
    with pytest.raises(PhraserConnectionError, match="unreachable"):
        asyncio.run(_whole(phraser))


@CLIENTS
def test_streamed_pieces_and_usage(httpserver: HTTPServer, http_client: Any) -> None:
    body = completion_events(["It is ", "21.4 °C", " in Berlin."], usage=USAGE)
    httpserver.expect_request(PATH, method="POST").respond_with_handler(
        lambda _: Response(iter(body), content_type="text/event-stream")
    )
    end = StreamEnd()
    pieces = asyncio.run(_streamed(_phraser(httpserver.url_for("/v1"), http_client), end))
    assert pieces == ["It is ", "21.4 °C", " in Berlin."]
    assert (end.finish_reason, dict(end.usage)) == ("stop", USAGE)


@CLIENTS
def test_a_stream_refused_with_a_status_is_an_http_error(
    httpserver: HTTPServer, http_client: Any
) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_json(
        {"error": {"message": "model 'x' not found"}}, status=404
    )
    with pytest.raises(PhraserHTTPError, match="model 'x' not found") as caught:
        asyncio.run(_streamed(_phraser(httpserver.url_for("/v1"), http_client)))
    assert caught.value.status == 404


# -- a raw server on the test's loop: stalls and breaks ------------------------------

Reply = Callable[[asyncio.StreamWriter], Awaitable[None]]


@asynccontextmanager
async def _raw_server(reply: Reply) -> AsyncIterator[str]:
    """A server on 127.0.0.1 that reads one request and runs ``reply``; its URL."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        await reader.readexactly(length)
        try:
            await reply(writer)
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.close()


_STREAM_HEAD = (
    b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
)


def _chunked(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


def _first_piece_then(after: Callable[[asyncio.StreamWriter], Awaitable[None]]) -> Reply:
    async def reply(writer: asyncio.StreamWriter) -> None:
        writer.write(_STREAM_HEAD + _chunked(next(events([chunk("It is ")]))))
        await writer.drain()
        await after(writer)

    return reply


async def _go_quiet(_writer: asyncio.StreamWriter) -> None:
    await asyncio.Event().wait()


async def _break_off(writer: asyncio.StreamWriter) -> None:
    writer.write(b"ff\r\nnot all of it")  # a chunk cut short, then the connection closes
    await writer.drain()


async def _read_into(phraser: OpenAIChatPhraser, got: list[str]) -> None:
    async for piece in phraser.phrase_stream(_prompt()):
        got.append(piece)


@CLIENTS
def test_a_stream_that_stalls_is_a_timeout_at_the_stall_timeout(http_client: Any) -> None:
    got: list[str] = []

    async def main() -> float:
        async with _raw_server(_first_piece_then(_go_quiet)) as url:
            phraser = _phraser(url, http_client, timeout=60, stall_timeout=2)
            loop = asyncio.get_running_loop()
            began = loop.time()
            with pytest.raises(PhraserTimeoutError, match="stalled") as caught:
                await _read_into(phraser, got)
            await phraser.aclose()
            assert caught.value.seconds == 2
            return loop.time() - began

    with virtual_time() as loop:
        assert loop.run(main()) == pytest.approx(2)
    assert got == ["It is "]


@CLIENTS
def test_a_server_that_never_answers_is_a_timeout_at_the_deadline(http_client: Any) -> None:
    async def never(_writer: asyncio.StreamWriter) -> None:
        await asyncio.Event().wait()

    async def main() -> float:
        async with _raw_server(never) as url:
            phraser = _phraser(url, http_client, timeout=5)
            loop = asyncio.get_running_loop()
            began = loop.time()
            with pytest.raises(PhraserTimeoutError, match="within 5 s"):
                await _whole(phraser)
            return loop.time() - began

    with virtual_time() as loop:
        assert loop.run(main()) == pytest.approx(5)


@CLIENTS
def test_a_stream_that_breaks_off_is_a_stream_error(http_client: Any) -> None:
    async def main() -> list[str]:
        got: list[str] = []
        async with _raw_server(_first_piece_then(_break_off)) as url:
            phraser = _phraser(url, http_client)
            with pytest.raises(PhraserStreamError, match="broke off"):
                await _read_into(phraser, got)
            await phraser.aclose()
        return got

    with virtual_time() as loop:
        assert loop.run(main()) == ["It is "]


# -- the client's life ------------------------------------------------------------------


def test_aiohttp_builds_one_session_per_loop_and_aclose_closes_it(
    httpserver: HTTPServer,
) -> None:
    body = json.dumps(_completion("ok."))
    httpserver.expect_request(PATH, method="POST").respond_with_data(body)
    phraser = _phraser(httpserver.url_for("/v1"), "aiohttp")

    async def twice() -> tuple[bool, bool]:
        await phraser.phrase(_prompt())
        first = phraser._wire()
        await phraser.phrase(_prompt())
        same = phraser._wire() is first
        await phraser.aclose()
        return same, first.closed

    assert asyncio.run(twice()) == (True, True)


def test_an_httpx_transport_with_aiohttp_is_a_config_error() -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200))
    with pytest.raises(ConfigError, match="http_client"):
        OpenAIChatPhraser("http://x/v1", "m", http_client="aiohttp", transport=transport)


def test_an_unknown_http_client_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="http_client"):
        OpenAIChatPhraser("http://x/v1", "m", http_client="requests")  # type: ignore[arg-type]


def test_without_aiohttp_the_error_names_the_server_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "aiohttp", None)  # as on a machine without vouched[server]
    with pytest.raises(MissingExtraError, match=r"pip install 'vouched\[server\]'"):
        OpenAIChatPhraser("http://x/v1", "m", http_client="aiohttp")
