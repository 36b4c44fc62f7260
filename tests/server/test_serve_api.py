"""vouched serve's API in-process (httpx's ASGI transport), the CLI's contracts as JSON."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from chatstream import completion_events
from vouched import OpenAIChatPhraser
from vouched._server._app import create_app
from vouched._server._config import ServeConfig, load_config
from vouched.testing import FakeClock, run_cli

from ._serving import EXAMPLES, NOW, InProcess, sse

JSON = {"content-type": "application/json"}
FACTS = json.loads((EXAMPLES / "facts.json").read_text(encoding="utf-8"))
ANSWER_TEXT = (EXAMPLES / "answer.txt").read_text(encoding="utf-8")
CLAIMS = [json.loads(line) for line in (EXAMPLES / "claims.jsonl").read_text().splitlines()]


def _config(**changes: object) -> ServeConfig:
    return replace(load_config(EXAMPLES / "serve.toml"), **changes)


@pytest.fixture
def base() -> InProcess:
    return InProcess(create_app(_config(), clock=FakeClock(NOW)))


def _cli(*args: str) -> dict[str, object]:
    run = run_cli(args)
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def test_gate_answers_exactly_what_the_cli_prints(base: InProcess) -> None:
    response = base.post("/v1/gate", json={"facts": FACTS, "now": NOW})
    assert response.status_code == 200
    assert response.json() == _cli("gate", str(EXAMPLES / "facts.json"), "--now", NOW, "--json")


def test_scan_answers_exactly_what_the_cli_prints(base: InProcess) -> None:
    lexicon = json.loads((EXAMPLES / "lexicon.json").read_text(encoding="utf-8"))
    body = {"text": ANSWER_TEXT, "facts": FACTS, "lexicon": lexicon, "now": NOW}
    response = base.post("/v1/scan", json=body)
    assert response.status_code == 200
    assert response.json() == _cli(
        "scan",
        "--facts",
        str(EXAMPLES / "facts.json"),
        "--lexicon",
        str(EXAMPLES / "lexicon.json"),
        "--now",
        NOW,
        "--json",
        str(EXAMPLES / "answer.txt"),
    )


def test_scan_takes_a_lexicon_by_its_name_in_the_config(base: InProcess) -> None:
    by_name = {"text": ANSWER_TEXT, "facts": FACTS, "lexicon": "weather", "now": NOW}
    inline = {**by_name, "lexicon": json.loads((EXAMPLES / "lexicon.json").read_text())}
    assert base.post("/v1/scan", json=by_name).json() == base.post("/v1/scan", json=inline).json()


def test_verify_answers_exactly_what_the_cli_prints(base: InProcess) -> None:
    response = base.post("/v1/verify", json={"catalog": "workshops", "claims": CLAIMS})
    assert response.status_code == 200
    assert response.json() == _cli(
        "verify",
        "--catalog",
        str(EXAMPLES / "catalog.csv"),
        "--contract",
        str(EXAMPLES / "contract.toml"),
        "--json",
        str(EXAMPLES / "claims.jsonl"),
    )


def test_answer_is_the_grounders_answer_as_json(base: InProcess) -> None:
    body = {"question": "How is the weather in Berlin?", "query": {"subject": "Berlin"}}
    document = base.post("/v1/answer", json=body).json()
    assert document["status"] == "ok"
    assert "21.4 °C" in document["text"]
    assert document["counts"] == {"grounded": 2, "silent": 1, "violation": 1}


def _model_server(server: HTTPServer, answers: list[str]) -> None:
    """An OpenAI-compatible server on 127.0.0.1 that streams ``answers`` in order."""
    calls: list[int] = []

    def handler(request: Request) -> Response:
        text = answers[min(len(calls), len(answers) - 1)]
        calls.append(1)
        pieces = [text[i : i + 4] for i in range(0, len(text), 4)]
        return Response(iter(completion_events(pieces)), content_type="text/event-stream")

    server.expect_request("/v1/chat/completions", method="POST").respond_with_handler(handler)


def _streamed(base: InProcess) -> list[tuple[str, dict[str, object]]]:
    body = {"question": "How is the weather in Berlin?", "query": {"subject": "Berlin"}}
    response = base.post("/v1/answer/stream", json=body)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    return [(kind, json.loads(data)) for kind, data in sse(response.text)]


def test_a_streamed_answer_never_delivers_a_failing_sentence(httpserver: HTTPServer) -> None:
    good = "The temperature in Berlin is 21.4 °C."
    bad = "Winds reach 18 km/h."
    _model_server(httpserver, [f"{good} {bad} The humidity is 63%."])
    phraser = OpenAIChatPhraser(httpserver.url_for("/v1"), "local", timeout=10)
    config = _config(phraser=phraser, on_fail=("partial",))
    events = _streamed(InProcess(create_app(config, clock=FakeClock(NOW))))
    kinds = [kind for kind, _ in events]
    assert kinds == ["sentence", "note", "done"]
    delivered = "".join(str(data.get("text", "")) for kind, data in events if kind != "done")
    assert "18" not in delivered
    assert events[0][1]["text"] == good
    answer = events[-1][1]["answer"]
    assert isinstance(answer, dict)
    assert answer["status"] == "partial"


def test_a_streamed_retry_arrives_as_a_new_segment(httpserver: HTTPServer) -> None:
    good = "The temperature in Berlin is 21.4 °C."
    _model_server(httpserver, [f"{good} Winds reach 18 km/h.", good])
    phraser = OpenAIChatPhraser(httpserver.url_for("/v1"), "local", timeout=10)
    events = _streamed(InProcess(create_app(_config(phraser=phraser), clock=FakeClock(NOW))))
    assert [(kind, data["segment"]) for kind, data in events] == [
        ("sentence", 0),
        ("retry", 1),
        ("sentence", 1),
        ("done", 1),
    ]


def test_a_body_over_the_cap_is_413_even_without_a_length() -> None:
    small = InProcess(create_app(_config(max_body_bytes=1000), clock=FakeClock(NOW)))
    declared = small.post("/v1/scan", content=b"{" + b" " * 2000 + b"}", headers=JSON)

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(40):
            yield b" " * 100

    chunked = small.post("/v1/scan", content=chunks(), headers=JSON)
    for response in (declared, chunked):
        assert response.status_code == 413
        assert response.json()["error"]["code"] == "body_too_large"


def test_a_body_that_is_not_json_is_400_invalid_json(base: InProcess) -> None:
    response = base.post("/v1/gate", content=b"{facts", headers=JSON)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_json"


def test_a_wrong_field_is_422_naming_it(base: InProcess) -> None:
    fact = {**FACTS[0], "observed_at": "2026-11-29T12:00:00"}
    response = base.post("/v1/gate", json={"facts": [fact]})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_input"
    assert error["field"] == "facts.0.observed_at"
    assert "timezone" in error["message"]


def test_an_unknown_catalog_is_422_naming_the_field(base: InProcess) -> None:
    response = base.post("/v1/verify", json={"catalog": "nope", "claims": CLAIMS})
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "catalog"


def test_an_unknown_path_is_a_json_404(base: InProcess) -> None:
    response = base.get("/v2/nothing")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_metrics_count_requests_by_endpoint_and_status(base: InProcess) -> None:
    base.post("/v1/gate", json={"facts": FACTS, "now": NOW})
    base.post("/v1/gate", content=b"nope", headers=JSON)
    text = base.get("/metrics").text
    assert 'vouched_http_requests_total{endpoint="/v1/gate",status="200"} 1.0' in text
    assert 'vouched_http_requests_total{endpoint="/v1/gate",status="400"} 1.0' in text


def test_metrics_count_answers_by_status(base: InProcess) -> None:
    base.post("/v1/answer", json={"question": "Berlin?", "query": {"subject": "Berlin"}})
    assert 'vouched_answers_total{status="ok"} 1.0' in base.get("/metrics").text


def test_healthz_names_what_was_loaded(base: InProcess) -> None:
    document = base.get("/healthz").json()
    assert document["status"] == "ok"
    assert document["catalogs"] == ["workshops"]
    assert document["lexicons"] == ["weather"]
    assert document["sources"] == ["weather"]


def test_nothing_of_a_request_is_logged_unless_asked(
    base: InProcess, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    base.post("/v1/scan", json={"text": "secret 4711", "facts": FACTS, "now": NOW})
    assert [r for r in caplog.records if r.name.startswith("vouched")] == []


def test_a_logged_request_names_method_path_and_status_but_not_the_body(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="vouched.server")
    logged = InProcess(create_app(_config(log_requests=True), clock=FakeClock(NOW)))
    logged.post("/v1/scan", json={"text": "secret 4711", "facts": FACTS, "now": NOW})
    (record,) = [r for r in caplog.records if r.name == "vouched.server"]
    assert record.getMessage().startswith("POST /v1/scan 200 ")
    assert "4711" not in record.getMessage()


def test_the_openapi_document_describes_every_endpoint(base: InProcess) -> None:
    document = base.get("/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    assert set(document["paths"]) == {
        "/v1/gate",
        "/v1/scan",
        "/v1/verify",
        "/v1/answer",
        "/v1/answer/stream",
        "/v1/chat/completions",
        "/v1/models",
        "/metrics",
        "/healthz",
        "/openapi.json",
    }
    assert "Fact" in document["components"]["schemas"]


def test_gate_of_no_facts_is_a_422_not_a_perfect_rate(base: InProcess) -> None:
    response = base.post("/v1/gate", json={"facts": []})
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "facts"


def test_every_route_answers_errors_in_one_shape_with_openais_keys() -> None:
    client = InProcess(create_app(load_config(EXAMPLES / "serve.toml")))
    gate = client.post("/v1/gate", json={"facts": []}).json()["error"]
    chat = client.post("/v1/chat/completions", json={"messages": []}).json()["error"]
    assert set(gate) == set(chat) == {"message", "type", "param", "code", "field"}
    assert (gate["type"], gate["param"]) == ("invalid_request_error", gate["field"])


def test_a_forbidden_override_is_a_permission_error() -> None:
    client = InProcess(create_app(load_config(EXAMPLES / "serve.toml")))
    body = {"question": "How warm is it in Berlin?", "mode": "audit"}
    error = client.post("/v1/answer", json=body).json()["error"]
    assert (error["code"], error["type"]) == ("override_not_allowed", "permission_error")
