"""The SQLite store and JSON Lines: byte-identical round trips, threads,
schema migrations, redaction on disk, and a failing store that breaks nothing."""

from __future__ import annotations

import io
import logging
import sqlite3
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from replay.population import T0, SnapshotFactory
from vouched import InputError, Policy, Snapshot, SnapshotStore, SqliteSnapshotStore, StoreError
from vouched._replay._jsonl import export_jsonl, import_jsonl
from vouched._replay._store import SCHEMA_VERSION, migrate, safe_write


def _population(make_snapshot: SnapshotFactory, n: int) -> list[Snapshot]:
    return [
        make_snapshot(created_at=T0 + timedelta(minutes=i), question=f"question {i}")
        for i in range(n)
    ]


def test_sqlite_round_trip_is_byte_identical(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    snapshots = _population(make_snapshot, 5)
    for snapshot in snapshots:
        store.write(snapshot)
    assert [s.canonical_json() for s in store.iter()] == [s.canonical_json() for s in snapshots]
    assert store.get(snapshots[2].id) == snapshots[2]


def test_the_same_snapshot_written_twice_is_stored_once(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    store.write(make_snapshot())
    store.write(make_snapshot())
    assert len(store) == 1


def test_iter_streams_oldest_first_within_since_and_until(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    snapshots = _population(make_snapshot, 6)
    store.write_many(reversed(snapshots))
    window = list(store.iter(since=T0 + timedelta(minutes=2), until=T0 + timedelta(minutes=5)))
    assert [s.question for s in window] == ["question 2", "question 3", "question 4"]


def test_the_store_is_a_wal_mode_sqlite_file(
    store: SqliteSnapshotStore, store_path: Path, make_snapshot: SnapshotFactory
) -> None:
    store.write(make_snapshot())
    with sqlite3.connect(store_path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_sqlite_store_satisfies_the_protocol(store: SqliteSnapshotStore) -> None:
    assert isinstance(store, SnapshotStore)


def test_concurrent_writers_from_threads_lose_nothing(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    per_thread = 40
    batches = [
        [
            make_snapshot(created_at=T0 + timedelta(seconds=t * per_thread + i))
            for i in range(per_thread)
        ]
        for t in range(6)
    ]
    errors: list[BaseException] = []
    start = threading.Barrier(len(batches))

    def writer(batch: list[Snapshot]) -> None:
        start.wait()
        try:
            for snapshot in batch:
                store.write(snapshot)
        except Exception as error:  # noqa: BLE001 - collected and asserted below
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(batch,)) for batch in batches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(store) == 6 * per_thread
    assert sum(1 for _ in store.iter()) == 6 * per_thread


def test_two_stores_on_one_file_share_it(store_path: Path, make_snapshot: SnapshotFactory) -> None:
    with SqliteSnapshotStore(store_path) as one, SqliteSnapshotStore(store_path) as two:
        one.write(make_snapshot())
        two.write(make_snapshot(prompt_version="p2"))
        assert len(one) == len(two) == 2


def test_a_version_one_store_is_migrated_on_open(
    store_path: Path, make_snapshot: SnapshotFactory
) -> None:
    snapshot = make_snapshot(prompt_version="p7")
    connection = sqlite3.connect(store_path, isolation_level=None)
    assert migrate(connection, target=1) == 1
    connection.execute(
        "INSERT INTO snapshots (id, created_us, body) VALUES (?, ?, ?)",
        (snapshot.id, 0, snapshot.canonical_json()),
    )
    connection.close()
    with SqliteSnapshotStore(store_path) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert [s.id for s in store.iter()] == [snapshot.id]
    with sqlite3.connect(store_path) as check:
        assert check.execute("SELECT prompt_version FROM snapshots").fetchone() == ("p7",)


def test_a_store_from_a_newer_vouched_is_refused(store_path: Path) -> None:
    with SqliteSnapshotStore(store_path):
        pass
    with sqlite3.connect(store_path) as connection:
        connection.execute("INSERT INTO schema_version VALUES (99, 'later')")
    with pytest.raises(StoreError, match="newer than this vouched reads"):
        SqliteSnapshotStore(store_path)


def test_a_database_of_something_else_is_refused(store_path: Path) -> None:
    with sqlite3.connect(store_path) as connection:
        connection.execute("CREATE TABLE users (name TEXT)")
    with pytest.raises(StoreError, match="not a vouched snapshot store"):
        SqliteSnapshotStore(store_path)


def test_a_file_that_is_not_sqlite_is_refused(store_path: Path) -> None:
    store_path.write_bytes(b"this is not a database, just text" * 100)
    with pytest.raises(StoreError, match="not a snapshot store"):
        SqliteSnapshotStore(store_path)


def test_read_only_open_of_a_missing_file_names_it(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    with pytest.raises(InputError, match=r"missing\.db: no such snapshot store"):
        SqliteSnapshotStore(missing, read_only=True)
    assert not missing.exists()


# -- JSON Lines -------------------------------------------------------------------


def test_jsonl_export_and_import_are_byte_identical(
    store: SqliteSnapshotStore, tmp_path: Path, make_snapshot: SnapshotFactory
) -> None:
    snapshots = _population(make_snapshot, 4)
    store.write_many(snapshots)
    exported = tmp_path / "snapshots.jsonl"
    with exported.open("w", encoding="utf-8") as out:
        assert export_jsonl(store, out) == 4
    lines = exported.read_text(encoding="utf-8").splitlines()
    assert lines == [s.canonical_json() for s in snapshots]
    with SqliteSnapshotStore(tmp_path / "copy.db") as copy:
        assert import_jsonl(copy, exported) == 4
        assert [s.canonical_json() for s in copy.iter()] == lines


def test_jsonl_import_refuses_an_edited_line_naming_it(
    store: SqliteSnapshotStore, tmp_path: Path, make_snapshot: SnapshotFactory
) -> None:
    buffer = io.StringIO()
    store.write_many(_population(make_snapshot, 3))
    export_jsonl(store, buffer)
    lines = buffer.getvalue().splitlines()
    lines[1] = lines[1].replace("21.4 degC", "25 degC")
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with (
        SqliteSnapshotStore(tmp_path / "copy.db") as copy,
        pytest.raises(InputError, match=r"edited.jsonl:2: id: does not match"),
    ):
        import_jsonl(copy, edited)


def test_jsonl_import_names_a_line_that_is_not_json(
    store: SqliteSnapshotStore, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"broken.jsonl:1: invalid JSON"):
        import_jsonl(store, broken)


# -- redaction on disk ------------------------------------------------------------


def test_a_sensitive_raw_value_never_reaches_the_database_file(
    store_path: Path, make_snapshot: SnapshotFactory
) -> None:
    from vouched import Fact  # noqa: PLC0415 - local to the one test that needs it

    policy = Policy(
        sensitive_subjects=frozenset({"Marta Kowalczyk"}),
        sensitive_attributes=frozenset({"home_address"}),
    )
    snapshot = make_snapshot(
        policy=policy,
        question="Where does Marta Kowalczyk live?",
        query={"person": "Marta Kowalczyk"},
        facts=[
            Fact(
                subject="Marta Kowalczyk",
                attribute="home_address",
                value="Zeppelinstrasse 77",
                source="crm",
                observed_at=T0,
            ),
        ],
        output="Marta Kowalczyk lives at Zeppelinstrasse 77.",
        findings=[{"kind": "unsupported_quote", "text": "Zeppelinstrasse 77"}],
    )
    with SqliteSnapshotStore(store_path) as store:
        store.write(snapshot)
        assert len(store) == 1
    on_disk = b"".join(path.read_bytes() for path in store_path.parent.iterdir() if path.is_file())
    assert b"Zeppelinstrasse" not in on_disk
    assert b"Kowalczyk" not in on_disk
    assert b"[redacted:" in on_disk


# -- a failing store never breaks the caller ----------------------------------------


class _BrokenStore:
    def write(self, snapshot: Snapshot) -> None:
        raise OSError("disk full")

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:  # pragma: no cover - never read
        return iter(())


def test_safe_write_logs_a_failing_store_and_reports_false(
    make_snapshot: SnapshotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    snapshot = make_snapshot()
    with caplog.at_level(logging.ERROR, logger="vouched.snapshots"):
        assert safe_write(_BrokenStore(), snapshot) is False
    assert snapshot.id in caplog.text
    assert "disk full" in caplog.text


def test_safe_write_reports_true_when_stored(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    assert safe_write(store, make_snapshot()) is True
    assert len(store) == 1


def test_a_closed_store_fails_through_safe_write_without_raising(
    store_path: Path, make_snapshot: SnapshotFactory
) -> None:
    store = SqliteSnapshotStore(store_path)
    store.close()
    assert safe_write(store, make_snapshot()) is False


def test_rows_with_one_policy_share_one_frozen_policy_while_streaming(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    store.write_many(_population(make_snapshot, 3))
    first, second, third = store.iter()
    assert first.policy is second.policy is third.policy
    with pytest.raises(TypeError):
        first.policy["demoted"] = ["x"]  # type: ignore[index]  # read-only by design


def test_a_version_one_store_can_be_read_without_migrating_it(
    store_path: Path, make_snapshot: SnapshotFactory
) -> None:
    snapshot = make_snapshot()
    connection = sqlite3.connect(store_path, isolation_level=None)
    migrate(connection, target=1)
    connection.execute(
        "INSERT INTO snapshots (id, created_us, body) VALUES (?, ?, ?)",
        (snapshot.id, 0, snapshot.canonical_json()),
    )
    connection.close()
    with SqliteSnapshotStore(store_path, read_only=True) as store:
        assert [s.id for s in store.iter()] == [snapshot.id]
        assert store.schema_version == 1


def test_an_empty_sqlite_file_is_not_a_store_to_read(store_path: Path) -> None:
    sqlite3.connect(store_path).close()
    store_path.touch()
    with pytest.raises(StoreError, match="not a snapshot store"):
        SqliteSnapshotStore(store_path, read_only=True)
