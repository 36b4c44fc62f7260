"""One bounded queue between the answer and the store: nothing waits on a
stalled store longer than ``store_timeout`` (it goes to the spill file, so a
kill loses at most that much), spills go in batches with one fsync each, the
spill folder is checked at once, and the Grounder hands the queue each
snapshot unbuilt (or, to a plain store, writes them in batches)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from replay.population import T0, SnapshotFactory
from vouched import Grounder, QueuedSnapshotStore, Snapshot, SqliteSnapshotStore
from vouched._replay._spill import SpillFile
from vouched.testing import FakeClock, MemorySnapshotStore, ScriptedPhraser

TESTS = Path(__file__).resolve().parent.parent


class _Stalled:
    """A store whose writes wait until released (a SQLite file another process locked)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.wrote = threading.Event()  # set once a held write has gone through
        self.inner = MemorySnapshotStore()

    def write(self, snapshot: Snapshot) -> None:
        self.write_many([snapshot])

    def write_many(self, snapshots: Iterable[Snapshot]) -> int:
        self.release.wait()
        written = self.inner.write_many(snapshots)
        self.wrote.set()
        return written

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        return self.inner.iter(since=since, until=until)


def _many(make: SnapshotFactory, n: int) -> list[Snapshot]:
    return [make(created_at=T0 + timedelta(seconds=i)) for i in range(n)]


def test_a_batch_the_store_holds_past_its_timeout_goes_to_the_spill_file(
    tmp_path: Path, make_snapshot: SnapshotFactory
) -> None:
    stalled = _Stalled()
    queued = QueuedSnapshotStore(stalled, spill=tmp_path / "spill.jsonl", store_timeout=0.05,
                                 retry_every=3600)  # fmt: skip
    snapshots = _many(make_snapshot, 600)
    for snapshot in snapshots:
        queued.write(snapshot)
    queued.flush()  # returns while the store still holds its first batch
    assert queued.spilled == 600
    assert SpillFile(tmp_path / "spill.jsonl").count() == 600
    stalled.release.set()
    assert stalled.wrote.wait(timeout=60)  # the store lets go of its first batch
    queued.close(timeout=None)
    # Closing in the instant before the store's thread hands back that batch leaves the
    # spill file to the next start (a race under load): either way nothing is lost.
    QueuedSnapshotStore(stalled, spill=tmp_path / "spill.jsonl").close(timeout=None)
    assert len(list(stalled.iter())) == 600
    assert queued.lost == 0


