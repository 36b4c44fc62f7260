"""The catalog: keyed by entity, versioned by content, refused early when unusable."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from vouched import Catalog, Contract, InputError

FIXTURES = Path(__file__).parent / "fixtures"
CATALOG_CSV = FIXTURES / "catalog.csv"

SMALL = Contract(
    entity_field="code", citation_field="record", attributes={"fee": "money", "format": "text"}
)
HEADER = "code,record,fee,format\n"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "catalog.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_csv_rows_are_keyed_by_the_contract_entity_field(catalog: Catalog) -> None:
    assert len(catalog) == 8
    assert "WS103" in catalog
    row = catalog.row("WS103")
    assert row is not None
    assert row["format"] == "Hybrid"
    assert catalog.citation("WS103") == "CAT-003"


def test_version_is_a_content_hash(catalog: Catalog) -> None:
    assert catalog.version.startswith("sha256:")
    assert len(catalog.version) == len("sha256:") + 64


def test_same_rows_from_memory_have_the_same_version(catalog: Catalog, contract: Contract) -> None:
    with CATALOG_CSV.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert Catalog.from_rows(rows, contract).version == catalog.version


def test_row_order_does_not_change_the_version(contract: Contract) -> None:
    with CATALOG_CSV.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    forward = Catalog.from_rows(rows, contract)
    backward = Catalog.from_rows(reversed(rows), contract)
    assert forward.version == backward.version


def test_a_changed_value_changes_the_version(tmp_path: Path) -> None:
    one = Catalog.from_csv(write(tmp_path, HEADER + "A,R1,1.00,online\n"), SMALL)
    two = Catalog.from_csv(write(tmp_path, HEADER + "A,R1,1.01,online\n"), SMALL)
    assert one.version != two.version


def test_duplicate_entity_key_names_both_lines(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "A,R1,1.00,online\nB,R2,2.00,online\nA,R3,3.00,online\n")
    with pytest.raises(InputError) as caught:
        Catalog.from_csv(path, SMALL)
    assert str(caught.value) == f"{path}:4: code: duplicate entity key 'A', first at line 2"


def test_missing_citation_column_is_refused_at_load(tmp_path: Path) -> None:
    path = write(tmp_path, "code,fee,format\nA,1.00,online\n")
    with pytest.raises(InputError, match=r":1: the catalog has no citation column 'record'"):
        Catalog.from_csv(path, SMALL)


def test_missing_entity_column_is_refused_at_load(tmp_path: Path) -> None:
    path = write(tmp_path, "record,fee,format\nR1,1.00,online\n")
    with pytest.raises(InputError, match="no entity column 'code'"):
        Catalog.from_csv(path, SMALL)


def test_empty_file_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "")
    with pytest.raises(InputError, match=rf"^{path}: file is empty"):
        Catalog.from_csv(path, SMALL)


def test_header_without_rows_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="header but no rows"):
        Catalog.from_csv(write(tmp_path, HEADER), SMALL)


def test_contract_attribute_without_a_column_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "code,record,fee\nA,R1,1.00\n")
    with pytest.raises(InputError, match="allows attribute 'format' but the catalog has no"):
        Catalog.from_csv(path, SMALL)


def test_row_with_a_missing_citation_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "A,R1,1.00,online\nB,,2.00,online\n")
    with pytest.raises(InputError, match=r":3: record: every row needs a citation"):
        Catalog.from_csv(path, SMALL)


def test_ragged_row_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "A,R1,1.00\n")
    with pytest.raises(InputError, match=r":2: row has 3 fields, the header has 4"):
        Catalog.from_csv(path, SMALL)


def test_line_numbers_count_quoted_newlines(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + 'A,R1,1.00,"on\nline"\nA,R2,1.00,online\n')
    with pytest.raises(InputError, match=r":4: code: duplicate entity key 'A', first at line 2"):
        Catalog.from_csv(path, SMALL)


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        Catalog.from_csv(tmp_path / "absent.csv", SMALL)


def test_rows_in_memory_report_the_row_index() -> None:
    rows = [
        {"code": "A", "record": "R1", "fee": "1", "format": "x"},
        {"code": "A", "record": "R2", "fee": "1", "format": "x"},
    ]
    with pytest.raises(InputError, match=r"^<rows>:row 1: code: duplicate entity key 'A'"):
        Catalog.from_rows(rows, SMALL)


def test_rows_in_memory_may_hold_typed_values() -> None:
    catalog = Catalog.from_rows([{"code": "A", "record": 7, "fee": 27.5, "format": "x"}], SMALL)
    assert catalog.citation("A") == 7
