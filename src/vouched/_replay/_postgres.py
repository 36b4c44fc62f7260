"""Snapshots in PostgreSQL (the optional ``postgres`` extra: psycopg 3).

:class:`PostgresSnapshotStore` keeps the same document per snapshot as
:class:`~vouched._replay._store.SqliteSnapshotStore`: its canonical JSON,
keyed by its content id, with ``created_us`` and ``prompt_version`` beside
it for ordering and counting. Redaction happens before a store sees a
snapshot (:meth:`vouched.Snapshot.build`), so sensitive values are the same
tokens here as there. One contract test suite runs against both stores.

- **writes**: ``write`` inserts one row; ``write_many`` sends a batch with
  ``COPY`` into a temporary table, then one ``INSERT ... ON CONFLICT DO
  NOTHING`` (the same id twice is one snapshot);
- **replay**: ``iter`` streams through a server-side cursor on a connection
  of its own, in ``created_at`` order (then id), ``since <= created_at <
  until``; memory stays flat whatever the population;
- **schema**: all tables live in one PostgreSQL schema (``schema=``, default
  ``vouched``) with a ``schema_version`` table and ordered migrations applied
  on open under an advisory lock (two workers opening a new database migrate
  it once). A database written by a newer vouched is refused, not guessed.

Thread-safe like the SQLite store: share one instance (writes are serialised).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from vouched._exceptions import MissingExtraError, StoreError
from vouched._replay._snapshot import Snapshot
from vouched._time import to_utc

__all__ = ["PG_SCHEMA_VERSION", "PostgresSnapshotStore", "safe_url"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_BATCH = 512  # rows fetched per round trip while streaming
_SCHEMA = "vouched"

# Each entry moves the schema from version i to i + 1; never edit a released step,
# append a new one. ``{s}`` is the quoted schema name.
_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE {s}.snapshots (
            id TEXT PRIMARY KEY,
            created_us BIGINT NOT NULL,
            body TEXT NOT NULL
        )""",
        'CREATE INDEX snapshots_created ON {s}.snapshots (created_us, id COLLATE "C")',
    ),
    (
        # v2: the prompt version as a column, as in SQLite's v2.
        "ALTER TABLE {s}.snapshots ADD COLUMN prompt_version TEXT",
        "UPDATE {s}.snapshots SET prompt_version = body::jsonb ->> 'prompt_version'",
        "CREATE INDEX snapshots_prompt ON {s}.snapshots (prompt_version, created_us)",
    ),
)
PG_SCHEMA_VERSION = len(_MIGRATIONS)


def _psycopg() -> Any:
    try:
        import psycopg  # noqa: PLC0415 - the optional extra, loaded on use
    except ImportError:
        raise MissingExtraError("postgres", "psycopg[binary]") from None
    return psycopg


