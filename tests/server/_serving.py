"""The service under a real uvicorn on 127.0.0.1, in a thread, for one test."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NOW = "2026-11-29T12:10:00Z"


@contextmanager
def serving(app: Any, **settings: Any) -> Iterator[str]:
    """Serve ``app`` on a free port of 127.0.0.1; yields its base URL.
    ``settings`` are more ``uvicorn.Config`` keywords (``uvicorn_settings(config)``).

    The socket listens before uvicorn starts, so the first request waits in
    the backlog instead of racing the start-up (no polling, no sleeping)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as vouched serve does
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    keywords: dict[str, Any] = {"log_level": "warning", "access_log": False, "lifespan": "on"}
    server = uvicorn.Server(uvicorn.Config(app, **{**keywords, **settings}))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def sse(text: str) -> list[tuple[str, str]]:
    """(event, data) pairs of a server-sent event stream."""
    events = []
    for block in text.split("\n\n"):
        if not block.strip():
            continue
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((fields["event"], fields["data"]))
    return events


class InProcess:
    """The app in this process, through httpx's ASGI transport: each call runs
    on its own event loop, as a client would see it (Host 127.0.0.1)."""

    def __init__(self, app: Any, *, base_url: str = "http://127.0.0.1") -> None:
        self.app = app
        self.base_url = base_url

    def request(self, method: str, path: str, **kw: Any) -> Any:
        import asyncio  # noqa: PLC0415 - only this helper needs it

        import httpx  # noqa: PLC0415

        async def call() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url=self.base_url) as client:
                response = await client.request(method, path, **kw)
                await response.aread()
                return response

        return asyncio.run(call())

    def post(self, path: str, **kw: Any) -> Any:
        return self.request("POST", path, **kw)

    def get(self, path: str, **kw: Any) -> Any:
        return self.request("GET", path, **kw)
