"""The trusted catalog claims are checked against.

A :class:`Catalog` is a table keyed by the contract's entity field, read from
CSV (``Catalog.from_csv``) or from rows in memory (``Catalog.from_rows``).
Everything that could make a check meaningless is refused when the catalog is
built, never when a claim is checked: an empty file, a repeated or missing
entity or citation column, a contract attribute the catalog has no column for,
a row without an entity key or a citation, a duplicate entity key (with the
file and line of both rows), a cell its attribute's normalizer refuses, a
blank cell of a contract attribute, and a money cell in another currency than
the contract's (``$12.00`` under ``money:EUR``), each naming the file, line,
column and field: a bad catalog cell would otherwise turn correct claims into
``invalid_value``, counted as model failures, or vouch for a dollar claim
against a euro contract.

``catalog.version`` is a content hash (``sha256:...``) of the rows in entity
order, so the same data gives the same version whether it came from a CSV file
or from memory, and every claim result records which data it was checked
against.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from vouched._exceptions import InputError, shown, shown_list
from vouched._files import read_text
from vouched._jsonio import dumps

if TYPE_CHECKING:
    from vouched._claims._contract import Contract
    from vouched._claims._normalize import Normalizer

__all__ = ["Catalog", "InvalidCatalogValue"]

_MISSING: Final = object()


class InvalidCatalogValue:
    """A catalog cell its attribute's normalizer refused (kept, not raised)."""

    __slots__ = ("detail", "reason")

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail or reason


