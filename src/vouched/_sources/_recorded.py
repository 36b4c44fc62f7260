"""A real HTTP server on 127.0.0.1 that serves recorded JSON, with outages on demand.

For demos, examples and tests of sources: no internet, real sockets. Exposed
as :class:`vouched.testing.RecordedServer`.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self
from urllib.parse import urlsplit

__all__ = ["RecordedServer"]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024  # many concurrent clients (benchmarks) must not be refused

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gave up (deadline, cancellation) resets its connection:
        # expected when testing outages, not worth a traceback on stderr.
        del request, client_address


def _default(value: object) -> Any:
    return str(value)  # Decimals and datetimes as written


class RecordedServer:
    """Serves ``routes`` (``"/path"`` or ``"/path?exact=query"`` -> JSON body).

    A request matches its exact path and query first, then its path. Use as a
    context manager (or :meth:`start` / :meth:`stop`); ``url`` is the base URL.
    ``down(path, status)`` makes every request under ``path`` fail with
    ``status`` until ``up(path)``; ``hits`` counts requests by path.

    >>> import httpx
    >>> from vouched.testing import RecordedServer
    >>> with RecordedServer({"/v1/forecast": {"temperature": 4.3}}) as server:
    ...     first = httpx.get(f"{server.url}/v1/forecast").json()
    ...     server.down("/v1/forecast", 503)
    ...     then = httpx.get(f"{server.url}/v1/forecast").status_code
    >>> first, then, server.hits["/v1/forecast"]
    ({'temperature': 4.3}, 503, 2)
    """

    def __init__(self, routes: Mapping[str, object]) -> None:
        self._bodies = {
            key: json.dumps(body, default=_default).encode("utf-8") for key, body in routes.items()
        }
        self._down: dict[str, int] = {}
        self._lock = threading.Lock()
        self.hits: Counter[str] = Counter()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("the server is not running; call start() or use 'with'")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def down(self, path: str, status: int = 503) -> None:
        """Fail every request whose path starts with ``path``."""
        with self._lock:
            self._down[path] = status

    def up(self, path: str | None = None) -> None:
        """End the outage on ``path`` (all outages when None)."""
        with self._lock:
            if path is None:
                self._down.clear()
            else:
                self._down.pop(path, None)

    def _respond(self, target: str) -> tuple[int, bytes]:
        parts = urlsplit(target)
        with self._lock:
            self.hits[parts.path] += 1
            for prefix, status in self._down.items():
                if parts.path.startswith(prefix):
                    return status, b'{"error": "recorded outage"}'
        exact = f"{parts.path}?{parts.query}" if parts.query else parts.path
        body = self._bodies.get(exact, self._bodies.get(parts.path))
        if body is None:
            return 404, b'{"error": "no recording"}'
        return 200, body

    def start(self) -> Self:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive: clients reuse connections
            disable_nagle_algorithm = True  # headers and body go out at once, no 40 ms stalls

            def do_GET(self) -> None:
                status, body = owner._respond(self.path)
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                del format, args

        server = _Server(("127.0.0.1", 0), Handler)
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.05},  # stop() returns quickly
            name="recorded",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
