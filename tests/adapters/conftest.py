"""A threaded HTTP server on 127.0.0.1 for the adapter tests (pytest-httpserver)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from adapterkit import Stall
from pytest_httpserver import HTTPServer


@pytest.fixture(scope="session")
def _local_server() -> Iterator[HTTPServer]:
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    yield server
    server.clear()
    server.stop()


@pytest.fixture
def server(_local_server: HTTPServer) -> Iterator[HTTPServer]:
    _local_server.clear()
    yield _local_server
    _local_server.clear()


@pytest.fixture
def stall() -> Iterator[Stall]:
    """A response held back until the test ends (a server that never answers in time)."""
    held = Stall()
    yield held
    held.release.set()
