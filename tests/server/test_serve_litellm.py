"""A smoke test with LiteLLM as the client: ``api_base`` pointed at vouched serve."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from typing import Any

import pytest
from openai import OpenAI

from vouched._server._app import create_app
from vouched._server._config import load_config
from vouched.testing import FakeClock

from ._serving import EXAMPLES, NOW, serving

# LiteLLM fetches a price list from the internet at import unless told not to.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
litellm = pytest.importorskip("litellm")

# LiteLLM's own models warn under this repo's warnings-as-errors; they are not ours.
pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning:pydantic._internal._generate_schema"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]

FACTS = json.loads((EXAMPLES / "facts.json").read_text(encoding="utf-8"))
BERLIN = [f for f in FACTS if f["subject"] == "Berlin"]


def test_litellm_gets_a_checked_answer_through_api_base() -> None:
    app = create_app(replace(load_config(EXAMPLES / "serve.toml")), clock=FakeClock(NOW))
    # our own client, closed here: LiteLLM's cached one would keep its connection open
    # past the test (an unclosed socket at the end of the suite)
    with serving(app) as url, OpenAI(base_url=f"{url}/v1", api_key="unused") as client:
        response: Any = litellm.completion(
            model="openai/any",
            api_base=f"{url}/v1",
            api_key="unused",
            messages=[{"role": "user", "content": "How warm is it in Berlin?"}],
            extra_body={"vouched": {"facts": BERLIN}},
            num_retries=0,
            client=client,
        )
    assert "21.4 °C" in response.choices[0].message.content
    assert response.choices[0].finish_reason == "stop"


def test_litellm_routes_by_model_name_through_the_gateway(httpserver: Any, tmp_path: Any) -> None:
    from ._upstreams import ASK, VOUCHED, FakeUpstreams, config_text  # noqa: PLC0415

    fake = FakeUpstreams()
    for name in ("a", "b"):
        httpserver.expect_request(f"/{name}/v1/chat/completions", method="POST")\
            .respond_with_handler(fake.handler(name))  # fmt: skip
    path = tmp_path / "serve.toml"
    path.write_text(config_text(httpserver), encoding="utf-8")
    app = create_app(load_config(path), clock=FakeClock(NOW))
    with serving(app) as url, OpenAI(base_url=f"{url}/v1", api_key="unused") as client:
        for model in ("alpha", "beta"):
            litellm.completion(model=f"openai/{model}", api_base=f"{url}/v1", api_key="unused",
                               messages=ASK, extra_body=VOUCHED, num_retries=0,
                               client=client)  # fmt: skip
    assert [(c.upstream, c.body["model"]) for c in fake.calls] == [("a", "alpha"), ("b", "beta")]
