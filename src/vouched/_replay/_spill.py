"""Snapshots a store could not take yet, kept in a local file: :class:`SpillFile`.

One snapshot a line (its canonical JSON, already redacted). :meth:`SpillFile.add`
appends a batch with one write and one ``fsync``, starting on a fresh line
when the file ends in a torn one (a kill or a full disk mid-append), so a
torn line never glues onto the next snapshot.

:meth:`SpillFile.replay` moves the file aside (``PATH.replaying``) and writes
what it holds into the store in batches, streaming (one batch in memory). It
reads **bytes**, line by line: a line that is not UTF-8, not JSON, nested too
deep, longer than ``MAX_LINE`` or not a snapshot is moved to
``PATH.quarantine`` and named in one error log line with the count; the rest
is replayed. Nothing it reads can stop a replay. The file is removed only once
every line is in; a replay that fails part-way goes on later from the last
batch written (``PATH.replaying.offset``; stores write idempotently by snapshot
id, so a batch written twice is stored once).

Several processes may share one path (every ``vouched serve`` started from
one config does): appends and the move aside hold an exclusive ``flock`` on
``PATH.lock``, and a replay holds ``PATH.replay.lock`` for its whole length (a
process that finds it taken leaves the file to the one replaying), so no
append lands in a file being removed and no line is written half.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from vouched._replay._snapshot import Snapshot

__all__ = ["MAX_LINE", "SpillFile"]

logger = logging.getLogger("vouched.snapshots")

MAX_LINE = 64 * 1024 * 1024
"""Bytes of one spilled line at most (a snapshot is far smaller): a longer
line is quarantined in pieces, never read whole into memory."""

_CHUNK = 1024 * 1024  # bytes copied at a time when a line is too long to hold


class SpillFile:
    """Snapshots waiting in ``path`` for their store (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.replaying = self._beside("replaying")
        self.quarantine = self._beside("quarantine")
        self._offset = self._beside("replaying.offset")  # bytes of .replaying already written
        self._append_lock = self._beside("lock")
        self._replay_lock = self._beside("replay.lock")
        self._lock = threading.Lock()  # flock excludes other processes; this, our threads
        self._replay_thread_lock = threading.Lock()

    def _beside(self, suffix: str) -> Path:
        return self.path.with_name(f"{self.path.name}.{suffix}")

    def probe(self) -> None:
        """Raise ``OSError`` unless the folder takes a new file and the spill file
        (when it exists) takes appends: checked at start, not at the first outage."""
        probe = self._beside(f"probe-{os.getpid()}")
        try:
            with open(probe, "wb") as out:
                out.write(b"probe\n")
                out.flush()
                os.fsync(out.fileno())
        finally:
            probe.unlink(missing_ok=True)
        for path in (self.path, self._append_lock):
            if path.exists():
                with open(path, "ab"):
                    pass

    @contextmanager
    def _flocked(self, path: Path, *, wait: bool = True) -> Iterator[bool]:
        """Hold an exclusive flock on ``path`` (yields False when ``wait`` is off
        and another process holds it)."""
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            yield True
        finally:
            os.close(fd)  # closing the descriptor lets go of the lock

    def add(self, snapshots: Sequence[Snapshot]) -> None:
        """Append ``snapshots``: one write, one ``fsync``, on disk when this
        returns (raises ``OSError``)."""
        if not snapshots:
            return
        data = "".join(s.canonical_json() + "\n" for s in snapshots).encode("utf-8")
        with self._lock, self._flocked(self._append_lock):
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                size = os.fstat(fd).st_size
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    data = b"\n" + data  # the last line is torn: never glue onto it
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)

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

    def replay(
        self,
        write: Callable[[list[Snapshot]], object],
        batch: int = 256,
        *,
        between: Callable[[], object] | None = None,
    ) -> int:
        """Write every waiting snapshot with ``write`` (one call per ``batch``),
        quarantine the lines that are not snapshots, and remove the file; returns
        how many were written. Raises what ``write`` raises, and then the rest
        waits for the next replay. ``between`` is called after each batch (the
        caller's other work). Returns 0 at once while another process replays."""
        with self._replay_thread_lock, self._flocked(self._replay_lock, wait=False) as mine:
            if not mine:
                return 0
            with self._lock, self._flocked(self._append_lock):
                if not self.replaying.exists():
                    if not self.path.exists():
                        return 0
                    self._offset.unlink(missing_ok=True)
                    os.replace(self.path, self.replaying)
            done = 0
            chunk: list[Snapshot] = []
            quarantined = 0
            with open(self.replaying, "rb") as lines, _Quarantine(self.quarantine) as bad:
                lines.seek(self._written_before())  # a replay cut short goes on where it was
                for snapshot in _snapshots(lines, bad):
                    if snapshot is None:
                        quarantined += 1
                        continue
                    chunk.append(snapshot)
                    if len(chunk) >= batch:
                        write(chunk)
                        done += len(chunk)
                        chunk = []
                        self._offset.write_text(str(lines.tell()), encoding="ascii")
                        if between is not None:
                            between()
                if chunk:
                    write(chunk)
                    done += len(chunk)
            if quarantined:
                logger.error(
                    "%s: %d lines are not snapshots (torn, not UTF-8 or not JSON); "
                    "moved to %s, the rest replayed",
                    self.replaying,
                    quarantined,
                    self.quarantine,
                )
            self.replaying.unlink()
            self._offset.unlink(missing_ok=True)
            return done

    def _written_before(self) -> int:
        """Bytes of ``.replaying`` an earlier replay wrote (0 when unknown: a
        snapshot written twice is stored once)."""
        try:
            text = self._offset.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return 0
        if not (text.isascii() and text.isdigit() and len(text) < 20):
            return 0
        return min(int(text), self.replaying.stat().st_size)

    def __repr__(self) -> str:
        return f"SpillFile({str(self.path)!r})"


class _Quarantine:
    """The lines a replay could not read, appended to a file opened when the
    first one comes (and synced once at the end)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._out: IO[bytes] | None = None

    def write(self, data: bytes) -> None:
        if self._out is None:
            self._out = open(self.path, "ab")  # noqa: SIM115 - closed in __exit__
        self._out.write(data)

    def __enter__(self) -> _Quarantine:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._out is not None:
            self._out.flush()
            os.fsync(self._out.fileno())
            self._out.close()


def _snapshots(lines: IO[bytes], bad: _Quarantine) -> Iterator[Snapshot | None]:
    """Each line's snapshot, or None for a line moved to ``bad``."""
    while True:
        line = lines.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            bad.write(line)  # too long to hold: copied on in pieces
            while line and not line.endswith(b"\n"):
                line = lines.readline(_CHUNK)
                bad.write(line)
            yield None
            continue
        if not line.strip():
            continue
        try:
            snapshot = Snapshot.from_canonical(line.decode("utf-8").rstrip("\n"))
        except Exception:  # noqa: BLE001 - torn, not UTF-8, too deep, not a snapshot: all quarantined
            bad.write(line if line.endswith(b"\n") else line + b"\n")
            yield None
            continue
        yield snapshot
