"""A phraser's failure as codes: what a client of ``vouched serve`` may be told.

A model server's error message can quote anything (its own body, a URL, the
prompt); none of it reaches a client. :func:`failure_of` reads an exception
into an :class:`UpstreamFailure`: a stable code, the upstream's HTTP status
and its ``Retry-After``, and the HTTP status a gateway answers with, so a
client's retries and fallbacks fire on an outage instead of reading it as a
refusal. Pure: no clock, no I/O.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from vouched._exceptions import (
    PhraserConnectionError,
    PhraserHTTPError,
    PhraserResponseError,
    PhraserStreamError,
)

__all__ = ["MESSAGE_CHARS", "UpstreamCode", "UpstreamFailure", "failure_of", "redacted"]

MESSAGE_CHARS = 200
"""An upstream's message is kept (for the snapshot and the log) cut to this."""
_SECRETS = re.compile(
    r"(?i)\b(?:bearer|basic)\s+\S+"  # an authorization header's value
    r"|\b(?:sk|pk|rk|key|api[-_]?key|token)[-_][A-Za-z0-9_\-]{8,}"  # API keys by their prefix
    r"|\b[A-Za-z0-9_\-+/=]{32,}"  # long opaque tokens
    r"|\b[\w.+-]+@[\w-]+\.[\w.-]+"  # e-mail addresses
)
_URLS = re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://\S+")


def redacted(message: str) -> str:
    """An upstream's error message as vouched keeps it: URLs, keys, long
    tokens and e-mail addresses replaced, whitespace collapsed, cut to
    :data:`MESSAGE_CHARS` characters. For the snapshot and the log only:
    a client is told the code."""
    text = _URLS.sub("<url>", " ".join(message.split()))
    return _SECRETS.sub("<redacted>", text)[:MESSAGE_CHARS]


class UpstreamCode(enum.StrEnum):
    """Why the model gave no text (a stable code for clients, logs and metrics)."""

    TIMEOUT = "upstream_timeout"  # no answer within the phraser's timeout
    UNREACHABLE = "upstream_unreachable"  # refused, reset, DNS: nothing answered
    ERROR = "upstream_error"  # an HTTP 5xx, or 401/403 (the gateway's own key)
    RATE_LIMITED = "upstream_rate_limited"  # HTTP 429
    REJECTED = "upstream_rejected"  # HTTP 400/404/413/422: the request's own fault
    BAD_RESPONSE = "upstream_bad_response"  # not a chat completion, or empty
    STREAM_BROKEN = "upstream_stream_broken"  # a streamed answer broke off
    PHRASER_FAILED = "phraser_failed"  # a phraser that is not a model server raised


_REJECTED = frozenset({400, 404, 413, 422})
_RETRY_AFTER = re.compile(r"[0-9]{1,9}|[A-Za-z]{3}, [0-9]{2} [A-Za-z]{3} [0-9]{4} [0-9:]{8} GMT")


@dataclass(frozen=True, slots=True)
class UpstreamFailure:
    """A phraser failure as a client may see it: ``code``, the upstream's
    ``status`` (when it answered HTTP) and ``retry_after`` (its header,
    kept only when it is seconds or an HTTP date)."""

    code: UpstreamCode
    status: int | None = None
    retry_after: str | None = None
    message: str = ""  # the upstream's own words, redacted (never sent to a client)
    upstream: str = ""  # the ``[[upstream]]`` that failed, when the gateway knows its name

    @property
    def http_status(self) -> int:
        """What a gateway answers: 504 on a timeout, 429 when rate limited,
        400 when the upstream rejected the request, else 502 (bad gateway)."""
        if self.code is UpstreamCode.TIMEOUT:
            return 504
        if self.code is UpstreamCode.RATE_LIMITED:
            return 429
        if self.code is UpstreamCode.REJECTED:
            return 400
        return 502

    def to_json(self) -> dict[str, object]:
        return {"code": str(self.code), "status": self.status, "retry_after": self.retry_after}

    def record(self) -> dict[str, object]:
        """The failure as a snapshot's attempt keeps it: the upstream's status,
        vouched's code, the upstream's message, redacted, and the name of the
        upstream that failed (when known: a fallback answered, or failed too)."""
        kept: dict[str, object] = {
            "status": self.status,
            "code": str(self.code),
            "message": self.message,
        }
        if self.upstream:
            kept["upstream"] = self.upstream
        return kept


def failure_of(error: BaseException) -> UpstreamFailure:
    """The failure a phraser's exception stands for (its message redacted)."""
    found = _failure_of(error)
    message = redacted(str(error)) if isinstance(error, Exception) else ""
    return UpstreamFailure(found.code, found.status, found.retry_after, message)


def _failure_of(error: BaseException) -> UpstreamFailure:
    if isinstance(error, TimeoutError):  # PhraserTimeoutError, asyncio's timeout
        return UpstreamFailure(UpstreamCode.TIMEOUT)
    if isinstance(error, PhraserHTTPError):
        status = error.status
        if status == 429:
            after = error.retry_after
            kept = after.strip() if after and _RETRY_AFTER.fullmatch(after.strip()) else None
            return UpstreamFailure(UpstreamCode.RATE_LIMITED, status, kept)
        if status in _REJECTED:
            return UpstreamFailure(UpstreamCode.REJECTED, status)
        return UpstreamFailure(UpstreamCode.ERROR, status)
    if isinstance(error, PhraserConnectionError):
        return UpstreamFailure(UpstreamCode.UNREACHABLE)
    if isinstance(error, PhraserStreamError):
        return UpstreamFailure(UpstreamCode.STREAM_BROKEN)
    if isinstance(error, PhraserResponseError):
        return UpstreamFailure(UpstreamCode.BAD_RESPONSE)
    return UpstreamFailure(UpstreamCode.PHRASER_FAILED)
