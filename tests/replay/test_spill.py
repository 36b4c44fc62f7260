"""QueuedSnapshotStore with a spill file: what the store cannot take yet waits
in a local file and reaches the store later; nothing is lost, nothing is
dropped silently."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from replay.population import T0, SnapshotFactory
from vouched import QueuedSnapshotStore, Snapshot, SqliteSnapshotStore
from vouched._replay._spill import SpillFile

_HOLD_LOCK = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
connection.execute("COMMIT")
"""


class _StalledStore:
    def __init__(self) -> None:
        self.release = threading.Event()

    def write(self, snapshot: Snapshot) -> None:
        self.release.wait(timeout=10)

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        return iter(())


def test_a_lock_held_by_another_process_delays_snapshots_and_loses_none(
    tmp_path: Path, make_snapshot: SnapshotFactory
) -> None:
    path = tmp_path / "snapshots.db"
    SqliteSnapshotStore(path).close()  # the file exists before the other process locks it
    store = SqliteSnapshotStore(path, timeout=0.05)
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert holder.stdout is not None
    assert holder.stdin is not None
    assert holder.stdout.readline().strip() == "locked"
    queued = QueuedSnapshotStore(store, maxsize=8, batch=4, spill=tmp_path / "spill.jsonl",
                                 retry_every=3600)  # fmt: skip
    snapshots = [make_snapshot(created_at=T0 + timedelta(seconds=i)) for i in range(40)]
    for snapshot in snapshots:
        queued.write(snapshot)
    queued.flush()  # every batch so far failed on the lock: spilled, not lost
    spilled_while_locked = queued.spilled
    holder.stdin.write("release\n")
    holder.stdin.close()
    assert holder.wait() == 0
    holder.stdout.close()
    queued.close(timeout=None)
    assert spilled_while_locked == 40
    assert (len(store), queued.lost, queued.replayed) == (40, 0, 40)
    assert not queued.spill.waiting()  # type: ignore[union-attr]
    store.close()


def test_close_spills_what_a_stalled_store_holds_and_the_next_start_writes_it(
    tmp_path: Path, make_snapshot: SnapshotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    spill = tmp_path / "spill.jsonl"
    stalled = _StalledStore()
    queued = QueuedSnapshotStore(stalled, batch=1, spill=spill, retry_every=3600)
    snapshots = [make_snapshot(created_at=T0 + timedelta(seconds=i)) for i in range(5)]
    for snapshot in snapshots:
        queued.write(snapshot)
    with caplog.at_level(logging.ERROR, logger="vouched.snapshots"):
        queued.close(timeout=0.05)  # the store holds the first one back for up to 10 s
    stalled.release.set()
    said = [r.getMessage() for r in caplog.records if "spilled to" in r.getMessage()]
    assert len(said) == 1
    assert str(spill) in said[0]
    assert queued.lost == 0
    with SqliteSnapshotStore(tmp_path / "s.db") as store:
        QueuedSnapshotStore(store, spill=spill).close(timeout=None)  # the next start
        assert sorted(s.id for s in store.iter()) == sorted(s.id for s in snapshots)


def test_a_full_queue_spills_instead_of_dropping(
    tmp_path: Path, make_snapshot: SnapshotFactory
) -> None:
    stalled = _StalledStore()
    queued = QueuedSnapshotStore(stalled, maxsize=2, batch=1, spill=tmp_path / "s.jsonl")
    for i in range(10):
        queued.write(make_snapshot(created_at=T0 + timedelta(seconds=i)))
    spilled = queued.spilled
    stalled.release.set()
    queued.close(timeout=None)
    assert spilled >= 7  # one in flight, two queued: the rest had no room
    assert queued.dropped == 0


def test_a_line_cut_short_by_a_crash_is_quarantined_and_named(
    tmp_path: Path, make_snapshot: SnapshotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    spill = SpillFile(tmp_path / "spill.jsonl")
    whole = make_snapshot()
    spill.add([whole])
    with open(spill.path, "a", encoding="utf-8") as out:
        out.write(make_snapshot(prompt_version="p2").canonical_json()[:50])
    written: list[Snapshot] = []
    with caplog.at_level(logging.ERROR, logger="vouched.snapshots"):
        assert spill.replay(written.extend) == 1
    assert written == [whole]
    assert not spill.waiting()
    (said,) = [r.getMessage() for r in caplog.records]
    assert str(spill.quarantine) in said
    assert "1 lines are not snapshots" in said
