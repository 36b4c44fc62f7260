"""Snapshots written off the answer path: :class:`QueuedSnapshotStore`.

One bounded queue between the answer and the store, one thread draining it in
batches (one transaction each: a :class:`~vouched._replay._store.BatchStore`'s
``write_many``). What happens when the store falls behind is explicit: without
a spill file a full queue holds the writer back briefly (back-pressure), then
drops and counts; with one (``spill=PATH``) nothing waits on the store for
longer than ``store_timeout`` (default 1 s): a batch the store has not taken by
then, and every batch after it while the store is slow or down, is appended to
the spill file (one write and one ``fsync`` per batch) and written into the
store once it takes writes again (and at the next start), streamed in batches
between new ones.

Memory stays bounded whatever the store does: at most ``maxsize`` snapshots
queued, one batch in the store's hands and one batch read back from the spill
file. What a kill (SIGKILL, OOM) can lose is what is queued and not yet
spilled: at most about ``store_timeout`` seconds of answers (see
docs/guides/snapshots.md). ``close`` drains for a bounded time and says in one
log line what it spilled (or dropped) and where.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import suppress
from datetime import datetime
from pathlib import Path

from vouched._replay._snapshot import Snapshot
from vouched._replay._spill import SpillFile
from vouched._replay._store import BatchStore, SnapshotStore, safe_write, write_batch

__all__ = ["QueuedSnapshotStore"]

logger = logging.getLogger("vouched.snapshots")

# Defaults, named once.
BLOCK_FOR = 0.1  # seconds a writer waits for room in a full queue before dropping
CLOSE_WITHIN = 30.0  # seconds close() waits for the queue to drain
RETRY_EVERY = 1.0  # seconds between tries to write spilled snapshots into the store
STORE_TIMEOUT = 1.0  # seconds a batch may wait on the store before it is spilled
REPLAY_TIMEOUT = 30.0  # seconds a batch read back from the spill file may wait on the store

Build = Callable[[], Snapshot]
"""A snapshot not built yet: the drain thread builds it (off the event loop)."""


class _StoreDown(Exception):  # noqa: N818 - internal signal: stop this replay, try later
    pass


class _Caller:
    """The store's own thread: one call at a time, a future each. A daemon, so
    a store that never answers (a lock held for good) never holds up the exit:
    what it held is in the spill file already."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Future[None], list[Snapshot], SnapshotStore] | None]
        self._jobs = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="vouched-store", daemon=True)
        self._thread.start()

    def submit(self, store: SnapshotStore, batch: list[Snapshot]) -> Future[None]:
        if self._closed:
            raise RuntimeError("closed")
        future: Future[None] = Future()
        self._jobs.put((future, batch, store))
        return future

    def shutdown(self) -> None:
        self._closed = True
        self._jobs.put(None)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            future, batch, store = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                write_batch(store, batch)
            except BaseException as error:  # noqa: BLE001 - handed to the waiting thread
                future.set_exception(error)
            else:
                future.set_result(None)


