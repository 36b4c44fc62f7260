"""Snapshots written off the answer path: :class:`QueuedSnapshotStore`.

A background thread hands queued snapshots to another store in batches; a
full queue holds the writer back briefly (back-pressure), then drops and
counts; ``lost`` and ``on_lost`` report every snapshot that will never be
stored; ``close`` drains for a bounded time.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from datetime import datetime

from vouched._replay._snapshot import Snapshot
from vouched._replay._store import SnapshotStore, safe_write

__all__ = ["QueuedSnapshotStore"]

logger = logging.getLogger("vouched.snapshots")

# Defaults, named once.
BLOCK_FOR = 0.1  # seconds a writer waits for room in a full queue before dropping
CLOSE_WITHIN = 30.0  # seconds close() waits for the queue to drain


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
    """

    def __init__(
        self,
        store: SnapshotStore,
        *,
        maxsize: int = 10_000,
        batch: int = 256,
        block_for: float = BLOCK_FOR,
        on_lost: Callable[[], object] | None = None,
    ) -> None:
        self.store = store
        self.written = 0
        self.failed = 0
        self.dropped = 0
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
            self._count("dropped", 1)
            logger.error("snapshot %s dropped: the queued store is closed", snapshot.id)
            return
        try:
            if self.block_for > 0:
                self._queue.put(snapshot, timeout=self.block_for)
            else:
                self._queue.put_nowait(snapshot)
        except queue.Full:
            self._count("dropped", 1)
            logger.error("snapshot %s dropped: the snapshot queue is full", snapshot.id)

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        return self.store.iter(since=since, until=until)

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
            return
        # The store still holds a batch: what waits behind it is dropped now.
        left = 0
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            self._queue.task_done()
            left += item is not None
        self._count("dropped", left)
        logger.error("%d snapshots still queued after %s s: dropped", left, timeout)
        with suppress(queue.Full):
            self._queue.put_nowait(None)  # the thread ends once the store lets it go

    def __enter__(self) -> QueuedSnapshotStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _count(self, name: str, n: int) -> None:
        with self._count_lock:
            setattr(self, name, getattr(self, name) + n)
        if name != "written" and self._on_lost is not None:
            for _ in range(n):
                self._on_lost()

    def _drain(self) -> None:
        get = self._queue.get
        while True:
            item = get()
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
            if batch:
                self._store(batch)
            for _ in range(len(batch) + (1 if stop else 0)):
                self._queue.task_done()
            if stop:
                return

    def _store(self, batch: list[Snapshot]) -> None:
        write_many = getattr(self.store, "write_many", None)
        if callable(write_many):
            try:
                write_many(batch)
            except Exception:  # by contract: logged and counted, the thread lives on
                logger.exception("%d snapshots not stored", len(batch))
                self._count("failed", len(batch))
            else:
                self._count("written", len(batch))
            return
        for snapshot in batch:
            self._count("written" if safe_write(self.store, snapshot) else "failed", 1)
