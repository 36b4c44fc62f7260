"""Snapshots of answers: the one place a snapshot is made (:func:`record`), and
the hook that writes them off the answer path (:class:`StoreHook`)."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from vouched._answer._onfail import OnFail
from vouched._answer._result import Answer, finding_json
from vouched._fact import Fact
from vouched._policy import Policy
from vouched._replay._snapshot import Snapshot
from vouched._replay._store import HandOffStore, SnapshotStore, write_batch
from vouched._sources._source import Query

__all__ = ["HOOK_BATCH", "HOOK_PENDING", "StoreHook", "record"]

_log = logging.getLogger("vouched.grounder")

HOOK_PENDING = 10_000
"""Snapshots waiting for a plain store at most; past it one is dropped and counted."""

HOOK_BATCH = 256
"""Snapshots written in one transaction (a store that is a ``BatchStore``)."""


class StoreHook:
    """Writes snapshots off the answer path.

    A :class:`~vouched._replay._store.HandOffStore` (``QueuedSnapshotStore``,
    what ``vouched serve`` uses) is handed each snapshot unbuilt: one hand-off,
    its own bounded queue and thread do the rest. Any other store is written on
    one worker thread of ours, after the answer is handed back, in batches (one
    transaction per batch of up to ``HOOK_BATCH`` when the store is a
    ``BatchStore``), so a slow store (a SQLite file waiting for its lock)
    stalls neither this answer, nor the event loop, nor the pool that scans
    other answers. At most ``HOOK_PENDING`` wait: past that a snapshot is
    dropped, logged and counted in ``failed``, as is a batch the store fails;
    neither ever breaks an answer."""

    __slots__ = ("_executor", "_futures", "_lock", "_pending", "_running", "failed", "store",
                 "written")  # fmt: skip

    def __init__(self, store: SnapshotStore) -> None:
        self.store = store
        self.written = 0
        self.failed = 0
        self._lock = threading.Lock()
        self._pending: deque[Callable[[], Snapshot]] = deque()
        self._running = False
        self._futures: set[asyncio.Future[None]] = set()
        self._executor: ThreadPoolExecutor | None = None

    @property
    def pending(self) -> int:
        """Snapshots scheduled and not yet written."""
        return len(self._pending)

    def schedule(self, build: Callable[[], Snapshot]) -> None:
        if isinstance(self.store, HandOffStore):
            self.store.hand_off(build)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._write([build])
            return
        with self._lock:
            if len(self._pending) >= HOOK_PENDING:
                self.failed += 1
                _log.error("snapshot dropped: %d wait for the store already", HOOK_PENDING)
                return
            self._pending.append(build)
            start, self._running = not self._running, True
        if start:
            if self._executor is None:  # one thread: stores write one batch at a time
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="vouched-snapshots")
            future = loop.run_in_executor(self._executor, self._drain)
            self._futures.add(future)
            future.add_done_callback(self._futures.discard)

    async def settle(self) -> None:
        """Wait for the writes scheduled so far (for sync callers and tests)."""
        while self._futures:
            await asyncio.gather(*list(self._futures), return_exceptions=True)

    def _drain(self) -> None:
        while True:
            with self._lock:
                if not self._pending:
                    self._running = False
                    return
                take = min(HOOK_BATCH, len(self._pending))
                builds = [self._pending.popleft() for _ in range(take)]
            self._write(builds)

    def _write(self, builds: Sequence[Callable[[], Snapshot]]) -> None:
        snapshots: list[Snapshot] = []
        for build in builds:
            try:
                snapshots.append(build())
            except Exception:  # noqa: BLE001 - a snapshot that cannot be built never breaks an answer
                self._counted(failed=1)
                _log.warning("snapshot could not be built; answer unaffected", exc_info=True)
        if not snapshots:
            return
        try:
            write_batch(self.store, snapshots)
        except Exception:  # noqa: BLE001 - a failing store must never break an answer
            self._counted(failed=len(snapshots))
            _log.warning("snapshot store failed; answer unaffected", exc_info=True)
        else:
            self._counted(written=len(snapshots))

    def _counted(self, *, written: int = 0, failed: int = 0) -> None:
        with self._lock:
            self.written += written
            self.failed += failed


def record(
    answer: Answer,
    *,
    facts: Sequence[Fact],
    query: Query,
    policy: Policy,
    now: datetime,
    created_at: datetime,
    on_fail: Sequence[OnFail],
    redaction_key: bytes | None,
    mode: str = "enforce",
) -> Snapshot:
    """The snapshot of one answer: every fact as received (before the gate),
    the policy and instant it was judged at, the prompt version, the output
    and what the scanner found. The single place a snapshot is made."""
    return Snapshot.build(
        created_at=created_at,
        question=answer.question,
        query=query,
        facts=facts,
        policy=policy,
        now=now,
        prompt_version=answer.prompt_version,
        phraser=answer.phraser,
        output=answer.text,
        trail=[attempt.record() for attempt in answer.trail],
        findings=[finding_json(f) for f in answer.findings],
        status=str(answer.status),
        attempts=answer.attempts,
        timings=answer.timings,
        on_fail=("audit:" if mode == "audit" else "") + "+".join(step.value for step in on_fail),
        redaction_key=redaction_key,
    )
