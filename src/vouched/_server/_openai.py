"""``POST /v1/chat/completions`` and ``GET /v1/models``: vouched as a drop-in
OpenAI gateway.

The request is an OpenAI chat-completions request plus ``"vouched"``:
``{"facts": [...]}`` (facts in the fact format, gated by the policy) or
``{"query": {...}}`` (facts gathered from the configured sources), and
optionally ``"lexicon"``, ``"on_fail"`` and ``"mode"`` (each only when the
config's ``allow_request_overrides`` names it). A request without
``"vouched"`` is answered as ``answer.without_vouched`` says (refused by
default). The request's ``model`` chooses the ``[[upstream]]`` that answers
(:mod:`vouched._server._upstreams`; an unknown one is a 404
``model_not_found``). The grounded facts are added to the messages as one
inert data block, the upstream phrases with the request's own parameters
(sampling keys as ``allow_request_overrides`` allows, ``max_tokens`` capped
by the config's; nothing injected), the reply is scanned and the on-fail
plan applied, all by the same :class:`vouched.Grounder` as ``/v1/answer``.
A parameter this gateway cannot honour (``tools``, ``logprobs``, ...) is a
400 naming it: never dropped silently.

What the client sees:

- an answer that passed (or was partial, or audited): ``finish_reason``
  ``"stop"``; a refusal by vouched: ``"content_filter"`` with the refusal in
  ``message.refusal`` (a stream: ``delta.refusal``, never glued to sentences
  already sent); a top-level ``"vouched"`` object (``status``, ``findings``
  of the text sent as codes and spans, ``grounding_rate``, ``attempts``:
  each attempt's index, action and findings, ``mode``); ``usage`` summed
  over the attempts (streamed or not), ``model`` and ``system_fingerprint``
  as the upstream reported them;
- the upstream failing: an OpenAI error a client retries on (504 timeout,
  502 unreachable or 5xx, 429 with the upstream's ``Retry-After``, capped at
  300 s), whose message is a fixed sentence per code: nothing of the
  upstream's own text (the snapshot and the log keep it, redacted);
- a stream: ``chat.completion.chunk`` events, a sentence once it passed (a
  segment the plan may still retry is held until it passed whole: a chunk
  cannot be taken back), the ``finish_reason`` chunk with ``vouched``, the
  usage chunk when ``stream_options.include_usage`` asks, then ``[DONE]``.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from datetime import datetime
from email.utils import parsedate_to_datetime
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from vouched import Answer, AnswerEvent, AnswerEventKind, AnswerStatus, Clock, Grounder
from vouched._answer._onfail import RefusalReason
from vouched._answer._result import client_finding, finding_span
from vouched._answer._upstream import UpstreamCode, UpstreamFailure
from vouched._jsonio import dumps
from vouched._replay._attempts import once_per_span
from vouched._server._config import SAMPLING_KEYS
from vouched._server._http import RequestError, error_detail, json_response
from vouched._server._models import ChatMessage, ChatRequest, ErrorCode, VouchedOptions
from vouched._server._requestid import current_request_id

__all__ = ["FORWARDED", "MAX_RETRY_AFTER", "REFUSED", "complete", "models", "vouched_summary"]

FORWARDED = ("response_format", "user")
"""Parameters sent to the upstream as they came, whatever the config says."""
_HANDLED = frozenset({"messages", "model", "stream", "stream_options", "vouched", "n"})
REFUSED: Mapping[str, str] = {
    "tools": "tool calls are not scanned: vouched checks text answers",
    "tool_choice": "tool calls are not scanned: vouched checks text answers",
    "parallel_tool_calls": "tool calls are not scanned: vouched checks text answers",
    "functions": "function calls are not scanned: vouched checks text answers",
    "function_call": "function calls are not scanned: vouched checks text answers",
    "logprobs": "log probabilities would be of words that may not be shown",
    "top_logprobs": "log probabilities would be of words that may not be shown",
    "audio": "vouched checks text answers",
    "modalities": "vouched checks text answers",
    "prediction": "a predicted output cannot be checked before it is used",
    "web_search_options": "facts come from vouched's sources, not a web search",
}
"""Parameters this gateway cannot honour: a 400 naming them, never dropped."""
MAX_RETRY_AFTER = 300
"""The longest ``Retry-After`` (seconds) passed on to a client."""

_UPSTREAM_MESSAGES: Mapping[UpstreamCode, str] = {
    UpstreamCode.TIMEOUT: "the upstream model did not answer in time",
    UpstreamCode.UNREACHABLE: "the upstream model could not be reached",
    UpstreamCode.ERROR: "the upstream model answered with an error",
    UpstreamCode.RATE_LIMITED: "the upstream model is rate limited: retry later",
    UpstreamCode.REJECTED: "the upstream model rejected the request",
    UpstreamCode.BAD_RESPONSE: "the upstream model's answer could not be read",
    UpstreamCode.STREAM_BROKEN: "the upstream model's stream broke off",
    UpstreamCode.PHRASER_FAILED: "the phraser failed",
}


class Service(Protocol):
    """What the chat route needs of the service."""

    clock: Clock

    config: Any

    def grounder_for(
        self, lexicon: str | None, field: str = ..., upstream: str = ""
    ) -> Grounder: ...

    def route(self, model: str | None) -> tuple[str, int | None]: ...

    def overrides(self, options: Any, where: str) -> dict[str, Any]: ...

    def interruption(self, deadline: float) -> Callable[[], str]: ...

    def bounded(
        self,
        chunks: AsyncIterator[bytes],
        deadline: float,
        on_deadline: bytes,
        on_shutdown: bytes | None = None,
    ) -> AsyncIterator[bytes]: ...

    def deadline(self) -> float: ...

    def cut_reason(self) -> str: ...

    def model_names(self) -> list[str]: ...


def _text(message: ChatMessage) -> str:
    if isinstance(message.content, str):
        return message.content
    if message.content is None:
        return ""
    parts = [p.get("text") for p in message.content if p.get("type") == "text"]
    return "".join(p for p in parts if isinstance(p, str))


def _question(messages: Sequence[ChatMessage]) -> str:
    for message in reversed(messages):
        if message.role == "user" and _text(message).strip():
            return _text(message)[:2000]
    raise RequestError(400, ErrorCode.INVALID_INPUT, "needs a user message with text", "messages")


def _finish(answer: Answer) -> str:
    if answer.status is AnswerStatus.REFUSED and answer.mode != "audit":
        return "content_filter"
    return "stop"


def _sent_findings(answer: Answer) -> list[Any]:
    """The findings of the text the answer stands on: its last attempt's,
    and what a partial answer's re-check found (once per span)."""
    if not answer.trail:
        return list(once_per_span(answer.findings, finding_span))
    earlier = sum(len(a.findings) for a in answer.trail)
    last = [*answer.trail[-1].findings, *answer.findings[earlier:]]
    return list(once_per_span(last, finding_span))


