"""Pure ASGI middleware: what every request passes before a handler sees it.

- a request head (target and headers) over :data:`MAX_HEAD_BYTES` is a 431,
  whatever the HTTP parser let through in one read;
- the ``Host`` header must be one of the service's names (by default the
  loopback names and the bound address): a web page a developer opens
  cannot make a browser reach ``127.0.0.1:8787`` by a rebound DNS name;
- a bearer token when one is configured (``/healthz`` excepted, for probes);
- a POST body must be ``application/json`` (415 otherwise): a form or
  ``text/plain`` POST from any web page is refused before it costs anything;
- every request gets an id (the caller's ``x-request-id`` when it is bounded
  and printable, else a new one), returned in ``x-request-id`` and on every
  log line of the request (:mod:`vouched._server._requestid`);
- every request is counted and timed by endpoint and status, and logged
  (method, path, status, time; never a body) when ``log_requests`` is set.
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Collection
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from vouched._hosts import host_name  # one home, below serve and review
from vouched._server._http import RequestError, error_response
from vouched._server._models import ErrorCode
from vouched._server._requestid import request_id_of, reset, using

__all__ = ["MAX_HEAD_BYTES", "Guard", "head_bytes", "host_name"]

_log = logging.getLogger("vouched.server")
_OPEN_PATHS = frozenset({"/healthz"})
MAX_HEAD_BYTES = 16 * 1024
"""The largest request head taken: its target and headers, as written on the wire."""


def head_bytes(scope: Scope) -> int:
    """The size of a request's head as sent: its target, and each header as
    ``name: value`` and a line end."""
    target = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
    return target + sum(len(name) + len(value) + 4 for name, value in scope["headers"])


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


class Guard:
    """The checks and the metrics, around the whole app."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: Collection[str],
        token: str | None,
        metrics: Any,
        endpoints: Collection[str],
        posts: Collection[str],
        log_requests: bool,
        service: Any = None,
    ) -> None:
        self.app = app
        self.service = service  # what the app serves (tests reach its grounder)
        self.hosts = frozenset(hosts)
        self.token = token
        self.metrics = metrics
        self.endpoints = frozenset(endpoints)
        self.posts = frozenset(posts)  # the POST routes: their bodies must be JSON
        self.log_requests = log_requests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        path: str = scope["path"]
        status = [500]
        request_id = request_id_of(_header(scope, b"x-request-id"))
        marker = request_id.encode("ascii")
        token = using(request_id)

        accounted = [False]

        async def sent(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                message["headers"] = [*message.get("headers", ()), (b"x-request-id", marker)]
            elif not message.get("more_body", False) and not accounted[0]:
                # counted before the last bytes leave: a client that has its answer
                # finds it in /metrics (counted after, a scrape could overtake it)
                accounted[0] = True
                self._account(scope, path, status[0], time.perf_counter() - began)
            await send(message)

        try:
            problem = self._problem(scope)
            if problem is not None:
                await error_response(path, problem)(scope, receive, sent)
            else:
                await self.app(scope, receive, sent)
        finally:
            if not accounted[0]:  # no complete response (a disconnect, an error)
                self._account(scope, path, status[0], time.perf_counter() - began)
            reset(token)

    def _problem(self, scope: Scope) -> RequestError | None:
        if head_bytes(scope) > MAX_HEAD_BYTES:
            over = f"the request head is over {MAX_HEAD_BYTES // 1024} KiB"
            return RequestError(431, ErrorCode.HEADERS_TOO_LARGE, over)
        host = host_name(_header(scope, b"host") or "")
        if host not in self.hosts:
            return RequestError(
                400, ErrorCode.HOST_NOT_ALLOWED, "the Host header names no host of this service"
            )
        if self.token is not None and scope["path"] not in _OPEN_PATHS:
            given = _header(scope, b"authorization") or ""
            scheme, _, secret = given.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(
                secret.strip().encode(), self.token.encode()
            ):
                return RequestError(
                    401,
                    ErrorCode.UNAUTHORIZED,
                    "a bearer token is required (Authorization: Bearer ...)",
                    headers={"www-authenticate": "Bearer"},
                )
        if scope["method"] == "POST" and scope["path"] in self.posts:
            media = (_header(scope, b"content-type") or "").split(";", 1)[0].strip().lower()
            if media != "application/json":
                return RequestError(
                    415,
                    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
                    "a POST body must be application/json",
                    "content-type",
                )
        return None

    def _account(self, scope: Scope, path: str, status: int, spent: float) -> None:
        name = path if path in self.endpoints else "other"
        self.metrics.requests.labels(name, str(status)).inc()
        self.metrics.latency.labels(name).observe(spent)
        if self.log_requests:
            _log.info("%s %s %d %.1f ms", scope["method"], name, status, spent * 1000)
