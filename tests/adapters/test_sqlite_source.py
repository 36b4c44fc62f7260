"""The SQLite adapter: a real database file, parameters bound, never formatted."""

from __future__ import annotations

import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest

from vouched import GuardedSource, fetch_sync
from vouched_adapters import Column, SqliteSource

SQL = "SELECT city, temp_c, humidity, observed, station FROM readings WHERE city = :subject"


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "readings.db"
    with sqlite3.connect(path) as connection:
        connection.execute(
            "CREATE TABLE readings (city TEXT, temp_c REAL, humidity INTEGER, "
            "observed TEXT, station TEXT)"
        )
        connection.executemany(
            "INSERT INTO readings VALUES (?, ?, ?, ?, ?)",
            [
                ("Berlin", 4.3, 87, "2026-11-29T13:00:00+01:00", "DE-10382"),
                ("Paris", 7.1, None, "2026-11-29T12:00:00Z", "FR-07149"),
            ],
        )
    connection.close()
    return path


def readings(path: Path, sql: str = SQL) -> SqliteSource:
    return SqliteSource(
        path,
        sql,
        subject_column="city",
        columns={"temp_c": Column("temperature", "degC"), "humidity": Column("humidity", "%")},
        observed_at_column="observed",
        citation_column="station",
        ttl=3600,
    )


def test_rows_become_facts_with_units_and_citations(database: Path) -> None:
    facts = fetch_sync(readings(database), {"subject": "Berlin"})
    assert [(f.attribute, f.value, f.unit, f.citation) for f in facts] == [
        ("temperature", Decimal("4.3"), "degC", "DE-10382"),
        ("humidity", 87, "%", "DE-10382"),
    ]
    assert facts[0].observed_at is not None
    assert facts[0].observed_at.isoformat() == "2026-11-29T12:00:00+00:00"


def test_a_null_column_is_no_data(database: Path) -> None:
    facts = fetch_sync(readings(database), {"subject": "Paris"})
    assert [(f.attribute, f.silent_reason) for f in facts] == [
        ("temperature", None),
        ("humidity", "no_data"),
    ]


def test_a_hostile_subject_is_bound_as_a_value_not_run_as_sql(database: Path) -> None:
    hostile = "Berlin' OR '1'='1"
    facts = fetch_sync(GuardedSource(readings(database)), {"subject": hostile})
    assert {f.silent_reason for f in facts} == {"no_data"}
    assert {f.subject for f in facts} == {hostile}


def test_the_database_is_opened_read_only(database: Path) -> None:
    source = readings(database, "UPDATE readings SET temp_c = 99 WHERE city = :subject")
    facts = fetch_sync(GuardedSource(source), {"subject": "Berlin"})
    assert {f.silent_reason for f in facts} == {"source_error"}
    with sqlite3.connect(database) as connection:
        (temp,) = connection.execute("SELECT temp_c FROM readings WHERE city='Berlin'").fetchone()
    connection.close()
    assert temp == 4.3


def test_a_missing_table_is_a_source_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    facts = fetch_sync(GuardedSource(readings(empty)), {"subject": "Berlin"})
    assert {f.silent_reason for f in facts} == {"source_error"}


def test_a_missing_database_file_is_a_source_error(tmp_path: Path) -> None:
    facts = fetch_sync(GuardedSource(readings(tmp_path / "none.db")), {"subject": "Berlin"})
    assert {f.silent_reason for f in facts} == {"source_error"}
    assert not (tmp_path / "none.db").exists()


def test_a_naive_timestamp_is_malformed(database: Path) -> None:
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE readings SET observed = '2026-11-29 12:00' WHERE city='Berlin'")
    connection.close()
    facts = fetch_sync(GuardedSource(readings(database)), {"subject": "Berlin"})
    assert {f.silent_reason for f in facts} == {"malformed"}


def test_a_query_without_the_needed_parameter_is_a_malformed_query(database: Path) -> None:
    facts = fetch_sync(GuardedSource(readings(database)), {"city": "Berlin"})
    assert {f.silent_reason for f in facts} == {"malformed_query"}


def test_a_second_statement_is_never_run(database: Path) -> None:
    source = readings(database, SQL + "; DROP TABLE readings")
    facts = fetch_sync(GuardedSource(source), {"subject": "Berlin"})
    assert {f.silent_reason for f in facts} == {"source_error"}
    assert fetch_sync(readings(database), {"subject": "Berlin"})[0].value == Decimal("4.3")
