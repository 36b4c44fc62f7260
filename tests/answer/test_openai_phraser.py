"""OpenAIChatPhraser against a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator

import httpx
import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from factories import berlin_prompt
from vouched import (
    Fact,
    Grounder,
    OpenAIChatPhraser,
    PhraserError,
    PhraserHTTPError,
    PhraserResponseError,
    PhraserTimeoutError,
)
from vouched.testing import FakeClock

PATH = "/v1/chat/completions"


@pytest.fixture
def hanging_server(httpserver: HTTPServer) -> Iterator[HTTPServer]:
    """The model server holds every request until the test ends (30 s at most,
    so a client that ignored its timeout fails instead of hanging)."""
    release = threading.Event()

    def hang(request: Request) -> Response:
        release.wait(timeout=30)
        return Response(json.dumps(_completion("late")), content_type="application/json")

    httpserver.expect_request(PATH, method="POST").respond_with_handler(hang)
    yield httpserver
    release.set()


_prompt = berlin_prompt


def _completion(content: object) -> dict[str, object]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }


def _phraser(
    server: HTTPServer, *, api_key: str | None = None, timeout: float = 5.0
) -> OpenAIChatPhraser:
    return OpenAIChatPhraser(server.url_for("/v1"), "local-model", api_key, timeout=timeout)


def _run(phraser: OpenAIChatPhraser) -> str:
    return asyncio.run(phraser.phrase(_prompt()))


def test_returns_the_first_choice_message_content(httpserver: HTTPServer) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_json(
        _completion("It is 21.4 °C in Berlin.")
    )
    assert _run(_phraser(httpserver)) == "It is 21.4 °C in Berlin."


def test_sends_model_messages_and_temperature_zero(httpserver: HTTPServer) -> None:
    seen: list[dict[str, object]] = []

    def handler(request: Request) -> Response:
        seen.append(json.loads(request.get_data()))
        return Response(json.dumps(_completion("ok")), content_type="application/json")

    httpserver.expect_request(PATH, method="POST").respond_with_handler(handler)
    _run(_phraser(httpserver))
    body = seen[0]
    assert body["model"] == "local-model"
    assert body["temperature"] == 0.0
    assert body["messages"] == _prompt().messages()


def test_sends_the_api_key_as_a_bearer_token(httpserver: HTTPServer) -> None:
    httpserver.expect_request(
        PATH, method="POST", headers={"Authorization": "Bearer sk-test"}
    ).respond_with_json(_completion("ok"))
    assert _run(_phraser(httpserver, api_key="sk-test")) == "ok"


def test_leaky_answer_is_returned_as_is_for_the_scanner_to_judge(httpserver: HTTPServer) -> None:
    leak = "It is 21.4 °C (observed_at 2026-11-29T12:00:00Z, source open-meteo) and 18 km/h wind."
    httpserver.expect_request(PATH, method="POST").respond_with_json(_completion(leak))
    assert _run(_phraser(httpserver)) == leak


def test_server_error_is_a_typed_http_error_with_status(httpserver: HTTPServer) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_data(
        "upstream exploded", status=500
    )
    with pytest.raises(PhraserHTTPError) as caught:
        _run(_phraser(httpserver))
    assert caught.value.status == 500
    assert caught.value.body == "upstream exploded"


def test_slow_server_is_a_typed_timeout(hanging_server: HTTPServer) -> None:
    with pytest.raises(PhraserTimeoutError) as caught:
        _run(_phraser(hanging_server, timeout=0.15))
    assert caught.value.seconds == 0.15


def test_body_that_is_not_json_is_a_response_error(httpserver: HTTPServer) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_data("<html>gateway</html>")
    with pytest.raises(PhraserResponseError, match="not JSON"):
        _run(_phraser(httpserver))


@pytest.mark.parametrize(
    "document",
    [
        {"choices": []},
        {"object": "chat.completion"},
        {"choices": [{"message": {"role": "assistant"}}]},
        {"choices": [{"message": {"content": 42}}]},
        ["not", "an", "object"],
    ],
)
def test_json_without_message_content_is_a_response_error(
    httpserver: HTTPServer, document: object
) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_json(document)
    with pytest.raises(PhraserResponseError):
        _run(_phraser(httpserver))


def test_empty_content_is_a_response_error(httpserver: HTTPServer) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_json(_completion("  "))
    with pytest.raises(PhraserResponseError, match="empty"):
        _run(_phraser(httpserver))


def test_unreachable_server_is_a_phraser_error() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    phraser = OpenAIChatPhraser("http://127.0.0.1:9/v1", "m", transport=httpx.MockTransport(refuse))
    with pytest.raises(PhraserError, match="unreachable"):
        _run(phraser)


def test_a_given_client_is_used_and_left_open(httpserver: HTTPServer) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_json(_completion("ok"))

    async def main() -> bool:
        async with httpx.AsyncClient() as client:
            phraser = OpenAIChatPhraser(httpserver.url_for("/v1"), "m", client=client)
            assert await phraser.phrase(_prompt()) == "ok"
            return client.is_closed

    assert asyncio.run(main()) is False


def test_repr_never_shows_the_api_key() -> None:
    assert "sk-secret" not in repr(OpenAIChatPhraser("http://x/v1", "m", api_key="sk-secret"))


# -- through the Grounder: a scripted model server behind the whole answer path ----------


class _Weather:
    name = "open-meteo"

    async def fetch(self, query: object) -> list[Fact]:
        return [_prompt().grounded[0]]


def _grounder(server: HTTPServer, *, timeout: float = 5.0, on_fail: str = "retry") -> Grounder:
    return Grounder(
        [_Weather()],
        phraser=_phraser(server, timeout=timeout),
        clock=FakeClock("2026-11-29T12:05:00Z"),
        on_fail=on_fail,
    )


def test_a_leaky_model_answer_is_caught_and_the_retry_is_used(httpserver: HTTPServer) -> None:
    replies = iter(
        [
            "It is 21.4 °C in Berlin, observed_at 2026-11-29T12:00:00Z, with 18 km/h winds.",
            "It is 21.4 °C in Berlin.",
        ]
    )
    bodies: list[dict[str, object]] = []

    def handler(request: Request) -> Response:
        bodies.append(json.loads(request.get_data()))
        return Response(json.dumps(_completion(next(replies))), content_type="application/json")

    httpserver.expect_request(PATH, method="POST").respond_with_handler(handler)
    answer = _grounder(httpserver).answer_sync("How warm is it in Berlin?")
    assert str(answer.status) == "ok"
    assert answer.text == "It is 21.4 °C in Berlin."
    assert answer.attempts == 2
    messages = bodies[1]["messages"]
    assert isinstance(messages, list)
    retry_prompt = messages[1]["content"]
    assert '"problems"' in retry_prompt
    assert "18 km/h" in retry_prompt


def test_a_model_server_500_becomes_a_typed_refusal(httpserver: HTTPServer) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_data("boom", status=500)
    answer = _grounder(httpserver).answer_sync("How warm is it in Berlin?")
    assert str(answer.status) == "refused"
    assert str(answer.refusal) == "phraser_error"
    assert "HTTP 500" in answer.reasons[0]


def test_a_slow_model_server_becomes_a_timeout_refusal(hanging_server: HTTPServer) -> None:
    answer = _grounder(hanging_server, timeout=0.15).answer_sync("How warm is it in Berlin?")
    assert str(answer.refusal) == "phraser_timeout"


def test_a_malformed_model_body_becomes_a_typed_refusal(httpserver: HTTPServer) -> None:
    httpserver.expect_request(PATH, method="POST").respond_with_json({"choices": []})
    answer = _grounder(httpserver).answer_sync("How warm is it in Berlin?")
    assert str(answer.refusal) == "phraser_error"
    assert "PhraserResponseError" in answer.reasons[0]


def test_a_404_keeps_the_servers_message_and_the_url_in_the_reasons(
    httpserver: HTTPServer,
) -> None:
    body = {"error": {"message": "model 'local-model' not found", "type": "not_found"}}
    httpserver.expect_request(PATH, method="POST").respond_with_json(body, status=404)
    answer = _grounder(httpserver).answer_sync("How warm is it in Berlin?")
    assert str(answer.refusal) == "phraser_error"
    assert answer.reasons == (
        f"PhraserHTTPError: model 'local-model' not found at {httpserver.url_for(PATH)} (HTTP 404)",
    )


def test_an_unreachable_server_names_the_url_and_claims_nothing_was_phrased() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    phraser = OpenAIChatPhraser(
        "http://127.0.0.1:9/v1", "m", "", transport=httpx.MockTransport(refuse)
    )
    grounder = Grounder([_Weather()], phraser=phraser, clock=FakeClock("2026-11-29T12:05:00Z"))
    answer = grounder.answer_sync("How warm is it in Berlin?")
    assert "http://127.0.0.1:9/v1/chat/completions" in answer.reasons[0]
    assert "phrased" not in answer.text
    assert answer.text.startswith("No answer is given")


def test_no_key_given_reads_openai_api_key_and_base_url(httpserver: HTTPServer) -> None:
    seen: list[str | None] = []

    def handler(request: Request) -> Response:
        seen.append(request.headers.get("authorization"))
        return Response(json.dumps(_completion("ok")), content_type="application/json")

    httpserver.expect_request(PATH, method="POST").respond_with_handler(handler)
    environ = {"OPENAI_API_KEY": "sk-from-env", "OPENAI_BASE_URL": httpserver.url_for("/v1")}
    phraser = OpenAIChatPhraser(None, "m", environ=environ)
    assert _run(phraser) == "ok"
    assert seen == ["Bearer sk-from-env"]


def test_an_empty_key_sends_none_even_when_the_environment_has_one() -> None:
    phraser = OpenAIChatPhraser("http://x/v1", "m", "", environ={"OPENAI_API_KEY": "sk-env"})
    assert "authorization" not in phraser._request_headers()
