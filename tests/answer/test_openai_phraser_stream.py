"""OpenAIChatPhraser.phrase_stream: server-sent events in the chat-completions chunk format."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from chatstream import chunk, completion_events, events
from factories import berlin_prompt
from vouched import (
    OpenAIChatPhraser,
    PhraserError,
    PhraserHTTPError,
    PhraserResponseError,
    PhraserStreamError,
    PhraserTimeoutError,
    StreamEnd,
)
from vouched.testing import virtual_time

PATH = "/v1/chat/completions"


_prompt = berlin_prompt


async def _collect(phraser: OpenAIChatPhraser, end: StreamEnd | None = None) -> list[str]:
    return [piece async for piece in phraser.phrase_stream(_prompt(), end)]


def _serve(server: HTTPServer, body: Callable[[], Iterator[bytes]], **kw: Any) -> None:
    def handler(request: Request) -> Response:
        return Response(body(), content_type="text/event-stream", **kw)

    server.expect_request(PATH, method="POST").respond_with_handler(handler)


def _phraser(server: HTTPServer, **kw: Any) -> OpenAIChatPhraser:
    return OpenAIChatPhraser(server.url_for("/v1"), "local-model", timeout=5.0, **kw)


def test_pieces_arrive_in_order(httpserver: HTTPServer) -> None:
    _serve(httpserver, lambda: iter(completion_events(["It is ", "21.4 °C", " in Berlin."])))
    pieces = asyncio.run(_collect(_phraser(httpserver)))
    assert pieces == ["It is ", "21.4 °C", " in Berlin."]


def test_finish_reason_and_usage_are_read(httpserver: HTTPServer) -> None:
    usage = {"prompt_tokens": 50, "completion_tokens": 7, "total_tokens": 57}
    _serve(httpserver, lambda: iter(completion_events(["ok."], usage=usage)))
    end = StreamEnd()
    asyncio.run(_collect(_phraser(httpserver), end))
    assert end.finish_reason == "stop"
    assert dict(end.usage) == usage


def test_the_request_asks_for_a_stream_with_usage(httpserver: HTTPServer) -> None:
    seen: list[dict[str, Any]] = []

    def handler(request: Request) -> Response:
        seen.append(json.loads(request.get_data()))
        return Response(iter(completion_events(["ok."])), content_type="text/event-stream")

    httpserver.expect_request(PATH, method="POST").respond_with_handler(handler)
    asyncio.run(_collect(_phraser(httpserver)))
    assert seen[0]["stream"] is True
    assert seen[0]["stream_options"] == {"include_usage": True}


def test_a_stream_without_done_but_with_a_finish_reason_is_complete(
    httpserver: HTTPServer,
) -> None:
    # Some llama.cpp builds close the stream after the finish reason.
    _serve(httpserver, lambda: iter(completion_events(["ok."], done=False)))
    assert asyncio.run(_collect(_phraser(httpserver))) == ["ok."]


def test_a_stream_that_ends_before_the_model_finished_is_a_stream_error(
    httpserver: HTTPServer,
) -> None:
    _serve(httpserver, lambda: events([chunk("It is "), chunk("21")]))
    with pytest.raises(PhraserStreamError, match="ended before"):
        asyncio.run(_collect(_phraser(httpserver)))


def test_an_error_event_mid_stream_is_a_stream_error(httpserver: HTTPServer) -> None:
    _serve(httpserver, lambda: events([chunk("It is "), {"error": {"message": "out of memory"}}]))
    with pytest.raises(PhraserStreamError, match="out of memory"):
        asyncio.run(_collect(_phraser(httpserver)))


def test_an_event_that_is_not_json_is_a_response_error(httpserver: HTTPServer) -> None:
    _serve(httpserver, lambda: events(["{not json"]))
    with pytest.raises(PhraserResponseError, match="not JSON"):
        asyncio.run(_collect(_phraser(httpserver)))


def test_an_http_error_status_is_a_typed_http_error(httpserver: HTTPServer) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_data("overloaded", status=503)
    with pytest.raises(PhraserHTTPError) as caught:
        asyncio.run(_collect(_phraser(httpserver)))
    assert caught.value.status == 503


def test_an_empty_answer_is_a_response_error(httpserver: HTTPServer) -> None:
    _serve(httpserver, lambda: iter(completion_events([])))
    with pytest.raises(PhraserResponseError, match="empty"):
        asyncio.run(_collect(_phraser(httpserver)))


def _stalling(pieces: list[bytes], *, break_off: bool = False) -> httpx.MockTransport:
    async def body() -> AsyncIterator[bytes]:
        for piece in pieces:
            yield piece
        if break_off:
            raise httpx.RemoteProtocolError("peer closed connection")
        await asyncio.Event().wait()  # the model server goes quiet

    async def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body(), headers={"content-type": "text/event-stream"})

    return httpx.MockTransport(handler)


def _virtual(coroutine: Any) -> Any:
    with virtual_time() as loop:
        return loop.run(coroutine)


def test_a_stream_that_stalls_is_a_timeout_naming_the_stall() -> None:
    transport = _stalling(list(events([chunk("It is ")])))
    phraser = OpenAIChatPhraser(
        "http://127.0.0.1:9/v1", "m", timeout=60, stall_timeout=2, transport=transport
    )
    got: list[str] = []

    async def read() -> None:
        async for piece in phraser.phrase_stream(_prompt()):
            got.append(piece)

    async def main() -> float:
        loop = asyncio.get_running_loop()
        began = loop.time()
        with pytest.raises(PhraserTimeoutError, match="stalled") as caught:
            await read()
        assert caught.value.seconds == 2
        return loop.time() - began

    assert _virtual(main()) == pytest.approx(2)
    assert got == ["It is "]


def test_a_stream_that_trickles_past_the_whole_deadline_is_a_timeout() -> None:
    async def body() -> AsyncIterator[bytes]:
        while True:
            for piece in events([chunk("word ")]):
                yield piece
            await asyncio.sleep(1)  # virtual time

    async def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body())

    phraser = OpenAIChatPhraser(
        "http://127.0.0.1:9/v1",
        "m",
        timeout=10,
        stall_timeout=2,
        transport=httpx.MockTransport(handler),
    )

    with pytest.raises(PhraserTimeoutError, match="did not finish within 10 s"):
        _virtual(_collect(phraser))


def test_a_connection_that_breaks_mid_stream_is_a_stream_error() -> None:
    transport = _stalling(list(events([chunk("It is ")])), break_off=True)
    phraser = OpenAIChatPhraser("http://127.0.0.1:9/v1", "m", transport=transport)
    with pytest.raises(PhraserStreamError, match="broke off"):
        _virtual(_collect(phraser))


def test_a_server_that_cannot_be_reached_is_a_phraser_error() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    phraser = OpenAIChatPhraser("http://127.0.0.1:9/v1", "m", transport=httpx.MockTransport(refuse))
    with pytest.raises(PhraserError, match="unreachable"):
        asyncio.run(_collect(phraser))