class Catalog:
    """Trusted rows keyed by entity; immutable once built.

    The catalog remembers the normalized form of each cell the first time a
    claim asks for it, so checking many claims normalizes each catalog value
    once. That memo is private and changes no result.
    """

    __slots__ = ("_citations", "_columns", "_entity_field", "_memo", "_name", "_rows", "_version")

    def __init__(
        self,
        rows: Mapping[str, Mapping[str, object]],
        *,
        entity_field: str,
        citation_field: str,
        version: str,
        name: str,
        columns: Iterable[str],
    ) -> None:
        """Prefer :meth:`from_csv` and :meth:`from_rows`, which check the data."""
        self._rows: Mapping[str, Mapping[str, object]] = MappingProxyType(
            {key: MappingProxyType(dict(row)) for key, row in rows.items()}
        )
        self._citations: dict[str, object] = {
            key: row[citation_field] for key, row in self._rows.items()
        }
        self._entity_field = entity_field
        self._version = version
        self._name = name
        self._columns = tuple(columns)
        self._memo: dict[tuple[str, Normalizer], dict[str, object]] = {}

    # -- building ---------------------------------------------------------

    @classmethod
    def from_rows(
        cls, rows: Iterable[Mapping[str, object]], contract: Contract, *, name: str = "<rows>"
    ) -> Catalog:
        """A catalog from rows in memory; errors name the row index and field."""
        materialised = [dict(row) for row in rows]
        columns: list[str] = []
        seen: set[str] = set()
        for row in materialised:
            for column in row:
                if column not in seen:
                    seen.add(column)
                    columns.append(column)
        if not materialised:
            raise InputError("catalog has no rows", file=name)
        _check_columns(columns, contract, file=name, line=None)
        keyed: dict[str, dict[str, object]] = {}
        first_at: dict[str, int] = {}
        for index, row in enumerate(materialised):
            for column in columns:
                if column not in row:
                    raise InputError(
                        "missing in this row", file=name, line=index, field=column, location="row"
                    )
            _add_row(keyed, first_at, row, index, contract, file=name, location="row")
        return cls._build(keyed, contract, name=name, columns=columns, lines=first_at, at="row")

    @classmethod
    def from_csv(
        cls, path: str | Path, contract: Contract, *, max_bytes: int | None = None
    ) -> Catalog:
        """A catalog from a CSV file with a header row (UTF-8, BOM allowed), a
        regular file of at most ``max_bytes`` (default: the catalog input cap)."""
        name = str(path)
        text = read_text(path, kind="catalog", max_bytes=max_bytes)
        return cls._read_csv(io.StringIO(text, newline=""), contract, name=name)

    @classmethod
    def _read_csv(cls, handle: Iterable[str], contract: Contract, *, name: str) -> Catalog:
        reader = csv.reader(handle, strict=True)
        try:
            header = _next_record(reader)
            if header is None:
                raise InputError("file is empty; expected a CSV header and rows", file=name)
            header_line = reader.line_num
            seen: set[str] = set()
            for column in header:
                if column in seen:
                    raise InputError(
                        f"repeated column {shown(column)} in the header",
                        file=name,
                        line=header_line,
                    )
                seen.add(column)
            _check_columns(header, contract, file=name, line=header_line)
            keyed: dict[str, dict[str, object]] = {}
            first_at: dict[str, int] = {}
            while True:
                start = reader.line_num + 1
                record = _next_record(reader)
                if record is None:
                    break
                if len(record) != len(header):
                    raise InputError(
                        f"row has {len(record)} fields, the header has {len(header)}",
                        file=name,
                        line=start,
                    )
                row: dict[str, object] = dict(zip(header, record, strict=True))
                _add_row(keyed, first_at, row, start, contract, file=name, location="line")
        except csv.Error as error:
            raise InputError(f"invalid CSV: {error}", file=name, line=reader.line_num) from None
        if not keyed:
            raise InputError("catalog has a header but no rows", file=name)
        return cls._build(keyed, contract, name=name, columns=header, lines=first_at)

    @classmethod
    def _build(
        cls,
        keyed: Mapping[str, Mapping[str, object]],
        contract: Contract,
        *,
        name: str,
        columns: Iterable[str],
        lines: Mapping[str, int],
        at: str = "line",
    ) -> Catalog:
        catalog = cls(
            keyed,
            entity_field=contract.entity_field,
            citation_field=contract.citation_field,
            version=_content_hash(keyed),
            name=name,
            columns=columns,
        )
        catalog._check_cells(contract, lines, at)
        return catalog

    def _check_cells(self, contract: Contract, lines: Mapping[str, int], at: str) -> None:
        """Normalize every attribute cell now (kept in the memo): a blank cell, a
        cell the normalizer refuses, or an amount in another currency than the
        contract's is an InputError naming the line and column."""
        from vouched._claims._normalize import Money  # noqa: PLC0415 - no cycle at import

        positions = {column: number for number, column in enumerate(self._columns, start=1)}
        for attribute, normalizer in contract.normalizers.items():
            kind = _normalizer_name(contract, attribute)
            currency = kind.partition(":")[2] if kind.startswith("money:") else None
            for entity in self._rows:
                value = self.normalized(entity, attribute, normalizer)
                cell = self._rows[entity].get(attribute)
                where = f" (column {positions.get(attribute, '?')})" if at == "line" else ""
                if _blank(cell):
                    problem = (
                        f"is blank{where}: every row needs a value for each contract attribute "
                        "(a blank cell would count claims about it as model failures)"
                    )
                elif isinstance(value, InvalidCatalogValue):
                    problem = f"{shown(cell)} is not a valid {kind} value{where}: {value.detail}"
                elif currency and isinstance(value, Money) and value.currency != currency:
                    problem = (
                        f"{shown(cell)} is in {value.currency}{where}, "
                        f"not the contract's currency ({kind})"
                    )
                else:
                    continue
                raise InputError(
                    problem, file=self._name, line=lines.get(entity), field=attribute, location=at
                )

    # -- reading ----------------------------------------------------------

    @property
    def version(self) -> str:
        """Content hash of the rows: the same data always has the same version."""
        return self._version

    @property
    def name(self) -> str:
        """Where the rows came from (a file path or ``<rows>``)."""
        return self._name

    @property
    def entity_field(self) -> str:
        return self._entity_field

    @property
    def columns(self) -> tuple[str, ...]:
        return self._columns

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __contains__(self, entity: object) -> bool:
        return isinstance(entity, str) and entity in self._rows

    def __repr__(self) -> str:
        return f"Catalog({self._name!r}, rows={len(self._rows)}, version={self._version!r})"

    def row(self, entity: str) -> Mapping[str, object] | None:
        """The trusted row of an entity, or None when the catalog has none."""
        return self._rows.get(entity)

    def citation(self, entity: str) -> object:
        """The citation (record id) of an entity's row; KeyError when unknown."""
        return self._citations[entity]

    def normalized(self, entity: str, attribute: str, normalizer: Normalizer) -> object:
        """The entity's value of an attribute through a normalizer, memoised.

        Returns :class:`InvalidCatalogValue` when the cell is missing or the
        normalizer refuses it; never raises for a known entity.
        """
        key = (attribute, normalizer)
        column = self._memo.get(key)
        if column is None:
            column = self._memo.setdefault(key, {})
        value = column.get(entity, _MISSING)
        if value is _MISSING:
            value = self._normalize_cell(entity, attribute, normalizer)
            column[entity] = value
        return value

    def _normalize_cell(self, entity: str, attribute: str, normalizer: Normalizer) -> object:
        row = self._rows[entity]
        if attribute not in row:
            return InvalidCatalogValue(f"the catalog has no {attribute} column")
        try:
            return normalizer(row[attribute])
        except (ValueError, TypeError, ArithmeticError) as error:
            cite = self._citations[entity]
            return InvalidCatalogValue(
                f"catalog value of {attribute} in {cite} is invalid: {error}", str(error)
            )


