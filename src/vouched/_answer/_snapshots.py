"""Snapshots of answers: the one place a snapshot is made (:func:`record`), and
the hook that writes them off the answer path (:class:`StoreHook`)."""

from __future__ import annotations

import asyncio
import logging
import threading
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
from vouched._replay._store import SnapshotStore
from vouched._sources._source import Query

__all__ = ["StoreHook", "record"]

_log = logging.getLogger("vouched.grounder")


class StoreHook:
    """Writes snapshots off the answer path: on the store's own worker thread,
    after the answer is handed back, so a slow store (a SQLite file waiting
    for its lock) stalls neither this answer, nor the event loop, nor the
    pool that scans other answers. A failing store is logged and counted; it
    never breaks an answer. Writes queue without a bound on count: each
    snapshot is small, and every answer given must keep its snapshot."""

    __slots__ = ("_executor", "_lexicons", "_lock", "_pending", "failed", "store", "written")

    def __init__(self, store: SnapshotStore) -> None:
        self.store = store
        self._lexicons: set[str] = set()  # hashes of the lexicons this hook has kept
        self.written = 0
        self.failed = 0
        self._lock = threading.Lock()
        # The executor's own futures, not the event loop's: a write belongs to the store's
        # thread, so it is settled from any loop, also after the loop that scheduled it has
        # closed (asyncio.run(answer) then asyncio.run(settle)).
        self._pending: set[Future[None]] = set()
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

    def schedule(
        self,
        build: Callable[[], Any],
        write: Callable[[Any], None] | None = None,
    ) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            self._write(build, write)
            return
        if self._executor is None:  # one thread: stores write one snapshot at a time
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="vouched-snapshots")
        future = self._executor.submit(self._write, build, write)
        with self._lock:
            self._pending.add(future)
        future.add_done_callback(self._done)

    def _done(self, future: Future[None]) -> None:
        with self._lock:  # called on the store's thread
            self._pending.discard(future)

    async def settle(self) -> None:
        """Wait for the writes scheduled so far, from any event loop (for sync callers
        and tests)."""
        with self._lock:
            pending = list(self._pending)
        if pending:
            await asyncio.gather(*map(asyncio.wrap_future, pending), return_exceptions=True)

    def _write(self, build: Callable[[], Any], write: Callable[[Any], None] | None) -> None:
        try:
            (write or self.store.write)(build())
        except Exception:  # noqa: BLE001 - a failing store must never break an answer
            with self._lock:
                self.failed += 1
            _log.warning("snapshot store failed; answer unaffected", exc_info=True)
        else:
            with self._lock:
                self.written += 1


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
    return kept or None
