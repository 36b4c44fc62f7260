"""QueuedSnapshotStore: writes leave the answer path; a stalled or broken
store costs counted snapshots, never a blocked or failed answer."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime, timedelta

from replay.population import T0, SnapshotFactory
from vouched import QueuedSnapshotStore, Snapshot, SqliteSnapshotStore


class _StalledStore:
    """A store whose writes wait until released (a locked database, a slow disk)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.stored: list[Snapshot] = []

    def write(self, snapshot: Snapshot) -> None:
        self.release.wait(timeout=10)
        self.stored.append(snapshot)

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        return iter(self.stored)


class _BrokenStore(_StalledStore):
    def write(self, snapshot: Snapshot) -> None:
        raise OSError("disk full")


def test_queued_writes_reach_the_sqlite_store(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    with QueuedSnapshotStore(store) as queued:
        for i in range(50):
            queued.write(make_snapshot(created_at=T0 + timedelta(seconds=i)))
        queued.flush()
        assert queued.written == 50
        assert len(store) == 50


def test_a_stalled_store_does_not_block_the_writer(make_snapshot: SnapshotFactory) -> None:
    stalled = _StalledStore()
    queued = QueuedSnapshotStore(stalled, maxsize=100)
    snapshots = [make_snapshot(created_at=T0 + timedelta(seconds=i)) for i in range(20)]
    for snapshot in snapshots:
        queued.write(snapshot)
    # Every write returned while the store still holds the first one back (for
    # up to 10 s): a write() that waited for the store would have stored it.
    assert stalled.stored == []
    stalled.release.set()
    queued.close()
    assert len(stalled.stored) == 20


def test_a_full_queue_drops_and_counts(make_snapshot: SnapshotFactory) -> None:
    stalled = _StalledStore()
    queued = QueuedSnapshotStore(stalled, maxsize=2, batch=1)
    for i in range(10):
        queued.write(make_snapshot(created_at=T0 + timedelta(seconds=i)))
    stalled.release.set()
    queued.close()
    assert queued.dropped > 0
    assert queued.dropped + len(stalled.stored) == 10


def test_a_broken_store_is_counted_and_the_thread_keeps_going(
    make_snapshot: SnapshotFactory,
) -> None:
    with QueuedSnapshotStore(_BrokenStore()) as queued:
        queued.write(make_snapshot())
        queued.flush()
        queued.write(make_snapshot(prompt_version="p2"))
        queued.flush()
        assert queued.failed == 2


def test_writing_after_close_drops_instead_of_raising(make_snapshot: SnapshotFactory) -> None:
    queued = QueuedSnapshotStore(_StalledStore())
    queued.close()
    queued.write(make_snapshot())
    assert queued.dropped == 1
