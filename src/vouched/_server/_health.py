"""``/healthz`` on a port of its own (``server.health_port``), answered by a
thread, never by the event loop.

On the service's port, a probe waits in the event loop's queue behind
whatever the loop is doing (answers' steps, a scan's hand-off) and for the
GIL the pool's scans hold; a probe that waits too long restarts a healthy
service. The health listener's thread only waits for the GIL (the switch
interval, 1 ms), never for the loop: a loop busy or stuck does not delay it.

It answers ``GET /healthz`` with the document the service's own route gives
(``"draining"`` from SIGTERM on), with the same Host allowlist; anything
else is a 404 or 405 in the service's error shape. No token (probes send
none, as on the service's port). Each connection has a 5 s deadline.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from vouched._hosts import host_name
from vouched._jsonio import dumps

__all__ = ["HealthListener"]

_DEADLINE = 5.0  # seconds a probe's connection may take


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    document: Callable[[], Any]
    hosts: frozenset[str]


class _Probe(BaseHTTPRequestHandler):
    server: _Server
    timeout = _DEADLINE
    protocol_version = "HTTP/1.1"
    server_version = "vouched"
    sys_version = ""

    def do_GET(self) -> None:
        if host_name(self.headers.get("host") or "") not in self.server.hosts:
            self._send(400, _error("host_not_allowed", "the Host header names no host"))
        elif self.path.split("?", 1)[0] != "/healthz":
            self._send(404, _error("not_found", "not found"))
        else:
            self._send(200, dumps(self.server.document()).encode("utf-8"))

    def do_POST(self) -> None:
        self._send(405, _error("method_not_allowed", "method not allowed"), {"allow": "GET"})

    do_PUT = do_DELETE = do_PATCH = do_POST  # noqa: N815 - http.server's names

    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Probes are not logged (the service logs no request unless asked)."""


def _error(code: str, message: str) -> bytes:
    return dumps({"error": {"code": code, "message": message, "field": None}}).encode("utf-8")


class HealthListener:
    """A thread answering probes on ``sock`` (bound and listening) with
    ``document()``; ``hosts`` are the Host names accepted."""

    def __init__(
        self, sock: socket.socket, document: Callable[[], Any], hosts: frozenset[str]
    ) -> None:
        self._server = _Server(sock.getsockname()[:2], _Probe, bind_and_activate=False)
        self._server.socket.close()
        self._server.socket = sock
        self._server.document = document
        self._server.hosts = hosts
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="vouched-health", daemon=True
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop answering (the socket stays open: it is the caller's)."""
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join()
