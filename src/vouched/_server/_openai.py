"""``POST /v1/chat/completions``: an OpenAI-compatible front for vouched answers.

The request is an OpenAI chat-completions request plus ``"vouched"``:
``{"facts": [...]}`` (facts in the fact format, gated by the policy) or
``{"query": {...}}`` (facts gathered from the configured sources), and
optionally ``"lexicon"`` (a configured name). The grounded facts are added
to the messages as one inert data block, the configured upstream model (the
``[answer.phraser]``) phrases, the reply is scanned and the on-fail policy
applied, all by the same :class:`vouched.Grounder` as ``/v1/answer``.

The answer is an OpenAI ``chat.completion``: the vouched text in
``choices[0].message.content``, ``finish_reason`` ``"stop"`` when it passed
(or was partial) and ``"content_filter"`` when it was refused, and a
top-level ``"vouched"`` object (``status``, ``findings`` as codes and spans,
``grounding_rate``, ``attempts``). With ``"stream": true``:
``chat.completion.chunk`` events, a sentence only once it passed, then the
``finish_reason`` (and ``vouched``) chunk and ``data: [DONE]``. A segment the
plan may still retry is held until it passed whole: a chunk cannot be taken
back. Errors are in OpenAI's shape.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Sequence
from typing import Any, Protocol

from starlette.responses import Response, StreamingResponse

from vouched import Answer, AnswerEvent, AnswerEventKind, AnswerStatus, Clock, Grounder, OnFail
from vouched._answer._result import client_finding
from vouched._jsonio import dumps
from vouched._server._http import RequestError, json_response
from vouched._server._models import ChatMessage, ChatRequest, ErrorCode


class Service(Protocol):
    """What the chat route needs of the service."""

    clock: Clock

    def grounder_for(self, lexicon: str | None) -> Grounder: ...


__all__ = ["complete"]


def _text(message: ChatMessage) -> str:
    if isinstance(message.content, str):
        return message.content
    parts = [p.get("text") for p in message.content if p.get("type") == "text"]
    return "".join(p for p in parts if isinstance(p, str))


def _question(messages: Sequence[ChatMessage]) -> str:
    for message in reversed(messages):
        if message.role == "user" and _text(message).strip():
            return _text(message)[:2000]
    raise RequestError(400, ErrorCode.INVALID_INPUT, "needs a user message with text", "messages")


def _finish(answer: Answer) -> str:
    return "content_filter" if answer.status is AnswerStatus.REFUSED else "stop"


def vouched_summary(answer: Answer) -> dict[str, Any]:
    """The top-level ``vouched`` object: what stands behind the text."""
    return {
        "status": str(answer.status),
        "findings": [client_finding(f) for f in answer.findings],
        "grounding_rate": answer.grounding_rate,
        "attempts": answer.attempts,
        "refusal": None if answer.refusal is None else str(answer.refusal),
        "counts": dict(answer.counts),
    }


class _Ids:
    """The id, time and model name every object of one completion shares."""

    def __init__(self, model: str, created: int) -> None:
        self.id = f"chatcmpl-vouched-{secrets.token_hex(8)}"
        self.model = model
        self.created = created

    def completion(self, answer: Answer) -> dict[str, Any]:
        return {
            "id": self.id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": answer.text, "refusal": None},
                    "finish_reason": _finish(answer),
                    "logprobs": None,
                }
            ],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
            "vouched": vouched_summary(answer),
        }

    def chunk(self, delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
        document = {
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
            **extra,
        }
        return f"data: {dumps(document)}\n\n".encode()


async def complete(service: Service, body: ChatRequest) -> Response:
    """The handler of the chat route."""
    options = body.vouched
    if options is None or (options.facts is None) == (options.query is None):
        raise RequestError(
            400,
            ErrorCode.INVALID_INPUT,
            'give exactly one of "vouched": {"facts": [...]} or {"query": {...}}',
            "vouched",
        )
    question = _question(body.messages)
    grounder = service.grounder_for(options.lexicon)
    messages = [{"role": m.role, "content": _text(m)} for m in body.messages]
    ids = _Ids(body.model or str(getattr(grounder.phraser, "name", "vouched")),
               int(service.clock.now().timestamp()))  # fmt: skip
    if body.stream:
        events = grounder.answer_stream(
            question, options.query, facts=options.facts, messages=messages
        )
        return StreamingResponse(
            _chunks(events, grounder.on_fail, ids),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )
    answer = await grounder.answer(question, options.query, facts=options.facts, messages=messages)
    return json_response(ids.completion(answer))


async def _chunks(
    events: AsyncIterator[AnswerEvent], plan: Sequence[OnFail], ids: _Ids
) -> AsyncIterator[bytes]:
    """The answer's events as ``chat.completion.chunk`` events."""
    try:
        yield ids.chunk({"role": "assistant", "content": ""})
        held: list[str] = []
        async for event in events:
            may_retry = plan[min(event.segment, len(plan) - 1)] is OnFail.RETRY
            if event.kind is AnswerEventKind.SENTENCE:
                if may_retry:
                    held.append(event.text)
                else:
                    yield ids.chunk({"content": event.text})
            elif event.kind is AnswerEventKind.RETRY:
                held = []  # that segment will not be shown
            elif event.kind in (AnswerEventKind.NOTE, AnswerEventKind.REFUSAL):
                said = "".join(held)
                held = []
                if event.kind is AnswerEventKind.REFUSAL:
                    said = ""  # a refused segment's sentences stay unsaid
                yield ids.chunk({"content": f"{said} {event.text}".lstrip()})
            elif event.kind is AnswerEventKind.DONE:
                if held:
                    yield ids.chunk({"content": "".join(held)})
                answer = event.answer
                yield ids.chunk({}, _finish(answer), vouched=vouched_summary(answer))
        yield b"data: [DONE]\n\n"
    finally:
        await events.aclose()  # type: ignore[attr-defined]
