"""Snapshots a store could not take yet, kept in a local file: :class:`SpillFile`.

One snapshot a line (its canonical JSON, already redacted), appended and
flushed to disk before the call returns. :meth:`SpillFile.replay` moves the
file aside (``PATH.replaying``) and writes what it holds into the store in
batches; the file is removed only once every line is in, so a replay that
fails part-way is tried again from the start (stores write idempotently by
snapshot id: a snapshot written twice is stored once). A line cut short by a
crash mid-append is skipped with a log line naming the file and line.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from vouched._replay._snapshot import Snapshot

__all__ = ["SpillFile"]

logger = logging.getLogger("vouched.snapshots")


class SpillFile:
    """Snapshots waiting in ``path`` for their store (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.replaying = self.path.with_name(self.path.name + ".replaying")
        self._lock = threading.Lock()

    def add(self, snapshots: Sequence[Snapshot]) -> None:
        """Append ``snapshots`` (on disk when this returns; raises ``OSError``)."""
        if not snapshots:
            return
        text = "".join(s.canonical_json() + "\n" for s in snapshots)
        with self._lock, open(self.path, "a", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())

    def waiting(self) -> bool:
        """Whether some snapshot waits here for its store."""
        return self.path.exists() or self.replaying.exists()

    def count(self) -> int:
        """Snapshots waiting here (lines in the file and the one being replayed)."""
        total = 0
        for path in (self.replaying, self.path):
            try:
                with open(path, "rb") as lines:
                    total += sum(1 for line in lines if line.strip())
            except FileNotFoundError:
                continue
        return total

    def replay(self, write: Callable[[list[Snapshot]], object], batch: int = 256) -> int:
        """Write every waiting snapshot with ``write`` (one call per ``batch``) and
        remove the file; returns how many were written. Raises what ``write``
        raises, and then the rest waits for the next replay."""
        with self._lock:
            if not self.replaying.exists():
                if not self.path.exists():
                    return 0
                os.replace(self.path, self.replaying)
        done = 0
        chunk: list[Snapshot] = []
        with open(self.replaying, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    chunk.append(Snapshot.from_canonical(line.rstrip("\n")))
                except (ValueError, KeyError, TypeError) as error:
                    logger.error(
                        "%s line %d: not a snapshot, skipped (%s)",
                        self.replaying,
                        number,
                        type(error).__name__,
                    )
                    continue
                if len(chunk) >= batch:
                    write(chunk)
                    done += len(chunk)
                    chunk = []
        if chunk:
            write(chunk)
            done += len(chunk)
        self.replaying.unlink()
        return done

    def __repr__(self) -> str:
        return f"SpillFile({str(self.path)!r})"
