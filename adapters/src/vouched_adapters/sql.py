"""Facts from an SQLite table through the standard library's sqlite3.

The SQL is fixed when the source is built; the query only supplies values for
its named parameters (``:subject``), which sqlite3 binds. Nothing from a
query is ever formatted into SQL text. The database is opened read-only.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from vouched import Fact, MalformedPayloadError, Query, SilenceReason, SourceError
from vouched_adapters._queries import check_mapping, check_scalar
from vouched_adapters._values import instant

__all__ = ["Column", "SqliteSource"]

# A named parameter as sqlite3 reads one (outside the quotes it is not one,
# but a name a quoted text happens to hold only asks for one key more).
_PARAMETER = re.compile(r"(?<![\w:@$])[:@$]([A-Za-z_]\w*)")


@dataclass(frozen=True, slots=True)
class Column:
    """How one result column becomes a fact: its attribute name and unit."""

    attribute: str
    unit: str | None = None


class SqliteSource:
    """Run ``sql`` against the SQLite file at ``path``; one fact per row and mapped column.

    - ``subject_column``: the column naming each row's subject.
    - ``columns``: result column -> attribute name (or :class:`Column` with a unit).
    - ``observed_at_column``: ISO 8601 text with an offset, or Unix seconds; the
      file's modification time when absent.
    - ``citation_column``: a record id for each row's facts.

    The query is passed to sqlite3 as the named parameters (``:subject``);
    a parameter the query lacks, or one that is not text or a number, is the
    caller's mistake (:meth:`check_query`: a ``malformed_query`` silence).
    """

    def __init__(
        self,
        path: str | Path,
        sql: str,
        *,
        subject_column: str,
        columns: Mapping[str, str | Column],
        name: str = "sqlite",
        observed_at_column: str | None = None,
        citation_column: str | None = None,
        ttl: timedelta | float | None = None,
        confidence: float | None = 1.0,
    ) -> None:
        self.path = Path(path)
        self.sql = sql
        self.subject_column = subject_column
        self.columns = {
            column: spec if isinstance(spec, Column) else Column(spec)
            for column, spec in columns.items()
        }
        self.name = name
        self.observed_at_column = observed_at_column
        self.citation_column = citation_column
        self.ttl = ttl
        self.confidence = confidence

    def expects(self, query: Query) -> list[tuple[str, str]]:
        subject = query.get("subject")
        if not subject:
            return []
        return [(str(subject), spec.attribute) for spec in self.columns.values()]

    def check_query(self, query: Query) -> None:
        """Raise :class:`vouched.QueryError` unless every named parameter of the
        SQL (``:name``, ``@name``, ``$name``) is in ``query`` as text or a number."""
        check_mapping(query)
        for name in dict.fromkeys(_PARAMETER.findall(self.sql)):
            check_scalar(query, name)

    async def fetch(self, query: Query) -> Sequence[Fact]:
        self.check_query(query)
        rows, modified = await asyncio.to_thread(self._query, dict(query))
        return self.parse(rows, modified)

    def _query(self, params: dict[str, Any]) -> tuple[list[sqlite3.Row], datetime]:
        if not self.path.is_file():
            raise SourceError("database file not found")
        modified = datetime.fromtimestamp(self.path.stat().st_mtime, UTC)
        uri = self.path.resolve().as_uri() + "?mode=ro"
        try:
            connection = sqlite3.connect(uri, uri=True)
        except sqlite3.Error as error:
            raise SourceError(type(error).__name__) from None
        try:
            connection.row_factory = sqlite3.Row
            return connection.execute(self.sql, params).fetchall(), modified
        except sqlite3.ProgrammingError as error:  # e.g. a parameter the query lacks
            raise SourceError(f"ProgrammingError: {error}") from None
        except sqlite3.Error as error:
            raise SourceError(type(error).__name__) from None
        finally:
            connection.close()

    def parse(self, rows: Sequence[sqlite3.Row], modified: datetime) -> list[Fact]:
        facts: list[Fact] = []
        for row in rows:
            keys = row.keys()
            for needed in (self.subject_column, *self.columns):
                if needed not in keys:
                    raise MalformedPayloadError(f"result lacks column {needed!r}")
            subject = row[self.subject_column]
            if subject is None or str(subject).strip() == "":
                raise MalformedPayloadError(f"a row has no {self.subject_column!r}")
            observed_at = (
                instant(row[self.observed_at_column], "observed_at column")
                if self.observed_at_column is not None
                else modified
            )
            citation = str(row[self.citation_column]) if self.citation_column is not None else None
            for column, spec in self.columns.items():
                value = row[column]
                if value is None:
                    facts.append(
                        Fact.silence(
                            str(subject),
                            spec.attribute,
                            SilenceReason.NO_DATA,
                            source=self.name,
                            observed_at=observed_at,
                        )
                    )
                    continue
                if isinstance(value, bytes):
                    raise MalformedPayloadError(f"column {column!r} holds bytes")
                if isinstance(value, float):
                    value = Decimal(repr(value))
                facts.append(
                    Fact(
                        subject=str(subject),
                        attribute=spec.attribute,
                        value=value,
                        unit=spec.unit,
                        source=self.name,
                        observed_at=observed_at,
                        ttl=self.ttl,
                        confidence=self.confidence,
                        citation=citation,
                    )
                )
        return facts
