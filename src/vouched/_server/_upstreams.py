"""Routing by model: the config's ``[[upstream]]`` entries, and the one a
chat request's ``model`` chooses.

::

    [[upstream]]
    name = "local"                        # default: its first model
    base_url = "http://127.0.0.1:11434/v1"
    models = ["llama3.2", "qwen2.5"]      # or model = "llama3.2"
    api_key_env = "LOCAL_KEY"             # optional: the variable holding its key
    timeout = 30.0
    stall_timeout = 10.0
    max_tokens = 512                      # a ceiling: a request asking more gets this
    max_response_bytes = 4194304
    fallback = "cloud"                    # optional: tried when this one fails

Each entry is one :class:`vouched.OpenAIChatPhraser` (one pooled client per
upstream, built once); the request's ``model`` is sent to it as asked. A
model no entry names is OpenAI's 404 ``model_not_found``. Without
``[[upstream]]`` the ``[answer.phraser]`` answers every model, as before.

A fallback is tried when the chosen upstream could not answer (unreachable,
timed out, 5xx, 429, an unreadable answer), never when it rejected the
request (4xx: the fallback would reject it too), and for a stream only
before its first piece: words already sent cannot be taken back. The
fallback answers with its own first model. The failure is told to the
answer path (``StreamEnd.failed``, with the upstream's name, and
``StreamEnd.upstream``: the fallback's name), which keeps it in the trail,
logs it and counts it; the snapshot names the upstream that answered.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

from vouched import InputError, OpenAIChatPhraser, Phraser, Prompt
from vouched._answer._chatstream import StreamEnd
from vouched._answer._phrasers import MAX_RESPONSE_BYTES, phrase_of, stream_of
from vouched._answer._upstream import UpstreamCode, failure_of
from vouched._server._reader import Reader

__all__ = ["FallbackPhraser", "Upstream", "load_upstreams"]

_KEYS = (
    "name",
    "base_url",
    "model",
    "models",
    "api_key_env",
    "timeout",
    "stall_timeout",
    "max_tokens",
    "max_response_bytes",
    "fallback",
)
_FALLS_BACK = frozenset(
    {
        UpstreamCode.TIMEOUT,
        UpstreamCode.UNREACHABLE,
        UpstreamCode.ERROR,
        UpstreamCode.RATE_LIMITED,
        UpstreamCode.BAD_RESPONSE,
    }
)


@dataclass(frozen=True, slots=True)
class Upstream:
    """One ``[[upstream]]``: its name, the models it serves, and the phraser
    that calls it (with its fallback behind it, when one is named)."""

    name: str
    models: tuple[str, ...]
    phraser: Phraser
    max_tokens: int | None = None


def _as_model(prompt: Prompt, model: str) -> Prompt:
    return dataclasses.replace(prompt, sampling={**prompt.sampling, "model": model})


class FallbackPhraser:
    """``primary``, and ``fallback`` (answering as ``model``) when the primary
    could not answer; the fallback is never tried after a rejection, nor
    after a stream's first piece."""

    def __init__(
        self,
        primary: OpenAIChatPhraser,
        fallback: OpenAIChatPhraser,
        *,
        primary_name: str = "",
        fallback_name: str = "",
    ) -> None:
        self.primary = primary
        self.fallback = fallback
        self.primary_name = primary_name or primary.name
        self.fallback_name = fallback_name or fallback.name
        self.model = primary.model
        self.max_tokens = primary.max_tokens
        self.name = primary.name

    async def phrase(self, prompt: Prompt) -> str:
        return await self.phrase_told(prompt, StreamEnd())

    async def phrase_told(self, prompt: Prompt, end: StreamEnd) -> str:
        try:
            return await phrase_of(self.primary, prompt, end)
        except Exception as error:
            if not self._falls_back(error, end):
                raise
        return await phrase_of(self.fallback, _as_model(prompt, self.fallback.model), end)

    def _falls_back(self, error: Exception, end: StreamEnd) -> bool:
        """Whether the fallback answers after ``error``; if so, the primary's
        failure (with its name) and the fallback's name are told to ``end``."""
        failure = failure_of(error)
        if failure.code not in _FALLS_BACK:
            return False
        end.failed.append(dataclasses.replace(failure, upstream=self.primary_name))
        end.upstream = self.fallback_name
        end.model = self.fallback.model  # as asked; the fallback's reply may name it otherwise
        return True

    async def phrase_stream(
        self, prompt: Prompt, end: StreamEnd | None = None
    ) -> AsyncIterator[str]:
        end = StreamEnd() if end is None else end
        said = False
        pieces = stream_of(self.primary, prompt, end)
        try:
            async for piece in pieces:
                said = True
                yield piece
            return
        except Exception as error:
            if said or not self._falls_back(error, end):
                raise
        finally:
            await pieces.aclose()  # type: ignore[attr-defined]
        async for piece in stream_of(self.fallback, _as_model(prompt, self.fallback.model), end):
            yield piece

    async def aclose(self) -> None:
        await self.primary.aclose()
        await self.fallback.aclose()  # closing twice is harmless: its own grounder may too

    def __repr__(self) -> str:
        return f"FallbackPhraser({self.primary!r}, {self.fallback!r})"


