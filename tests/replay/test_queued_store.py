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


def test_a_full_queue_holds_the_writer_back_instead_of_dropping(
    make_snapshot: SnapshotFactory,
) -> None:
    stalled = _StalledStore()
    queued = QueuedSnapshotStore(stalled, maxsize=1, batch=1, block_for=30)
    snapshots = [make_snapshot(created_at=T0 + timedelta(seconds=i)) for i in range(4)]
    writer = threading.Thread(target=lambda: [queued.write(s) for s in snapshots])
    writer.start()
    stalled.release.set()  # the store catches up; the waiting writer gets room
    writer.join(timeout=30)
    queued.close()
    assert queued.dropped == 0
    assert stalled.stored == snapshots


def test_close_gives_up_after_its_timeout_and_counts_what_was_left(
    make_snapshot: SnapshotFactory,
) -> None:
    stalled = _StalledStore()
    lost: list[int] = []
    queued = QueuedSnapshotStore(stalled, batch=1, block_for=0, on_lost=lambda: lost.append(1))
    for i in range(5):
        queued.write(make_snapshot(created_at=T0 + timedelta(seconds=i)))
    queued.close(timeout=0.05)  # the store holds the first one back for up to 10 s
    assert queued.dropped >= 4  # everything behind the stalled one
    assert len(lost) == queued.lost
    stalled.release.set()


def test_lost_snapshots_reach_the_prometheus_counter(make_snapshot: SnapshotFactory) -> None:
    from vouched import PrometheusMetrics  # noqa: PLC0415 - the prometheus extra

    metrics = PrometheusMetrics()
    with QueuedSnapshotStore(_BrokenStore(), on_lost=metrics.snapshot_write_failed) as queued:
        queued.write(make_snapshot())
        queued.write(make_snapshot(prompt_version="p2"))
        queued.flush()
    text = metrics.exposition().decode()
    assert "vouched_snapshot_write_failures_total 2.0" in text
    assert queued.lost == 2
