"""The HTTP under :class:`~vouched.OpenAIChatPhraser`: one POST, its head, its body in chunks.

Two wires carry it, with the same behaviour above them (capped reads, the
server's message kept, typed errors):

- :class:`HttpxWire` (the default): an ``httpx.AsyncClient``, the phraser's
  own pooled one or a given ``client``/``transport`` (``httpx.MockTransport``
  is the test seam).
- :class:`AiohttpWire`: an ``aiohttp.ClientSession`` (``vouched serve``'s:
  measured at 13.8x less CPU per call on the event loop than httpx,
  bench/upstream_client.py). aiohttp is imported when one is made; without
  it, a :class:`~vouched.MissingExtraError` names ``vouched[server]``.

A wire says which of its library's exceptions are timeouts (``timeouts``)
and which are transport failures (``failures``); the phraser maps them to
its own typed errors. Every call is bounded by the phraser's deadline, and
by the wire's per-phase timeouts (connect, read) as well.
"""

from __future__ import annotations

import codecs
from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

from vouched._answer._chatstream import StreamEnd, told, well_formed
from vouched._exceptions import MissingExtraError, PhraserHTTPError, PhraserResponseError
from vouched._jsonio import loads

__all__ = [
    "AiohttpWire",
    "Exchange",
    "HttpxWire",
    "Opened",
    "Wire",
    "aiohttp_module",
    "capped_body",
    "capped_lines",
    "content_of",
]

_BODY_EXCERPT = 200


@dataclass(frozen=True, slots=True)
class Opened:
    """A response as it arrives: its status, the two headers kept (type and
    ``Retry-After``) and its body as an iterator of (decoded) byte chunks."""

    status: int
    content_type: str
    retry_after: str | None
    chunks: AsyncIterator[bytes]


@dataclass(frozen=True, slots=True)
class Exchange:
    """A whole response as read (its body capped)."""

    status: int
    content_type: str
    retry_after: str | None
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode(_charset(self.content_type), errors="replace")


def _charset(content_type: str) -> str:
    for part in content_type.split(";")[1:]:
        key, _, value = part.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            name = value.strip().strip('"')
            try:
                return codecs.lookup(name).name
            except LookupError:
                break
    return "utf-8"


class Wire(Protocol):
    """What the phraser needs of an HTTP client."""

    timeouts: tuple[type[BaseException], ...]
    failures: tuple[type[BaseException], ...]

    @property
    def closed(self) -> bool: ...

    def post(
        self, url: str, content: bytes, headers: Mapping[str, str], timeout: float
    ) -> AbstractAsyncContextManager[Opened]: ...

    async def aclose(self) -> None: ...


class HttpxWire:
    """httpx: a given client (left open), or one the wire owns."""

    timeouts: tuple[type[BaseException], ...] = (TimeoutError, httpx.TimeoutException)
    failures: tuple[type[BaseException], ...] = (httpx.HTTPError,)

    def __init__(self, client: httpx.AsyncClient, *, owned: bool) -> None:
        self.client = client
        self._owned = owned

    @classmethod
    def pooled(
        cls, timeout: float, max_connections: int, transport: httpx.AsyncBaseTransport | None
    ) -> HttpxWire:
        client = httpx.AsyncClient(
            transport=transport,
            timeout=httpx.Timeout(timeout),
            limits=httpx.Limits(
                max_connections=max_connections, max_keepalive_connections=max_connections
            ),
        )
        return cls(client, owned=True)

    @property
    def closed(self) -> bool:
        return self.client.is_closed

    @asynccontextmanager
    async def post(
        self, url: str, content: bytes, headers: Mapping[str, str], timeout: float
    ) -> AsyncIterator[Opened]:
        async with self.client.stream(
            "POST", url, content=content, headers=headers, timeout=timeout
        ) as response:
            yield Opened(
                response.status_code,
                response.headers.get("content-type", ""),
                response.headers.get("retry-after"),
                response.aiter_bytes(),
            )

    async def aclose(self) -> None:
        if self._owned:
            await self.client.aclose()


def aiohttp_module() -> Any:
    """aiohttp, imported (a :class:`MissingExtraError` naming the server extra without it)."""
    try:
        import aiohttp  # noqa: PLC0415 - part of the server extra, loaded on use
    except ImportError:
        raise MissingExtraError("server", "aiohttp") from None
    return aiohttp


