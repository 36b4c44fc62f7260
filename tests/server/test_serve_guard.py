"""No request can stop the service: what every request passes first, in-process.

Host allowlist, bearer token, JSON-only POSTs, bounded numbers, the work
pool's queue limit and the drain, each answered with its code.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace
from typing import Any

import httpx
import pytest

from vouched._server._app import create_app
from vouched._server._config import ServeConfig, load_config
from vouched.testing import FakeClock

from ._serving import EXAMPLES, NOW, InProcess

ONE_FACT = {"subject": "Berlin", "attribute": "temperature", "value": 21.4, "unit": "degC",
            "source": "s", "observed_at": "2026-11-29T12:00:00Z", "ttl": 900}  # fmt: skip
GATE = {"facts": [ONE_FACT], "now": NOW}
TOKEN = "s3cret"  # noqa: S105 - a test token


def _app(**changes: object) -> Any:
    config: ServeConfig = replace(load_config(EXAMPLES / "serve.toml"), **changes)
    return create_app(config, clock=FakeClock(NOW))


def test_a_text_plain_post_is_415_before_it_is_read() -> None:
    response = InProcess(_app()).post(
        "/v1/answer", content=b'{"question": "Berlin?"}', headers={"content-type": "text/plain"}
    )
    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"


def test_a_host_the_service_is_not_is_refused() -> None:
    rebound = InProcess(_app(), base_url="http://attacker.example")
    response = rebound.post("/v1/gate", json=GATE)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "host_not_allowed"


@pytest.mark.parametrize("host", ["127.0.0.1:8787", "localhost", "[::1]:8787"])
def test_the_loopback_names_are_allowed_with_or_without_a_port(host: str) -> None:
    response = InProcess(_app()).post("/v1/gate", json=GATE, headers={"host": host})
    assert response.status_code == 200


def test_a_configured_host_name_is_allowed() -> None:
    named = InProcess(_app(allowed_hosts=("vouched.internal",)), base_url="http://vouched.internal")
    assert named.post("/v1/gate", json=GATE).status_code == 200


def test_with_a_token_a_request_without_it_is_401() -> None:
    response = InProcess(_app(token=TOKEN)).post("/v1/gate", json=GATE)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"


def test_with_a_token_the_right_bearer_is_served() -> None:
    client = InProcess(_app(token=TOKEN))
    assert client.post("/v1/gate", json=GATE, headers={"authorization": "Bearer s3cret"}).is_success
    assert (
        client.post("/v1/gate", json=GATE, headers={"authorization": "Bearer nope"}).status_code
        == 401
    )


def test_healthz_needs_no_token_so_probes_can_reach_it() -> None:
    assert InProcess(_app(token=TOKEN)).get("/healthz").status_code == 200


def test_a_huge_exponent_is_a_422_naming_the_bound() -> None:
    body = (
        b'{"facts": [{"subject": "Berlin", "attribute": "t", "value": 1e999999999,'
        b' "source": "s", "observed_at": "2026-11-29T12:00:00Z"}]}'
    )
    response = InProcess(_app()).post(
        "/v1/gate", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert "out of bounds" in response.json()["error"]["message"]


def test_an_answer_takes_a_list_of_queries() -> None:
    body = {
        "question": "Berlin and Munich?",
        "query": [{"subject": "Berlin"}, {"subject": "Munich"}],
    }
    document = InProcess(_app()).post("/v1/answer", json=body).json()
    assert "Berlin" in document["text"]
    assert "Munich" in document["text"]


def test_an_empty_list_of_queries_is_422() -> None:
    response = InProcess(_app()).post("/v1/answer", json={"question": "?", "query": []})
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "query"


def test_a_full_work_queue_is_503_with_retry_after() -> None:
    app = _app(workers=1, queue_limit=1)
    pool = app.service.pool
    release = threading.Event()
    held = [pool.submit(release.wait, 30) for _ in range(2)]  # one running, one waiting
    try:
        response = InProcess(app).post(
            "/v1/scan", json={"text": "It is 21.4 °C.", "facts": [], "now": NOW}
        )
    finally:
        release.set()
        for future in held:
            future.result(timeout=30)
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "overloaded"
    assert response.headers["retry-after"] == "1"


def test_work_still_queued_at_the_deadline_is_never_started() -> None:
    # The pool's thread is real, so the deadline is real too: short, and nothing is
    # compared with it (the test asserts what ran, not how long it took).
    app = _app(workers=1, request_timeout=0.2)
    pool = app.service.pool
    release = threading.Event()
    blocker = pool.submit(release.wait, 30)

    async def main() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return await client.post(
                "/v1/scan", json={"text": "It is 21.4 °C.", "facts": [], "now": NOW}
            )

    try:
        response = asyncio.run(main())
    finally:
        release.set()
        blocker.result(timeout=30)
        pool.shutdown(wait=True)
    assert response.status_code == 504
    assert pool.started == 1  # the blocker; the scan was dropped unstarted


def test_a_draining_service_refuses_new_work_with_503() -> None:
    app = _app()
    app.service.draining = True
    response = InProcess(app).post("/v1/gate", json=GATE)
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "shutting_down"
