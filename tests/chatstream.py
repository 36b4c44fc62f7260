"""Shared test helpers: chat-completion streams as OpenAI-compatible servers send them."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any


def chunk(content: str | None = None, finish: str | None = None, **extra: Any) -> dict[str, Any]:
    """One ``chat.completion.chunk`` with a content delta and/or a finish reason."""
    delta = {} if content is None else {"content": content}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        **extra,
    }


def events(documents: Iterable[dict[str, Any] | str]) -> Iterator[bytes]:
    """Server-sent events, one per document (a string is sent as it is: "[DONE]")."""
    for document in documents:
        data = document if isinstance(document, str) else json.dumps(document)
        yield f"data: {data}\n\n".encode()


def completion_events(
    pieces: Iterable[str], *, usage: dict[str, int] | None = None, done: bool = True
) -> list[bytes]:
    """The stream of a whole answer: its pieces, a finish reason, usage, [DONE]."""
    documents: list[dict[str, Any] | str] = [chunk(piece) for piece in pieces]
    documents.append(chunk(finish="stop"))
    if usage is not None:
        documents.append({"id": "chatcmpl-1", "choices": [], "usage": usage})
    if done:
        documents.append("[DONE]")
    return list(events(documents))