def safe_url(url: str) -> str:
    """``url`` without its password (for messages and reprs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}:***@" if parts.username else "***@"
    return urlunsplit(parts._replace(netloc=user + host))


def _micros(instant: datetime) -> int:
    delta = to_utc(instant) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def _instant(micros: int) -> datetime:
    return _EPOCH + timedelta(microseconds=micros)


class PostgresSnapshotStore:
    """Snapshots in a PostgreSQL database (``postgresql://user@host:5432/db``).

    ``schema``: the PostgreSQL schema holding the tables (created when
    missing unless ``read_only``). ``connect_timeout``: seconds to wait for
    the server when connecting.
    """

    def __init__(
        self,
        url: str,
        *,
        schema: str = _SCHEMA,
        read_only: bool = False,
        connect_timeout: float = 5.0,
    ) -> None:
        psycopg = _psycopg()
        self._pg = psycopg
        self.url = url
        self.schema = schema
        self.read_only = read_only
        self._timeout = max(1, round(connect_timeout))
        self._lock = threading.Lock()
        self._s = psycopg.sql.Identifier(schema)
        self._connection = self._connect()
        try:
            version = self._version(self._connection)
            if version > PG_SCHEMA_VERSION:
                raise StoreError(
                    f"snapshot store schema {version} is newer than this vouched reads "
                    f"({PG_SCHEMA_VERSION}); upgrade vouched"
                )
            if read_only and version == 0:
                raise StoreError(f"{self}: not a snapshot store (no snapshots table)")
            if not read_only:
                self._migrate()
        except psycopg.Error as error:
            self._connection.close()
            raise StoreError(
                f"{self}: cannot open the snapshot store ({_first_line(error)})"
            ) from None
        except BaseException:
            self._connection.close()
            raise

    # -- connections and schema ---------------------------------------------------

    def _connect(self) -> Any:
        try:
            return self._pg.connect(self.url, connect_timeout=self._timeout)
        except self._pg.Error as error:
            raise StoreError(f"{self}: cannot connect ({_first_line(error)})") from None

    def _sql(self, text: str) -> Any:
        return self._pg.sql.SQL(text).format(s=self._s)

    def _version(self, connection: Any) -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT to_regclass(%s), to_regclass(%s)",
                (f'"{self.schema}".schema_version', f'"{self.schema}".snapshots'),
            )
            versions, snapshots = cursor.fetchone()
            if versions is None:
                connection.rollback()
                if snapshots is not None:
                    raise StoreError(f"{self}: not a vouched snapshot store (no schema_version)")
                return 0
            cursor.execute(self._sql("SELECT max(version) FROM {s}.schema_version"))
            (version,) = cursor.fetchone()
        connection.rollback()
        return int(version or 0)

    def _migrate(self) -> None:
        connection = self._connection
        with connection.transaction(), connection.cursor() as cursor:
            # One migrator at a time per schema; the others wait, then find it done.
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", (f"vouched:{self.schema}",)
            )
            cursor.execute(self._sql("CREATE SCHEMA IF NOT EXISTS {s}"))
            cursor.execute(
                self._sql(
                    "CREATE TABLE IF NOT EXISTS {s}.schema_version "
                    "(version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)"
                )
            )
            cursor.execute(self._sql("SELECT coalesce(max(version), 0) FROM {s}.schema_version"))
            (current,) = cursor.fetchone()
            for step in range(int(current), PG_SCHEMA_VERSION):
                for statement in _MIGRATIONS[step]:
                    cursor.execute(self._sql(statement))
                cursor.execute(
                    self._sql(
                        "INSERT INTO {s}.schema_version (version, applied_at) VALUES (%s, %s)"
                    ),
                    (step + 1, datetime.now(UTC)),
                )

    # -- writing --------------------------------------------------------------------

    def write(self, snapshot: Snapshot) -> None:
        row = (snapshot.id, _micros(snapshot.created_at), snapshot.prompt_version)
        with (
            self._lock,
            self._errors("store snapshots"),
            self._connection.transaction(),
            self._connection.cursor() as cursor,
        ):
            cursor.execute(
                self._sql(
                    "INSERT INTO {s}.snapshots (id, created_us, prompt_version, body) "
                    "VALUES (%s, %s, %s, %s) ON CONFLICT (id) DO NOTHING"
                ),
                (*row, snapshot.canonical_json()),
            )

    def write_many(self, snapshots: Iterable[Snapshot]) -> int:
        """Store snapshots in one transaction (``COPY``); returns how many were new."""
        with (
            self._lock,
            self._errors("store snapshots"),
            self._connection.transaction(),
            self._connection.cursor() as cursor,
        ):
            cursor.execute(
                "CREATE TEMPORARY TABLE IF NOT EXISTS vouched_incoming "
                "(id TEXT, created_us BIGINT, prompt_version TEXT, body TEXT) "
                "ON COMMIT DELETE ROWS"
            )
            with cursor.copy(
                "COPY vouched_incoming (id, created_us, prompt_version, body) FROM STDIN"
            ) as copy:
                for s in snapshots:
                    copy.write_row(
                        (s.id, _micros(s.created_at), s.prompt_version, s.canonical_json())
                    )
            cursor.execute(
                self._sql(
                    "INSERT INTO {s}.snapshots (id, created_us, prompt_version, body) "
                    "SELECT id, created_us, prompt_version, body FROM vouched_incoming "
                    "ON CONFLICT (id) DO NOTHING"
                )
            )
            return int(cursor.rowcount)

    # -- reading --------------------------------------------------------------------

    def _window(self, since: datetime | None, until: datetime | None) -> tuple[str, list[int]]:
        clauses: list[str] = []
        params: list[int] = []
        if since is not None:
            clauses.append("created_us >= %s")
            params.append(_micros(since))
        if until is not None:
            clauses.append("created_us < %s")
            params.append(_micros(until))
        return (f" WHERE {' AND '.join(clauses)}" if clauses else ""), params

    def iter_json(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[str]:
        """The stored canonical JSON texts, oldest first, through a server-side cursor."""
        where, params = self._window(since, until)
        query = self._sql(
            "SELECT body FROM {s}.snapshots" + where + ' ORDER BY created_us, id COLLATE "C"'  # noqa: S608 - fixed fragments, values bound
        )
        # Its own connection: a long replay never holds the writers' lock.
        connection = self._connect()
        try:
            with self._errors("read snapshots"), connection.cursor(name="vouched_replay") as cursor:
                cursor.itersize = _BATCH
                cursor.execute(query, params)
                for (body,) in cursor:
                    yield body
        finally:
            connection.close()

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        """Snapshots with ``since <= created_at < until``, oldest first, streamed."""
        policies: dict[str, Mapping[str, Any]] = {}  # one frozen policy per version
        for body in self.iter_json(since=since, until=until):
            yield Snapshot.from_canonical(body, policies=policies)

    def get(self, snapshot_id: str) -> Snapshot | None:
        with self._lock, self._errors("read a snapshot"), self._connection.cursor() as cursor:
            cursor.execute(
                self._sql("SELECT body FROM {s}.snapshots WHERE id = %s"), (snapshot_id,)
            )
            row = cursor.fetchone()
            self._connection.rollback()
        return None if row is None else Snapshot.from_canonical(row[0])

    def __len__(self) -> int:
        with self._lock, self._errors("count snapshots"), self._connection.cursor() as cursor:
            cursor.execute(self._sql("SELECT count(*) FROM {s}.snapshots"))
            (count,) = cursor.fetchone()
            self._connection.rollback()
        return int(count)

    @property
    def schema_version(self) -> int:
        with self._lock:
            return self._version(self._connection)

    def first_and_last(self) -> tuple[datetime, datetime] | None:
        """The oldest and newest ``created_at`` stored (None when empty)."""
        with self._lock, self._errors("read snapshots"), self._connection.cursor() as cursor:
            cursor.execute(self._sql("SELECT min(created_us), max(created_us) FROM {s}.snapshots"))
            low, high = cursor.fetchone()
            self._connection.rollback()
        return None if low is None else (_instant(int(low)), _instant(int(high)))

    # -- housekeeping ---------------------------------------------------------------

    def _errors(self, what: str) -> _Translate:
        return _Translate(self, what)

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __enter__(self) -> PostgresSnapshotStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __str__(self) -> str:
        return safe_url(self.url)

    def __repr__(self) -> str:
        return f"PostgresSnapshotStore({safe_url(self.url)!r}, schema={self.schema!r})"


class _Translate:
    """psycopg's errors as :class:`StoreError` naming the store and what failed."""

    def __init__(self, store: PostgresSnapshotStore, what: str) -> None:
        self._store = store
        self._what = what

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, _tb: object
    ) -> None:
        if error is not None and isinstance(error, self._store._pg.Error):
            raise StoreError(
                f"{self._store}: cannot {self._what} ({_first_line(error)})"
            ) from error


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
