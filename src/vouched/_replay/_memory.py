"""Snapshots in memory: the in-memory twin of the SQLite store (re-exported by
:mod:`vouched.testing`), and a JSON Lines export read into it with its
reviewers' verdicts in a sidecar file (:func:`open_jsonl`)."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from vouched._exceptions import InputError
from vouched._replay._jsonl import import_jsonl
from vouched._replay._lexicons import LexiconRecord
from vouched._replay._snapshot import Snapshot
from vouched._replay._verdicts import ReviewVerdict, SidecarVerdicts, sidecar_path
from vouched._time import to_utc

__all__ = ["JsonlExport", "MemorySnapshotStore", "open_jsonl"]


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
        self._lexicons: dict[str, LexiconRecord] = {}
        self._verdicts: list[ReviewVerdict] = []
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

    # -- lexicons and reviewers' verdicts, as the real stores keep them ------------

    def write_lexicon(self, record: LexiconRecord) -> None:
        with self._lock:
            self._lexicons.setdefault(record.hash, record)

    def lexicons(self) -> Iterator[LexiconRecord]:
        with self._lock:
            return iter(list(self._lexicons.values()))

    def write_verdict(self, verdict: ReviewVerdict) -> None:
        with self._lock:
            self._verdicts.append(verdict)

    def review_verdicts(self, snapshot_id: str | None = None) -> Iterator[ReviewVerdict]:
        with self._lock:
            kept = list(self._verdicts)
        return iter(v for v in kept if snapshot_id is None or v.snapshot_id == snapshot_id)

    def close(self) -> None:
        """Nothing to release (the snapshots stay readable)."""

    def __enter__(self) -> MemorySnapshotStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MemorySnapshotStore({len(self)} snapshots)"


class JsonlExport(MemorySnapshotStore):
    """A JSON Lines export read into memory; reviewers' verdicts go to its
    sidecar file (``NAME.verdicts.jsonl``, :func:`vouched._replay._verdicts.sidecar_path`)."""

    def __init__(self, path: str | Path, *, skipped: list[InputError] | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        # every line checked: errors name the file and line (collected in ``skipped``
        # when given, the rest read)
        import_jsonl(self, self.path, skip=None if skipped is None else skipped.append)
        self._sidecar = SidecarVerdicts(sidecar_path(self.path))

    def write_verdict(self, verdict: ReviewVerdict) -> None:
        self._sidecar.write_verdict(verdict)

    def review_verdicts(self, snapshot_id: str | None = None) -> Iterator[ReviewVerdict]:
        return self._sidecar.review_verdicts(snapshot_id)

    def __repr__(self) -> str:
        return f"JsonlExport({str(self.path)!r})"


def open_jsonl(path: str | Path, *, skipped: list[InputError] | None = None) -> JsonlExport:
    """A JSON Lines export as a store (in memory; verdicts in its sidecar file).
    With ``skipped``, lines that are not snapshots are collected there, the rest read."""
    return JsonlExport(path, skipped=skipped)
