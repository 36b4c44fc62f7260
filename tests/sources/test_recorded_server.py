"""RecordedServer: recorded JSON on 127.0.0.1, outages on demand."""

from __future__ import annotations

import httpx
import pytest

from vouched.testing import RecordedServer

ROUTES = {"/latest": {"rate": 1}, "/latest?base=GBP": {"rate": 2}}


def test_serves_the_exact_query_first_then_the_path() -> None:
    with RecordedServer(ROUTES) as server:
        assert httpx.get(f"{server.url}/latest?base=GBP").json() == {"rate": 2}
        assert httpx.get(f"{server.url}/latest?base=USD").json() == {"rate": 1}
        assert server.hits["/latest"] == 2


def test_down_fails_the_path_until_up() -> None:
    with RecordedServer(ROUTES) as server:
        server.down("/latest", 503)
        assert httpx.get(f"{server.url}/latest").status_code == 503
        server.up("/latest")
        assert httpx.get(f"{server.url}/latest").status_code == 200


def test_unknown_path_is_404() -> None:
    with RecordedServer(ROUTES) as server:
        assert httpx.get(f"{server.url}/nothing").status_code == 404


def test_url_before_start_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="not running"):
        _ = RecordedServer(ROUTES).url