class AiohttpWire:
    """aiohttp: one session (a pool of ``max_connections`` keep-alive
    connections), built on the running event loop. Like httpx's ``timeout``,
    ``timeout`` bounds connecting and each read; redirects are not followed."""

    timeouts: tuple[type[BaseException], ...]
    failures: tuple[type[BaseException], ...]

    def __init__(self, timeout: float, max_connections: int) -> None:
        aiohttp = aiohttp_module()
        self.timeouts = (TimeoutError,)  # aiohttp's own timeouts are TimeoutErrors
        self.failures = (aiohttp.ClientError,)
        self._timeout = aiohttp.ClientTimeout(total=None, sock_connect=timeout, sock_read=timeout)
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=max_connections),
            timeout=self._timeout,
        )

    @property
    def closed(self) -> bool:
        return bool(self._session.closed)

    @asynccontextmanager
    async def post(
        self, url: str, content: bytes, headers: Mapping[str, str], timeout: float
    ) -> AsyncIterator[Opened]:
        async with self._session.post(
            url, data=content, headers=dict(headers), allow_redirects=False
        ) as response:
            yield Opened(
                response.status,
                response.headers.get("Content-Type", ""),
                response.headers.get("Retry-After"),
                response.content.iter_any(),
            )

    async def aclose(self) -> None:
        await self._session.close()


def _over_cap(url: str, cap: int) -> PhraserResponseError:
    return PhraserResponseError(f"model server at {url} sent more than {cap:,} bytes")


async def capped_body(opened: Opened, cap: int, url: str) -> Exchange:
    """The whole response, its body read up to ``cap`` bytes (past it, a
    :class:`PhraserResponseError`, never a growing buffer)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in opened.chunks:
        size += len(chunk)
        if size > cap:
            raise _over_cap(url, cap)
        chunks.append(chunk)
    return Exchange(opened.status, opened.content_type, opened.retry_after, b"".join(chunks))


async def capped_lines(opened: Opened, cap: int, url: str) -> AsyncIterator[str]:
    """The lines of a streamed body, with at most ``cap`` bytes read in
    all: a line that never ends costs the cap, not the memory it would take."""
    decoder = codecs.getincrementaldecoder(_charset(opened.content_type))(errors="replace")
    size = 0
    part: list[str] = []  # the pieces of the line not yet ended
    async for chunk in opened.chunks:
        size += len(chunk)
        if size > cap:
            raise _over_cap(url, cap)
        *ended, rest = decoder.decode(chunk).split("\n")
        for piece in ended:
            part.append(piece)
            yield "".join(part).removesuffix("\r")
            part = []
        if rest:
            part.append(rest)
    rest = decoder.decode(b"", final=True)
    if rest:
        part.append(rest)
    if part:
        yield "".join(part)


def _server_message(response: Exchange) -> str:
    """What an error response says: its ``error.message`` (the OpenAI shape),
    else the start of its body."""
    try:
        document = loads(response.body)
    except ValueError:
        document = None
    error = document.get("error") if isinstance(document, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    text = message if isinstance(message, str) and message.strip() else response.text
    return " ".join(text[:_BODY_EXCERPT].split())


def content_of(response: Exchange, url: str, end: StreamEnd | None = None) -> str:
    """The answer's text, ``end`` filled in; an error status is a
    :class:`PhraserHTTPError` with the server's message, anything not a chat
    completion a :class:`PhraserResponseError`."""
    if response.status >= 400:
        body = " ".join(response.text[:_BODY_EXCERPT].split())
        said = _server_message(response)
        raise PhraserHTTPError(
            f"{said or 'model server error'} at {url} (HTTP {response.status})",
            status=response.status,
            body=body,
            retry_after=response.retry_after,
        )
    try:
        document = loads(response.body)
    except ValueError:
        raise PhraserResponseError("model server's answer is not JSON") from None
    choices = document.get("choices") if isinstance(document, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise PhraserResponseError("model server's answer has no choices")
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, str):
        raise PhraserResponseError("model server's answer has no message content")
    if not content.strip():
        raise PhraserResponseError("model server's answer is empty")
    if end is not None:
        told(end, document, choices[0])
    return well_formed(content)
