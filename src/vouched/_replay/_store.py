"""Where snapshots live: the :class:`SnapshotStore` protocol, SQLite, JSON Lines.

:class:`SqliteSnapshotStore` is the embedded default: one real file in WAL
mode (readers never block the writer), safe to share between threads (writes
are serialised by a lock and each call commits; every iteration reads on its
own connection), with a ``schema_version`` table and an ordered list of
migrations applied on open. Rows hold each snapshot's canonical JSON exactly
as :meth:`Snapshot.canonical_json` wrote it, keyed by its content id, so
writing the same snapshot twice stores it once.

Writing a snapshot must never break an answer: :func:`safe_write` logs a
failing store (logger ``vouched.snapshots``) and returns ``False`` for the
caller to count; :class:`~vouched._replay._queued.QueuedSnapshotStore` also
takes the disk off the answer path.
"""

from __future__ import annotations

import itertools
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from vouched._exceptions import InputError, StoreError, shown
from vouched._replay._lexicons import LexiconRecord
from vouched._replay._snapshot import Snapshot
from vouched._replay._verdicts import COLUMNS as _VERDICT_COLUMNS
from vouched._replay._verdicts import (
    VERDICTS_INDEX,
    VERDICTS_TABLE,
    ReviewVerdict,
    verdict_of_row,
    verdict_row,
)
from vouched._time import to_utc

__all__ = [
    "SCHEMA_VERSION",
    "BatchStore",
    "HandOffStore",
    "ReadableStore",
    "SnapshotStore",
    "SplitStore",
    "SqliteSnapshotStore",
    "safe_write",
    "write_batch",
]

logger = logging.getLogger("vouched.snapshots")

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_BATCH = 512  # rows fetched per round trip while streaming


@runtime_checkable
class SnapshotStore(Protocol):
    """Anything that keeps snapshots and streams them back in time order."""

    def write(self, snapshot: Snapshot) -> None:
        """Store one snapshot (idempotent: the same id twice is one snapshot)."""
        ...

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        """Snapshots with ``since <= created_at < until``, oldest first."""
        ...


@runtime_checkable
class BatchStore(SnapshotStore, Protocol):
    """A store that writes many snapshots in one transaction (SQLite, PostgreSQL):
    callers with a batch check for this Protocol, never for the method by name."""

    def write_many(self, snapshots: Iterable[Snapshot]) -> int:
        """Store ``snapshots`` in one transaction; returns how many were new."""
        ...