class QueuedSnapshotStore:
    """Hands snapshots to another store on a background thread.

    ``write`` never raises and waits at most ``block_for`` seconds: the
    snapshot is queued (at most ``maxsize`` wait) and the call returns.
    ``hand_off(build)`` queues a snapshot not built yet (the thread builds it):
    the Grounder's one hand-off. A full queue (the store is slower than the
    answers) holds the writer back for up to ``block_for`` seconds
    (back-pressure), then drops the snapshot, logs it and counts it in
    ``dropped``; a batch the inner store could not write (after its own
    retries) is logged and counted in ``failed``. ``lost`` is both together,
    and ``on_lost`` (e.g. ``PrometheusMetrics.snapshot_write_failed``, the
    ``vouched_snapshot_write_failures_total`` counter) is called once per lost
    snapshot. ``flush()`` waits for the queue to drain; ``close(timeout)``
    drains what is queued for up to ``timeout`` seconds, counts what is still
    queued then as dropped, and stops the thread. Reads go straight to the
    inner store.

    ``spill``: a local file (JSON lines) for what the store cannot take yet;
    its folder is checked at once (``OSError`` when it takes no file). A batch
    the store fails, or has not taken within ``store_timeout`` seconds, is
    spilled (the store may still finish it: written twice, stored once), and so
    is every batch while the store is slow or failed less than ``retry_every``
    seconds ago. The spill file is written into the store once a batch goes
    through again (and first thing at start). The thread spills a batch with
    one ``fsync``, so the queue fills only when even the disk cannot keep up:
    the writer is then held back ``block_for`` seconds, and spills alone
    instead of dropping. ``spilled`` and ``replayed`` count both ways; a
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
        store_timeout: float = STORE_TIMEOUT,
    ) -> None:
        self.store = store
        self.written = 0
        self.failed = 0
        self.dropped = 0
        self.spilled = 0
        self.replayed = 0
        self.spill = SpillFile(spill) if spill is not None else None
        if self.spill is not None:
            self.spill.probe()
        self.retry_every = retry_every
        self.store_timeout = store_timeout
        self._spill_pending = self.spill is not None and self.spill.waiting()
        self._spilling = False  # said once per episode in the log
        self._in_flight: list[Snapshot] = []
        self._gave_up = False
        self._retry_at = 0.0  # monotonic time before which batches go straight to the spill
        self._replaying = False
        # The store's own thread (with a spill file): the drain thread waits on it
        # for store_timeout at most. ``_busy`` is a call it has not finished yet.
        self._caller = _Caller() if self.spill else None
        self._busy: Future[None] | None = None
        self.block_for = block_for
        self._on_lost = on_lost
        self._batch = batch
        self._count_lock = threading.Lock()
        self._queue: queue.Queue[Snapshot | Build | None] = queue.Queue(maxsize)
        self._closed = False
        self._thread = threading.Thread(target=self._drain, name="vouched-snapshots", daemon=True)
        self._thread.start()

    @property
    def lost(self) -> int:
        """Snapshots that will never be stored: dropped plus failed."""
        with self._count_lock:
            return self.dropped + self.failed

    def write(self, snapshot: Snapshot) -> None:
        self._put(snapshot)

    def hand_off(self, build: Build) -> None:
        """Queue the snapshot ``build`` makes; the thread builds and stores it."""
        self._put(build)

    def _put(self, item: Snapshot | Build) -> None:
        if self._closed:
            self._refused(item, "the queued store is closed")
            return
        try:
            if self.block_for > 0:
                self._queue.put(item, timeout=self.block_for)
            else:
                self._queue.put_nowait(item)
        except queue.Full:
            self._refused(item, "the queue is full")

    def _refused(self, item: Snapshot | Build, why: str) -> None:
        snapshot = self._built(item)
        if snapshot is None:
            return
        if (spill := self.spill) is not None and self._to_spill(spill, [snapshot], why):
            return
        self._count("dropped", 1)
        logger.error("snapshot %s dropped: %s", snapshot.id, why)

    def _built(self, item: Snapshot | Build) -> Snapshot | None:
        if isinstance(item, Snapshot):
            return item
        try:
            return item()
        except Exception:  # a snapshot that cannot be built is counted (logged), never raised
            logger.exception("a snapshot could not be built")
            self._count("failed", 1)
            return None

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
        """Closed, and its threads let go of the store (close() did not give up)."""
        busy = self._busy
        return self._closed and not self._thread.is_alive() and (busy is None or busy.done())

    def flush(self) -> None:
        """Wait until every queued snapshot has been written, spilled or failed."""
        self._queue.join()

    def close(self, timeout: float | None = CLOSE_WITHIN) -> None:
        """Write what is queued (for up to ``timeout`` seconds; None: until done),
        then stop the thread (idempotent). Snapshots still queued then are
        spilled (with a spill file) or dropped."""
        if self._closed:
            return
        self._closed = True
        give_up = None if timeout is None else time.monotonic() + timeout
        with suppress(queue.Full):
            self._queue.put(None, timeout=timeout)
        self._thread.join(None if give_up is None else max(0.0, give_up - time.monotonic()))
        if not self._thread.is_alive():
            self._stop_caller()
            if self.spill is not None and self.spill.waiting():
                logger.error(
                    "closed: %d snapshots wait in %s for the store; they are "
                    "written at the next start",
                    self.spill.count(),
                    self.spill.path,
                )
            return
        # The thread still holds a batch: what waits behind it is spilled (or dropped)
        # now, and the spill file is the next start's (this thread no longer replays it).
        self._gave_up = True
        self._spilling = True  # one line says it all, below
        left: list[Snapshot] = []
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            self._queue.task_done()
            if item is not None and (snapshot := self._built(item)) is not None:
                left.append(item if isinstance(item, Snapshot) else snapshot)
        # The batch in the store's hands is spilled too: stored twice it is stored once.
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
        self._stop_caller()

    def _stop_caller(self) -> None:
        if self._caller is not None:
            self._caller.shutdown()

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

    # -- the drain thread ------------------------------------------------------------

    def _drain(self) -> None:
        self._replay_spill()  # what an earlier run (or an outage) left
        while True:
            try:
                item = self._queue.get(timeout=self.retry_every if self._spill_pending else None)
            except queue.Empty:
                self._replay_spill()
                continue
            items, stop = self._take(item)
            if stop:
                self._retry_at = 0.0  # closing: one more try of the store, whatever the wait
            self._deliver(items)
            for _ in range(len(items) + (1 if stop else 0)):
                self._queue.task_done()
            if stop:
                return

    def _take(self, first: Snapshot | Build | None) -> tuple[list[Snapshot | Build], bool]:
        """A batch: ``first`` and what else is queued now (up to ``batch``)."""
        items: list[Snapshot | Build] = []
        stop = first is None
        if first is not None:
            items.append(first)
        while not stop and len(items) < self._batch:
            try:
                more = self._queue.get_nowait()
            except queue.Empty:
                break
            if more is None:
                stop = True
            else:
                items.append(more)
        return items, stop

    def _deliver(self, items: list[Snapshot | Build]) -> None:
        batch = [s for s in map(self._built, items) if s is not None]
        if not batch or self._store(batch):
            self._replay_spill()  # the store takes writes again (a no-op with no spill)

    def _store(self, batch: list[Snapshot]) -> bool:
        """Write one batch; False when it did not reach the store (spilled, or failed)."""
        if (spill := self.spill) is None:
            return self._store_unspilled(batch)
        why = self._why_not_now()
        if why is None:
            why = self._call_store(batch)
            if why is None:
                self._count("written", len(batch))
                return True
            self._retry_at = time.monotonic() + self.retry_every
        if not self._to_spill(spill, batch, why):
            self._count("failed", len(batch))
        return False

    def _why_not_now(self) -> str | None:
        """Why a batch goes straight to the spill file (None: try the store)."""
        if self._busy is not None and not self._busy.done():
            return "the store is still busy with an earlier batch"
        if self._spill_pending and not self._replaying and time.monotonic() < self._retry_at:
            return "the store failed moments ago"
        return None

    def _call_store(self, batch: list[Snapshot], timeout: float | None = None) -> str | None:
        """Hand ``batch`` to the store's thread and wait ``timeout`` (the store
        timeout) at most; None when it is stored, else why not."""
        timeout = self.store_timeout if timeout is None else timeout
        assert self._caller is not None  # with a spill file  # noqa: S101 - an invariant
        self._in_flight = batch
        try:
            future = self._caller.submit(self.store, batch)
        except RuntimeError:  # closed under us: the spill file takes it
            return "the queued store is closing"
        try:
            future.result(timeout=timeout)
        except FutureTimeout:
            self._busy = future
            return f"the store took longer than {timeout:g} s"
        except Exception as error:  # noqa: BLE001 - by contract: spilled, the thread lives on
            return f"the store failed: {type(error).__name__}"
        finally:
            self._in_flight = []
        return None

    def _store_unspilled(self, batch: list[Snapshot]) -> bool:
        """Without a spill file: one transaction (a BatchStore), else one write
        each; what fails is logged and counted failed."""
        if isinstance(self.store, BatchStore):
            try:
                self.store.write_many(batch)
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

    def _replay_spill(self) -> None:
        if self.spill is None or not self._spill_pending or self._gave_up or self._replaying:
            return
        if self._why_not_now() is not None:
            return
        self._replaying = True
        try:
            replayed = self.spill.replay(self._replay_batch, self._batch, between=self._between)
        except _StoreDown:
            self._retry_at = time.monotonic() + self.retry_every
            return
        except OSError as error:
            logger.error("cannot replay %s (%s)", self.spill.path, error.strerror or error)
            self._retry_at = time.monotonic() + self.retry_every
            return
        finally:
            self._replaying = False
        self._spill_pending = self.spill.waiting()
        self._spilling = False
        self._count("replayed", replayed)
        if replayed:
            logger.warning(
                "%d spilled snapshots written to the store from %s", replayed, self.spill.path
            )

    def _replay_batch(self, batch: list[Snapshot]) -> None:
        # Spilled snapshots are safe on disk: a slow store is waited for longer
        # (answers queued meanwhile go on between batches, or spill).
        if self._call_store(batch, max(REPLAY_TIMEOUT, self.store_timeout)) is not None:
            raise _StoreDown

    def _between(self) -> None:
        """While a replay runs: what the answers queued meanwhile goes on too."""
        while True:
            try:
                first = self._queue.get_nowait()
            except queue.Empty:
                return
            items, stop = self._take(first)
            batch = [s for s in map(self._built, items) if s is not None]
            if batch:
                self._store(batch)
            for _ in items:
                self._queue.task_done()
            if stop:
                # close() asked to stop: put the marker back for the main loop.
                self._queue.task_done()
                with suppress(queue.Full):
                    self._queue.put_nowait(None)
                return
