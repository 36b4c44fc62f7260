"""Connections against a real uvicorn on 127.0.0.1: silent and trickling
connections are closed, the number open is bounded, /healthz still answers.

Each test waits for an event (the server closing a socket), never for a
length of time; the socket timeout only keeps a broken server from hanging
the suite.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace

import pytest

from vouched._server._app import create_app
from vouched._server._config import ServeConfig, load_config
from vouched._server._protocol import AcceptErrors, guarded_protocol, uvicorn_settings
from vouched.testing import FakeClock

from ._serving import EXAMPLES, NOW, serving


def _config(**changes: object) -> ServeConfig:
    return replace(load_config(EXAMPLES / "serve.toml"), **changes)


@contextmanager
def _served(config: ServeConfig) -> Iterator[tuple[str, int]]:
    with serving(create_app(config, clock=FakeClock(NOW)), **uvicorn_settings(config)) as url:
        yield url, int(url.rsplit(":", 1)[1])


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closes ``sock`` (it reads EOF) before it sends a byte."""
    sock.settimeout(30)
    try:
        return sock.recv(1) == b""
    except (ConnectionResetError, TimeoutError):
        return False


def test_a_connection_that_sends_no_request_is_closed_at_the_header_timeout() -> None:
    with _served(_config(header_timeout=0.2)) as (_, port):
        silent = socket.create_connection(("127.0.0.1", port))
        with silent:
            assert _closed_by_server(silent)


def test_a_connection_trickling_its_headers_is_closed_at_the_header_timeout() -> None:
    with _served(_config(header_timeout=0.2)) as (_, port):
        trickle = socket.create_connection(("127.0.0.1", port))
        with trickle:
            trickle.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never ends
            assert _closed_by_server(trickle)


def test_past_the_limit_the_longest_idle_connection_makes_room() -> None:
    # header_timeout outlasts the socket's 30 s: only the limit can close one.
    with _served(_config(max_connections=3, header_timeout=600)) as (_, port), ExitStack() as stack:
        oldest, *_ = [
            stack.enter_context(socket.create_connection(("127.0.0.1", port))) for _ in range(3)
        ]
        newest = stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        assert _closed_by_server(oldest)
        newest.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        newest.settimeout(30)
        assert newest.recv(64).startswith(b"HTTP/1.1 200")


def test_when_every_connection_has_a_request_under_way_a_new_one_is_closed() -> None:
    head = (
        b"POST /v1/gate HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        b"content-length: 100\r\nexpect: 100-continue\r\n\r\n"
    )  # the body never comes: the request stays under way
    config = _config(max_connections=2, header_timeout=600, request_timeout=600)
    with _served(config) as (_, port), ExitStack() as stack:
        busy = [
            stack.enter_context(socket.create_connection(("127.0.0.1", port))) for _ in range(2)
        ]
        for sock in busy:
            sock.sendall(head)
            sock.settimeout(30)
            assert sock.recv(64).startswith(b"HTTP/1.1 100")  # the app is reading its body
        newest = stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        assert _closed_by_server(newest)


def test_a_burst_is_accepted_a_bounded_batch_at_a_time() -> None:
    # asyncio accepts up to uvicorn's backlog (2,048 by default) in one turn of the
    # loop, before a connection past the limit can be closed: the batch bounds the
    # file descriptors a burst of idle connections holds beyond max_connections.
    settings = uvicorn_settings(_config(max_connections=1000))
    assert settings["backlog"] <= 1000 // 16


def test_running_out_of_file_descriptors_is_one_log_line_per_ten_seconds(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = FakeClock("2026-11-29T12:00:00Z")
    handler = AcceptErrors(clock)
    loop = asyncio.new_event_loop()
    error = OSError(errno.EMFILE, "Too many open files")
    try:
        with caplog.at_level(logging.ERROR, logger="vouched.server"):
            for _ in range(5_000):
                handler(loop, {"message": "socket.accept() out of system resource",
                               "exception": error})  # fmt: skip
            clock.advance(seconds=10)
            handler(loop, {"message": "accept", "exception": error})
    finally:
        loop.close()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2
    assert "4999 more in the last 10 s" in lines[1]


def test_bodies_stalled_past_the_header_timeout_make_room_for_a_probe() -> None:
    head = (
        b"POST /v1/gate HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        b"content-length: 100\r\nexpect: 100-continue\r\n\r\n"
    )  # the body never comes
    config = _config(max_connections=2, header_timeout=600, request_timeout=600)
    seconds = [0.0]  # the protocol's clock: moved by hand, never waited for
    settings = uvicorn_settings(config)
    settings["http"] = guarded_protocol(max_connections=2, header_timeout=600,
                                        clock=lambda: seconds[0])  # fmt: skip
    app = create_app(config, clock=FakeClock(NOW))
    with serving(app, **settings) as url, ExitStack() as stack:
        port = int(url.rsplit(":", 1)[1])
        slow = [
            stack.enter_context(socket.create_connection(("127.0.0.1", port))) for _ in range(2)
        ]
        for sock in slow:
            sock.sendall(head)
            sock.settimeout(30)
            assert sock.recv(64).startswith(b"HTTP/1.1 100")  # the app is reading its body
        seconds[0] = 601.0  # both bodies have now stalled past the header timeout
        probe = stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        probe.settimeout(30)
        assert probe.recv(64).startswith(b"HTTP/1.1 200")  # a stalled one made room
