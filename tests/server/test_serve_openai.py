"""POST /v1/chat/completions with the official OpenAI SDK as the client.

The SDK talks to the app in-process (its http_client on httpx's ASGI
transport); the upstream model, where one is needed, is a real
OpenAI-compatible server on 127.0.0.1 (pytest-httpserver). One smoke test
runs the SDK against a real uvicorn.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import httpx
import openai
import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from chatstream import completion_events
from vouched import OpenAIChatPhraser, SqliteSnapshotStore
from vouched._server._app import create_app
from vouched._server._config import ServeConfig, load_config
from vouched.testing import FakeClock

from ._serving import EXAMPLES, NOW, serving

FACTS = json.loads((EXAMPLES / "facts.json").read_text(encoding="utf-8"))
BERLIN = [f for f in FACTS if f["subject"] == "Berlin"]
GOOD = "The temperature in Berlin is 21.4 °C."
BAD = "Winds reach 18 km/h."
ASK = [{"role": "user", "content": "How warm is it in Berlin?"}]


def _config(**changes: object) -> ServeConfig:
    return replace(load_config(EXAMPLES / "serve.toml"), **changes)


def _sdk(app: Any, call: Callable[[openai.AsyncOpenAI], Any]) -> Any:
    """``call(client)`` with an AsyncOpenAI client whose requests reach ``app`` in-process."""

    async def run() -> Any:
        http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app))
        async with openai.AsyncOpenAI(
            base_url="http://127.0.0.1/v1", api_key="unused", http_client=http, max_retries=0
        ) as client:
            return await call(client)

    return asyncio.run(run())


def _upstream(server: HTTPServer, answers: list[str], seen: list[dict[str, Any]]) -> None:
    """An OpenAI-compatible model server: ``answers`` in turn, whole or streamed."""

    def handler(request: Request) -> Response:
        body = json.loads(request.get_data())
        seen.append(body)
        text = answers[min(len(seen) - 1, len(answers) - 1)]
        if body.get("stream"):
            pieces = [text[i : i + 5] for i in range(0, len(text), 5)]
            return Response(iter(completion_events(pieces)), content_type="text/event-stream")
        document = {"choices": [{"index": 0, "message": {"content": text}}]}
        return Response(json.dumps(document), content_type="application/json")

    server.expect_request("/v1/chat/completions", method="POST").respond_with_handler(handler)


def _app_with_model(server: HTTPServer, answers: list[str], **changes: object) -> tuple[Any, list]:
    seen: list[dict[str, Any]] = []
    _upstream(server, answers, seen)
    phraser = OpenAIChatPhraser(server.url_for("/v1"), "upstream-model", "", timeout=10)
    app = create_app(_config(phraser=phraser, **changes), clock=FakeClock(NOW))
    return app, seen


def test_facts_in_the_request_answer_a_chat_completion_that_passed() -> None:
    app = create_app(_config(), clock=FakeClock(NOW))
    completion = _sdk(
        app,
        lambda c: c.chat.completions.create(
            model="any", messages=ASK, extra_body={"vouched": {"facts": BERLIN}}
        ),
    )
    assert completion.object == "chat.completion"
    choice = completion.choices[0]
    assert "21.4 °C" in choice.message.content
    assert choice.finish_reason == "stop"
    summary = completion.model_extra["vouched"]
    assert summary["status"] == "ok"
    assert [a["action"] for a in summary["attempts"]] == ["accept"]
    assert 0 <= summary["grounding_rate"] <= 1


def test_a_query_gathers_facts_from_the_configured_sources() -> None:
    app = create_app(_config(), clock=FakeClock(NOW))
    completion = _sdk(
        app,
        lambda c: c.chat.completions.create(
            model="any", messages=ASK, extra_body={"vouched": {"query": {"subject": "Berlin"}}}
        ),
    )
    assert "21.4 °C" in completion.choices[0].message.content


def test_the_upstream_model_gets_the_facts_as_one_data_block_and_the_callers_messages(
    httpserver: HTTPServer,
) -> None:
    app, seen = _app_with_model(httpserver, [GOOD])
    _sdk(
        app,
        lambda c: c.chat.completions.create(
            model="any", messages=ASK, extra_body={"vouched": {"facts": BERLIN}}
        ),
    )
    (body,) = seen
    system, *rest = body["messages"]
    assert system["role"] == "system"
    assert system["content"].count("\n<data>\n") == 1  # one block (the rules name its tags)
    assert "21.4" in system["content"]
    assert rest == ASK


def test_a_reply_with_an_unvouched_number_is_refused_as_content_filter(
    httpserver: HTTPServer,
) -> None:
    app, _ = _app_with_model(httpserver, [f"{GOOD} {BAD}"])
    completion = _sdk(
        app,
        lambda c: c.chat.completions.create(
            model="any", messages=ASK, extra_body={"vouched": {"facts": BERLIN}}
        ),
    )
    choice = completion.choices[0]
    assert choice.finish_reason == "content_filter"
    assert choice.message.content is None  # OpenAI's refusal shape: the words are in refusal
    assert choice.message.refusal is not None
    assert "18" not in choice.message.refusal
    summary = completion.model_extra["vouched"]
    assert summary["status"] == "refused"
    assert [a["action"] for a in summary["attempts"]] == ["retry", "refuse"]  # as on_fail says
    assert all(set(f) == {"kind", "start", "end", "subject", "attribute"} for f in
               summary["findings"])  # fmt: skip
    shown = completion.model_dump(exclude={"id"})  # the id is random hex: it may hold "18"
    assert "18" not in json.dumps(shown, ensure_ascii=False)


def test_a_stream_sends_each_sentence_once_it_passed_and_ends_with_done(
    httpserver: HTTPServer,
) -> None:
    app, _ = _app_with_model(httpserver, [f"{GOOD} {BAD} The humidity is 63%."],
                             on_fail=("partial",))  # fmt: skip

    async def read(client: openai.AsyncOpenAI) -> list[Any]:
        stream = await client.chat.completions.create(
            model="any", messages=ASK, stream=True, extra_body={"vouched": {"facts": BERLIN}}
        )
        return [chunk async for chunk in stream]

    chunks = _sdk(app, read)
    assert all(c.object == "chat.completion.chunk" for c in chunks)
    said = "".join(c.choices[0].delta.content or "" for c in chunks)
    assert said.startswith(GOOD)
    assert "18" not in said
    assert "63" not in said  # after a failing sentence, a stream says no more
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert chunks[-1].model_extra["vouched"]["status"] == "partial"


def test_a_streamed_first_attempt_is_held_until_it_passed(httpserver: HTTPServer) -> None:
    app, seen = _app_with_model(httpserver, [f"{GOOD} {BAD}", GOOD])  # on_fail = retry

    async def read(client: openai.AsyncOpenAI) -> list[Any]:
        stream = await client.chat.completions.create(
            model="any", messages=ASK, stream=True, extra_body={"vouched": {"facts": BERLIN}}
        )
        return [chunk async for chunk in stream]

    chunks = _sdk(app, read)
    said = "".join(c.choices[0].delta.content or "" for c in chunks)
    assert said == GOOD  # the first attempt's good sentence is not said twice
    assert len(seen) == 2


def test_a_request_without_facts_or_query_is_a_400_in_openais_error_shape() -> None:
    app = create_app(_config(), clock=FakeClock(NOW))

    async def call(client: openai.AsyncOpenAI) -> Any:
        return await client.chat.completions.create(model="any", messages=ASK)

    with pytest.raises(openai.BadRequestError) as caught:
        _sdk(app, call)
    error = caught.value.body
    assert isinstance(error, dict)
    assert set(error) == {"message", "type", "param", "code", "field"}  # one shape, all routes
    assert error["param"] == "vouched"


def test_an_unknown_lexicon_is_an_openai_error_naming_the_field() -> None:
    app = create_app(_config(), clock=FakeClock(NOW))

    async def call(client: openai.AsyncOpenAI) -> Any:
        return await client.chat.completions.create(
            model="any",
            messages=ASK,
            extra_body={"vouched": {"facts": BERLIN, "lexicon": "nope"}},
        )

    with pytest.raises(openai.UnprocessableEntityError) as caught:
        _sdk(app, call)
    assert caught.value.body["param"] == "vouched.lexicon"  # type: ignore[index]


def test_a_chat_answer_leaves_a_snapshot(tmp_path: Any) -> None:
    store = SqliteSnapshotStore(tmp_path / "s.db")
    app = create_app(_config(store=store), clock=FakeClock(NOW))

    async def call(client: openai.AsyncOpenAI) -> Any:
        done = await client.chat.completions.create(
            model="any", messages=ASK, extra_body={"vouched": {"facts": BERLIN}}
        )
        await app.service.grounder.settle()
        return done

    _sdk(app, call)
    (snapshot,) = list(store.iter())
    assert snapshot.question == ASK[0]["content"]


def test_the_sdk_reaches_a_real_vouched_serve_through_base_url() -> None:
    app = create_app(_config(), clock=FakeClock(NOW))
    with serving(app) as url:
        client = openai.OpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)
        completion = client.chat.completions.create(
            model="any", messages=ASK, extra_body={"vouched": {"facts": BERLIN}}
        )
        client.close()
    assert "21.4 °C" in (completion.choices[0].message.content or "")


def test_the_serve_guides_sdk_snippet_runs_against_a_real_vouched_serve(
    capsys: pytest.CaptureFixture[str],
) -> None:
    guide = EXAMPLES.parent / "docs" / "guides" / "serve.md"
    section = guide.read_text(encoding="utf-8").split("\n### Point the OpenAI SDK at it\n", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    app = create_app(_config(), clock=FakeClock(NOW))
    with serving(app) as url:
        exec(code.replace("http://127.0.0.1:8787", url), {})  # noqa: S102 - our own README
    text, finish, refusal, status = capsys.readouterr().out.splitlines()
    assert "21.4 °C" in text
    assert finish == "stop"
    assert refusal == "None"  # an answer that passed: no refusal
    assert status == "ok"
