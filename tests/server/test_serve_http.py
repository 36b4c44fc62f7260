"""vouched serve as users use it: a real uvicorn on 127.0.0.1, an httpx client."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from chatstream import completion_events
from vouched import OpenAIChatPhraser
from vouched._server._app import create_app
from vouched._server._config import ServeConfig, load_config
from vouched.testing import FakeClock

from ._serving import EXAMPLES, NOW, serving, sse

FACTS = json.loads((EXAMPLES / "facts.json").read_text(encoding="utf-8"))
ANSWER_TEXT = (EXAMPLES / "answer.txt").read_text(encoding="utf-8")
CLAIMS = [json.loads(line) for line in (EXAMPLES / "claims.jsonl").read_text().splitlines()]


def _config(**changes: object) -> ServeConfig:
    return replace(load_config(EXAMPLES / "serve.toml"), **changes)


@pytest.fixture
def base() -> Iterator[str]:
    with serving(create_app(_config(), clock=FakeClock(NOW))) as url:
        yield url


def _cli(*args: str) -> dict[str, object]:
    run = subprocess.run(
        [sys.executable, "-m", "vouched", *args], capture_output=True, text=True, check=False
    )
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def test_gate_answers_exactly_what_the_cli_prints(base: str) -> None:
    response = httpx.post(f"{base}/v1/gate", json={"facts": FACTS, "now": NOW})
    assert response.status_code == 200
    assert response.json() == _cli("gate", str(EXAMPLES / "facts.json"), "--now", NOW, "--json")


def test_scan_answers_exactly_what_the_cli_prints(base: str) -> None:
    lexicon = json.loads((EXAMPLES / "lexicon.json").read_text(encoding="utf-8"))
    body = {"text": ANSWER_TEXT, "facts": FACTS, "lexicon": lexicon, "now": NOW}
    response = httpx.post(f"{base}/v1/scan", json=body)
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


def test_scan_takes_a_lexicon_by_its_name_in_the_config(base: str) -> None:
    by_name = {"text": ANSWER_TEXT, "facts": FACTS, "lexicon": "weather", "now": NOW}
    inline = {**by_name, "lexicon": json.loads((EXAMPLES / "lexicon.json").read_text())}
    assert (
        httpx.post(f"{base}/v1/scan", json=by_name).json()
        == httpx.post(f"{base}/v1/scan", json=inline).json()
    )


def test_verify_answers_exactly_what_the_cli_prints(base: str) -> None:
    response = httpx.post(f"{base}/v1/verify", json={"catalog": "workshops", "claims": CLAIMS})
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


def test_answer_is_the_grounders_answer_as_json(base: str) -> None:
    body = {"question": "How is the weather in Berlin?", "query": {"subject": "Berlin"}}
    document = httpx.post(f"{base}/v1/answer", json=body).json()
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


def _streamed(base: str) -> list[tuple[str, dict[str, object]]]:
    body = {"question": "How is the weather in Berlin?", "query": {"subject": "Berlin"}}
    with httpx.stream("POST", f"{base}/v1/answer/stream", json=body) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        text = response.read().decode()
    return [(kind, json.loads(data)) for kind, data in sse(text)]


def test_a_streamed_answer_never_delivers_a_failing_sentence(httpserver: HTTPServer) -> None:
    good = "The temperature in Berlin is 21.4 °C."
    bad = "Winds reach 18 km/h."
    _model_server(httpserver, [f"{good} {bad} The humidity is 63%."])
    phraser = OpenAIChatPhraser(httpserver.url_for("/v1"), "local", timeout=10)
    config = _config(phraser=phraser, on_fail=("partial",))
    with serving(create_app(config, clock=FakeClock(NOW))) as base:
        events = _streamed(base)
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
    with serving(create_app(_config(phraser=phraser), clock=FakeClock(NOW))) as base:
        events = _streamed(base)
    assert [(kind, data["segment"]) for kind, data in events] == [
        ("sentence", 0),
        ("retry", 1),
        ("sentence", 1),
        ("done", 1),
    ]


def test_a_body_over_the_cap_is_413_even_without_a_length(base: str) -> None:
    small = _config(max_body_bytes=1000)
    with serving(create_app(small, clock=FakeClock(NOW))) as url:
        declared = httpx.post(f"{url}/v1/scan", content=b"{" + b" " * 2000 + b"}")

        def chunks() -> Iterator[bytes]:
            for _ in range(40):
                yield b" " * 100

        chunked = httpx.post(f"{url}/v1/scan", content=chunks())
    for response in (declared, chunked):
        assert response.status_code == 413
        assert response.json()["error"]["code"] == "body_too_large"


def test_a_body_that_is_not_json_is_400_invalid_json(base: str) -> None:
    response = httpx.post(f"{base}/v1/gate", content=b"{facts")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_json"


def test_a_wrong_field_is_422_naming_it(base: str) -> None:
    fact = {**FACTS[0], "observed_at": "2026-11-29T12:00:00"}
    response = httpx.post(f"{base}/v1/gate", json={"facts": [fact]})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_input"
    assert error["field"] == "facts.0.observed_at"
    assert "timezone" in error["message"]


def test_an_unknown_catalog_is_422_naming_the_field(base: str) -> None:
    response = httpx.post(f"{base}/v1/verify", json={"catalog": "nope", "claims": CLAIMS})
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "catalog"


def test_an_unknown_path_is_a_json_404(base: str) -> None:
    response = httpx.get(f"{base}/v2/nothing")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_metrics_count_requests_by_endpoint_and_status(base: str) -> None:
    httpx.post(f"{base}/v1/gate", json={"facts": FACTS, "now": NOW})
    httpx.post(f"{base}/v1/gate", content=b"nope")
    text = httpx.get(f"{base}/metrics").text
    assert 'vouched_http_requests_total{endpoint="/v1/gate",status="200"} 1.0' in text
    assert 'vouched_http_requests_total{endpoint="/v1/gate",status="400"} 1.0' in text


def test_metrics_count_answers_by_status(base: str) -> None:
    httpx.post(f"{base}/v1/answer", json={"question": "Berlin?", "query": {"subject": "Berlin"}})
    assert 'vouched_answers_total{status="ok"} 1.0' in httpx.get(f"{base}/metrics").text


def test_healthz_names_what_was_loaded(base: str) -> None:
    document = httpx.get(f"{base}/healthz").json()
    assert document["status"] == "ok"
    assert document["catalogs"] == ["workshops"]
    assert document["lexicons"] == ["weather"]
    assert document["sources"] == ["weather"]


def test_nothing_of_a_request_is_logged_unless_asked(
    base: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    httpx.post(f"{base}/v1/scan", json={"text": "secret 4711", "facts": FACTS, "now": NOW})
    assert [r for r in caplog.records if r.name.startswith("vouched")] == []


def test_a_logged_request_names_method_path_and_status_but_not_the_body(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="vouched.server")
    with serving(create_app(_config(log_requests=True), clock=FakeClock(NOW))) as url:
        httpx.post(f"{url}/v1/scan", json={"text": "secret 4711", "facts": FACTS, "now": NOW})
    (record,) = [r for r in caplog.records if r.name == "vouched.server"]
    assert record.getMessage().startswith("POST /v1/scan 200 ")
    assert "4711" not in record.getMessage()


def test_the_openapi_document_describes_every_endpoint(base: str) -> None:
    document = httpx.get(f"{base}/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    assert set(document["paths"]) == {
        "/v1/gate",
        "/v1/scan",
        "/v1/verify",
        "/v1/answer",
        "/v1/answer/stream",
        "/metrics",
        "/healthz",
    }
    assert "Fact" in document["components"]["schemas"]


# -- the command -----------------------------------------------------------------


def _serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "vouched", "serve", *args],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )


def test_vouched_serve_listens_on_127_0_0_1_and_answers() -> None:
    process = _serve("--config", str(EXAMPLES / "serve.toml"), "--port", "0")
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert line.startswith("vouched serve: listening on http://127.0.0.1:")
        url = line.split(" on ", 1)[1].strip()
        assert httpx.get(f"{url}/healthz", timeout=30).json()["status"] == "ok"
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()


def test_a_bad_config_stops_the_start_with_one_line_and_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "serve.toml"
    config.write_text('[answer]\non_fail = "shrug"\n', encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "vouched", "serve", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1
    assert f"{config}: answer.on_fail: unknown on-fail step 'shrug'" in run.stderr


def test_without_the_server_extra_the_command_names_the_install(tmp_path: Path) -> None:
    # uvicorn made unimportable, as on a machine without vouched[server].
    code = (
        "import sys; sys.modules['uvicorn'] = None\n"
        "from vouched._cli import main\n"
        f"sys.exit(main(['serve', '--config', {str(EXAMPLES / 'serve.toml')!r}]))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 2
    assert run.stderr == (
        "vouched serve: this feature needs uvicorn: pip install 'vouched[server]'\n"
    )
