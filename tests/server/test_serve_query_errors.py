"""A query the configured source cannot ask is the caller's mistake: a 422 that
names the field, the source never asked, and its breaker left alone (five such
requests used to make 30 of the next 35 answers ``circuit_open``)."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from vouched._server._app import create_app
from vouched._server._config import load_config
from vouched.testing import FakeClock

from ._serving import NOW, InProcess

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "open_meteo_current.json"


def test_malformed_queries_are_422_and_never_open_the_sources_breaker(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    hits: list[int] = []

    def handler(request: Request) -> Response:
        hits.append(1)
        return Response(FIXTURE.read_text(encoding="utf-8"), content_type="application/json")

    httpserver.expect_request("/v1/forecast").respond_with_handler(handler)
    config = tmp_path / "serve.toml"
    config.write_text(
        '[[answer.sources]]\nadapter = "open-meteo"\n'
        f'options = {{ base_url = "{httpserver.url_for("")}", name = "weather-q422" }}\n'
        "fail_max = 2\nreset_timeout = 600\n",
        encoding="utf-8",
    )
    client = InProcess(create_app(load_config(config), clock=FakeClock(NOW)))
    bad = [{"subject": "Berlin"}, {"subject": "Berlin", "latitude": None, "longitude": 1}]
    refused = [
        client.post("/v1/answer", json={"question": "Berlin?", "query": query}) for query in bad * 3
    ]
    assert {r.status_code for r in refused} == {422}
    assert {r.json()["error"]["field"] for r in refused} == {"query.latitude"}
    good = {"subject": "Berlin", "latitude": 52.52, "longitude": 13.41}
    answer = client.post("/v1/answer", json={"question": "Berlin?", "query": good}).json()
    assert not [s for s in answer["silences"] if s["silent_reason"] == "circuit_open"]
    assert len(hits) == 1
    assert json.dumps(answer).count("malformed_query") == 0
