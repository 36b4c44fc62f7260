"""Reading a streamed chat completion: server-sent events, one text delta at a time.

The chunk format is the one OpenAI, vLLM, Ollama and llama.cpp's server
share for ``stream=True``: events ``data: {json}``, each with
``choices[0].delta.content`` (text, or null), ``choices[0].finish_reason`` on
the last content chunk, an optional ``usage`` object (alone in a chunk with
no choices when ``stream_options.include_usage`` is asked for), and a final
``data: [DONE]``. An ``{"error": ...}`` event is the server giving up mid-way.

Nothing here opens a connection: :func:`deltas` reads the lines of a
response that is already streaming.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from vouched._answer._upstream import UpstreamFailure
from vouched._exceptions import PhraserResponseError, PhraserStreamError
from vouched._jsonio import loads

__all__ = ["StreamEnd", "deltas", "told", "well_formed"]

_DONE = "[DONE]"
_EXCERPT = 200


@dataclass(slots=True)
class StreamEnd:
    """What the stream said about itself, filled in as it is read: why the
    model stopped (``"stop"``, ``"length"``, ...) and the token counts."""

    finish_reason: str | None = None
    usage: Mapping[str, Any] = field(default_factory=dict)
    done: bool = False  # the [DONE] event arrived
    model: str | None = None  # the model that answered, as the server names it
    id: str | None = None  # the server's id of its answer ("chatcmpl-...")
    system_fingerprint: str | None = None  # the server's configuration, as it names it
    upstream: str | None = None  # the fallback upstream that answered (its name), if one did
    failed: list[UpstreamFailure] = field(default_factory=list)  # upstreams failed before it


def told(end: StreamEnd, document: Mapping[str, Any], choice: Mapping[str, Any]) -> None:
    """What a completion (or a chunk) says about itself, into ``end``."""
    model = document.get("model")
    if isinstance(model, str) and model:
        end.model = model
    for key in ("id", "system_fingerprint"):
        value = document.get(key)
        if isinstance(value, str) and value:
            setattr(end, key, value[:_EXCERPT])
    usage = document.get("usage")
    if isinstance(usage, dict):
        end.usage = dict(usage)
    reason = choice.get("finish_reason")
    if isinstance(reason, str):
        end.finish_reason = reason


async def _events(lines: AsyncIterator[str]) -> AsyncIterator[str]:
    """The data of each server-sent event (data lines joined; comments,
    ``event:`` and ``id:`` lines skipped)."""
    data: list[str] = []
    async for line in lines:
        if not line.strip():
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
    if data:
        yield "\n".join(data)


def well_formed(text: str) -> str:
    """``text`` with each lone surrogate (a JSON ``\\ud800`` no pair follows)
    replaced by U+FFFD: it can be scanned, sent and stored as UTF-8."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _delta_of(payload: str, end: StreamEnd) -> str:
    try:
        chunk = loads(payload)
    except ValueError:
        raise PhraserResponseError(
            f"model server's stream sent an event that is not JSON: {payload[:_EXCERPT]!r}"
        ) from None
    if not isinstance(chunk, dict):
        raise PhraserResponseError("model server's stream sent an event that is not an object")
    error = chunk.get("error")
    if error is not None:
        message = error.get("message") if isinstance(error, dict) else error
        text = " ".join(str(message).split())[:_EXCERPT]
        raise PhraserStreamError(f"model server gave up mid-stream: {text}")
    choices = chunk.get("choices")
    if not isinstance(choices, list) or not choices:
        told(end, chunk, {})
        return ""  # a usage-only chunk, or a keep-alive
    choice = choices[0]
    if not isinstance(choice, dict):
        raise PhraserResponseError("model server's stream sent a choice that is not an object")
    told(end, chunk, choice)
    delta = choice.get("delta")
    content = delta.get("content") if isinstance(delta, dict) else None
    return well_formed(content) if isinstance(content, str) else ""


async def deltas(lines: AsyncIterator[str], end: StreamEnd) -> AsyncGenerator[str, None]:
    """The text deltas of a streamed chat completion, in order (empty ones
    skipped); ``end`` is filled in as the stream says why it stopped.

    Raises :class:`PhraserStreamError` when the stream ends before the model
    finished (no finish reason and no ``[DONE]``), or reports an error, and
    :class:`PhraserResponseError` for an event that is not a chunk.
    """
    async for payload in _events(lines):
        if payload.strip() == _DONE:
            end.done = True
            break
        text = _delta_of(payload, end)
        if text:
            yield text
    if not end.done and end.finish_reason is None:
        raise PhraserStreamError("model server's stream ended before the answer was finished")
