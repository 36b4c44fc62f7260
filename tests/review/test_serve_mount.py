"""``vouched serve`` with a store shows the review pages under /review, behind its guard."""

from __future__ import annotations

import pytest

pytest.importorskip("jinja2", reason="the review pages need vouched[server]")

from server._serving import InProcess
from vouched import SqliteSnapshotStore
from vouched._server._app import create_app
from vouched._server._config import ServeConfig

TOKEN = "serve-token"  # noqa: S105 - a test token


def test_serve_with_a_store_mounts_the_review_pages(store: SqliteSnapshotStore) -> None:
    response = InProcess(create_app(ServeConfig(store=store))).get("/review/answers")
    assert response.status_code == 200
    assert 'href="/review/static/review.css"' in response.text


def test_serve_without_a_store_has_no_review_pages() -> None:
    assert InProcess(create_app(ServeConfig())).get("/review/").status_code == 404


def test_the_review_pages_in_serve_need_serves_token(store: SqliteSnapshotStore) -> None:
    app = create_app(ServeConfig(store=store, token=TOKEN))
    assert InProcess(app).get("/review/").status_code == 401