def vouched_summary(answer: Answer) -> dict[str, Any]:
    """The top-level ``vouched`` object: what stands behind the text."""
    attempts = [
        {
            "index": index,
            "action": str(attempt.action),
            "findings": [client_finding(f) for f in once_per_span(attempt.findings, finding_span)],
        }
        for index, attempt in enumerate(answer.trail)
    ]
    return {
        "status": str(answer.status),
        "mode": answer.mode,
        "findings": [client_finding(f) for f in _sent_findings(answer)],
        "grounding_rate": answer.grounding_rate,
        "attempts": attempts,
        "refusal": None if answer.refusal is None else str(answer.refusal),
        "reasons": list(answer.reason_codes()),
        "counts": dict(answer.counts),
    }


def _usage(answer: Answer) -> dict[str, int]:
    """The upstream's token counts (every attempt's: each was paid for)."""
    usage = {k: v for k, v in answer.usage.items() if isinstance(v, int)}
    prompt, completion = usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)
    total = usage.get("total_tokens", prompt + completion)
    return {
        **usage,
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": total,
    }


def retry_after(value: str, now: datetime) -> str:
    """An upstream's ``Retry-After`` (seconds or an HTTP date) as the seconds
    a client is told, at most :data:`MAX_RETRY_AFTER`."""
    if value.isdigit():
        return str(min(int(value), MAX_RETRY_AFTER))
    try:
        seconds = (parsedate_to_datetime(value) - now).total_seconds()
    except (TypeError, ValueError):
        return str(MAX_RETRY_AFTER)
    return str(min(max(math.ceil(seconds), 0), MAX_RETRY_AFTER))


def upstream_error(failure: UpstreamFailure, now: datetime) -> RequestError:
    """The upstream's failure as the OpenAI error a client retries on."""
    headers = {"retry-after": retry_after(failure.retry_after, now)} if failure.retry_after else {}
    return RequestError(failure.http_status, ErrorCode(str(failure.code)),
                        _UPSTREAM_MESSAGES[failure.code], headers=headers)  # fmt: skip


