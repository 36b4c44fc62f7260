"""Hostile inputs that reach the sources and the stores: each costs a bounded,
typed outcome, never a traceback, a lost snapshot or a stray file."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from vouched import Fact, Grounder, GuardedSource, SqliteSnapshotStore
from vouched._replay._snapshot import DEEPER
from vouched.testing import FakeClock, ScriptedSource

NOW = "2026-11-29T12:01:00Z"
FACT = Fact(subject="Berlin", attribute="temperature", value=4.3, unit="degC", source="w",
            observed_at="2026-11-29T12:00:00Z", ttl=900)  # fmt: skip


def nested(depth: int) -> dict[str, Any]:
    query: dict[str, Any] = {"subject": "Berlin"}
    for _ in range(depth):
        query = {"x": query}
    return query


@pytest.mark.parametrize("depth", [500, 900, 5000])
def test_a_query_nested_hundreds_deep_keeps_its_snapshot_and_logs_no_traceback(
    tmp_path: Path, depth: int, caplog: pytest.LogCaptureFixture
) -> None:
    with SqliteSnapshotStore(tmp_path / "s.db") as store:
        source = GuardedSource(ScriptedSource("w", [[FACT]]), clock=FakeClock(NOW))
        grounder = Grounder([source], clock=FakeClock(NOW), store=store)
        with caplog.at_level(logging.DEBUG):
            answer = grounder.answer_sync("How is Berlin?", nested(depth))
        (snapshot,) = list(store.iter())
    assert str(answer.status) == "ok"
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []
    assert DEEPER in str(snapshot.query)


def test_a_fact_observed_on_the_last_day_there_is_with_a_days_ttl_is_judged_not_a_500() -> None:
    import asyncio  # noqa: PLC0415 - only this test runs the app

    import httpx  # noqa: PLC0415

    from vouched._server._app import create_app  # noqa: PLC0415 - the server extra
    from vouched._server._config import ServeConfig  # noqa: PLC0415

    app = create_app(ServeConfig(), clock=FakeClock(NOW))
    fact = {"subject": "Berlin", "attribute": "temperature", "value": 4.3, "source": "w",
            "observed_at": "9999-12-31T00:00:00Z", "ttl": 86400}  # fmt: skip

    async def gate() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return await client.post("/v1/gate", json={"facts": [fact]})

    response = asyncio.run(gate())
    assert response.status_code == 200
    assert response.json()["verdicts"][0]["reason"] == "observed_in_future"


def test_a_huge_unknown_key_is_named_cut_short_not_echoed_whole() -> None:
    import asyncio  # noqa: PLC0415 - only this test runs the app

    import httpx  # noqa: PLC0415

    from vouched._server._app import create_app  # noqa: PLC0415 - the server extra
    from vouched._server._config import ServeConfig  # noqa: PLC0415

    app = create_app(ServeConfig(), clock=FakeClock(NOW))

    async def gate() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            fact = {"subject": "Berlin", "attribute": "temperature", "value": 4.3}
            return await client.post("/v1/gate", json={"facts": [fact], "k" * 900_000: 1})

    response = asyncio.run(gate())
    assert response.status_code == 422
    assert len(response.content) < 1000
    assert "(900,000 characters)" in response.json()["error"]["field"]


def test_a_store_that_is_not_a_regular_file_is_refused_before_sqlite_touches_it() -> None:
    from vouched import InputError  # noqa: PLC0415

    journal_before = Path("/dev/zero-journal").exists()
    with pytest.raises(InputError, match="not a regular file"):
        SqliteSnapshotStore("/dev/zero")
    assert Path("/dev/zero-journal").exists() == journal_before


_FULL_DISK = """
import resource, signal, sys
from vouched import SqliteSnapshotStore
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # every write fails: a full disk
try:
    SqliteSnapshotStore(sys.argv[1])
except Exception as error:
    print(type(error).__name__, error)
"""


def test_a_store_that_cannot_be_created_on_a_full_disk_leaves_no_file(tmp_path: Path) -> None:
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    path = tmp_path / "snapshots.db"
    said = subprocess.run(
        [sys.executable, "-c", _FULL_DISK, str(path)], capture_output=True, text=True, check=True
    ).stdout
    assert said.startswith("StoreError")
    assert "cannot create the snapshot store" in said
    assert list(tmp_path.iterdir()) == []
