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

__all__ = ["UpstreamCode", "UpstreamFailure", "failure_of"]


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


def failure_of(error: BaseException) -> UpstreamFailure:
    """The failure a phraser's exception stands for."""
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
