"""One contract for every snapshot store: SQLite, PostgreSQL (the real server
on 127.0.0.1) and the in-memory twin (vouched.testing.MemorySnapshotStore) run
the same tests, so they cannot drift. Schema versions and read-only opening
are the two stores on disk's alone."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from fleet.services import require_postgres, unique
from replay.population import T0, SnapshotFactory
from vouched import (
    Fact,
    Policy,
    PostgresSnapshotStore,
    Snapshot,
    SnapshotStore,
    SqliteSnapshotStore,
    StoreError,
    replay,
)
from vouched.testing import MemorySnapshotStore


@dataclass
class Backend:
    """How to open one kind of store, and how to read its table behind its back."""

    kind: str
    open: Callable[..., Any]
    bodies: Callable[[], list[str]]
    set_version: Callable[[int], None]


def _memory() -> Iterator[Backend]:
    store = MemorySnapshotStore()  # every open is the same store, as with one file

    def set_version(version: int) -> None:
        raise AssertionError("the in-memory twin has no schema")

    yield Backend("memory", lambda: store, lambda: list(store.iter_json()), set_version)


def _sqlite(tmp_path: Path) -> Iterator[Backend]:
    path = tmp_path / "contract.db"

    def bodies() -> list[str]:
        with sqlite3.connect(path) as connection:
            return [row[0] for row in connection.execute("SELECT body FROM snapshots")]

    def set_version(version: int) -> None:
        with sqlite3.connect(path) as connection:
            connection.execute(
                "INSERT INTO schema_version (version, applied_at) VALUES (?, 'later')", (version,)
            )

    yield Backend("sqlite", lambda **kw: SqliteSnapshotStore(path, **kw), bodies, set_version)


def _postgres() -> Iterator[Backend]:
    url = require_postgres()
    import psycopg  # noqa: PLC0415 - the extra under test
    from psycopg import sql  # noqa: PLC0415

    schema = unique("vouched_test")

    def run(statement: Any, *params: Any) -> list[Any]:
        with psycopg.connect(url) as connection, connection.cursor() as cursor:
            cursor.execute(statement, params or None)
            return cursor.fetchall() if cursor.description else []

    def bodies() -> list[str]:
        return [
            row[0]
            for row in run(sql.SQL("SELECT body FROM {}.snapshots").format(sql.Identifier(schema)))
        ]

    def set_version(version: int) -> None:
        run(
            sql.SQL("INSERT INTO {}.schema_version VALUES (%s, now())").format(
                sql.Identifier(schema)
            ),
            version,
        )

    try:
        yield Backend(
            "postgres",
            lambda **kw: PostgresSnapshotStore(url, schema=schema, **kw),
            bodies,
            set_version,
        )
    finally:
        run(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def _open_backend(kind: str, tmp_path: Path) -> Iterator[Backend]:
    if kind == "sqlite":
        yield from _sqlite(tmp_path)
    elif kind == "postgres":
        yield from _postgres()
    else:
        yield from _memory()


@pytest.fixture(params=["sqlite", "postgres", "memory"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    yield from _open_backend(request.param, tmp_path)


@pytest.fixture(params=["sqlite", "postgres"])
def disk_backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """The stores with a schema on disk (the twin has none)."""
    yield from _open_backend(request.param, tmp_path)


@pytest.fixture
def opened(backend: Backend) -> Iterator[Any]:
    store = backend.open()
    yield store
    store.close()


def _population(make_snapshot: SnapshotFactory, n: int) -> list[Snapshot]:
    return [
        make_snapshot(created_at=T0 + timedelta(minutes=i), question=f"question {i}")
        for i in range(n)
    ]


def test_a_store_satisfies_the_protocol(opened: Any) -> None:
    assert isinstance(opened, SnapshotStore)


def test_the_round_trip_is_byte_identical(opened: Any, make_snapshot: SnapshotFactory) -> None:
    snapshots = _population(make_snapshot, 5)
    for snapshot in snapshots:
        opened.write(snapshot)
    assert [s.canonical_json() for s in opened.iter()] == [s.canonical_json() for s in snapshots]
    assert opened.get(snapshots[2].id) == snapshots[2]
    assert opened.get("0" * 32) is None


def test_the_same_snapshot_twice_is_stored_once(
    opened: Any, make_snapshot: SnapshotFactory
) -> None:
    opened.write(make_snapshot())
    opened.write(make_snapshot())
    assert opened.write_many([make_snapshot(), make_snapshot(question="other")]) == 1
    assert len(opened) == 2


def test_iter_streams_oldest_first_within_since_and_until(
    opened: Any, make_snapshot: SnapshotFactory
) -> None:
    snapshots = _population(make_snapshot, 6)
    opened.write_many(reversed(snapshots))
    window = opened.iter(since=T0 + timedelta(minutes=2), until=T0 + timedelta(minutes=5))
    assert [s.question for s in window] == ["question 2", "question 3", "question 4"]


def test_snapshots_made_at_the_same_instant_come_back_in_id_order(
    opened: Any, make_snapshot: SnapshotFactory
) -> None:
    same = [make_snapshot(question=f"q{i}") for i in range(8)]
    opened.write_many(same)
    assert [s.id for s in opened.iter()] == sorted(s.id for s in same)


def test_a_sensitive_raw_value_never_reaches_the_table(
    backend: Backend, opened: Any, make_snapshot: SnapshotFactory
) -> None:
    policy = Policy(
        sensitive_subjects=frozenset({"Marta Kowalczyk"}),
        sensitive_attributes=frozenset({"home_address"}),
    )
    fact = Fact(
        subject="Marta Kowalczyk",
        attribute="home_address",
        value="Zeppelinstrasse 77",
        source="crm",
        observed_at=T0,
    )
    snapshot = make_snapshot(
        policy=policy,
        question="Where does Marta Kowalczyk live?",
        query={"person": "Marta Kowalczyk"},
        facts=[fact],
        output="Marta Kowalczyk lives at Zeppelinstrasse 77.",
    )
    opened.write(snapshot)
    (body,) = backend.bodies()
    assert "Kowalczyk" not in body
    assert "Zeppelinstrasse" not in body
    assert body.count("[redacted:") >= 4
    assert body == snapshot.canonical_json()  # the same tokens in every store


def test_a_new_store_is_at_the_newest_schema_version(disk_backend: Backend) -> None:
    with disk_backend.open() as opened:
        assert opened.schema_version >= 2


def test_a_store_written_by_a_newer_vouched_is_refused(disk_backend: Backend) -> None:
    disk_backend.open().close()
    disk_backend.set_version(99)
    with pytest.raises(StoreError, match="newer than this vouched reads"):
        disk_backend.open()


def test_two_writers_opening_a_new_store_at_once_migrate_it_once(disk_backend: Backend) -> None:
    stores: list[Any] = []
    errors: list[BaseException] = []
    start = threading.Barrier(3)

    def open_one() -> None:
        start.wait()
        try:
            stores.append(disk_backend.open())
        except BaseException as error:  # noqa: BLE001 - the test reports it below
            errors.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    versions = {store.schema_version for store in stores}
    for store in stores:
        store.close()
    assert errors == []
    assert len(stores) == 3
    assert len(versions) == 1


def test_a_read_only_store_that_does_not_exist_is_refused(disk_backend: Backend) -> None:
    with pytest.raises((StoreError, ValueError)):
        disk_backend.open(read_only=True)


def test_replay_grades_the_store(opened: Any, make_snapshot: SnapshotFactory) -> None:
    opened.write_many(_population(make_snapshot, 12))
    report = replay(opened, Policy(), rules=())
    assert report.snapshots == 12
    assert report.grounding_rate_then == report.grounding_rate_now


def test_both_stores_know_the_same_schema_versions() -> None:
    # A migration added to one store and not the other is drift: add both.
    from vouched._replay._postgres import PG_SCHEMA_VERSION  # noqa: PLC0415
    from vouched._replay._store import SCHEMA_VERSION  # noqa: PLC0415

    assert PG_SCHEMA_VERSION == SCHEMA_VERSION
