"""What the adapter tests share: recorded fixtures, fault handlers, a free port.

(Named so that no other test directory's helper module can shadow it.)
"""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path
from typing import Any

from werkzeug import Request, Response

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
BERLIN = {"subject": "Berlin", "latitude": 52.52, "longitude": 13.41}


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def fixture_json(name: str) -> Any:
    return json.loads(fixture_text(name))


def json_response(body: Any, status: int = 200) -> Response:
    text = body if isinstance(body, str) else json.dumps(body)
    return Response(text, status=status, content_type="application/json")


def refused_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


class Stall:
    """A handler that holds the response back until released (or 5 s pass)."""

    def __init__(self, then: Response | None = None) -> None:
        self.release = threading.Event()
        self.then = then

    def __call__(self, request: Request) -> Response:
        self.release.wait(5)
        return self.then or json_response({"late": True})


class Script:
    """A handler that plays responses in order (the last repeats); counts requests."""

    def __init__(self, *responses: Response | Any) -> None:
        self.responses = list(responses)
        self.count = 0
        self.lock = threading.Lock()

    def __call__(self, request: Request) -> Response:
        with self.lock:
            index = min(self.count, len(self.responses) - 1)
            self.count += 1
        response = self.responses[index]
        if callable(response) and not isinstance(response, Response):
            result: Response = response(request)
            return result
        return response  # type: ignore[no-any-return]  # a Response by construction
