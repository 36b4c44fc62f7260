"""uvicorn's HTTP/1.1 protocol with the limits a service needs in front of it.

The parser is httptools when it is installed (the ``server`` extra brings
it: bench/serve.py measured h11 at about a seventh of the service's CPU per
answer), else h11; the limits below are the same on both.

uvicorn times out idle keep-alive connections, but not a connection that
never sends its headers (a slow-loris trickle, or one that sends nothing):
1,100 of them held every file descriptor. :func:`guarded_protocol` makes a
protocol class that

- keeps at most ``max_connections`` open (the file descriptors stay
  bounded): past it, the connection idle the longest (no request under way)
  is closed to make room, so silent connections never lock out a client
  with a request (``/healthz`` stays reachable); failing that, the one whose
  request body has been trickling in the longest, once it has taken more
  than ``header_timeout`` seconds (slow bodies cannot starve a probe either);
  when every connection has a request under way that is not stalled so, the
  new one is closed at once;
- accepts at most :func:`accept_batch` connections per turn of the event
  loop (asyncio accepts up to the listen backlog at once, 2,048 by default,
  before any of them can be refused): a burst of idle connections holds at
  most ``max_connections`` plus about two batches of file descriptors;
- closes a connection that has not sent a whole request head within
  ``header_timeout`` seconds of connecting, or of its last answer.

The body has its own deadline: the app reads it under ``request_timeout``.
"""

from __future__ import annotations

import asyncio
import errno
import logging
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

try:  # the faster parser, when installed
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Fast
except ImportError:  # pragma: no cover - the server extra installs httptools
    _Fast = None  # type: ignore[assignment,misc]

from vouched._time import Clock

__all__ = ["AcceptErrors", "accept_batch", "guarded_protocol", "uvicorn_settings"]

_log = logging.getLogger("vouched.server")
_OUT_OF_FILES = frozenset({errno.EMFILE, errno.ENFILE})


class AcceptErrors:
    """The event loop's error handler: running out of file descriptors while
    accepting (a burst past ``ulimit -n``) is one log line per ``every``
    seconds, with how many more there were, instead of a traceback per try.
    Every other error goes to the loop's default handler."""

    def __init__(self, clock: Clock, every: float = 10.0) -> None:
        self.clock = clock
        self.every = every
        self.since: float | None = None  # when the last line was written
        self.more = 0  # errors since then, not written

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if not (isinstance(error, OSError) and error.errno in _OUT_OF_FILES):
            loop.default_exception_handler(context)
            return
        now = self.clock.monotonic()
        if self.since is not None and now - self.since < self.every:
            self.more += 1
            return
        _log.error(
            "out of file descriptors accepting connections (%s); %d more in the last %g s: "
            "raise ulimit -n or lower server.max_connections",
            *(error.strerror, self.more, self.every),
        )
        self.since, self.more = now, 0


def accept_batch(max_connections: int) -> int:
    """Connections accepted per turn of the loop (uvicorn's ``backlog``, which is
    also the kernel's listen queue): a sixteenth of the limit, between 8 and 64."""
    return min(64, max(8, max_connections // 16))


def guarded_protocol(
    *,
    max_connections: int,
    header_timeout: float,
    base: type[Any] | None = None,
    clock: Callable[[], float] | None = None,
) -> type[Any]:
    """uvicorn's protocol (``base``: httptools' when installed, else h11's)
    with these limits (pass it as ``http=``); ``clock`` (default: the event
    loop's) is what idle and stalled times are read from."""
    parent: type[Any] = base or (_Fast if _Fast is not None else H11Protocol)

    class GuardedProtocol(parent):  # type: ignore[misc]  # a base chosen at run time
        _header_timer: asyncio.TimerHandle | None = None
        _idle_since = 0.0

        def _now(self) -> float:
            return self.loop.time() if clock is None else clock()

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            self._idle_since = self._now()
            if len(self.connections) > max_connections and not self._make_room():
                transport.close()  # every other connection is busy: refused
                return
            self._await_head()

        def _idle(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def _stalled(self, now: float) -> bool:
            """A request whose body is still coming, ``header_timeout`` seconds
            after the connection was made or last answered, no answer begun."""
            cycle = self.cycle
            return (
                cycle is not None
                and cycle.more_body
                and not cycle.response_started
                and now - self._idle_since > header_timeout
            )

        def _make_room(self) -> bool:
            """Close the connection idle the longest, else the one whose body has
            been stalled the longest; False when there is none of either."""
            others = [
                c
                for c in self.connections
                if isinstance(c, GuardedProtocol) and c is not self and not c.transport.is_closing()
            ]
            now = self._now()
            chosen = [c for c in others if c._idle()] or [c for c in others if c._stalled(now)]
            if not chosen:
                return False
            min(chosen, key=lambda c: c._idle_since).transport.close()
            return True

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:
                self._stop_waiting()  # the head arrived: the request is the app's now
            elif self._header_timer is None:
                self._await_head()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._idle_since = self._now()
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

    return GuardedProtocol


def uvicorn_settings(config: Any) -> dict[str, Any]:
    """The ``uvicorn.Config`` keywords for a :class:`ServeConfig`."""
    return {
        "http": guarded_protocol(
            max_connections=config.max_connections, header_timeout=config.header_timeout
        ),
        "limit_concurrency": config.max_connections + 1,  # uvicorn 503s at >= its limit
        "backlog": accept_batch(config.max_connections),
        "timeout_keep_alive": max(int(config.keep_alive_timeout), 1),
        "timeout_graceful_shutdown": max(int(config.shutdown_grace), 1),
        "h11_max_incomplete_event_size": 16 * 1024,  # a request head over 16 KiB is refused
        "log_level": "warning",
        "access_log": False,
        "lifespan": "on",
    }
