# ruff: noqa: RUF001 - fullwidth digits are one of the forms under test
"""The redaction sweep: every form the scanner's reader reads as a sensitive
value, and every spelling of a sensitive name the matcher accepts, written by
the caller and the model, stays out of every byte the stores write (the SQLite
file, its -wal and -shm, and the PostgreSQL table)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from fleet.services import require_postgres, unique
from vouched import (
    Fact,
    Grounder,
    Policy,
    PostgresSnapshotStore,
    SqliteSnapshotStore,
)
from vouched._jsonio import dumps
from vouched._scan._lex._numbers import read_numbers
from vouched.testing import FakeClock, ScriptedPhraser, ScriptedSource

NOW = "2026-11-29T12:00:00Z"
KEY = b"a secret only the team has"
FACTS = [
    Fact(subject="Alice Smith", attribute="salary", value=85000, unit="EUR", source="hr",
         observed_at=NOW),
    Fact(subject="Alice Smith", attribute="bonus", value=72500, unit="EUR", source="hr",
         observed_at=NOW),
]  # fmt: skip
POLICY = Policy(
    sensitive_subjects=frozenset({"Alice Smith"}),
    sensitive_attributes=frozenset({"salary", "bonus"}),
)
NUMBER_FORMS = {
    Decimal(85000): [
        "eighty-five thousand", "eighty five thousand", "85k", "85K", "85000.0",
        "85,000.00", "0.085 million", "８５０００", "€85k", "$85,000", "EUR 85,000",
        "85 thousand", "85.0k", "85000", "85,000",
    ],
    Decimal(72500): ["72.5k", "72,500", "seventy-two thousand five hundred", "72500.00"],
}  # fmt: skip
NAME_FORMS = [
    "Alice Smith", "A. Smith", "Smith, A.", "A Smith", "Smith, Alice", "alice-smith",
    "Alice\u200bSmith", "Al\u200bice Smith", "Alice Sm\u00adith", "Alice \u200dSmith",
]  # fmt: skip


def _read_as(form: str, value: Decimal) -> bool:
    return any(value in q.values for q in read_numbers(f"It is {form} a year."))


def _spellings(form: str) -> list[bytes]:
    """How a form could sit in a store's bytes: UTF-8 (any case) or JSON-escaped."""
    escaped = dumps(form, ensure_ascii=True)[1:-1]
    return [form.encode(), form.casefold().encode(), escaped.encode(), escaped.lower().encode()]


def _sqlite_bytes(path: Path) -> bytes:
    parts = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
    return b"".join(p.read_bytes() for p in parts if p.exists())


def test_no_form_the_reader_or_matcher_accepts_survives_in_any_byte_written(
    tmp_path: Path,
) -> None:
    for value, forms in NUMBER_FORMS.items():
        for form in forms:
            assert _read_as(form, value), f"the reader does not read {form!r} as {value}"
    numbers = [form for forms in NUMBER_FORMS.values() for form in forms]
    sentences = [
        f"{name} earns {number} a year."
        for name, number in zip(NAME_FORMS * 2, numbers, strict=False)
    ]
    path = tmp_path / "snapshots.db"
    with SqliteSnapshotStore(path) as store:
        for i, sentence in enumerate(sentences):
            grounder = Grounder(
                [ScriptedSource("hr", [FACTS])],
                policy=POLICY,
                phraser=ScriptedPhraser([sentence] * 3),
                clock=FakeClock(NOW),
                store=store,
                redaction_key=KEY,
            )
            grounder.answer_sync(f"What does {NAME_FORMS[i % len(NAME_FORMS)]} earn? ({i})", {
                "subject": NAME_FORMS[i % len(NAME_FORMS)], "expected": numbers[i],
            })  # fmt: skip
        assert len(store) == len(sentences)
        snapshots = list(store.iter())
    url = require_postgres()
    schema = unique("vouched_sweep")
    import psycopg  # noqa: PLC0415 - the extra under test

    try:
        with PostgresSnapshotStore(url, schema=schema) as pg:
            pg.write_many(snapshots)
        with psycopg.connect(url) as connection:
            rows = connection.execute(
                psycopg.sql.SQL("SELECT id, body, prompt_version FROM {}.snapshots").format(
                    psycopg.sql.Identifier(schema)
                )
            ).fetchall()
    finally:
        with psycopg.connect(url) as connection:
            connection.execute(
                psycopg.sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                    psycopg.sql.Identifier(schema)
                )
            )
    table = "\n".join("\t".join(map(str, row)) for row in rows).encode()
    assert len(rows) == len(sentences)
    for where, raw in (("sqlite", _sqlite_bytes(path)), ("postgresql", table)):
        found = [form for form in numbers if any(b in raw for b in _spellings(form))]
        assert found == [], (where, found)
        for name in ("alice", "smith"):  # no spelling of the name leaves a part of it
            at = raw.lower().find(name.encode())
            assert at < 0, (where, raw[max(0, at - 60) : at + 40])
