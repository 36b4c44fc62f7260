"""A trusted catalog in a CSV file: one fact per (entity, allowed attribute).

The shape is the claims catalog's: one row per entity, an entity column
(``workshop_code``), a record-id column that becomes each fact's citation
(``catalog_record_id``) and one column per attribute. ``source_version`` is
the file's content hash, so a fact says exactly which catalog it came from.
Values stay the text the catalog holds; normalising them is the claims
layer's job. An empty cell is a ``no_data`` silence.
"""

from __future__ import annotations

import asyncio
import csv
import hashlib
import io
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from vouched import (
    ConfigError,
    Fact,
    MalformedPayloadError,
    Query,
    QueryError,
    SilenceReason,
    SourceError,
)
from vouched_adapters._queries import check_mapping, check_text

__all__ = ["CsvCatalogSource"]


class CsvCatalogSource:
    """Facts from ``path``. Query ``{"subject": "WS103"}`` for one entity (all otherwise)
    and optionally ``{"attributes": [...]}`` to narrow the allowed attributes.

    ``observed_at`` defaults to the file's modification time: when the catalog
    last changed is when its values were last asserted.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        entity_field: str,
        citation_field: str,
        attributes: Iterable[str],
        units: Mapping[str, str] | None = None,
        name: str = "catalog",
        observed_at: datetime | None = None,
        ttl: timedelta | float | None = None,
        confidence: float | None = 1.0,
    ) -> None:
        self.path = Path(path)
        self.entity_field = entity_field
        self.citation_field = citation_field
        self.attributes = tuple(attributes)
        if not self.attributes:
            raise ConfigError("CsvCatalogSource.attributes", "at least one allowed attribute")
        self.units = dict(units or {})
        self.name = name
        self.observed_at = observed_at
        self.ttl = ttl
        self.confidence = confidence

    def check_query(self, query: Query) -> None:
        """Raise :class:`vouched.QueryError` unless ``subject`` is text and
        ``attributes`` a list of texts, each when given."""
        check_text(check_mapping(query), "subject")
        asked = query.get("attributes")
        if "attributes" in query and (
            not isinstance(asked, list | tuple) or not all(isinstance(a, str) for a in asked)
        ):
            raise QueryError("attributes", "a list of attribute names", got=asked)

    def _wanted(self, query: Query) -> tuple[str, ...]:
        asked = query.get("attributes")
        if asked is None:
            return self.attributes
        return tuple(a for a in self.attributes if a in set(asked))

    def expects(self, query: Query) -> list[tuple[str, str]]:
        subject = query.get("subject")
        if not subject:
            return []
        return [(str(subject), attribute) for attribute in self._wanted(query)]

    async def fetch(self, query: Query) -> Sequence[Fact]:
        self.check_query(query)
        content, modified = await asyncio.to_thread(self._read)
        return self.parse(content, query, modified)

    def _read(self) -> tuple[bytes, datetime]:
        try:
            return self.path.read_bytes(), datetime.fromtimestamp(self.path.stat().st_mtime, UTC)
        except OSError as error:
            raise SourceError(type(error).__name__) from None

    def parse(self, content: bytes, query: Query, modified: datetime) -> list[Fact]:
        """Facts from the catalog's bytes (public so tests and tools can feed text)."""
        version = "sha256:" + hashlib.sha256(content).hexdigest()
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise MalformedPayloadError("catalog is not UTF-8") from None
        reader = csv.DictReader(io.StringIO(text, newline=""))
        wanted = self._wanted(query)
        needed = (self.entity_field, self.citation_field, *wanted)
        missing = [column for column in needed if column not in (reader.fieldnames or ())]
        if missing:
            raise MalformedPayloadError(f"catalog lacks column {missing[0]!r}")
        subject = query.get("subject")
        observed_at = self.observed_at or modified
        seen: set[str] = set()
        facts: list[Fact] = []
        for row in reader:
            entity = (row.get(self.entity_field) or "").strip()
            if not entity:
                raise MalformedPayloadError(f"a row has no {self.entity_field!r}")
            if entity in seen:
                raise MalformedPayloadError(f"entity {entity!r} appears twice")
            seen.add(entity)
            if subject and entity != subject:
                continue
            citation = (row.get(self.citation_field) or "").strip() or None
            for attribute in wanted:
                value = (row.get(attribute) or "").strip()
                if not value:
                    facts.append(
                        Fact.silence(
                            entity,
                            attribute,
                            SilenceReason.NO_DATA,
                            source=self.name,
                            observed_at=observed_at,
                        )
                    )
                    continue
                facts.append(
                    Fact(
                        subject=entity,
                        attribute=attribute,
                        value=value,
                        unit=self.units.get(attribute),
                        source=self.name,
                        observed_at=observed_at,
                        ttl=self.ttl,
                        confidence=self.confidence,
                        citation=citation,
                        source_version=version,
                    )
                )
        return facts
