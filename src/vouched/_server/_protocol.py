"""uvicorn's HTTP/1.1 protocol with the limits a service needs in front of it.

uvicorn times out idle keep-alive connections, but not a connection that
never sends its headers (a slow-loris trickle, or one that sends nothing):
1,100 of them held every file descriptor. :func:`guarded_protocol` makes a
protocol class that

- closes a new connection at once when ``max_connections`` are open (the
  file descriptors stay bounded; uvicorn's own ``limit_concurrency`` answers
  503 to requests, which needs the connection first);
- closes a connection that has not sent a whole request head within
  ``header_timeout`` seconds of connecting, or of its last answer.

The body has its own deadline: the app reads it under ``request_timeout``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["guarded_protocol", "uvicorn_settings"]


def guarded_protocol(*, max_connections: int, header_timeout: float) -> type[H11Protocol]:
    """An :class:`H11Protocol` subclass with these limits (pass it as ``http=``)."""

    class GuardedH11Protocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                transport.close()  # refused: the limit keeps descriptors for live clients
                return
            self._await_head()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:
                self._stop_waiting()  # the head arrived: the request is the app's now
            elif self._header_timer is None:
                self._await_head()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._stop_waiting()  # between requests, uvicorn's keep-alive timeout holds

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            super().connection_lost(exc)

        def _await_head(self) -> None:
            self._stop_waiting()
            self._header_timer = self.loop.call_later(header_timeout, self._too_slow)

        def _stop_waiting(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if self.cycle is None or self.cycle.response_complete:
                self.transport.close()

    return GuardedH11Protocol


def uvicorn_settings(config: Any) -> dict[str, Any]:
    """The ``uvicorn.Config`` keywords for a :class:`ServeConfig`."""
    return {
        "http": guarded_protocol(
            max_connections=config.max_connections, header_timeout=config.header_timeout
        ),
        "limit_concurrency": config.max_connections + 1,  # uvicorn 503s at >= its limit
        "timeout_keep_alive": max(int(config.keep_alive_timeout), 1),
        "timeout_graceful_shutdown": max(int(config.shutdown_grace), 1),
        "h11_max_incomplete_event_size": 16 * 1024,  # a request head over 16 KiB is refused
        "log_level": "warning",
        "access_log": False,
        "lifespan": "on",
    }
