"""Snapshots written off the answer path: :class:`QueuedSnapshotStore`.

A background thread hands queued snapshots to another store in batches (one
transaction each: ``write_many``). What happens when the store falls behind
is explicit: without a spill file a full queue holds the writer back briefly
(back-pressure), then drops and counts; with one (``spill=PATH``) a snapshot
the queue or the store cannot take is appended to a local file and written
into the store once it takes writes again (and at the next start), so none is
lost. ``close`` drains for a bounded time and says in one log line what it
spilled (or dropped) and where.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from datetime import datetime
from pathlib import Path

from vouched._replay._snapshot import Snapshot
from vouched._replay._spill import SpillFile
from vouched._replay._store import SnapshotStore, safe_write

__all__ = ["QueuedSnapshotStore"]

logger = logging.getLogger("vouched.snapshots")

# Defaults, named once.
BLOCK_FOR = 0.1  # seconds a writer waits for room in a full queue before dropping
CLOSE_WITHIN = 30.0  # seconds close() waits for the queue to drain
RETRY_EVERY = 1.0  # seconds between tries to write spilled snapshots into the store


class QueuedSnapshotStore:
    """Hands snapshots to another store on a background thread.

    ``write`` never raises and waits at most ``block_for`` seconds: the
    snapshot is queued (at most ``maxsize`` wait) and the call returns. A full
    queue (the store is slower than the answers) holds the writer back for up
    to ``block_for`` seconds (back-pressure), then drops the snapshot, logs it
    and counts it in ``dropped``; a batch the inner store could not write
    (after its own retries) is logged and counted in ``failed``. ``lost`` is
    both together, and ``on_lost`` (e.g. ``PrometheusMetrics.snapshot_write_failed``,
    the ``vouched_snapshot_write_failures_total`` counter) is called once per
    lost snapshot. Give this to the Grounder when the store may stall.
    ``flush()`` waits for the queue to drain; ``close(timeout)`` drains what is
    queued for up to ``timeout`` seconds, counts what is still queued then as
    dropped, and stops the thread. Reads go straight to the inner store.

    ``spill``: a local file (JSON lines) for what the store cannot take yet. A
    full queue then spills at once instead of holding the writer back, a batch
    the store fails is spilled instead of counted as failed, and the thread
    writes the file into the store once a batch goes through again (tried every
    ``retry_every`` seconds while it waits, and first thing at start: a file
    left by an earlier run is written in). ``close`` spills what is still
    queued at its timeout. ``spilled`` and ``replayed`` count both ways; a
    snapshot is lost only when the spill file itself cannot be written.
    """

    def __init__(
        self,
        store: SnapshotStore,
        *,
        maxsize: int = 10_000,
        batch: int = 256,
        block_for: float = BLOCK_FOR,
        on_lost: Callable[[], object] | None = None,
        spill: str | Path | None = None,
        retry_every: float = RETRY_EVERY,
    ) -> None:
        self.store = store
        self.written = 0
        self.failed = 0
        self.dropped = 0
        self.spilled = 0
        self.replayed = 0
        self.spill = SpillFile(spill) if spill is not None else None
        self.retry_every = retry_every
        self._spill_pending = self.spill is not None and self.spill.waiting()
        self._spilling = False  # said once per episode in the log
        self._in_flight: list[Snapshot] = []
        self._gave_up = False
        self.block_for = block_for
        self._on_lost = on_lost
        self._batch = batch
        self._count_lock = threading.Lock()
        self._queue: queue.Queue[Snapshot | None] = queue.Queue(maxsize)
        self._closed = False
        self._thread = threading.Thread(target=self._drain, name="vouched-snapshots", daemon=True)
        self._thread.start()

    @property
    def lost(self) -> int:
        """Snapshots that will never be stored: dropped plus failed."""
        with self._count_lock:
            return self.dropped + self.failed

    def write(self, snapshot: Snapshot) -> None:
        if self._closed:
            if (spill := self.spill) is not None and self._to_spill(
                spill, [snapshot], "the queued store is closed"
            ):
                return
            self._count("dropped", 1)
            logger.error("snapshot %s dropped: the queued store is closed", snapshot.id)
            return
        try:
            if self.spill is not None:
                self._queue.put_nowait(snapshot)
            elif self.block_for > 0:
                self._queue.put(snapshot, timeout=self.block_for)
            else:
                self._queue.put_nowait(snapshot)
        except queue.Full:
            if (spill := self.spill) is not None and self._to_spill(
                spill, [snapshot], "the queue is full"
            ):
                return
            self._count("dropped", 1)
            logger.error("snapshot %s dropped: the snapshot queue is full", snapshot.id)

    def _to_spill(self, spill: SpillFile, snapshots: list[Snapshot], why: str) -> bool:
        """Append to the spill file; False (and logged) when it cannot be written."""
        try:
            spill.add(snapshots)
        except OSError as error:
            logger.error(
                "%d snapshots: %s, and %s cannot be written (%s)",
                len(snapshots),
                why,
                spill.path,
                error.strerror or error,
            )
            return False
        self._spill_pending = True
        self._count("spilled", len(snapshots))
        if not self._spilling:
            self._spilling = True
            logger.warning(
                "snapshots spilled to %s (%s); written to the store when it takes them",
                spill.path,
                why,
            )
        return True

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        return self.store.iter(since=since, until=until)

    @property
    def drained(self) -> bool:
        """Closed, and its thread let go of the store (close() did not give up)."""
        return self._closed and not self._thread.is_alive()

    def flush(self) -> None:
        """Wait until every queued snapshot has been written (or failed)."""
        self._queue.join()

    def close(self, timeout: float | None = CLOSE_WITHIN) -> None:
        """Write what is queued (for up to ``timeout`` seconds; None: until done),
        then stop the thread (idempotent). Snapshots still queued then are dropped."""
        if self._closed:
            return
        self._closed = True
        give_up = None if timeout is None else time.monotonic() + timeout
        with suppress(queue.Full):
            self._queue.put(None, timeout=timeout)
        self._thread.join(None if give_up is None else max(0.0, give_up - time.monotonic()))
        if not self._thread.is_alive():
            if self.spill is not None and self.spill.waiting():
                logger.error(
                    "closed: %d snapshots wait in %s for the store; they are "
                    "written at the next start",
                    self.spill.count(),
                    self.spill.path,
                )
            return
        # The store still holds a batch: what waits behind it is spilled (or dropped) now,
        # and the spill file is the next start's (this thread no longer replays it).
        self._gave_up = True
        self._spilling = True  # one line says it all, below
        left: list[Snapshot] = []
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            self._queue.task_done()
            if item is not None:
                left.append(item)
        # The batch the store holds is spilled too: stored twice it is stored once.
        if (spill := self.spill) is not None and self._to_spill(
            spill, left + list(self._in_flight), "closing"
        ):
            logger.error(
                "closed after %s s: %d snapshots spilled to %s (%d wait there); "
                "they are written at the next start",
                timeout,
                len(left),
                spill.path,
                spill.count(),
            )
        else:
            self._count("dropped", len(left))
            logger.error("%d snapshots still queued after %s s: dropped", len(left), timeout)
        with suppress(queue.Full):
            self._queue.put_nowait(None)  # the thread ends once the store lets it go

    def __enter__(self) -> QueuedSnapshotStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _count(self, name: str, n: int) -> None:
        with self._count_lock:
            setattr(self, name, getattr(self, name) + n)
        if name in ("dropped", "failed") and self._on_lost is not None:
            for _ in range(n):
                self._on_lost()

    def _drain(self) -> None:
        self._replay_spill()  # what an earlier run (or an outage) left
        while True:
            try:
                item = self._queue.get(timeout=self.retry_every if self._spill_pending else None)
            except queue.Empty:
                self._replay_spill()
                continue
            batch: list[Snapshot] = []
            stop = item is None
            if item is not None:
                batch.append(item)
            while not stop and len(batch) < self._batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                else:
                    batch.append(more)
            if (self._store(batch) if batch else True) or stop:
                self._replay_spill()  # the store takes writes again
            for _ in range(len(batch) + (1 if stop else 0)):
                self._queue.task_done()
            if stop:
                return

    def _write_batch(self, batch: list[Snapshot]) -> None:
        write_many = getattr(self.store, "write_many", None)
        if callable(write_many):
            write_many(batch)
        else:
            for snapshot in batch:
                self.store.write(snapshot)

    def _replay_spill(self) -> None:
        if self.spill is None or not self._spill_pending or self._gave_up:
            return
        try:
            replayed = self.spill.replay(self._write_batch, self._batch)
        except Exception:  # noqa: BLE001 - the store still fails: tried again later
            return
        self._spill_pending = self.spill.waiting()
        self._spilling = False
        self._count("replayed", replayed)
        if replayed:
            logger.warning(
                "%d spilled snapshots written to the store from %s", replayed, self.spill.path
            )

    def _store(self, batch: list[Snapshot]) -> bool:
        """Write one batch; False when the store failed it (spilled, or counted failed)."""
        if (spill := self.spill) is not None:
            self._in_flight = batch
            try:
                self._write_batch(batch)
            except Exception as error:  # noqa: BLE001 - by contract: spilled, the thread lives on
                why = f"the store failed: {type(error).__name__}"
                if not self._to_spill(spill, batch, why):
                    self._count("failed", len(batch))
                return False
            finally:
                self._in_flight = []
            self._count("written", len(batch))
            return True
        write_many = getattr(self.store, "write_many", None)
        if callable(write_many):
            try:
                write_many(batch)
            except Exception:  # by contract: logged and counted, the thread lives on
                logger.exception("%d snapshots not stored", len(batch))
                self._count("failed", len(batch))
                return False
            self._count("written", len(batch))
            return True
        ok = True
        for snapshot in batch:
            stored = safe_write(self.store, snapshot)
            ok = ok and stored
            self._count("written" if stored else "failed", 1)
        return ok