@runtime_checkable
class ReadableStore(Protocol):
    """A store that can be read as stored text, by id and counted (SQLite,
    PostgreSQL, the in-memory twin): what the review pages read."""

    def iter_json(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[str]:
        """The stored canonical JSON texts, oldest first."""
        ...

    def get(self, snapshot_id: str) -> Snapshot | None:
        """One snapshot by its id (None when the store holds none)."""
        ...

    def __len__(self) -> int: ...


@runtime_checkable
class SplitStore(SnapshotStore, Protocol):
    """A store that can cut its order into ranges for workers (``replay`` with
    ``workers`` or ``engine="ray"``)."""

    def split(
        self, parts: int, *, since: datetime | None = None, until: datetime | None = None
    ) -> list[tuple[datetime | None, datetime | None]]:
        """Up to ``parts`` contiguous ``[since, until)`` ranges of about equal size."""
        ...


@runtime_checkable
class HandOffStore(SnapshotStore, Protocol):
    """A store that takes a snapshot not built yet and never waits on the disk
    (:class:`~vouched._replay._queued.QueuedSnapshotStore`): the Grounder hands
    each answer's snapshot straight to it, one hand-off, no thread of its own."""

    def hand_off(self, build: Callable[[], Snapshot]) -> None:
        """Queue the snapshot ``build()`` makes (built later, off the answer path)."""
        ...


def write_batch(store: SnapshotStore, snapshots: Sequence[Snapshot]) -> None:
    """``snapshots`` in one transaction when the store is a :class:`BatchStore`,
    else one ``write`` each (raises what the store raises)."""
    if isinstance(store, BatchStore):
        store.write_many(snapshots)
        return
    for snapshot in snapshots:
        store.write(snapshot)


def safe_write(store: SnapshotStore, snapshot: Snapshot) -> bool:
    """Write ``snapshot``; a failing store is logged, never raised. True when stored.

    This is what the answer path calls: a broken disk costs a log line and a
    counter, never an answer.
    """
    try:
        store.write(snapshot)
    except Exception:  # by contract no store failure reaches the answer (logged with its traceback)
        logger.exception("snapshot %s not stored", snapshot.id)
        return False
    return True


def _micros(instant: datetime) -> int:
    delta = to_utc(instant) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def _instant(micros: int) -> datetime:
    return _EPOCH + timedelta(microseconds=micros)


def _window(since: datetime | None, until: datetime | None) -> tuple[list[str], list[int]]:
    clauses: list[str] = []
    params: list[int] = []
    if since is not None:
        clauses.append("created_us >= ?")
        params.append(_micros(since))
    if until is not None:
        clauses.append("created_us < ?")
        params.append(_micros(until))
    return clauses, params


# -- schema -----------------------------------------------------------------------

# Each entry moves the schema from version i to i + 1; never edit a released step,
# append a new one. A database written by a newer vouched is refused, not guessed.
_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE snapshots (
            id TEXT PRIMARY KEY,
            created_us INTEGER NOT NULL,
            body TEXT NOT NULL
        )""",
        "CREATE INDEX snapshots_created ON snapshots (created_us, id)",
    ),
    (
        # v2: the prompt version as a column, so a team can count per version in SQL.
        "ALTER TABLE snapshots ADD COLUMN prompt_version TEXT",
        "UPDATE snapshots SET prompt_version = json_extract(body, '$.prompt_version')",
        "CREATE INDEX snapshots_prompt ON snapshots (prompt_version, created_us)",
    ),
    (
        # v3: each lexicon snapshots were checked with, once (format 4 names it by hash).
        "CREATE TABLE lexicons (hash TEXT PRIMARY KEY, name TEXT, body TEXT NOT NULL)",
    ),
    (
        # v4: reviewers' verdicts on findings, beside the snapshots (never changing them).
        VERDICTS_TABLE.format(s="", serial="INTEGER PRIMARY KEY AUTOINCREMENT"),
        VERDICTS_INDEX.format(s=""),
    ),
)
SCHEMA_VERSION = len(_MIGRATIONS)


def _schema_version(connection: sqlite3.Connection) -> int:
    # One statement, one snapshot of the catalogue: read in two, another process
    # migrating a new file in between made it look like a foreign database.
    versioned, tables = connection.execute(
        "SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table'"
        " AND name = 'schema_version'), (SELECT count(*) FROM sqlite_master WHERE type = 'table')"
    ).fetchone()
    if not versioned:
        if tables:
            raise StoreError("not a vouched snapshot store (it has other tables)")
        return 0
    version = connection.execute("SELECT max(version) FROM schema_version").fetchone()[0]
    return int(version or 0)


def _wal(connection: sqlite3.Connection, timeout: float) -> None:
    """Switch a file to WAL mode. The switch does not wait for a busy file the way
    statements do, so several processes opening a new store at once retry it
    (for up to ``timeout`` seconds) instead of failing with "database is locked"."""
    give_up = time.monotonic() + timeout
    while True:
        try:
            connection.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() >= give_up:
                raise
            time.sleep(0.01)
        else:
            return


@contextmanager
def _transaction(connection: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT (rolled back on error): DDL included, writers queue."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def migrate(connection: sqlite3.Connection, *, target: int = SCHEMA_VERSION) -> int:
    """Bring the schema up to ``target`` (default: the newest); returns the version.

    Each step runs in its own immediate transaction and re-reads the version
    inside it, so two processes opening a new file at once migrate it once.
    """
    current = _schema_version(connection)
    if current > SCHEMA_VERSION:
        raise StoreError(
            f"snapshot store schema {current} is newer than this vouched reads "
            f"({SCHEMA_VERSION}); upgrade vouched"
        )
    while current < target:
        with _transaction(connection):
            current = _schema_version(connection)
            if current >= target:
                break
            connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_version "
                "(version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            for statement in _MIGRATIONS[current]:
                connection.execute(statement)
            connection.execute(
                "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                (current + 1, datetime.now(UTC).isoformat()),
            )
            current += 1
    return current


# -- SQLite -------------------------------------------------------------------------


_SIDE_FILES = ("-wal", "-shm", "-journal")


class SqliteSnapshotStore:
    """Snapshots in one SQLite file (created when missing unless ``read_only``).

    Thread-safe: share one instance. ``write_many`` stores a batch in one
    transaction (what a bulk import or a benchmark wants); ``write`` commits
    each snapshot on its own (what an answer path wants).
    """

    def __init__(self, path: str | Path, *, read_only: bool = False, timeout: float = 5.0) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._timeout = timeout
        self._lock = threading.Lock()
        if read_only and self.path.is_dir():
            raise InputError("is a directory, not a snapshot store", file=str(self.path))
        if read_only and not self.path.exists():
            raise InputError("no such snapshot store", file=str(self.path))
        if self.path.exists() and not self.path.is_file():  # /dev/zero, a FIFO, a folder
            raise InputError("is not a regular file, not a snapshot store", file=str(self.path))
        fresh = not read_only and not self.path.exists()
        try:
            self._open(fresh=fresh)
        except BaseException:
            if fresh:  # a store that could not be made leaves no file behind (a full disk)
                for made in (self.path, *(Path(f"{self.path}{e}") for e in _SIDE_FILES)):
                    made.unlink(missing_ok=True)
            raise

    def _open(self, *, fresh: bool) -> None:
        self._connection = self._connect()
        try:
            if self.read_only:
                # Reading needs only what schema 1 has (id, created_us, body): an
                # older store is read as it is; migrating is for writers.
                version = _schema_version(self._connection)
                if version == 0:
                    raise StoreError(f"{self.path}: not a snapshot store (no snapshots table)")
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        f"snapshot store schema {version} is newer than this vouched reads "
                        f"({SCHEMA_VERSION}); upgrade vouched"
                    )
            else:
                _wal(self._connection, self._timeout)
                self._connection.execute("PRAGMA synchronous = NORMAL")
                migrate(self._connection)
        except sqlite3.DatabaseError as error:
            self._connection.close()
            what = "cannot create the snapshot store" if fresh else "not a snapshot store"
            raise StoreError(f"{self.path}: {what} ({error})") from None
        except BaseException:
            self._connection.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        if self.read_only:
            uri = f"{self.path.resolve().as_uri()}?mode=ro"
            connection = sqlite3.connect(
                uri,
                uri=True,
                timeout=self._timeout,
                check_same_thread=False,
                isolation_level=None,
            )
        else:
            connection = sqlite3.connect(
                self.path, timeout=self._timeout, check_same_thread=False, isolation_level=None
            )
        connection.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
        return connection

    # -- writing ------------------------------------------------------------

    def write(self, snapshot: Snapshot) -> None:
        self.write_many((snapshot,))

    def write_many(self, snapshots: Iterable[Snapshot]) -> int:
        """Store snapshots in one transaction; returns how many were new."""
        rows = [
            (s.id, _micros(s.created_at), s.prompt_version, s.canonical_json()) for s in snapshots
        ]
        with self._lock:
            try:
                with _transaction(self._connection):
                    before = self._connection.total_changes
                    self._connection.executemany(
                        "INSERT OR IGNORE INTO snapshots (id, created_us, prompt_version, body) "
                        "VALUES (?, ?, ?, ?)",
                        rows,
                    )
                    return self._connection.total_changes - before
            except sqlite3.Error as error:
                raise StoreError(f"{self.path}: cannot store snapshots ({error})") from error

    def write_lexicon(self, record: LexiconRecord) -> None:
        """Keep a lexicon snapshots name by hash (once, whatever the snapshots)."""
        self._execute(
            "store a lexicon",
            "INSERT OR IGNORE INTO lexicons (hash, name, body) VALUES (?, ?, ?)",
            (record.hash, record.name, record.content),
        )

    def write_verdict(self, verdict: ReviewVerdict) -> None:
        """Append a reviewer's verdict (the snapshot is never changed)."""
        self._execute(
            "store a verdict",
            f"INSERT INTO review_verdicts ({_VERDICT_COLUMNS}) VALUES ({', '.join('?' * 14)})",  # noqa: S608 - fixed fragments
            verdict_row(verdict),
        )

    def _execute(self, what: str, sql: str, params: Sequence[Any]) -> None:
        with self._lock:
            try:
                with _transaction(self._connection):
                    self._connection.execute(sql, params)
            except sqlite3.Error as error:
                raise StoreError(f"{self.path}: cannot {what} ({error})") from error

    def _has_table(self, name: str) -> bool:
        """Whether the file has ``name`` (a store opened read-only may be older)."""
        with self._lock:
            row = self._connection.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
            ).fetchone()
        return bool(row[0])

    def lexicons(self) -> Iterator[LexiconRecord]:
        """Every lexicon kept (none in a store older than schema 3)."""
        if not self._has_table("lexicons"):
            return
        with self._lock:
            rows = self._connection.execute("SELECT hash, name, body FROM lexicons").fetchall()
        for version, name, body in rows:
            yield LexiconRecord(version, name, body)

    def review_verdicts(self, snapshot_id: str | None = None) -> Iterator[ReviewVerdict]:
        """Every verdict given (on one snapshot when ``snapshot_id``), oldest first."""
        if not self._has_table("review_verdicts"):
            return
        sql = f"SELECT {_VERDICT_COLUMNS} FROM review_verdicts"  # noqa: S608 - fixed fragments
        params: tuple[str, ...] = ()
        if snapshot_id is not None:
            sql += " WHERE snapshot_id = ?"
            params = (snapshot_id,)
        with closing(self._connect()) as connection:
            cursor = connection.execute(sql + " ORDER BY seq", params)
            while batch := cursor.fetchmany(_BATCH):
                for row in batch:
                    yield verdict_of_row(row)

    # -- reading ------------------------------------------------------------

    def _rows(
        self, since: datetime | None, until: datetime | None, columns: str
    ) -> Iterator[tuple[str, ...]]:
        clauses, params = _window(since, until)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        sql = f"SELECT {columns} FROM snapshots{where} ORDER BY created_us, id"  # noqa: S608 - fixed fragments, values bound
        # Its own connection: a long replay never holds the writers' lock, and WAL
        # lets it read a consistent view while answers keep being written.
        with closing(self._connect()) as connection:
            cursor = connection.execute(sql, params)
            while batch := cursor.fetchmany(_BATCH):
                yield from batch

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        """Snapshots with ``since <= created_at < until``, oldest first, streamed."""
        policies: dict[str, Mapping[str, Any]] = {}  # one frozen policy per version
        for row_id, body in self._rows(since, until, "id, body"):
            yield self._decoded(row_id, body, policies)

    def iter_json(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[str]:
        """The stored canonical JSON texts, oldest first (no parsing)."""
        for (body,) in self._rows(since, until, "body"):
            yield body

    def split(
        self, parts: int, *, since: datetime | None = None, until: datetime | None = None
    ) -> list[tuple[datetime | None, datetime | None]]:
        """The window cut into at most ``parts`` consecutive windows of about
        equal row counts (for grading in several processes)."""
        clauses, params = _window(since, until)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        with self._lock:
            count = self._connection.execute(
                f"SELECT count(*) FROM snapshots{where}",  # noqa: S608 - fixed fragments
                params,
            ).fetchone()[0]
            cuts: list[int] = []
            for k in range(1, max(1, min(parts, count))):
                row = self._connection.execute(
                    f"SELECT created_us FROM snapshots{where} "  # noqa: S608 - fixed fragments
                    "ORDER BY created_us LIMIT 1 OFFSET ?",
                    [*params, count * k // parts],
                ).fetchone()
                if row is not None and (not cuts or row[0] > cuts[-1]):
                    cuts.append(int(row[0]))
        edges: list[datetime | None] = [since, *(_instant(us) for us in cuts), until]
        return list(itertools.pairwise(edges))

    def get(self, snapshot_id: str) -> Snapshot | None:
        with self._lock:
            row = self._connection.execute(
                "SELECT body FROM snapshots WHERE id = ?", (snapshot_id,)
            ).fetchone()
        return None if row is None else self._decoded(snapshot_id, row[0], None)

    def _decoded(
        self, row_id: str, body: str, policies: dict[str, Mapping[str, Any]] | None
    ) -> Snapshot:
        """A stored row as a snapshot, or a StoreError naming the store and the row:
        a corrupt row (edited by hand, a bad disk) is one line, not a traceback."""
        try:
            return Snapshot.from_canonical(body, policies=policies)
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError) as error:
            detail = " ".join(str(error).split())
            detail = detail if len(detail) <= 80 else detail[:60] + "…"
            raise StoreError(
                f"{self.path}: row {shown(row_id, 40)}: corrupt snapshot "
                f"({type(error).__name__}: {detail})"
            ) from None

    def __len__(self) -> int:
        with self._lock:
            return int(self._connection.execute("SELECT count(*) FROM snapshots").fetchone()[0])

    @property
    def schema_version(self) -> int:
        with self._lock:
            return _schema_version(self._connection)

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __enter__(self) -> SqliteSnapshotStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"SqliteSnapshotStore({str(self.path)!r})"