def load_upstreams(read: Reader, items: Any, env: Mapping[str, str]) -> tuple[Upstream, ...]:
    """The ``[[upstream]]`` entries, checked: names and models unique, every
    fallback another entry's name."""
    if not isinstance(items, list):
        raise read.error("must be an array of tables ([[upstream]])", "upstream")
    made: list[tuple[Upstream, str | None]] = []
    for index, item in enumerate(items):
        where = f"upstream.{index}"
        if not isinstance(item, Mapping):
            raise read.error("must be a table", where)
        read.only(item, _KEYS, where)
        made.append(_entry(read, item, where, env))
    by_name: dict[str, Upstream] = {}
    serving: dict[str, str] = {}
    for index, (upstream, _) in enumerate(made):
        if upstream.name in by_name:
            raise read.error(f"two upstreams are named {upstream.name!r}", f"upstream.{index}.name")
        by_name[upstream.name] = upstream
        for model in upstream.models:
            if model in serving:
                raise read.error(
                    f"model {model!r} is served by {serving[model]!r} already",
                    f"upstream.{index}.models",
                )
            serving[model] = upstream.name
    routed: list[Upstream] = []
    for index, (entry, fallback) in enumerate(made):
        if fallback is None:
            routed.append(entry)
            continue
        other = by_name.get(fallback)
        if other is None or other is entry:
            raise read.error(f"names no other upstream: {fallback!r}", f"upstream.{index}.fallback")
        primary, behind = entry.phraser, other.phraser
        if not isinstance(primary, OpenAIChatPhraser) or not isinstance(
            behind, OpenAIChatPhraser
        ):  # pragma: no cover - every entry builds an OpenAIChatPhraser
            raise InputError("an upstream is not a model server")
        both = FallbackPhraser(primary, behind, primary_name=entry.name, fallback_name=other.name)
        routed.append(dataclasses.replace(entry, phraser=both))
    return tuple(routed)


def _entry(
    read: Reader, item: Mapping[str, Any], where: str, env: Mapping[str, str]
) -> tuple[Upstream, str | None]:
    if ("model" in item) == ("models" in item):
        raise read.error("needs exactly one of model (a name) or models (a list)", where)
    if "model" in item:
        models = [read.typed(item, "model", str, "", where)]
    else:
        models = item["models"]
        if not isinstance(models, list) or not models:
            raise read.error("must be a list of model names", f"{where}.models")
    if not all(isinstance(m, str) and m.strip() for m in models):
        raise read.error("must name models (non-empty strings)", f"{where}.models")
    base_url = read.typed(item, "base_url", str, "", where)
    if not base_url.startswith(("http://", "https://")):
        raise read.error("must be an http:// or https:// URL", f"{where}.base_url")
    api_key = read.secret(item, "api_key_env", where, env) if "api_key_env" in item else ""
    max_tokens = read.typed(item, "max_tokens", int, 1, where) if "max_tokens" in item else None
    phraser = OpenAIChatPhraser(
        base_url,
        models[0],
        api_key,
        timeout=read.typed(item, "timeout", float, 30.0, where),
        stall_timeout=read.typed(item, "stall_timeout", float, 30.0, where),
        max_tokens=max_tokens,
        max_response_bytes=read.typed(item, "max_response_bytes", int, MAX_RESPONSE_BYTES, where),
        http_client="aiohttp",  # 13.8x less CPU per call than httpx
    )
    name = read.typed(item, "name", str, models[0], where) or models[0]
    fallback = read.typed(item, "fallback", str, "", where) if "fallback" in item else None
    return Upstream(name, tuple(models), phraser, max_tokens), fallback