def _next_record(reader: Iterator[list[str]]) -> list[str] | None:
    """The next non-blank CSV record, or None at the end."""
    for record in reader:
        if record:
            return record
    return None


def _check_columns(
    columns: Iterable[str], contract: Contract, *, file: str, line: int | None
) -> None:
    present = set(columns)
    needed = [
        (contract.entity_field, "entity"),
        (contract.citation_field, "citation"),
    ]
    for column, role in needed:
        if column not in present:
            listed = shown_list(list(columns)) or "none"
            raise InputError(
                f"the catalog has no {role} column {shown(column)} (columns: {listed})",
                file=file,
                line=line,
            )
    for attribute in contract.attributes:
        if attribute not in present:
            raise InputError(
                f"the contract allows attribute {shown(attribute)} "
                "but the catalog has no such column",
                file=file,
                line=line,
            )


def _add_row(
    keyed: dict[str, dict[str, object]],
    first_at: dict[str, int],
    row: dict[str, object],
    at: int,
    contract: Contract,
    *,
    file: str,
    location: str,
) -> None:
    entity = row[contract.entity_field]
    if not isinstance(entity, str) or not entity.strip():
        raise InputError(
            "entity key must be a non-empty string",
            file=file,
            line=at,
            field=contract.entity_field,
            location=location,
        )
    citation = row[contract.citation_field]
    if citation is None or (isinstance(citation, str) and not citation.strip()):
        raise InputError(
            "every row needs a citation",
            file=file,
            line=at,
            field=contract.citation_field,
            location=location,
        )
    if entity in keyed:
        raise InputError(
            f"duplicate entity key {shown(entity)}, first at {location} {first_at[entity]}",
            file=file,
            line=at,
            field=contract.entity_field,
            location=location,
        )
    keyed[entity] = row
    first_at[entity] = at


def _cell(value: object) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value is None or isinstance(value, str | int | float):
        return value
    if isinstance(value, Decimal) and value.is_finite():
        return value
    return str(value)


def _content_hash(keyed: Mapping[str, Mapping[str, object]]) -> str:
    digest = hashlib.sha256()
    for entity in sorted(keyed):
        row = keyed[entity]
        digest.update(dumps({k: _cell(v) for k, v in row.items()}, canonical=True).encode())
        digest.update(b"\n")
    return f"sha256:{digest.hexdigest()}"


def _blank(cell: object) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def _normalizer_name(contract: Contract, attribute: str) -> str:
    spec = contract.attributes.get(attribute)
    return spec if isinstance(spec, str) else getattr(spec, "__name__", "custom")