def _failed(answer: Answer, now: datetime) -> RequestError | None:
    """The error a refusal that was no decision of vouched's becomes."""
    if answer.failure is not None:
        return upstream_error(answer.failure, now)
    if answer.refusal is RefusalReason.GUARD_ERROR:
        return RequestError(500, ErrorCode.GUARD_ERROR, "the answer could not be checked")
    return None


class _Ids:
    """The id, time and model name every object of one completion shares."""

    def __init__(self, model: str, created: int) -> None:
        self.id = f"chatcmpl-vouched-{secrets.token_hex(8)}"
        self.model = model
        self.created = created

    def completion(self, answer: Answer) -> dict[str, Any]:
        refused = _finish(answer) == "content_filter"
        # OpenAI's refusal: content null, the words in refusal (never read as the answer)
        message = {"role": "assistant", "content": None if refused else answer.text,
                   "refusal": answer.text if refused else None}  # fmt: skip
        return {
            "id": self.id,
            "object": "chat.completion",
            "created": self.created,
            "model": answer.model or self.model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": _finish(answer),
                    "logprobs": None,
                }
            ],
            "usage": _usage(answer),
            "system_fingerprint": answer.system_fingerprint or None,
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

    def usage_chunk(self, answer: Answer) -> bytes:
        document = {
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": answer.model or self.model,
            "choices": [],
            "usage": _usage(answer),
        }
        return f"data: {dumps(document)}\n\n".encode()


_CLOSING = RequestError(503, ErrorCode.SHUTTING_DOWN, "the service is shutting down: ask again")


def error_event(problem: RequestError) -> bytes:
    """An error in the middle of a stream, as OpenAI sends one (its SDK raises it)."""
    return f"data: {dumps({'error': error_detail(problem)})}\n\n".encode()


def _parameters(service: Service, body: ChatRequest, ceiling: int | None) -> dict[str, Any]:
    """What goes to the upstream besides the messages: the forwarded keys and
    the sampling keys the config allows (``max_tokens`` capped at
    ``ceiling``); anything else sent is an error naming it."""
    allowed = service.config.allow_request_overrides
    sent: dict[str, Any] = {}
    for key, value in (body.model_extra or {}).items():
        if value is None or key in _HANDLED:
            continue
        if key in REFUSED:
            why = f"is not supported by this gateway: {REFUSED[key]}"
            raise RequestError(400, ErrorCode.UNSUPPORTED_PARAMETER, why, key)
        if key in FORWARDED:
            sent[key] = value
        elif key in SAMPLING_KEYS:
            if "sampling" not in allowed and key not in allowed:
                raise RequestError(
                    403,
                    ErrorCode.OVERRIDE_NOT_ALLOWED,
                    f"this service does not let a request choose {key} "
                    f"(answer.allow_request_overrides: {', '.join(allowed) or 'none'})",
                    key,
                )
            sent[key] = _capped(key, value, ceiling)
        else:
            why = "is not a chat-completions parameter this gateway takes"
            raise RequestError(400, ErrorCode.UNSUPPORTED_PARAMETER, why, key)
    return sent


def _capped(key: str, value: Any, ceiling: int | None) -> Any:
    if key not in ("max_tokens", "max_completion_tokens"):
        return value
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RequestError(422, ErrorCode.INVALID_INPUT, "must be a whole number >= 1", key)
    return value if ceiling is None else min(value, ceiling)


def _options(service: Service, body: ChatRequest) -> tuple[VouchedOptions, dict[str, Any]]:
    """The request's ``vouched`` object, or what ``answer.without_vouched``
    answers a request without one with (and the mode it imposes)."""
    options = body.vouched
    if options is None:
        default = service.config.without_vouched
        if default == "audit":
            return VouchedOptions(query={}), {"mode": "audit"}
        if isinstance(default, Mapping):
            return VouchedOptions(query=default["query"]), {}
        raise RequestError(
            400,
            ErrorCode.INVALID_INPUT,
            'give "vouched": {"facts": [...]} or {"query": {...}} '
            "(this service refuses requests without it: answer.without_vouched)",
            "vouched",
        )
    if (options.facts is None) == (options.query is None):
        raise RequestError(
            400,
            ErrorCode.INVALID_INPUT,
            'give exactly one of "vouched": {"facts": [...]} or {"query": {...}}',
            "vouched",
        )
    return options, {}