def test_spills_go_in_batches_with_one_append_each(
    tmp_path: Path, make_snapshot: SnapshotFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    stalled = _Stalled()
    queued = QueuedSnapshotStore(stalled, maxsize=300, spill=tmp_path / "spill.jsonl",
                                 store_timeout=0.05, retry_every=3600)  # fmt: skip
    appends: list[int] = []
    spill = queued.spill
    assert spill is not None
    add = spill.add
    monkeypatch.setattr(spill, "add", lambda batch: (appends.append(len(batch)), add(batch)))
    for snapshot in _many(make_snapshot, 2000):
        queued.write(snapshot)
    queued.flush()
    assert sum(appends) == 2000
    assert len(appends) * 20 <= 2000  # on average at least 20 a batch (each alone before)
    stalled.release.set()
    queued.close(timeout=None)


def test_a_spill_folder_that_takes_no_file_is_refused_at_once(tmp_path: Path) -> None:
    folder = Path("/sys") if os.geteuid() == 0 else tmp_path / "read-only"  # root writes anywhere
    if folder != Path("/sys"):
        folder.mkdir()
        folder.chmod(0o555)
    with pytest.raises(OSError):  # noqa: PT011 - PermissionError, or EROFS/ENOENT under /sys
        QueuedSnapshotStore(MemorySnapshotStore(), spill=folder / "spill.jsonl")


_KILLED = """
import sys
sys.path[:0] = [sys.argv[3], sys.argv[3] + "/replay"]
import sqlite3
from datetime import timedelta
from conftest import REDACTION_KEY
from replay.population import T0, weather_facts
from vouched import Policy, QueuedSnapshotStore, Snapshot, SqliteSnapshotStore

store = SqliteSnapshotStore(sys.argv[1], timeout=3600)  # the lock is never given up on
queued = QueuedSnapshotStore(store, spill=sys.argv[2], store_timeout=0.2, retry_every=3600)
for n in range(500):
    at = T0 + timedelta(seconds=n)
    queued.write(Snapshot.build(
        created_at=at, question="Berlin?", query={"city": "Berlin"}, facts=weather_facts(at),
        policy=Policy(), prompt_version=f"k{n}", phraser="template", output="ok",
        findings=(), status="ok", attempts=1, timings={}, redaction_key=REDACTION_KEY))
queued.flush()
print("flushed", flush=True)
sys.stdin.readline()  # killed here
"""

_HOLD_LOCK = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
connection.execute("COMMIT")
"""


def _run(code: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen([sys.executable, "-c", code, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)  # fmt: skip


def test_sigkill_while_the_store_is_locked_loses_nothing_already_spilled(tmp_path: Path) -> None:
    db, spill = tmp_path / "s.db", tmp_path / "s.db.spill.jsonl"
    SqliteSnapshotStore(db).close()
    holder = _run(_HOLD_LOCK, str(db))
    assert holder.stdout is not None
    assert holder.stdin is not None
    assert holder.stdout.readline().strip() == "locked"
    server = _run(_KILLED, str(db), str(spill), str(TESTS))
    try:
        assert server.stdout is not None
        assert server.stdout.readline().strip() == "flushed"  # every batch spilled by now
        server.send_signal(signal.SIGKILL)
        assert server.wait(timeout=30) == -signal.SIGKILL
    finally:
        if server.poll() is None:
            server.kill()
        holder.stdin.write("release\n")
        holder.stdin.close()
        holder.wait(timeout=30)
        for pipe in (holder.stdout, server.stdin, server.stdout):
            if pipe is not None:
                pipe.close()
    with SqliteSnapshotStore(db) as store:
        QueuedSnapshotStore(store, spill=spill).close(timeout=None)  # the next start
        assert len(store) == 500


class _HandOff:
    """A HandOffStore that records what it is handed."""

    def __init__(self) -> None:
        self.builds: list[Callable[[], Snapshot]] = []
        self.writes = 0

    def hand_off(self, build: Callable[[], Snapshot]) -> None:
        self.builds.append(build)

    def write(self, snapshot: Snapshot) -> None:
        self.writes += 1

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        return iter(())


def _grounder(store: object) -> Grounder:
    return Grounder([], phraser=ScriptedPhraser(["Nothing to say."]),
                    clock=FakeClock("2026-11-29T12:00:00Z"), store=store)  # type: ignore[arg-type]  # fmt: skip


def test_the_grounder_hands_a_queue_the_snapshot_unbuilt_in_one_hand_off() -> None:
    store = _HandOff()
    _grounder(store).answer_sync("How warm is it?")
    (build,) = store.builds
    assert store.writes == 0
    assert build().question == "How warm is it?"


class _CountingBatches(MemorySnapshotStore):
    """Counts transactions; the first one waits until ``RELEASE`` is set, so what the
    answers schedule meanwhile queues up (no race with the writer thread's speed)."""

    transactions = 0
    RELEASE = threading.Event()

    def write_many(self, snapshots: Iterable[Snapshot]) -> int:
        self.RELEASE.wait(timeout=30)
        self.transactions += 1
        return super().write_many(snapshots)


def test_the_grounder_writes_a_plain_store_in_batches() -> None:
    store = _CountingBatches()
    store.RELEASE.clear()
    grounder = _grounder(store)

    async def many() -> None:
        await asyncio.gather(*(grounder.answer(f"How warm is it at {n}?") for n in range(60)))
        store.RELEASE.set()  # every snapshot is scheduled: the writer may go on
        await grounder.settle()

    asyncio.run(many())
    assert len(list(store.iter())) == 60
    assert store.transactions < 60
