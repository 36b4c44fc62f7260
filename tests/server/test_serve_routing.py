"""Routing by model: ``[[upstream]]`` entries, the request's ``model`` choosing
one, through the official SDK against a fake upstream serving several models."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from vouched import InputError, replay
from vouched._server._config import load_config

from ._upstreams import ASK, BERLIN, VOUCHED, FakeUpstreams, config_text, gateway, sdk, snapshots

__all__ = ["gateway"]  # the fixture, used by name


def _ask(url: str, model: str, **kw: Any) -> Any:
    with sdk(url) as client:
        return client.chat.completions.create(model=model, messages=ASK, extra_body=VOUCHED, **kw)


def test_the_requests_model_chooses_the_upstream_and_is_sent_as_asked(gateway: Any) -> None:
    fake = FakeUpstreams()
    url, _ = gateway(fake)
    _ask(url, "alpha-mini")
    _ask(url, "beta")
    assert [(c.upstream, c.body["model"]) for c in fake.calls] == [
        ("a", "alpha-mini"),
        ("b", "beta"),
    ]


def test_the_answer_names_the_model_that_answered(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams())
    assert _ask(url, "beta").model == "beta"


def test_an_unknown_model_is_openais_404_model_not_found(gateway: Any) -> None:
    fake = FakeUpstreams()
    url, _ = gateway(fake)
    with pytest.raises(openai.NotFoundError) as caught:
        _ask(url, "gamma")
    assert caught.value.code == "model_not_found"
    assert caught.value.body["param"] == "model"  # type: ignore[index]
    assert fake.calls == []


def test_models_lists_every_upstreams_models(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams())
    with sdk(url) as client:
        names = [m.id for m in client.models.list()]
    assert names == ["alpha", "alpha-mini", "beta"]


def test_a_fallback_answers_when_its_upstream_fails_with_its_own_model(
    gateway: Any, httpserver: Any
) -> None:
    fake = FakeUpstreams(failures={"a": (500, "overloaded", {})})
    url, _ = gateway(fake, upstreams=_fallback_tables(httpserver))
    completion = _ask(url, "alpha")
    assert completion.choices[0].finish_reason == "stop"
    assert [(c.upstream, c.body["model"]) for c in fake.calls] == [("a", "alpha"), ("b", "beta")]


def _fallback_tables(httpserver: Any) -> str:
    return f"""
[[upstream]]
name = "a"
base_url = "{httpserver.url_for("/a/v1")}"
model = "alpha"
fallback = "b"

[[upstream]]
name = "b"
base_url = "{httpserver.url_for("/b/v1")}"
model = "beta"
"""


_GROUNDED = ("temperature", "relative_humidity")
FRESH = {"vouched": {"facts": [f for f in BERLIN if f["attribute"] in _GROUNDED]}}
"""Facts the gate grounds, none in violation: an answer on them passes whole."""


def _metric(url: str, line: str) -> float:
    scraped = httpx.get(f"{url}/metrics").text
    values = [row.rsplit(" ", 1)[1] for row in scraped.splitlines() if row.startswith(line + " ")]
    return float(values[0]) if values else 0.0


@pytest.mark.parametrize("stream", [False, True])
def test_a_fallbacks_answer_leaves_the_failure_in_trail_log_and_metrics(
    gateway: Any, httpserver: Any, caplog: pytest.LogCaptureFixture, stream: bool
) -> None:
    fake = FakeUpstreams(failures={"a": (500, "overloaded", {})})
    url, service = gateway(fake, upstreams=_fallback_tables(httpserver))
    with caplog.at_level(logging.WARNING, logger="vouched"):
        if stream:
            with sdk(url) as client:
                chunks = list(client.chat.completions.create(
                    model="alpha", messages=ASK, extra_body=FRESH, stream=True))  # fmt: skip
            assert chunks[-1].choices[0].finish_reason == "stop"
        else:
            with sdk(url) as client:
                completion = client.chat.completions.create(
                    model="alpha", messages=ASK, extra_body=FRESH
                )
            assert completion.model == "beta"
            attempts = (completion.model_extra or {})["vouched"]["attempts"]
            assert [(a["index"], a["action"]) for a in attempts] == [(0, "error"), (1, "accept")]
    [snapshot] = snapshots(service)
    request = snapshot.request
    assert (request["upstream"], request["model"]) == ("a", "alpha")  # what was asked
    assert request["answered_by"] == {"upstream": "b", "model": "beta"}  # who answered
    failed, answered = snapshot.trail
    assert (failed.action, failed.text) == ("error", "")
    assert failed.failure is not None
    assert (failed.failure["status"], failed.failure["code"], failed.failure["upstream"]) == (
        500, "upstream_error", "a")  # fmt: skip
    assert "overloaded" in failed.failure["message"]
    assert (answered.action, answered.failure) == ("accept", None)
    # the model's first answer passed: the upstream's outage is not the model's failure
    assert snapshot.passed
    graded = replay(service.config.store, service.config.policy)
    assert (graded.passed_then, graded.passed_now) == (1, 1)
    [line] = [r.getMessage() for r in caplog.records if "phrasing attempt" in r.getMessage()]
    assert line.startswith("phrasing attempt 1 failed: status=500 code=upstream_error message=")
    assert " upstream=a fallback=b request_id=" in line
    failures = 'vouched_upstream_failures_total{code="upstream_error",upstream="a"}'
    assert _metric(url, failures) == 1.0
    assert _metric(url, 'vouched_upstream_fallbacks_total{fallback="b",upstream="a"}') == 1.0


def test_when_the_fallback_fails_too_both_failures_are_kept_and_counted(
    gateway: Any, httpserver: Any
) -> None:
    fake = FakeUpstreams(failures={"a": (500, "overloaded", {}), "b": (503, "down", {})})
    url, service = gateway(fake, upstreams=_fallback_tables(httpserver))
    with pytest.raises(openai.InternalServerError):
        _ask(url, "alpha")
    [snapshot] = snapshots(service)
    assert [(a.failure or {}).get("upstream") for a in snapshot.trail] == ["a", "b"]
    assert "answered_by" not in snapshot.request
    for name, code in (("a", "upstream_error"), ("b", "upstream_error")):
        assert (
            _metric(url, f'vouched_upstream_failures_total{{code="{code}",upstream="{name}"}}')
            == 1.0
        )
    assert _metric(url, 'vouched_upstream_fallbacks_total{fallback="b",upstream="a"}') == 0.0


def test_a_fallback_is_not_tried_when_the_upstream_rejected_the_request(
    gateway: Any, httpserver: Any
) -> None:
    fake = FakeUpstreams(failures={"a": (400, "context length exceeded", {})})
    upstreams = f"""
