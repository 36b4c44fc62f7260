"""Snapshots of answers: the one place a snapshot is made (:func:`record`), and
the hook that writes them off the answer path (:class:`StoreHook`)."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from typing import Any

from vouched._answer._onfail import OnFail
from vouched._answer._result import Answer, finding_json
from vouched._fact import Fact
from vouched._policy import Policy
from vouched._replay._lexicons import LexiconRecord, LexiconShelf
from vouched._replay._snapshot import Snapshot
from vouched._replay._store import HandOffStore, SnapshotStore, write_batch
from vouched._sources._source import Query

__all__ = ["HOOK_BATCH", "HOOK_PENDING", "StoreHook", "record"]

_log = logging.getLogger("vouched.grounder")

HOOK_PENDING = 10_000
"""Snapshots waiting for a plain store at most; past it one is dropped and counted."""

HOOK_BATCH = 256
"""Snapshots written in one transaction (a store that is a ``BatchStore``)."""

_Write = Callable[[Any], None]
_Entry = tuple[Callable[[], Any], _Write | None]  # (build, a write of its own or None)


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
    neither ever breaks an answer. A write of its own (a lexicon, see
    :meth:`keep_lexicon`) goes through the same thread in order, before the
    snapshots scheduled after it, and is never dropped."""

    __slots__ = ("_executor", "_futures", "_lexicons", "_lock", "_pending", "_running",
                 "failed", "store", "written")  # fmt: skip

    def __init__(self, store: SnapshotStore) -> None:
        self.store = store
        self._lexicons: set[str] = set()  # hashes of the lexicons this hook has kept
        self.written = 0
        self.failed = 0
        self._lock = threading.Lock()
        self._pending: deque[_Entry] = deque()
        self._running = False
        # The executor's own futures, not the event loop's: a write belongs to the store's
        # thread, so it is settled from any loop, also after the loop that scheduled it has
        # closed (asyncio.run(answer) then asyncio.run(settle)).
        self._futures: set[Future[None]] = set()
        self._executor: ThreadPoolExecutor | None = None

    @property
    def pending(self) -> int:
        """Snapshots scheduled and not yet written."""
        return len(self._pending)

    def keep_lexicon(self, record: LexiconRecord | None) -> None:
        """Have the store keep ``record`` before the snapshots naming it (once per
        hook; stores without a lexicon shelf keep only the name and hash)."""
        if record is None or record.hash in self._lexicons:
            return
        if not isinstance(self.store, LexiconShelf):
            return
        self._lexicons.add(record.hash)
        shelf = self.store
        self.schedule(lambda: record, write=lambda _: shelf.write_lexicon(record))

    def schedule(self, build: Callable[[], Any], write: _Write | None = None) -> None:
        """Write ``build()`` off the answer path: with ``write`` when given, else as a
        snapshot (handed unbuilt to a ``HandOffStore``, else batched on our thread)."""
        if write is None and isinstance(self.store, HandOffStore):
            self.store.hand_off(build)
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            self._write([(build, write)])
            return
        with self._lock:
            if write is None and len(self._pending) >= HOOK_PENDING:
                self.failed += 1
                _log.error("snapshot dropped: %d wait for the store already", HOOK_PENDING)
                return
            self._pending.append((build, write))
            if self._running:
                return
            self._running = True
            if self._executor is None:  # one thread: stores write one batch at a time
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="vouched-snapshots")
            future = self._executor.submit(self._drain)
            self._futures.add(future)
        future.add_done_callback(self._done)

    def _done(self, future: Future[None]) -> None:
        with self._lock:  # called on the store's thread (or here, when already done)
            self._futures.discard(future)

    async def settle(self) -> None:
        """Wait for the writes scheduled so far, from any event loop (for sync callers
        and tests)."""
        while True:
            with self._lock:
                futures = list(self._futures)
            if not futures:
                return
            await asyncio.gather(*map(asyncio.wrap_future, futures), return_exceptions=True)

    def _drain(self) -> None:
        while True:
            with self._lock:
                if not self._pending:
                    self._running = False
                    return
                take = min(HOOK_BATCH, len(self._pending))
                entries = [self._pending.popleft() for _ in range(take)]
            self._write(entries)

    def _write(self, entries: Sequence[_Entry]) -> None:
        """Write ``entries`` in order: runs of snapshots in one batch each, a write of
        its own (a lexicon) alone, after the snapshots before it."""
        snapshots: list[Snapshot] = []
        for build, write in entries:
            if write is not None:
                self._store(snapshots)
                snapshots = []
                self._own(build, write)
                continue
            try:
                snapshots.append(build())
            except Exception:  # noqa: BLE001 - a snapshot that cannot be built never breaks an answer
                self._counted(failed=1)
                _log.warning("snapshot could not be built; answer unaffected", exc_info=True)
        self._store(snapshots)

    def _store(self, snapshots: list[Snapshot]) -> None:
        if not snapshots:
            return
        try:
            write_batch(self.store, snapshots)
        except Exception:  # noqa: BLE001 - a failing store must never break an answer
            self._counted(failed=len(snapshots))
            _log.warning("snapshot store failed; answer unaffected", exc_info=True)
        else:
            self._counted(written=len(snapshots))

    def _own(self, build: Callable[[], Any], write: _Write) -> None:
        try:
            write(build())
        except Exception:  # noqa: BLE001 - a failing store must never break an answer
            self._counted(failed=1)
            _log.warning("snapshot store failed; answer unaffected", exc_info=True)
        else:
            self._counted(written=1)

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
    lexicon: LexiconRecord | None = None,
    request: Mapping[str, Any] | None = None,
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
        lexicon=None if lexicon is None else lexicon.ref,
        request=_request(answer, request),
    )


def _request(answer: Answer, request: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The request's own trace (its id, ...) and the model server's ids of the answer."""
    kept = dict(request or {})
    if answer.response_id:
        kept["response_id"] = answer.response_id
    if answer.system_fingerprint:
        kept["system_fingerprint"] = answer.system_fingerprint
    if answer.upstream:  # a fallback answered: the snapshot credits it, not the one asked
        kept["answered_by"] = {"upstream": answer.upstream, "model": answer.model}
    return kept or None
