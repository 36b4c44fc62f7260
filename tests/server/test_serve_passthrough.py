"""An app sits behind the gateway unchanged: a request without ``vouched`` as
the config says, every parameter forwarded or refused by name (never dropped),
nothing injected, and the operator's caps holding whatever a request asks."""

from __future__ import annotations

from typing import Any

import httpx
import openai
import pytest

from ._upstreams import ASK, BAD, GOOD, USAGE, VOUCHED, FakeUpstreams, gateway, sdk

__all__ = ["gateway"]  # the fixture, used by name


def _ask(url: str, model: str = "alpha", *, body: Any = VOUCHED, **kw: Any) -> Any:
    with sdk(url) as client:
        return client.chat.completions.create(model=model, messages=ASK, extra_body=body, **kw)


def test_a_request_without_vouched_is_refused_by_default_naming_the_key(gateway: Any) -> None:
    fake = FakeUpstreams()
    url, _ = gateway(fake)
    with pytest.raises(openai.BadRequestError) as caught:
        _ask(url, body=None)
    assert caught.value.body["param"] == "vouched"  # type: ignore[index]
    assert "answer.without_vouched" in caught.value.message
    assert fake.calls == []


def test_without_vouched_audit_passes_the_models_words_with_the_verdict(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams(texts=[f"{GOOD} {BAD}"]), answer='without_vouched = "audit"')
    completion = _ask(url, body=None)
    assert completion.choices[0].message.content == f"{GOOD} {BAD}"
    assert completion.model_extra["vouched"]["mode"] == "audit"
    assert completion.model_extra["vouched"]["findings"]  # scanned on the sources' facts


def test_without_vouched_as_a_query_answers_from_the_sources(gateway: Any) -> None:
    fake = FakeUpstreams()
    url, _ = gateway(fake, answer='without_vouched = { query = { subject = "Berlin" } }')
    completion = _ask(url, body=None)
    assert completion.model_extra["vouched"]["status"] == "ok"
    system = fake.calls[0].body["messages"][0]["content"]
    assert "21.4" in system
    assert "Munich" not in system


@pytest.mark.parametrize("key", ["tools", "tool_choice", "logprobs"])
def test_a_parameter_the_gateway_cannot_honour_is_a_400_naming_it(gateway: Any, key: str) -> None:
    fake = FakeUpstreams()
    url, _ = gateway(fake)
    values = {"tools": [{"type": "function", "function": {"name": "f"}}],
              "tool_choice": "auto", "logprobs": True}  # fmt: skip
    with pytest.raises(openai.BadRequestError) as caught:
        _ask(url, body={**VOUCHED, key: values[key]})
    assert (caught.value.code, caught.value.body["param"]) == ("unsupported_parameter", key)  # type: ignore[index]
    assert fake.calls == []


def test_an_unknown_parameter_is_a_400_naming_it(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams())
    with pytest.raises(openai.BadRequestError) as caught:
        _ask(url, body={**VOUCHED, "frobnicate": 1})
    assert caught.value.body["param"] == "frobnicate"  # type: ignore[index]


def test_response_format_seed_and_user_reach_the_upstream_as_sent(gateway: Any) -> None:
    fake = FakeUpstreams()
    url, _ = gateway(fake)
    _ask(url, response_format={"type": "text"}, seed=7, user="u-1")
    sent = fake.calls[0].body
    assert (sent["response_format"], sent["seed"], sent["user"]) == ({"type": "text"}, 7, "u-1")


def test_no_temperature_is_injected_when_the_client_sends_none(gateway: Any) -> None:
    fake = FakeUpstreams()
    url, _ = gateway(fake)
    _ask(url)
    assert "temperature" not in fake.calls[0].body


def test_a_sampling_key_the_config_does_not_allow_is_a_403_naming_it(gateway: Any) -> None:
    fake = FakeUpstreams()
    url, _ = gateway(fake, answer='allow_request_overrides = ["lexicon", "top_p"]')
    _ask(url, top_p=0.5)  # named alone: allowed
    with pytest.raises(openai.PermissionDeniedError) as caught:
        _ask(url, temperature=1.5)
    assert (caught.value.code, caught.value.body["param"]) == (
        "override_not_allowed",
        "temperature",
    )  # type: ignore[index]
    assert len(fake.calls) == 1


