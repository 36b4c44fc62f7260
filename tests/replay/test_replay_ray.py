"""Replay on Ray (the real Ray, one local instance for this module: 2 CPUs, no
dashboard): ranges of the store's order graded as tasks that read the store
themselves give the report one process gives, for SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from fleet.services import require_postgres, unique
from replay.population import T0, SnapshotFactory, weather_facts
from vouched import Policy, PostgresSnapshotStore, SqliteSnapshotStore, StoreError, replay
from vouched.testing import run_cli


def _ray() -> Any:
    try:
        import ray  # noqa: PLC0415 - the extra under test
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("ray is not installed (CI needs it: pip install 'vouched[ray]')")
        pytest.skip("ray is not installed: pip install 'vouched[ray]'")
    return ray


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[None]:
    ray = _ray()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()


POLICY = Policy(default_ttl=timedelta(minutes=30), demoted=frozenset({"humidity"}))


def _population(make_snapshot: SnapshotFactory, n: int = 60) -> list[Any]:
    return [
        make_snapshot(
            created_at=T0 + timedelta(minutes=i // 2),  # two per instant: ranges keep them whole
            prompt_version=f"p{i % 3}",
            facts=weather_facts(T0 + timedelta(minutes=i), age=timedelta(minutes=5 + i)),
            output="Berlin: 21.4 degC, humidity 63%." if i % 4 else "Berlin: 30 degC.",
            question=f"question {i}",
        )
        for i in range(n)
    ]


def test_ray_gives_the_report_one_process_gives_for_sqlite(
    ray_cluster: None, tmp_path: Path, make_snapshot: SnapshotFactory
) -> None:
    with SqliteSnapshotStore(tmp_path / "s.db") as store:
        store.write_many(_population(make_snapshot))
        alone = replay(store, POLICY, max_ids=5)
        on_ray = replay(store, POLICY, max_ids=5, engine="ray", workers=3)
    assert on_ray == alone
    assert alone.to_fail.count > 5  # capped, time-ordered ids had to be merged


def test_ray_gives_the_report_one_process_gives_for_postgresql(
    ray_cluster: None, make_snapshot: SnapshotFactory
) -> None:
    url = require_postgres()
    schema = unique("vouched_ray")
    try:
        with PostgresSnapshotStore(url, schema=schema) as store:
            store.write_many(_population(make_snapshot))
            alone = replay(store, POLICY, max_ids=5)
            on_ray = replay(store, POLICY, max_ids=5, engine="ray")
        assert on_ray == alone
        assert on_ray.snapshots == 60
    finally:
        import psycopg  # noqa: PLC0415 - the extra under test

        with psycopg.connect(url) as connection:
            connection.execute(
                psycopg.sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                    psycopg.sql.Identifier(schema)
                )
            )


def test_a_corrupt_row_read_by_a_ray_task_is_the_stores_one_line_error(
    ray_cluster: None, tmp_path: Path, make_snapshot: SnapshotFactory
) -> None:
    import sqlite3  # noqa: PLC0415

    path = tmp_path / "s.db"
    with SqliteSnapshotStore(path) as store:
        store.write_many(_population(make_snapshot, 10))
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE snapshots SET body = '{not json' WHERE rowid = 7")
    connection.close()
    with SqliteSnapshotStore(path, read_only=True) as store, pytest.raises(StoreError) as caught:
        replay(store, POLICY, engine="ray")
    assert "corrupt snapshot" in str(caught.value)
    assert "\n" not in str(caught.value)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vouched", "replay", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=cwd,
    )


def test_the_cli_on_a_local_ray_prints_the_json_report_of_the_local_engine(
    tmp_path: Path, make_snapshot: SnapshotFactory
) -> None:
    _ray()
    with SqliteSnapshotStore(tmp_path / "s.db") as store:
        store.write_many(_population(make_snapshot, 30))
    local = _cli("--store", "s.db", "--json", "--engine", "local", "--workers", "2", cwd=tmp_path)
    on_ray = _cli("--store", "s.db", "--json", "--engine", "ray", cwd=tmp_path)
    assert on_ray.returncode == local.returncode, on_ray.stderr
    assert on_ray.stdout == local.stdout  # byte for byte
    assert json.loads(on_ray.stdout)["snapshots"] == 30


def test_a_ray_address_without_the_ray_engine_is_one_line_naming_the_flags(
    tmp_path: Path,
) -> None:
    # A usage error before any Ray: the CLI's main() in this process.
    store = str(tmp_path / "s.db")
    result = run_cli(["replay", "--store", store, "--ray-address", "127.0.0.1:6380"])
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "--ray-address" in result.stderr
    assert "--engine ray" in result.stderr
