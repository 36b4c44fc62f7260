"""What a store can do is declared by Protocols the callers check (never
``getattr`` or a concrete class), and PostgreSQL's streaming reads share one
small pool instead of connecting per call."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import psycopg

from fleet.services import Proxy, require_postgres, unique
from replay.population import SnapshotFactory
from vouched import PostgresSnapshotStore, QueuedSnapshotStore, Snapshot, SqliteSnapshotStore
from vouched._replay._store import (
    BatchStore,
    HandOffStore,
    ReadableStore,
    SplitStore,
    write_batch,
)
from vouched.testing import MemorySnapshotStore


class _OneByOne:
    """A user's store: write and iter only."""

    def __init__(self) -> None:
        self.rows: list[Snapshot] = []

    def write(self, snapshot: Snapshot) -> None:
        self.rows.append(snapshot)

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        return iter(self.rows)


def test_each_store_declares_what_it_can_do(tmp_path: Path) -> None:
    with SqliteSnapshotStore(tmp_path / "s.db") as sqlite:
        assert isinstance(sqlite, BatchStore)
        assert isinstance(sqlite, ReadableStore)
        assert isinstance(sqlite, SplitStore)
    memory = MemorySnapshotStore()
    assert isinstance(memory, BatchStore)
    assert isinstance(memory, ReadableStore)
    assert not isinstance(_OneByOne(), BatchStore | ReadableStore | SplitStore)
    with QueuedSnapshotStore(memory) as queued:
        assert isinstance(queued, HandOffStore)


def test_a_store_without_batches_is_written_one_by_one(make_snapshot: SnapshotFactory) -> None:
    store = _OneByOne()
    write_batch(store, [make_snapshot(), make_snapshot(prompt_version="p2")])
    assert len(store.rows) == 2


def test_postgres_streaming_reads_share_one_pool(make_snapshot: SnapshotFactory) -> None:
    url = require_postgres()
    proxy = Proxy("127.0.0.1", 5432)
    schema = unique("vouched_reads")
    try:
        with PostgresSnapshotStore(
            f"postgresql://postgres@127.0.0.1:{proxy.port}/test", schema=schema
        ) as store:
            store.write(make_snapshot())
            before = len(proxy._sockets)
            for _ in range(6):
                assert len(list(store.iter_json())) == 1
            opened = (len(proxy._sockets) - before) // 2
    finally:
        proxy.close()
        with psycopg.connect(url) as connection:
            connection.execute(
                psycopg.sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                    psycopg.sql.Identifier(schema)
                )
            )
    assert opened <= 2
