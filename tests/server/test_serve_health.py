"""``server.health_port``: /healthz answered by a thread of its own, never
queued behind the event loop (real uvicorn and a real socket on 127.0.0.1)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from vouched import InputError
from vouched._server._app import create_app
from vouched._server._config import load_config

from ._serving import EXAMPLES, serving


@contextmanager
def _with_health_port() -> Iterator[tuple[str, str, Any]]:
    """The service and its health listener; (service URL, health URL, service)."""
    health = socket.socket()
    health.bind(("127.0.0.1", 0))
    health.listen(16)
    app = create_app(load_config(EXAMPLES / "serve.toml"), health=health)
    try:
        with serving(app) as url:
            yield url, f"http://127.0.0.1:{health.getsockname()[1]}", app.service
    finally:
        health.close()


def test_the_health_port_answers_while_the_event_loop_is_stuck() -> None:
    with _with_health_port() as (url, health, service):
        assert httpx.get(f"{url}/healthz", timeout=30).status_code == 200  # the loop runs
        stuck, release = threading.Event(), threading.Event()

        def block() -> None:  # the loop busy until the test says so
            stuck.set()
            release.wait(30)

        service._loop.call_soon_threadsafe(block)
        try:
            assert stuck.wait(30)
            answer = httpx.get(f"{health}/healthz", timeout=30)
        finally:
            release.set()
        assert answer.status_code == 200
        assert answer.json() == httpx.get(f"{url}/healthz", timeout=30).json()
        assert answer.json()["status"] == "ok"


def test_the_health_port_says_draining_once_the_service_drains() -> None:
    with _with_health_port() as (_, health, service):
        service.draining = True
        assert httpx.get(f"{health}/healthz", timeout=30).json()["status"] == "draining"


def test_the_health_port_answers_only_healthz_to_allowed_hosts() -> None:
    with _with_health_port() as (_, health, _service):
        assert httpx.get(f"{health}/v1/models", timeout=30).status_code == 404
        assert httpx.post(f"{health}/healthz", timeout=30).status_code == 405
        evil = httpx.get(f"{health}/healthz", headers={"host": "evil.example"}, timeout=30)
        assert (evil.status_code, evil.json()["error"]["code"]) == (400, "host_not_allowed")


@pytest.mark.parametrize("value", ["65536", "-1", "true", '"8788"'])
def test_health_port_must_be_a_port(tmp_path: Path, value: str) -> None:
    path = tmp_path / "serve.toml"
    path.write_text(f"[server]\nhealth_port = {value}\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"server.health_port: must be a TCP port \(0-65535\)"):
        load_config(path)


def test_health_port_has_no_default(tmp_path: Path) -> None:
    assert load_config(EXAMPLES / "serve.toml").health_port is None
    path = tmp_path / "serve.toml"
    path.write_text("[server]\nhealth_port = 0\n", encoding="utf-8")
    assert replace(load_config(path)).health_port == 0