async def complete(service: Service, body: ChatRequest) -> Response:
    """The handler of the chat route."""
    extra = body.model_extra or {}
    if extra.get("n") not in (None, 1):
        raise RequestError(400, ErrorCode.INVALID_INPUT,
                           "must be 1: vouched checks one answer per request", "n")  # fmt: skip
    upstream, ceiling = service.route(body.model)
    options, imposed = _options(service, body)
    parameters = _parameters(service, body, ceiling)
    chosen = {**service.overrides(options, "vouched"), **imposed}
    question = _question(body.messages)
    grounder = service.grounder_for(chosen.pop("lexicon", None), "vouched.lexicon", upstream)
    if upstream:
        parameters["model"] = body.model
    messages = [m.model_dump(exclude_unset=True) for m in body.messages]
    named = body.model if upstream else next(iter(service.model_names()), body.model)
    ids = _Ids(named or "vouched", int(service.clock.now().timestamp()))
    trace = {"id": current_request_id(), "upstream": upstream or None, "model": body.model}
    asked = {"facts": options.facts, "messages": messages, "sampling": parameters,
             "request": trace, **chosen}  # fmt: skip
    now = service.clock.now()
    if body.stream:
        deadline = service.deadline()
        events = grounder.answer_stream(question, options.query, **asked,
                                        interruption=service.interruption(deadline))  # fmt: skip
        before: list[AnswerEvent] = []  # held until words are sent: an error can be HTTP's
        async for event in events:
            before.append(event)
            if event.kind in (AnswerEventKind.SENTENCE, AnswerEventKind.DONE):
                break
        last = before[-1] if before else None
        if last is not None and last.kind is AnswerEventKind.DONE:
            problem = _failed(last.answer, now)
            if problem is not None:
                await events.aclose()  # type: ignore[attr-defined]
                raise problem
        usage = bool((extra.get("stream_options") or {}).get("include_usage"))
        chunks = _chunks(before, events, ids, usage=usage, now=now)
        timeout = RequestError(504, ErrorCode.DEADLINE_EXCEEDED, "no answer within the deadline")
        return StreamingResponse(
            service.bounded(chunks, deadline, error_event(timeout), error_event(_CLOSING)),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )
    answer = await grounder.answer(question, options.query, **asked,
                                   interruption=service.cut_reason)  # fmt: skip
    problem = _failed(answer, now)
    if problem is not None:
        raise problem
    return json_response(ids.completion(answer))


async def _chunks(
    before: Sequence[AnswerEvent],
    events: AsyncIterator[AnswerEvent],
    ids: _Ids,
    *,
    usage: bool,
    now: datetime,
) -> AsyncIterator[bytes]:
    """The answer's events (``before``: those read already) as
    ``chat.completion.chunk`` events."""

    async def every() -> AsyncIterator[AnswerEvent]:
        for event in before:
            yield event
        if not before or before[-1].kind is not AnswerEventKind.DONE:
            async for event in events:
                yield event

    try:
        yield ids.chunk({"role": "assistant", "content": ""})
        held: list[str] = []
        said = False
        async for event in every():
            if event.kind is AnswerEventKind.SENTENCE:
                if event.provisional:
                    held.append(event.text)
                else:
                    said = True
                    yield ids.chunk({"content": event.text})
            elif event.kind is AnswerEventKind.RETRY:
                held = []  # that segment will not be shown
            elif event.kind is AnswerEventKind.NOTE:
                text = "".join([*held, " " if said or held else "", event.text])
                held = []
                yield ids.chunk({"content": text})
            elif event.kind is AnswerEventKind.REFUSAL:
                held = []  # a refused segment's sentences stay unsaid
                yield ids.chunk({"refusal": event.text})  # never content, as unstreamed
            elif event.kind is AnswerEventKind.DONE:
                answer = event.answer
                problem = _failed(answer, now)
                if problem is not None:  # the upstream failed after words were sent
                    yield error_event(problem)
                    break
                if held:
                    yield ids.chunk({"content": "".join(held)})
                yield ids.chunk({}, _finish(answer), vouched=vouched_summary(answer),
                                system_fingerprint=answer.system_fingerprint or None)  # fmt: skip
                if usage:
                    yield ids.usage_chunk(answer)
        yield b"data: [DONE]\n\n"
    finally:
        await events.aclose()  # type: ignore[attr-defined]


async def models(service: Service, request: Request) -> Response:
    """``GET /v1/models``: every model the ``[[upstream]]`` entries serve (or
    the ``[answer.phraser]``'s), in OpenAI's list shape."""
    data = [
        {"id": name, "object": "model", "created": 0, "owned_by": "vouched"}
        for name in service.model_names() or ["vouched"]
    ]
    return json_response({"object": "list", "data": data})
