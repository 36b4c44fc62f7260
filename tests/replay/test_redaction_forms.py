"""Redaction by reading, as a property: any form a reader would recognise as the
sensitive salary or name (any script, width, notation, case, look-alike letter,
URL escape, title, initials, a lone name) written by the caller and the model
stays out of every byte the stores write: the SQLite file, its WAL, and the
PostgreSQL table."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fleet.services import require_postgres, unique
from replay.forms import name_forms, number_forms
from vouched import Fact, Grounder, Policy, PostgresSnapshotStore, SqliteSnapshotStore
from vouched._jsonio import dumps
from vouched.testing import FakeClock, ScriptedPhraser, ScriptedSource

NOW = "2026-11-29T12:00:00Z"
KEY = b"a secret only the team has"
FACTS = [
    Fact(subject="Alice Smith", attribute="salary", value=85000, unit="EUR", source="hr",
         observed_at=NOW),
]  # fmt: skip
POLICY = Policy(
    sensitive_subjects=frozenset({"Alice Smith"}), sensitive_attributes=frozenset({"salary"})
)


def _in_clear(form: str, raw: bytes) -> bool:
    """Whether ``form`` sits in ``raw`` as UTF-8 (any case) or JSON-escaped."""
    escaped = dumps(form, ensure_ascii=True)[1:-1]
    spellings = {form, form.casefold(), escaped, escaped.lower()}
    return any(s.encode() in raw or s.encode() in raw.lower() for s in spellings)


def _sqlite_bytes(path: Path) -> bytes:
    parts = [path, Path(f"{path}-wal"), Path(f"{path}-journal")]
    return b"".join(p.read_bytes() for p in parts if p.exists())


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresSnapshotStore]:
    import psycopg  # noqa: PLC0415 - the extra under test

    url = require_postgres()
    schema = unique("vouched_forms")
    try:
        with PostgresSnapshotStore(url, schema=schema) as store:
            yield store
    finally:
        with psycopg.connect(url) as connection:
            connection.execute(
                psycopg.sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                    psycopg.sql.Identifier(schema)
                )
            )


def _table(store: PostgresSnapshotStore, snapshot_id: str) -> bytes:
    import psycopg  # noqa: PLC0415 - the extra under test

    with psycopg.connect(store.url) as connection:
        row = connection.execute(
            psycopg.sql.SQL(
                "SELECT id, body, prompt_version FROM {}.snapshots WHERE id = %s"
            ).format(psycopg.sql.Identifier(store.schema)),
            (snapshot_id,),
        ).fetchone()
    assert row is not None
    return "\t".join(map(str, row)).encode()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(numbers=st.lists(number_forms(), min_size=3, max_size=3),
       names=st.lists(name_forms(), min_size=3, max_size=3))  # fmt: skip
def test_no_generated_form_survives_in_any_store_byte(
    numbers: list[str], names: list[str], postgres: PostgresSnapshotStore
) -> None:
    text = " ".join(
        f"{name} earns {number} a year." for name, number in zip(names, numbers, strict=True)
    )
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "snapshots.db"
        with SqliteSnapshotStore(path) as store:
            grounder = Grounder(
                [ScriptedSource("hr", [FACTS])], policy=POLICY,
                phraser=ScriptedPhraser([text] * 3), clock=FakeClock(NOW), store=store,
                redaction_key=KEY,
            )  # fmt: skip
            grounder.answer_sync(f"What do {names[0]} and {names[1]} earn?", {"who": names[2]})
            (snapshot,) = list(store.iter())
            raw = _sqlite_bytes(path)  # while open: the WAL holds the write
        postgres.write(snapshot)
        for where, stored in (("sqlite", raw), ("postgresql", _table(postgres, snapshot.id))):
            found = [form for form in numbers + names if _in_clear(form, stored)]
            assert found == [], where
