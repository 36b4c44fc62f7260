"""In-memory twins of the stores: snapshots and shared breakers, in a dict.

Each follows the contract of its real store (the same contract tests run
against both), so a test that passes with the twin passes with the store.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any

from vouched._exceptions import ConfigError
from vouched._replay._snapshot import Snapshot
from vouched._sources._breaker import Breaker, BreakerListener, BreakerSettings
from vouched._time import Clock, to_utc

__all__ = ["MemoryBreakerStore", "MemorySnapshotStore"]


class MemorySnapshotStore:
    """The in-memory twin of :class:`vouched.SqliteSnapshotStore`.

    A :class:`vouched.SnapshotStore` that keeps each snapshot's canonical JSON
    (what a real store writes, sensitive values already redacted) keyed by its
    content id, so writing the same snapshot twice keeps it once, and reads it
    back as the SQLite store does: oldest first, ties in id order,
    ``since <= created_at < until``. Safe to share between threads. Pass it
    as ``Grounder(..., store=...)`` and read what an answer left behind:

    >>> from vouched import Grounder
    >>> from vouched.testing import FakeClock, MemorySnapshotStore, ScriptedPhraser
    >>> store = MemorySnapshotStore()
    >>> grounder = Grounder([], phraser=ScriptedPhraser(["Nothing to say."]),
    ...                     clock=FakeClock("2026-11-29T12:00:00Z"), store=store)
    >>> grounder.answer_sync("How warm is it?").status
    <AnswerStatus.OK: 'ok'>
    >>> [(s.question, s.status) for s in store.iter()]
    [('How warm is it?', 'ok')]
    """

    def __init__(self, snapshots: Iterable[Snapshot] = ()) -> None:
        self._rows: dict[str, tuple[datetime, str]] = {}  # id -> (created_at, canonical JSON)
        self._lock = threading.Lock()
        self.write_many(snapshots)

    def write(self, snapshot: Snapshot) -> None:
        """Store one snapshot (the same id twice is one snapshot)."""
        self.write_many((snapshot,))

    def write_many(self, snapshots: Iterable[Snapshot]) -> int:
        """Store snapshots; returns how many were new."""
        rows = [(s.id, to_utc(s.created_at), s.canonical_json()) for s in snapshots]
        with self._lock:
            before = len(self._rows)
            for snapshot_id, created_at, body in rows:
                self._rows.setdefault(snapshot_id, (created_at, body))
            return len(self._rows) - before

    def _bodies(self, since: datetime | None, until: datetime | None) -> list[str]:
        low = None if since is None else to_utc(since)
        high = None if until is None else to_utc(until)
        with self._lock:
            rows = sorted((at, row_id, body) for row_id, (at, body) in self._rows.items())
        return [
            body
            for at, _, body in rows
            if (low is None or at >= low) and (high is None or at < high)
        ]

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        """Snapshots with ``since <= created_at < until``, oldest first."""
        policies: dict[str, Mapping[str, Any]] = {}
        for body in self._bodies(since, until):
            yield Snapshot.from_canonical(body, policies=policies)

    def iter_json(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[str]:
        """The stored canonical JSON texts, oldest first."""
        yield from self._bodies(since, until)

    def get(self, snapshot_id: str) -> Snapshot | None:
        with self._lock:
            row = self._rows.get(snapshot_id)
        return None if row is None else Snapshot.from_canonical(row[1])

    def __len__(self) -> int:
        with self._lock:
            return len(self._rows)

    def close(self) -> None:
        """Nothing to release (the snapshots stay readable)."""

    def __enter__(self) -> MemorySnapshotStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MemorySnapshotStore({len(self)} snapshots)"


class MemoryBreakerStore:
    """The in-memory twin of :class:`vouched.RedisBreakerStore`: breakers shared
    by every :class:`vouched.GuardedSource` given this store, in this process.

    Sources of the same name share one state and one half-open probe, as the
    workers of a fleet do through Redis: failures seen by one add up, a circuit
    one opens rejects in all, and after the reset timeout exactly one of them
    probes. The first source of a name sets its settings and clock (give the
    "workers" one clock, as a fleet shares wall time); a later one with other
    settings is a :class:`vouched.ConfigError`. Every source's listeners hear
    every event of the shared breaker. Use it from one event loop.

    >>> from vouched import BreakerSettings, GuardedSource, SourceError, fetch_sync
    >>> from vouched.testing import FakeClock, MemoryBreakerStore, ScriptedSource
    >>> store, clock = MemoryBreakerStore(), FakeClock("2026-11-29T12:00:00Z")
    >>> def worker(script: ScriptedSource) -> GuardedSource:
    ...     return GuardedSource(script, clock=clock, breaker=BreakerSettings(fail_max=2),
    ...                          breaker_store=store)
    >>> down = ScriptedSource("weather", [SourceError("HTTP 500")])
    >>> up = ScriptedSource("weather", [[]])
    >>> first, second = worker(down), worker(up)
    >>> for _ in range(2):
    ...     _ = fetch_sync(first, {"subject": "Berlin"})
    >>> second.state, up.calls
    (<BreakerState.OPEN: 'open'>, 0)
    """

    def __init__(self) -> None:
        self._breakers: dict[str, Breaker] = {}

    def breaker(
        self,
        name: str,
        settings: BreakerSettings,
        clock: Clock,
        listeners: Iterable[BreakerListener] = (),
    ) -> Breaker:
        shared = self._breakers.get(name)
        if shared is None:
            shared = self._breakers[name] = Breaker(name, settings, clock, listeners)
            return shared
        if shared.settings != settings:
            raise ConfigError(
                f"MemoryBreakerStore: breaker {name!r}",
                f"given the settings it was made with ({shared.settings})",
                got=settings,
            )
        for listener in listeners:
            shared.add_listener(listener)
        return shared

    def __repr__(self) -> str:
        return f"MemoryBreakerStore({sorted(self._breakers)})"
