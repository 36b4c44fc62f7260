"""What the HTTP adapters share: one injectable client, JSON that keeps its decimals,
and failures translated into the exceptions vouched understands.

- a status other than 2xx (after redirects) -> ``SourceError("HTTP 503")``; a 429
  or 503 with ``Retry-After`` (seconds or an HTTP date) carries it as
  ``retry_after`` seconds, so the guarded source's breaker stays open that long
- a transport timeout -> ``TimeoutError`` (a ``timeout`` silence)
- any other transport failure -> ``SourceError("ConnectError")`` (class name only)
- a body that is not JSON, nested too deeply, or larger than ``max_body_bytes``
  (default :data:`MAX_BODY_BYTES`, read in chunks and never past the cap)
  -> ``MalformedPayloadError``
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import httpx

from vouched import MalformedPayloadError, SourceError

__all__ = [
    "MAX_BODY_BYTES",
    "NOT_FOUND",
    "JsonResponse",
    "SubjectNotFoundError",
    "get_json",
    "make_client",
    "recorded_client",
    "retry_after",
]

NOT_FOUND = frozenset({404, 410})
"""Statuses that say the source has nothing for this subject: the source is up,
so its adapter answers ``no_data`` (no facts), which no breaker counts."""


class SubjectNotFoundError(Exception):
    """The source answered 404 or 410 for the request: it has no such subject."""


MAX_BODY_BYTES = 4 * 1024 * 1024
"""Default cap on a response body: a source's JSON answer is kilobytes."""

USER_AGENT = "vouched-adapters/0.1 (+https://github.com/vouched)"


def make_client(
    *,
    timeout: float = 5.0,
    connect_timeout: float = 2.0,
    max_connections: int = 20,
    max_keepalive: int = 20,
    transport: httpx.AsyncBaseTransport | None = None,
) -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` for the adapters to share: timeouts and pool limits set.

    Close it when done (``await client.aclose()``). ``transport`` is the seam for
    tests (``httpx.MockTransport``). Keep ``max_keepalive`` equal to
    ``max_connections``: connections above it are reopened for every request.
    """
    return httpx.AsyncClient(
        timeout=httpx.Timeout(timeout, connect=connect_timeout),
        limits=httpx.Limits(
            max_connections=max_connections, max_keepalive_connections=max_keepalive
        ),
        headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
        follow_redirects=True,
        transport=transport,
    )


def recorded_client(routes: Mapping[str, bytes | str | Path]) -> httpx.AsyncClient:
    """A client answering from recorded bodies by URL path, offline (no socket opened).

    ``routes`` maps a path (``"/v1/forecast"``) to a JSON body: bytes, text, or a
    file. Any other path answers 502 (a missing recording is a failure, not a
    subject the source lacks, which a 404 would say). For demos and tests of code built on the
    adapters: ``OpenMeteoSource(client=recorded_client({...}))``.
    """
    bodies = {
        path: body.read_bytes()
        if isinstance(body, Path)
        else body.encode()
        if isinstance(body, str)
        else body
        for path, body in routes.items()
    }

    def answer(request: httpx.Request) -> httpx.Response:
        body = bodies.get(request.url.path)
        if body is None:
            return httpx.Response(502, json={"error": "not recorded"})
        return httpx.Response(200, content=body, headers={"Content-Type": "application/json"})

    return make_client(transport=httpx.MockTransport(answer))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


_MAX_NUMBER_CHARS = 120  # vouched's Fact takes at most 100 digits and 10**+-1000


def _bounded_decimal(text: str) -> Decimal:
    # A number token is short unless the payload is hostile; 1e999999999 is
    # refused here, in microseconds, not wherever it is first written out.
    number = Decimal(text) if len(text) <= _MAX_NUMBER_CHARS else None
    if number is None or abs(number.adjusted()) > 1000:
        raise ValueError("a number out of bounds")
    return number


def _bounded_int(text: str) -> int:
    if len(text) > _MAX_NUMBER_CHARS:
        raise ValueError("a number out of bounds")
    return int(text)


def parse_json(body: bytes) -> Any:
    """JSON with decimals as Decimal (27.50 stays 27.50); NaN/Infinity refused."""
    try:
        return json.loads(
            body,
            parse_float=_bounded_decimal,
            parse_int=_bounded_int,
            parse_constant=_refuse_constant,
        )
    except (ValueError, UnicodeDecodeError) as error:
        raise MalformedPayloadError(f"invalid JSON ({type(error).__name__})") from None
    except RecursionError:
        raise MalformedPayloadError("invalid JSON (nested too deeply)") from None


@dataclass(frozen=True, slots=True)
class JsonResponse:
    """A parsed JSON body with the response's URL (no query string) and Date header."""

    body: Any
    url: str
    date: datetime | None


async def get_json(
    client: httpx.AsyncClient | None,
    url: str,
    params: Mapping[str, Any],
    *,
    max_body_bytes: int = MAX_BODY_BYTES,
) -> JsonResponse:
    """GET ``url`` and parse its JSON body (at most ``max_body_bytes``);
    failures become vouched exceptions, a 404 or 410 :class:`SubjectNotFoundError`
    (the adapter answers no facts: ``no_data``)."""
    async with AsyncExitStack() as stack:
        if client is None:
            client = await stack.enter_async_context(make_client())
        try:
            async with client.stream("GET", url, params=dict(params)) as response:
                if response.status_code in NOT_FOUND:
                    raise SubjectNotFoundError(f"HTTP {response.status_code}")
                if not response.is_success:  # redirects are followed: not an answer
                    wait = None
                    if response.status_code in _BACK_OFF:
                        now = _http_date(response.headers.get_list("date")) or datetime.now(UTC)
                        wait = retry_after(response.headers.get("retry-after"), now=now)
                    raise SourceError(f"HTTP {response.status_code}", retry_after=wait)
                content = await _capped_body(response, max_body_bytes)
        except httpx.TimeoutException as error:
            raise TimeoutError(type(error).__name__) from None
        except httpx.HTTPError as error:
            raise SourceError(type(error).__name__) from None
    return JsonResponse(
        body=parse_json(content),
        url=str(response.url.copy_with(query=None, fragment=None)),
        date=_http_date(response.headers.get_list("date")),
    )


async def _capped_body(response: httpx.Response, limit: int) -> bytes:
    """The body, read chunk by chunk, or MalformedPayloadError past ``limit`` bytes."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise MalformedPayloadError(f"body of {int(declared):,} bytes, limit {limit:,}")
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            raise MalformedPayloadError(f"body larger than the limit of {limit:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


_BACK_OFF = frozenset({429, 503})
_MAX_RETRY_AFTER = 24 * 3600.0  # a header asking for more is capped, not obeyed for days


def retry_after(value: str | None, *, now: datetime) -> float | None:
    """Seconds a ``Retry-After`` header asks for: ``"120"`` or an HTTP date.

    An HTTP date is read against ``now`` (the response's own Date header when
    it has one, so the server's clock is compared with itself). A date in the
    past is 0 seconds; anything unreadable is None (no wait asked).
    """
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():  # "²" and "٣" are digits to str.isdigit
        return min(float(text), _MAX_RETRY_AFTER)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return min(max(0.0, (when - now).total_seconds()), _MAX_RETRY_AFTER)


def _http_date(values: list[str]) -> datetime | None:
    """The one Date header's instant; several disagreeing headers are no date at all."""
    if len(set(values)) != 1:
        return None
    try:
        parsed = parsedate_to_datetime(values[0])
    except (TypeError, ValueError):
        return None
    return parsed if parsed.tzinfo is not None else None
