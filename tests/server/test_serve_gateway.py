"""vouched serve as a drop-in OpenAI gateway: the official openai SDK (sync,
async, streaming) against a real uvicorn on 127.0.0.1, the upstream a real
OpenAI-compatible server on 127.0.0.1 (pytest-httpserver)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import openai
import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from chatstream import completion_events
from vouched import OpenAIChatPhraser
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

Handler = Callable[[Request, dict[str, Any]], Response]


def _answer(text: str, *, model: str = "upstream-model-2026") -> Handler:
    """An upstream that answers ``text``, whole or streamed, with usage."""

    def handler(request: Request, body: dict[str, Any]) -> Response:
        if body.get("stream"):
            pieces = [text[i : i + 7] for i in range(0, len(text), 7)]
            events = completion_events(pieces, usage=USAGE)
            return Response(iter(events), content_type="text/event-stream")
        document = {"id": "x", "object": "chat.completion", "model": model, "usage": USAGE,
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                 "finish_reason": "stop"}]}  # fmt: skip
        return Response(json.dumps(document), content_type="application/json")

    return handler


def _failing(status: int, *, then: Handler | None = None, headers: Any = None) -> Handler:
    """An upstream that answers ``status`` once, then as ``then`` (or ``status`` again)."""
    calls = {"n": 0}

    def handler(request: Request, body: dict[str, Any]) -> Response:
        calls["n"] += 1
        if then is not None and calls["n"] > 1:
            return then(request, body)
        error = {"error": {"message": "SECRETWORD at http://internal.example/ failed"}}
        return Response(json.dumps(error), status=status, headers=headers,
                        content_type="application/json")  # fmt: skip

    return handler


@pytest.fixture
def gateway(httpserver: HTTPServer) -> Iterator[Callable[..., tuple[str, list[dict[str, Any]]]]]:
    """``gateway(handler, **config changes)``: a real vouched serve in front
    of the upstream ``handler``; yields its URL and the bodies the upstream got."""
    stack: list[Any] = []

    def start(handler: Handler, **changes: Any) -> tuple[str, list[dict[str, Any]]]:
        seen: list[dict[str, Any]] = []

        def record(request: Request) -> Response:
            body = json.loads(request.get_data())
            seen.append(body)
            return handler(request, body)

        httpserver.expect_request("/v1/chat/completions", method="POST").respond_with_handler(
            record
        )
        timeout = changes.pop("upstream_timeout", 10.0)
        # aiohttp, as serve's config builds its upstream clients
        phraser = OpenAIChatPhraser(httpserver.url_for("/v1"), "upstream-model", "",
                                    timeout=timeout, http_client="aiohttp")  # fmt: skip
        config = replace(load_config(EXAMPLES / "serve.toml"), phraser=phraser, **changes)
        app = create_app(config, clock=FakeClock(NOW))
        context = serving(app)
        url = context.__enter__()
        stack.append(context)
        return url, seen

    yield start
    for context in stack:
        context.__exit__(None, None, None)


def _sync(url: str, **kw: Any) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{url}/v1", api_key="unused", **kw)


def _async(url: str, call: Callable[[openai.AsyncOpenAI], Any], **kw: Any) -> Any:
    async def run() -> Any:
        async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="unused", **kw) as client:
            return await call(client)

    return asyncio.run(run())


def _streamed(url: str, **kw: Any) -> list[Any]:
    with _sync(url) as client:
        stream = client.chat.completions.create(
            model="any", messages=ASK, stream=True, extra_body=VOUCHED, **kw
        )
        return list(stream)


def _said(chunks: list[Any]) -> str:
    return "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)


# -- ok, partial, refused, audit -------------------------------------------------


def test_sync_sdk_gets_a_checked_answer_with_upstream_usage_and_model(gateway: Any) -> None:
    url, _ = gateway(_answer(GOOD))
    with _sync(url) as client:
        completion = client.chat.completions.create(model="any", messages=ASK, extra_body=VOUCHED)
    assert completion.choices[0].message.content == GOOD
    assert completion.choices[0].finish_reason == "stop"
    assert completion.model == "upstream-model-2026"
    assert completion.usage is not None
    assert completion.usage.total_tokens == USAGE["total_tokens"]


def test_async_sdk_gets_a_partial_answer_as_stop_with_status_partial(gateway: Any) -> None:
    url, _ = gateway(_answer(f"{GOOD} {BAD}"), on_fail=("partial",))
    completion = _async(url, lambda c: c.chat.completions.create(
        model="any", messages=ASK, extra_body=VOUCHED))  # fmt: skip
    assert completion.choices[0].finish_reason == "stop"
    assert completion.model_extra["vouched"]["status"] == "partial"
    assert "18" not in completion.choices[0].message.content


def test_a_refusal_is_content_filter_with_message_refusal(gateway: Any) -> None:
    url, _ = gateway(_answer(f"{GOOD} {BAD}"), on_fail=("refuse",))
    with _sync(url) as client:
        completion = client.chat.completions.create(model="any", messages=ASK, extra_body=VOUCHED)
    choice = completion.choices[0]
    assert choice.finish_reason == "content_filter"
    assert choice.message.refusal is not None
    assert choice.message.refusal.startswith("No answer is given")
    assert choice.message.content is None  # as OpenAI refuses: the refusal is not the answer
    assert completion.usage is not None
    assert completion.usage.total_tokens == USAGE["total_tokens"]


def test_a_streamed_refusal_is_never_glued_onto_sentences_already_sent(gateway: Any) -> None:
    url, _ = gateway(_answer(f"{GOOD} {BAD}"), on_fail=("refuse",))
    chunks = _streamed(url)
    assert _said(chunks) == GOOD  # the refusal is not content after a sentence
    refusals = [c.choices[0].delta.refusal for c in chunks if c.choices and
                c.choices[0].delta.refusal]  # fmt: skip
    assert len(refusals) == 1
    assert chunks[-1].choices[0].finish_reason == "content_filter"


def test_a_stream_refused_before_any_sentence_sends_the_refusal_as_refusal_only(
    gateway: Any,
) -> None:
    url, _ = gateway(_answer(BAD), on_fail=("refuse",))
    chunks = _streamed(url)
    assert _said(chunks) == ""  # no content: a client printing content shows no refusal as answer
    refusals = [c.choices[0].delta.refusal for c in chunks if c.choices and
                c.choices[0].delta.refusal]  # fmt: skip
    assert len(refusals) == 1
    assert refusals[0].startswith("No answer is given")
    assert chunks[-1].choices[0].finish_reason == "content_filter"


def test_audit_mode_passes_the_models_answer_through_with_the_verdict(gateway: Any) -> None:
    store = MemorySnapshotStore()
    url, _ = gateway(_answer(f"{GOOD} {BAD}"), mode="audit", store=store)
    with _sync(url) as client:
        completion = client.chat.completions.create(model="any", messages=ASK, extra_body=VOUCHED)
    assert completion.choices[0].message.content == f"{GOOD} {BAD}"
    assert completion.choices[0].finish_reason == "stop"
    verdict = completion.model_extra["vouched"]
    assert (verdict["mode"], verdict["status"]) == ("audit", "refused")
    assert verdict["findings"]


def test_an_audited_stream_sends_every_sentence_and_the_verdict(gateway: Any) -> None:
    url, seen = gateway(_answer(f"{GOOD} {BAD}"), mode="audit")
    chunks = _streamed(url)
    assert _said(chunks) == f"{GOOD} {BAD}"
    assert chunks[-1].model_extra["vouched"]["status"] == "refused"
    assert len(seen) == 1  # audit asks once: no retry


# -- the upstream failing ------------------------------------------------------------


def test_an_upstream_500_is_a_502_the_sdk_retries(gateway: Any) -> None:
    url, seen = gateway(_failing(500, then=_answer(GOOD)))
    with _sync(url, max_retries=2) as client:
        completion = client.chat.completions.create(model="any", messages=ASK, extra_body=VOUCHED)
    assert completion.choices[0].message.content == GOOD
    assert len(seen) == 2  # the first call failed, the SDK asked again


def test_an_upstream_500_reaches_the_client_as_code_without_the_upstreams_words(
    gateway: Any,
) -> None:
    url, _ = gateway(_failing(500))
    with _sync(url, max_retries=0) as client, pytest.raises(openai.APIStatusError) as caught:
        client.chat.completions.create(model="any", messages=ASK, extra_body=VOUCHED)
    assert caught.value.status_code == 502
    assert caught.value.code == "upstream_error"
    assert "SECRETWORD" not in caught.value.response.text
    assert "internal.example" not in caught.value.response.text


def test_an_upstream_429_is_a_429_with_its_retry_after(gateway: Any) -> None:
    url, _ = gateway(_failing(429, headers={"Retry-After": "7"}))
    with _sync(url, max_retries=0) as client, pytest.raises(openai.RateLimitError) as caught:
        client.chat.completions.create(model="any", messages=ASK, extra_body=VOUCHED)
    assert caught.value.response.headers["retry-after"] == "7"


def test_an_upstream_that_does_not_answer_in_time_is_a_504(gateway: Any) -> None:
    release = threading.Event()

    def hang(request: Request, body: dict[str, Any]) -> Response:
        release.wait(30)  # released when the test is done
        return _answer(GOOD)(request, body)

    url, _ = gateway(hang, upstream_timeout=0.2)
    try:
        with _sync(url, max_retries=0) as client, pytest.raises(openai.APIStatusError) as caught:
            client.chat.completions.create(model="any", messages=ASK, extra_body=VOUCHED)
    finally:
        release.set()
    assert caught.value.status_code == 504
    assert caught.value.code == "upstream_timeout"


def test_a_streamed_request_to_a_failing_upstream_is_an_http_error(gateway: Any) -> None:
    url, _ = gateway(_failing(503))
    with pytest.raises(openai.APIStatusError) as caught:
        _streamed(url)
    assert caught.value.status_code == 502


# -- usage, parameters, messages, models ------------------------------------------------


def test_a_stream_with_include_usage_ends_with_the_usage_chunk(gateway: Any) -> None:
    url, _ = gateway(_answer(GOOD))
    chunks = _streamed(url, stream_options={"include_usage": True})
    assert chunks[-1].choices == []
    assert chunks[-1].usage is not None
    assert chunks[-1].usage.total_tokens == USAGE["total_tokens"]


def test_sampling_parameters_and_stop_reach_the_upstream(gateway: Any) -> None:
    url, seen = gateway(_answer(GOOD))
    with _sync(url) as client:
        client.chat.completions.create(
            model="any", messages=ASK, extra_body=VOUCHED,
            temperature=0.3, top_p=0.9, max_tokens=50, stop=["\n\n"], seed=7,
        )  # fmt: skip
    (body,) = seen
    assert (body["temperature"], body["top_p"], body["max_tokens"]) == (0.3, 0.9, 50)
    assert (body["stop"], body["seed"]) == (["\n\n"], 7)


def test_n_above_one_is_a_clear_400(gateway: Any) -> None:
    url, seen = gateway(_answer(GOOD))
    with _sync(url) as client, pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="any", messages=ASK, extra_body=VOUCHED, n=2)
    assert caught.value.body["param"] == "n"  # type: ignore[index]
    assert seen == []


def test_tool_and_developer_messages_are_accepted_and_passed_on(gateway: Any) -> None:
    url, seen = gateway(_answer(GOOD))
    call = {"id": "call_1", "type": "function",
            "function": {"name": "weather", "arguments": "{}"}}  # fmt: skip
    messages = [
        {"role": "developer", "content": "Be brief."},
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": "see the data block"},
        *ASK,
    ]
    with _sync(url) as client:
        client.chat.completions.create(model="any", messages=messages, extra_body=VOUCHED)
    (body,) = seen
    assert body["messages"][1:] == messages


def test_models_lists_the_configured_upstream_model(gateway: Any) -> None:
    url, _ = gateway(_answer(GOOD))
    with _sync(url) as client:
        listed = client.models.list()
    assert [m.id for m in listed.data] == ["upstream-model"]


# -- per-request policy -------------------------------------------------------------


def test_a_request_may_choose_audit_only_when_the_config_allows_it(gateway: Any) -> None:
    url, _ = gateway(_answer(f"{GOOD} {BAD}"))
    asked = {"vouched": {"facts": BERLIN, "mode": "audit"}}
    with _sync(url) as client, pytest.raises(openai.PermissionDeniedError) as caught:
        client.chat.completions.create(model="any", messages=ASK, extra_body=asked)
    assert caught.value.body["param"] == "vouched.mode"  # type: ignore[index]


def test_an_allowed_on_fail_override_decides_that_answer(gateway: Any) -> None:
    url, seen = gateway(_answer(f"{GOOD} {BAD}"),
                        allow_request_overrides=("on_fail", "mode"))  # fmt: skip
    asked = {"vouched": {"facts": BERLIN, "on_fail": "partial"}}
    with _sync(url) as client:
        completion = client.chat.completions.create(model="any", messages=ASK, extra_body=asked)
    assert completion.model_extra["vouched"]["status"] == "partial"
    assert len(seen) == 1  # partial at once, no retry as the config's plan would


def test_the_config_reads_mode_guard_policy_and_overrides(tmp_path: Any) -> None:
    text = (
        (EXAMPLES / "serve.toml")
        .read_text(encoding="utf-8")
        .replace(
            "[answer]\n",
            '[answer]\nmode = "audit"\non_guard_error = "open"\n'
            'allow_request_overrides = ["mode", "on_fail"]\nmax_queries = 4\n',
        )
    )
    for name in ("lexicon.json", "catalog.csv", "contract.toml", "facts.json"):
        (tmp_path / name).write_bytes((EXAMPLES / name).read_bytes())
    (tmp_path / "serve.toml").write_text(text, encoding="utf-8")
    config = load_config(tmp_path / "serve.toml")
    assert (config.mode, config.on_guard_error) == ("audit", "open")
    assert config.allow_request_overrides == ("mode", "on_fail")
    assert config.max_queries == 4
