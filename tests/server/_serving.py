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
def serving(app: Any) -> Iterator[str]:
    """Serve ``app`` on a free port of 127.0.0.1; yields its base URL.

    The socket listens before uvicorn starts, so the first request waits in
    the backlog instead of racing the start-up (no polling, no sleeping)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as vouched serve does
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    )
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
