"""PostgreSQL dropping the store's connections mid-run (the real server on
127.0.0.1; the fault is ours alone: our own backends, found by their
application_name, are terminated, so other users of the server are untouched).
Nothing is lost and nothing is stored twice."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest

from fleet.services import require_postgres, unique
from replay.population import T0, SnapshotFactory
from vouched import PostgresSnapshotStore, QueuedSnapshotStore


@pytest.fixture
def pg() -> Iterator[tuple[str, str, str]]:
    """The server's URL, a schema and an application_name of this test's own."""
    url = require_postgres()
    schema, name = unique("vouched_faults"), unique("vouched-faults")
    yield url, schema, name
    import psycopg  # noqa: PLC0415 - the extra under test

    with psycopg.connect(url) as connection:
        connection.execute(
            psycopg.sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                psycopg.sql.Identifier(schema)
            )
        )


def terminate(url: str, application_name: str) -> int:
    """End every backend of ``application_name`` (as a restart would); how many."""
    import psycopg  # noqa: PLC0415 - the extra under test

    with psycopg.connect(url, autocommit=True) as connection:
        rows = connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = %s AND pid <> pg_backend_pid()",
            (application_name,),
        ).fetchall()
    return len(rows)


def counts(url: str, schema: str) -> tuple[int, int]:
    import psycopg  # noqa: PLC0415 - the extra under test

    with psycopg.connect(url) as connection:
        row = connection.execute(
            psycopg.sql.SQL("SELECT count(*), count(DISTINCT id) FROM {}.snapshots").format(
                psycopg.sql.Identifier(schema)
            )
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def test_queued_writes_survive_the_servers_dropping_every_connection_mid_run(
    pg: tuple[str, str, str], make_snapshot: SnapshotFactory
) -> None:
    url, schema, name = pg
    store = PostgresSnapshotStore(url, schema=schema, application_name=name, pool_size=2)
    queued = QueuedSnapshotStore(store, batch=16)
    terminated = 0
    for i in range(300):
        queued.write(make_snapshot(created_at=T0 + timedelta(seconds=i), question=f"q {i}"))
        if i in (100, 200):
            queued.flush()  # the pool holds open connections now: end them
            terminated += terminate(url, name)
    queued.close()
    store.close()
    assert terminated >= 2
    assert queued.lost == 0
    assert counts(url, schema) == (300, 300)


def test_a_direct_write_after_its_connection_was_dropped_is_stored_once(
    pg: tuple[str, str, str], make_snapshot: SnapshotFactory
) -> None:
    url, schema, name = pg
    with PostgresSnapshotStore(url, schema=schema, application_name=name) as store:
        first = make_snapshot(question="before")
        store.write(first)
        assert terminate(url, name) >= 1
        store.write(make_snapshot(question="after"))
        store.write(first)  # a retry of a write that had landed: still one row
        assert len(store) == 2
    assert counts(url, schema) == (2, 2)
