"""The CSV catalog: one fact per (entity, allowed attribute), cited by record id."""

from __future__ import annotations

import hashlib
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from adapterkit import FIXTURES

from vouched import GuardedSource, fetch_sync
from vouched_adapters import CsvCatalogSource

ALLOWED = ("format", "start_time", "fee_eur", "step_free_access")


@pytest.fixture
def catalog_file(tmp_path: Path) -> Path:
    target = tmp_path / "workshops.csv"
    shutil.copy(FIXTURES / "workshops.csv", target)
    return target


def catalog(path: Path, **kw: object) -> CsvCatalogSource:
    return CsvCatalogSource(
        path,
        entity_field="workshop_code",
        citation_field="catalog_record_id",
        attributes=ALLOWED,
        **kw,  # type: ignore[arg-type]  # test shorthand for keywords
    )


def test_one_fact_per_entity_and_allowed_attribute(catalog_file: Path) -> None:
    facts = fetch_sync(catalog(catalog_file), {})
    assert len(facts) == 3 * len(ALLOWED)
    assert "title" not in {f.attribute for f in facts}


def test_a_subject_narrows_to_one_entity_with_its_record_as_citation(catalog_file: Path) -> None:
    facts = fetch_sync(catalog(catalog_file), {"subject": "WS103"})
    assert [(f.attribute, f.value, f.citation) for f in facts if not f.is_silent] == [
        ("format", "hybrid", "CAT-2026-0103"),
        ("start_time", "18:15", "CAT-2026-0103"),
        ("fee_eur", "27.50", "CAT-2026-0103"),
    ]


def test_an_empty_cell_is_no_data(catalog_file: Path) -> None:
    facts = fetch_sync(catalog(catalog_file), {"subject": "WS103"})
    assert [(f.attribute, f.silent_reason) for f in facts if f.is_silent] == [
        ("step_free_access", "no_data")
    ]


def test_source_version_is_the_content_hash(catalog_file: Path) -> None:
    digest = hashlib.sha256(catalog_file.read_bytes()).hexdigest()
    facts = fetch_sync(catalog(catalog_file), {"subject": "WS101"})
    assert {f.source_version for f in facts} == {f"sha256:{digest}"}


def test_editing_the_catalog_changes_the_version(catalog_file: Path) -> None:
    before = fetch_sync(catalog(catalog_file), {"subject": "WS101"})[0].source_version
    catalog_file.write_text(catalog_file.read_text().replace("45.00", "49.00"))
    after = fetch_sync(catalog(catalog_file), {"subject": "WS101"})[0].source_version
    assert before != after


def test_observed_at_defaults_to_the_files_modification_time(catalog_file: Path) -> None:
    mtime = datetime.fromtimestamp(catalog_file.stat().st_mtime, UTC)
    facts = fetch_sync(catalog(catalog_file), {"subject": "WS101"})
    assert facts[0].observed_at == mtime


def test_an_unknown_entity_is_no_data_for_each_allowed_attribute(catalog_file: Path) -> None:
    facts = fetch_sync(GuardedSource(catalog(catalog_file)), {"subject": "WS999"})
    assert [(f.subject, f.attribute, f.silent_reason) for f in facts] == [
        ("WS999", attribute, "no_data") for attribute in ALLOWED
    ]


def test_a_missing_column_is_malformed(catalog_file: Path) -> None:
    catalog_file.write_text("workshop_code,catalog_record_id,format\nWS101,CAT-1,online\n")
    facts = fetch_sync(GuardedSource(catalog(catalog_file)), {"subject": "WS101"})
    assert {f.silent_reason for f in facts} == {"malformed"}


def test_a_duplicated_entity_is_malformed(catalog_file: Path) -> None:
    with catalog_file.open("a") as handle:
        handle.write("WS101,CAT-2026-0999,X,online,10:00,1.00,yes\n")
    facts = fetch_sync(GuardedSource(catalog(catalog_file)), {"subject": "WS101"})
    assert {f.silent_reason for f in facts} == {"malformed"}


def test_a_missing_file_is_a_source_error(tmp_path: Path) -> None:
    facts = fetch_sync(GuardedSource(catalog(tmp_path / "gone.csv")), {"subject": "WS101"})
    assert {f.silent_reason for f in facts} == {"source_error"}
