"""Tracing a request: its id in the response, the log and the snapshot; the
upstream's ids of its answer kept; a failed upstream call recorded with its
status, vouched's code and its message redacted, the client told only the code."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import openai
import pytest

from vouched._answer._upstream import MESSAGE_CHARS, redacted
from vouched._server._requestid import MAX_CHARS

from ._upstreams import ASK, VOUCHED, FakeUpstreams, gateway, sdk, snapshots

__all__ = ["gateway"]  # the fixture, used by name

_BODY = {"model": "alpha", "messages": ASK, **VOUCHED}


def test_the_callers_request_id_is_returned(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams())
    response = httpx.post(f"{url}/v1/chat/completions", json=_BODY,
                          headers={"x-request-id": "trace-42"})  # fmt: skip
    assert response.headers["x-request-id"] == "trace-42"


def test_a_request_without_an_id_gets_one_made(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams())
    response = httpx.get(f"{url}/healthz")
    assert response.headers["x-request-id"].startswith("req_")


@pytest.mark.parametrize("given", ["x" * (MAX_CHARS + 1), "two words", "tab\there"])
def test_an_unbounded_or_unprintable_request_id_is_replaced(gateway: Any, given: str) -> None:
    url, _ = gateway(FakeUpstreams())
    response = httpx.get(f"{url}/healthz", headers={"x-request-id": given})
    assert response.headers["x-request-id"].startswith("req_")


def test_the_snapshot_keeps_the_request_id_and_the_upstreams_ids(gateway: Any) -> None:
    url, service = gateway(FakeUpstreams())
    httpx.post(f"{url}/v1/chat/completions", json=_BODY, headers={"x-request-id": "trace-7"})
    (snapshot,) = snapshots(service)
    assert dict(snapshot.request) == {
        "id": "trace-7",
        "upstream": "a",
        "model": "alpha",
        "response_id": "chatcmpl-a-1",
        "system_fingerprint": "fp_fake_1",
    }


def test_the_completion_carries_the_upstreams_system_fingerprint(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams())
    with sdk(url) as client:
        completion = client.chat.completions.create(model="alpha", messages=ASK,
                                                    extra_body=VOUCHED)  # fmt: skip
    assert completion.system_fingerprint == "fp_fake_1"


def test_every_log_line_of_a_request_names_its_id(
    gateway: Any, caplog: pytest.LogCaptureFixture
) -> None:
    fake = FakeUpstreams(failures={"a": (500, "boom", {})})
    url, _ = gateway(fake)
    with caplog.at_level(logging.WARNING, logger="vouched"):
        httpx.post(f"{url}/v1/chat/completions", json=_BODY, headers={"x-request-id": "t-9"})
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("vouched")]
    assert lines
    assert all(line.endswith("request_id=t-9") for line in lines)


def test_a_failed_upstream_call_is_recorded_with_status_code_and_redacted_message(
    gateway: Any,
) -> None:
    message = "context length exceeded: see https://internal.example/docs?key=sk-abcdef1234567"
    url, service = gateway(FakeUpstreams(failures={"a": (400, message, {})}))
    with sdk(url) as client, pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="alpha", messages=ASK, extra_body=VOUCHED)
    assert "context length" not in caught.value.message  # the client: the code only
    (snapshot,) = snapshots(service)
    failure = dict(snapshot.trail[-1].failure)
    assert (failure["status"], failure["code"]) == (400, "upstream_rejected")
    assert failure["message"].startswith("context length exceeded: see <url>")
    assert "internal.example" not in failure["message"]


def test_the_failure_log_line_says_status_code_and_message(
    gateway: Any, caplog: pytest.LogCaptureFixture
) -> None:
    url, _ = gateway(FakeUpstreams(failures={"a": (500, "the GPU melted", {})}))
    with caplog.at_level(logging.WARNING, logger="vouched.grounder"):
        httpx.post(f"{url}/v1/chat/completions", json=_BODY)
    line = next(r.getMessage() for r in caplog.records if "attempt" in r.getMessage())
    assert "status=500 code=upstream_error message=the GPU melted" in line


def test_an_upstream_message_is_cut_to_200_characters() -> None:
    assert len(redacted("word " * 500)) == MESSAGE_CHARS == 200


def test_keys_and_tokens_in_an_upstream_message_are_redacted() -> None:
    text = redacted("bad key sk-proj-abcdefghijklmnop for Bearer abc.def from a@b.example")
    assert text == "bad key <redacted> for <redacted> from <redacted>"
