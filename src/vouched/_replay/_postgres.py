"""Snapshots in PostgreSQL (the optional ``postgres`` extra: psycopg 3 and psycopg_pool).

:class:`PostgresSnapshotStore` keeps the same document per snapshot as
:class:`~vouched._replay._store.SqliteSnapshotStore`: its canonical JSON,
keyed by its content id, with ``created_us`` and ``prompt_version`` beside
it for ordering and counting. Redaction happens before a store sees a
snapshot (:meth:`vouched.Snapshot.build`), so sensitive values are the same
tokens here as there. One contract test suite runs against both stores.

- **connections**: a ``psycopg_pool`` pool, each connection checked before
  use (a connection the server dropped is replaced, not handed out), so the
  store outlives a restart of its server;
- **writes**: ``write`` inserts one row; ``write_many`` sends a batch with
  ``COPY`` into a temporary table, then one ``INSERT ... ON CONFLICT DO
  NOTHING``. Writes are idempotent by snapshot id, so a write whose
  connection broke is retried (for up to ``retry_for`` seconds) without ever
  storing a snapshot twice;
- **replay**: ``iter`` streams through a server-side cursor on a connection
  of its own, in ``created_at`` order (then id), ``since <= created_at <
  until``; memory stays flat whatever the population; ``split`` cuts the
  order into ranges a worker each reads on its own (``vouched replay
  --engine ray``);
- **schema**: all tables live in one PostgreSQL schema (``schema=``, default
  ``vouched``) with a ``schema_version`` table and ordered migrations applied
  on open under an advisory lock (two workers opening a new database migrate
  it once). A database written by a newer vouched is refused, not guessed.

Thread-safe like the SQLite store: share one instance. Messages name the
store with its password removed, driver messages included (:mod:`._urls`).
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from vouched._exceptions import MissingExtraError, StoreError
from vouched._replay._lexicons import LexiconRecord
from vouched._replay._snapshot import Snapshot
from vouched._replay._urls import safe_url, scrub
from vouched._replay._verdicts import (
    COLUMNS,
    VERDICTS_INDEX,
    VERDICTS_TABLE,
    ReviewVerdict,
    verdict_of_row,
    verdict_row,
)
from vouched._time import to_utc

__all__ = ["PG_SCHEMA_VERSION", "PostgresSnapshotStore", "safe_url"]

_log = logging.getLogger("vouched.snapshots")
_T = TypeVar("_T")

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_BATCH = 2048  # rows fetched per round trip while streaming
_SCHEMA = "vouched"
# Defaults, named once.
POOL_SIZE = 4
READERS = 2  # connections streaming reads at once (replay workers open stores of their own)
RETRY_FOR = 10.0  # seconds a write is retried while the server is away
APPLICATION_NAME = "vouched"
_BACKOFF = (0.0, 0.05, 0.1, 0.25, 0.5, 1.0)  # seconds before each retry (then 1 s)

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
    (
        # v3: each lexicon snapshots were checked with, once, as in SQLite's v3.
        "CREATE TABLE {s}.lexicons (hash TEXT PRIMARY KEY, name TEXT, body TEXT NOT NULL)",
    ),
    (
        # v4: reviewers' verdicts on findings, as in SQLite's v4.
        VERDICTS_TABLE.format(s="{s}.", serial="BIGSERIAL PRIMARY KEY"),
        VERDICTS_INDEX.format(s="{s}."),
    ),
)
PG_SCHEMA_VERSION = len(_MIGRATIONS)


def _psycopg() -> tuple[Any, Any]:
    try:
        import psycopg  # noqa: PLC0415 - the optional extra, loaded on use
        import psycopg_pool  # noqa: PLC0415 - the optional extra, loaded on use
    except ImportError:
        raise MissingExtraError("postgres", "psycopg[binary] psycopg-pool") from None
    return psycopg, psycopg_pool


def _micros(instant: datetime) -> int:
    delta = to_utc(instant) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def _instant(micros: int) -> datetime:
    return _EPOCH + timedelta(microseconds=micros)


class PostgresSnapshotStore:
    """Snapshots in a PostgreSQL database (``postgresql://user@host:5432/db``).

    - ``schema``: the PostgreSQL schema holding the tables (created when
      missing unless ``read_only``).
    - ``connect_timeout``: seconds to wait for the server when connecting.
    - ``pool_size``: connections kept open at most (one is opened at start).
    - ``retry_for``: seconds a write keeps being retried while the server is
      unreachable (0: one try); then it raises :class:`StoreError`.
    - ``application_name``: how the connections show in ``pg_stat_activity``.
    - ``sleep``: waits between retries (``time.sleep``; tests pass their own).
    """

    def __init__(
        self,
        url: str,
        *,
        schema: str = _SCHEMA,
        read_only: bool = False,
        connect_timeout: float = 5.0,
        pool_size: int = POOL_SIZE,
        retry_for: float = RETRY_FOR,
        application_name: str = APPLICATION_NAME,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        psycopg, pools = _psycopg()
        self._pg = psycopg
        self._transient = (psycopg.OperationalError, psycopg.InterfaceError, pools.PoolTimeout)
        self.url = url
        self.schema = schema
        self.read_only = read_only
        self.retry_for = float(retry_for)
        self.application_name = application_name
        self.retries = 0  # writes tried again after a broken connection
        self._sleep = sleep
        self._timeout = max(1, round(connect_timeout))
        self._s = psycopg.sql.Identifier(schema)
        self._connect_args: dict[str, Any] = {
            "connect_timeout": self._timeout,
            "application_name": application_name,
        }
        # The first connection on its own: a server that is not there is one line
        # at once, with the driver's reason, not a pool retrying in the background.
        connection = self._connect()
        try:
            version = self._version(connection)
            if version > PG_SCHEMA_VERSION:
                raise StoreError(
                    f"snapshot store schema {version} is newer than this vouched reads "
                    f"({PG_SCHEMA_VERSION}); upgrade vouched"
                )
            if read_only and version == 0:
                raise StoreError(f"{self}: not a snapshot store (no snapshots table)")
            if not read_only:
                self._migrate(connection)
                version = PG_SCHEMA_VERSION
            self._opened_at_version = version  # a store read as it is may lack later tables
        except psycopg.Error as error:
            raise StoreError(
                f"{self}: cannot open the snapshot store ({self._said(error)})"
            ) from None
        finally:
            connection.close()
        self._pools, self._pool_size = pools, max(1, pool_size)
        self._pool_broken = False  # a write failed: the next go on connections of their own
        self._pool = self._new_pool()
        self._read_pool: Any = None
        self._readers_lock = threading.Lock()

    def _new_pool(self) -> Any:
        pool = self._pools.ConnectionPool(
            self.url,
            min_size=1,
            max_size=self._pool_size,
            kwargs=self._connect_args,
            check=self._pools.ConnectionPool.check_connection,
            timeout=float(self._timeout),
            open=False,
            name=f"vouched-{self.schema}",
        )
        pool.open(wait=False)
        return pool

    # -- connections and schema ---------------------------------------------------

    def _said(self, error: BaseException) -> str:
        """The first line of a driver's message, with the store's password hidden."""
        return scrub(_first_line(error), self.url)

    def _connect(self) -> Any:
        """A connection of its own (for a long read), outside the pool."""
        try:
            return self._pg.connect(self.url, **self._connect_args)
        except self._pg.Error as error:
            raise StoreError(f"{self}: cannot connect ({self._said(error)})") from None

    def _retried(self, what: str, work: Callable[[Any], _T]) -> _T:
        """``work(connection)`` in a transaction, tried again on a broken connection
        until ``retry_for`` has passed (writes are idempotent by snapshot id)."""
        give_up = time.monotonic() + self.retry_for
        for attempt in itertools.count():
            try:
                if self._pool_broken:
                    return self._unpooled(work)
                with self._pool.connection() as connection, connection.transaction():
                    return work(connection)
            except self._transient as error:
                self._pool_broken = True
                if time.monotonic() >= give_up:
                    raise StoreError(f"{self}: cannot {what} ({self._said(error)})") from None
                self.retries += 1
                if attempt == 0:
                    _log.warning("%s: %s failed (%s); retrying", self, what, self._said(error))
                self._sleep(_BACKOFF[min(attempt, len(_BACKOFF) - 1)] if attempt else 0.0)
            except self._pg.Error as error:
                raise StoreError(f"{self}: cannot {what} ({self._said(error)})") from None
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    def _unpooled(self, work: Callable[[Any], _T]) -> _T:
        """``work`` on a connection of its own, then a fresh pool. After a broken
        connection psycopg's pool reconnects with a delay that doubles (a minute
        or more after a long outage): this answers as soon as the server does."""
        connection = self._pg.connect(self.url, **self._connect_args)
        try:
            with connection.transaction():
                result = work(connection)
        finally:
            connection.close()
        old, self._pool, self._pool_broken = self._pool, self._new_pool(), False
        threading.Thread(target=old.close, kwargs={"timeout": 1.0}, daemon=True).start()
        return result

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

    def _migrate(self, connection: Any) -> None:
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
        body = snapshot.canonical_json()

        def insert(connection: Any) -> None:
            connection.execute(
                self._sql(
                    "INSERT INTO {s}.snapshots (id, created_us, prompt_version, body) "
                    "VALUES (%s, %s, %s, %s) ON CONFLICT (id) DO NOTHING"
                ),
                (*row, body),
            )

        self._retried("store snapshots", insert)

    def write_many(self, snapshots: Iterable[Snapshot]) -> int:
        """Store snapshots in one transaction (``COPY``); returns how many were new."""
        rows = [
            (s.id, _micros(s.created_at), s.prompt_version, s.canonical_json()) for s in snapshots
        ]

        def copy_in(connection: Any) -> int:
            cursor = connection.cursor()
            cursor.execute(
                "CREATE TEMPORARY TABLE IF NOT EXISTS vouched_incoming "
                "(id TEXT, created_us BIGINT, prompt_version TEXT, body TEXT) "
                "ON COMMIT DELETE ROWS"
            )
            with cursor.copy(
                "COPY vouched_incoming (id, created_us, prompt_version, body) FROM STDIN"
            ) as copy:
                for row in rows:
                    copy.write_row(row)
            cursor.execute(
                self._sql(
                    "INSERT INTO {s}.snapshots (id, created_us, prompt_version, body) "
                    "SELECT id, created_us, prompt_version, body FROM vouched_incoming "
                    "ON CONFLICT (id) DO NOTHING"
                )
            )
            return int(cursor.rowcount)

        return self._retried("store snapshots", copy_in)

    def write_lexicon(self, record: LexiconRecord) -> None:
        """Keep a lexicon snapshots name by hash (once, whatever the snapshots)."""

        def insert(connection: Any) -> None:
            connection.execute(
                self._sql(
                    "INSERT INTO {s}.lexicons (hash, name, body) VALUES (%s, %s, %s) "
                    "ON CONFLICT (hash) DO NOTHING"
                ),
                (record.hash, record.name, record.content),
            )

        self._retried("store a lexicon", insert)

    def write_verdict(self, verdict: ReviewVerdict) -> None:
        """Append a reviewer's verdict (the snapshot is never changed)."""

        def insert(connection: Any) -> None:
            connection.execute(
                self._sql(
                    f"INSERT INTO {{s}}.review_verdicts ({COLUMNS}) "  # noqa: S608 - fixed fragments
                    f"VALUES ({', '.join(['%s'] * 14)})"
                ),
                verdict_row(verdict),
            )

        self._retried("store a verdict", insert)

    def lexicons(self) -> Iterator[LexiconRecord]:
        """Every lexicon kept (none in a store older than schema 3)."""
        if self._opened_at_version < 3:
            return

        def rows(connection: Any) -> list[Any]:
            return list(connection.execute(self._sql("SELECT hash, name, body FROM {s}.lexicons")))

        for version, name, body in self._retried("read lexicons", rows):
            yield LexiconRecord(version, name, body)

    def review_verdicts(self, snapshot_id: str | None = None) -> Iterator[ReviewVerdict]:
        """Every verdict given (on one snapshot when ``snapshot_id``), oldest first."""
        if self._opened_at_version < 4:
            return
        where = "" if snapshot_id is None else " WHERE snapshot_id = %s"
        params = () if snapshot_id is None else (snapshot_id,)

        def rows(connection: Any) -> list[Any]:
            return list(
                connection.execute(
                    self._sql(f"SELECT {COLUMNS} FROM {{s}}.review_verdicts{where} ORDER BY seq"),  # noqa: S608 - fixed fragments
                    params,
                )
            )

        for row in self._retried("read verdicts", rows):
            yield verdict_of_row(row)

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
        # The readers' own pool: a long replay never holds one of the writers'
        # places, and a review page that refreshes every 2 s connects once.
        with (
            self._errors("read snapshots"),
            self._readers().connection() as connection,
            connection.cursor(name="vouched_replay") as cursor,
        ):
            cursor.itersize = _BATCH
            cursor.execute(query, params)
            while rows := cursor.fetchmany(_BATCH):
                for (body,) in rows:
                    yield body

    def _readers(self) -> Any:
        """The pool streaming reads use (made at the first read; two places)."""
        with self._readers_lock:
            if self._read_pool is None:
                self._read_pool = self._pools.ConnectionPool(
                    self.url, min_size=1, max_size=READERS, kwargs=self._connect_args,
                    timeout=float(self._timeout), open=False, name=f"vouched-{self.schema}-read",
                )  # fmt: skip
                self._read_pool.open(wait=False)
            return self._read_pool

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        """Snapshots with ``since <= created_at < until``, oldest first, streamed."""
        policies: dict[str, Mapping[str, Any]] = {}  # one frozen policy per version
        for body in self.iter_json(since=since, until=until):
            yield Snapshot.from_canonical(body, policies=policies)

    def split(
        self, parts: int, *, since: datetime | None = None, until: datetime | None = None
    ) -> list[tuple[datetime | None, datetime | None]]:
        """The window cut into at most ``parts`` consecutive windows of about
        equal row counts (a snapshot's instant is never cut apart)."""
        where, params = self._window(since, until)
        fractions = [k / parts for k in range(1, max(1, parts))]
        cuts: list[int] = []
        if fractions:
            row = self._read(
                "read snapshots",
                "SELECT percentile_disc(%s::float8[]) WITHIN GROUP (ORDER BY created_us) "
                "FROM {s}.snapshots" + where,
                [fractions, *params],
            )
            for micros in row[0] if row is not None and row[0] is not None else []:
                lowest = params[0] if since is not None else None
                if micros is not None and (not cuts or micros > cuts[-1]) and micros != lowest:
                    cuts.append(int(micros))
        edges: list[datetime | None] = [since, *(_instant(us) for us in cuts), until]
        return list(itertools.pairwise(edges))

    def _read(self, what: str, text: str, params: Sequence[Any] = ()) -> Any:
        """The first row of one read query (on a checked connection of the pool)."""

        def one(connection: Any) -> Any:
            return connection.execute(self._sql(text), params).fetchone()

        return self._retried(what, one)

    def get(self, snapshot_id: str) -> Snapshot | None:
        row = self._read(
            "read a snapshot", "SELECT body FROM {s}.snapshots WHERE id = %s", (snapshot_id,)
        )
        return None if row is None else Snapshot.from_canonical(row[0])

    def __len__(self) -> int:
        (count,) = self._read("count snapshots", "SELECT count(*) FROM {s}.snapshots")
        return int(count)

    @property
    def schema_version(self) -> int:
        with self._errors("read the schema version"), self._pool.connection() as connection:
            return self._version(connection)

    def first_and_last(self) -> tuple[datetime, datetime] | None:
        """The oldest and newest ``created_at`` stored (None when empty)."""
        low, high = self._read(
            "read snapshots", "SELECT min(created_us), max(created_us) FROM {s}.snapshots"
        )
        return None if low is None else (_instant(int(low)), _instant(int(high)))

    # -- housekeeping ---------------------------------------------------------------

    def _errors(self, what: str) -> _Translate:
        return _Translate(self, what)

    def close(self) -> None:
        self._pool.close()
        if self._read_pool is not None:
            self._read_pool.close()

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
                f"{self._store}: cannot {self._what} ({self._store._said(error)})"
            ) from None


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
