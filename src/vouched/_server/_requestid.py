"""Request ids: what traces one request through the response, the log and the snapshot.

The caller's ``x-request-id`` is kept when it is 1 to :data:`MAX_CHARS`
printable ASCII characters without spaces (anything else could forge a log
line or fill it); otherwise one is made (``req_`` and 24 hex digits). The
id is returned in the response's ``x-request-id``, added to every log line
of the request (:class:`RequestIdFilter`) and stored in the answer's
snapshot. It lives in a context variable the middleware sets for the
request's task, and only there.
"""

from __future__ import annotations

import contextvars
import logging
import re
import secrets
from typing import Final

__all__ = [
    "MAX_CHARS",
    "RequestIdFilter",
    "current_request_id",
    "new_request_id",
    "request_id_of",
    "reset",
    "using",
]

MAX_CHARS: Final = 128
"""The longest caller's request id kept."""
_PRINTABLE = re.compile(rf"[\x21-\x7e]{{1,{MAX_CHARS}}}")
_CURRENT: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "vouched_request_id", default=None
)


def new_request_id() -> str:
    return f"req_{secrets.token_hex(12)}"


def request_id_of(header: str | None) -> str:
    """The caller's id when it is bounded and printable, else a new one."""
    if header is not None and _PRINTABLE.fullmatch(header):
        return header
    return new_request_id()


def current_request_id() -> str | None:
    """The id of the request being served (``None`` outside one)."""
    return _CURRENT.get()


def using(request_id: str) -> contextvars.Token[str | None]:
    """Make ``request_id`` the current one; hand the token back to :func:`reset`."""
    return _CURRENT.set(request_id)


def reset(token: contextvars.Token[str | None]) -> None:
    _CURRENT.reset(token)


class RequestIdFilter(logging.Filter):
    """Adds ``request_id=...`` to every line logged while a request is served."""

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = _CURRENT.get()
        if request_id is not None and not getattr(record, "request_id", None):
            record.msg = f"{record.getMessage()} request_id={request_id}"
            record.args = ()
            record.request_id = request_id
        return True


FILTER: Final = RequestIdFilter()
"""The one filter the service adds to its loggers (added once, whatever the apps)."""
