"""The configured sources run behind GuardedSource: a dead source is asked at
most fail_max + 1 times by 20 answers, and the later answers say circuit_open;
a source that answers 404 for a subject is no_data and opens nothing."""

from __future__ import annotations

import itertools
from pathlib import Path

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from vouched._server._app import create_app
from vouched._server._config import load_config
from vouched.testing import FakeClock

from ._serving import NOW, InProcess

FAIL_MAX = 3
BERLIN = {"subject": "Berlin", "latitude": 52.52, "longitude": 13.41}
_names = itertools.count()


def _app(tmp_path: Path, server: HTTPServer, status: int) -> tuple[InProcess, list[int]]:
    hits: list[int] = []

    def handler(request: Request) -> Response:
        hits.append(1)
        return Response('{"error": true, "reason": "down"}', status=status,
                        content_type="application/json")  # fmt: skip

    server.expect_request("/v1/forecast").respond_with_handler(handler)
    name = f"weather-{next(_names)}"  # a breaker of its own (breakers are per source name)
    config = tmp_path / "serve.toml"
    config.write_text(
        "[[answer.sources]]\n"
        'adapter = "open-meteo"\n'
        f'options = {{ base_url = "{server.url_for("")}", name = "{name}" }}\n'
        f"fail_max = {FAIL_MAX}\nreset_timeout = 600\n",
        encoding="utf-8",
    )
    app = create_app(load_config(config), clock=FakeClock(NOW))
    return InProcess(app), hits


def _silences(document: dict[str, object]) -> set[object]:
    silences = document["silences"]
    assert isinstance(silences, list)
    return {s["silent_reason"] for s in silences}


def test_a_dead_source_is_asked_at_most_fail_max_plus_one_times(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    client, hits = _app(tmp_path, httpserver, 503)
    answers = [
        client.post("/v1/answer", json={"question": "Berlin?", "query": BERLIN}).json()
        for _ in range(20)
    ]
    assert len(hits) <= FAIL_MAX + 1
    assert _silences(answers[-1]) == {"circuit_open"}


def test_a_source_answering_404_is_no_data_and_never_opens_the_breaker(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    client, hits = _app(tmp_path, httpserver, 404)
    answers = [
        client.post("/v1/answer", json={"question": "Atlantis?", "query": BERLIN}).json()
        for _ in range(FAIL_MAX + 3)
    ]
    assert len(hits) == FAIL_MAX + 3  # every call reached the source
    assert all(_silences(a) == {"no_data"} for a in answers)


def test_two_adapter_sources_of_one_kind_are_told_apart_by_their_name(tmp_path: Path) -> None:
    config = tmp_path / "serve.toml"
    config.write_text(
        '[[answer.sources]]\nadapter = "open-meteo"\nname = "weather-eu"\n'
        'options = { base_url = "http://127.0.0.1:9" }\n'
        '[[answer.sources]]\nadapter = "open-meteo"\nname = "weather-us"\n'
        'options = { base_url = "http://127.0.0.1:9" }\n',
        encoding="utf-8",
    )
    names = [s.name for s in load_config(config).sources]
    assert names == ["weather-eu", "weather-us"]