def test_the_configs_max_tokens_is_a_ceiling_on_the_requests(gateway: Any) -> None:
    fake = FakeUpstreams()
    url, _ = gateway(fake)  # upstream a: max_tokens = 50
    _ask(url, max_tokens=100_000)
    _ask(url, max_completion_tokens=20)
    assert fake.calls[0].body["max_tokens"] == 50
    assert fake.calls[1].body["max_completion_tokens"] == 20
    assert "max_tokens" not in fake.calls[1].body


def test_an_on_fail_of_a_thousand_retries_is_a_422_and_calls_nobody(gateway: Any) -> None:
    fake = FakeUpstreams()
    url, _ = gateway(fake, answer='allow_request_overrides = ["on_fail"]')
    with pytest.raises(openai.UnprocessableEntityError) as caught:
        _ask(url, body={"vouched": {**VOUCHED["vouched"], "on_fail": ["retry"] * 1000}})
    assert "answer.max_retries" in caught.value.message
    assert fake.calls == []


def test_an_on_fail_within_the_bound_is_followed(gateway: Any) -> None:
    fake = FakeUpstreams(texts=[BAD])
    url, _ = gateway(fake, answer='allow_request_overrides = ["on_fail"]')
    _ask(url, body={"vouched": {**VOUCHED["vouched"], "on_fail": ["retry"] * 3}})
    assert len(fake.calls) == 4


def test_an_upstreams_retry_after_reaches_the_client_capped_at_300_seconds(
    gateway: Any,
) -> None:
    fake = FakeUpstreams(failures={"a": (429, "slow down", {"retry-after": "999999999"})})
    url, _ = gateway(fake)
    response = httpx.post(f"{url}/v1/chat/completions",
                          json={"model": "alpha", "messages": ASK, **VOUCHED})  # fmt: skip
    assert (response.status_code, response.headers["retry-after"]) == (429, "300")


def test_stream_must_be_a_boolean(gateway: Any) -> None:
    fake = FakeUpstreams()
    url, _ = gateway(fake)
    body = {"model": "alpha", "messages": ASK, "stream": "yes", **VOUCHED}
    response = httpx.post(f"{url}/v1/chat/completions", json=body)
    assert (response.status_code, response.json()["error"]["param"]) == (422, "stream")
    assert fake.calls == []


def test_streamed_usage_after_a_retry_sums_both_attempts_as_a_whole_answer_does(
    gateway: Any,
) -> None:
    failing = f"{GOOD} {BAD} More words follow here."
    url, _ = gateway(FakeUpstreams(texts=[failing, GOOD, failing, GOOD]))
    whole = _ask(url).usage.total_tokens
    with sdk(url) as client:
        chunks = list(client.chat.completions.create(
            model="alpha", messages=ASK, extra_body=VOUCHED, stream=True,
            stream_options={"include_usage": True}))  # fmt: skip
    assert chunks[-1].usage.total_tokens == whole == 2 * USAGE["total_tokens"]


def test_streamed_usage_after_a_refusal_counts_every_attempt(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams(texts=[f"{BAD} {GOOD}"]))
    with sdk(url) as client:
        chunks = list(client.chat.completions.create(
            model="alpha", messages=ASK, extra_body=VOUCHED, stream=True,
            stream_options={"include_usage": True}))  # fmt: skip
    assert chunks[-1].usage.total_tokens == 2 * USAGE["total_tokens"]


def test_findings_after_a_successful_retry_are_of_the_text_sent(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams(texts=[f"{GOOD} {BAD}", GOOD]))
    summary = _ask(url).model_extra["vouched"]
    assert summary["findings"] == []
    assert [(a["index"], a["action"], bool(a["findings"])) for a in summary["attempts"]] == [
        (0, "retry", True),
        (1, "accept", False),
    ]


def test_after_a_refusal_each_span_is_listed_once(gateway: Any) -> None:
    url, _ = gateway(FakeUpstreams(texts=[f"{GOOD} {BAD}"]))
    summary = _ask(url).model_extra["vouched"]
    spans = [(f["kind"], f["start"], f["end"]) for f in summary["findings"]]
    assert spans
    assert len(spans) == len(set(spans))
    assert len(summary["attempts"]) == 2
