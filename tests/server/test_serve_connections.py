"""Connections against a real uvicorn on 127.0.0.1: silent and trickling
connections are closed, the number open is bounded, /healthz still answers.

Each test waits for an event (the server closing a socket), never for a
length of time; the socket timeout only keeps a broken server from hanging
the suite.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace

import httpx

from vouched._server._app import create_app
from vouched._server._config import ServeConfig, load_config
from vouched._server._protocol import uvicorn_settings
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


def test_connections_past_the_limit_are_closed_and_silent_ones_free_their_places() -> None:
    with (
        _served(_config(max_connections=4, header_timeout=0.3)) as (url, port),
        ExitStack() as stack,
    ):
        idle = [
            stack.enter_context(socket.create_connection(("127.0.0.1", port))) for _ in range(4)
        ]
        extra = stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        assert _closed_by_server(extra)  # past the limit: closed at once
        assert all(_closed_by_server(sock) for sock in idle)  # silent: closed at the timeout
        assert httpx.get(f"{url}/healthz", timeout=30).status_code == 200


def test_a_connection_past_the_limit_is_closed_before_any_timeout() -> None:
    # header_timeout outlasts the socket's 30 s: only the limit can close it.
    with _served(_config(max_connections=2, header_timeout=600)) as (_, port), ExitStack() as stack:
        for _ in range(2):
            stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        extra = stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        assert _closed_by_server(extra)