[[upstream]]
name = "a"
base_url = "{httpserver.url_for("/a/v1")}"
model = "alpha"
fallback = "b"

[[upstream]]
name = "b"
base_url = "{httpserver.url_for("/b/v1")}"
model = "beta"
"""
    url, _ = gateway(fake, upstreams=upstreams)
    with pytest.raises(openai.BadRequestError):
        _ask(url, "alpha")
    assert {c.upstream for c in fake.calls} == {"a"}


def _config_error(tmp_path: Path, upstreams: str) -> str:
    path = tmp_path / "serve.toml"
    path.write_text(config_text(_NoServer(), upstreams=upstreams), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_config(path)
    return str(caught.value)


class _NoServer:
    def url_for(self, path: str) -> str:  # pragma: no cover - the tables are given
        return f"http://127.0.0.1:9{path}"


def test_a_model_served_by_two_upstreams_is_named(tmp_path: Path) -> None:
    tables = """
[[upstream]]
base_url = "http://127.0.0.1:9/v1"
model = "alpha"

[[upstream]]
name = "second"
base_url = "http://127.0.0.1:9/v1"
model = "alpha"
"""
    assert "upstream.1.models: model 'alpha' is served by 'alpha' already" in _config_error(
        tmp_path, tables
    )


def test_a_fallback_naming_no_upstream_is_named(tmp_path: Path) -> None:
    tables = """
[[upstream]]
base_url = "http://127.0.0.1:9/v1"
model = "alpha"
fallback = "nowhere"
"""
    assert "upstream.0.fallback: names no other upstream: 'nowhere'" in _config_error(
        tmp_path, tables
    )


def test_an_upstreams_key_comes_from_the_variable_it_names(tmp_path: Path) -> None:
    tables = """
[[upstream]]
base_url = "http://127.0.0.1:9/v1"
model = "alpha"
api_key_env = "ALPHA_KEY_FOR_TEST"
"""
    path = tmp_path / "serve.toml"
    path.write_text(config_text(_NoServer(), upstreams=tables), encoding="utf-8")
    config = load_config(path, environ={"ALPHA_KEY_FOR_TEST": "k-123"})
    phraser: Any = config.upstreams[0].phraser
    assert phraser._request_headers()["authorization"] == "Bearer k-123"


def test_healthz_names_the_upstreams_that_answer_chat_requests(
    gateway: Any, httpserver: Any
) -> None:
    url, _ = gateway(FakeUpstreams(), upstreams=_fallback_tables(httpserver))
    document = httpx.get(f"{url}/healthz").json()
    assert document["upstreams"] == [
        {"name": "a", "models": ["alpha"], "fallback": "b"},
        {"name": "b", "models": ["beta"], "fallback": None},
    ]
    assert document["phraser"] == "template"  # kept: it answers /v1/answer
