"""No written form of a sensitive value reaches the store's bytes (db, -wal, -shm)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vouched import (
    ConfigError,
    Fact,
    Grounder,
    Policy,
    Snapshot,
    SqliteSnapshotStore,
    TemplatePhraser,
)
from vouched._time import parse_instant
from vouched.testing import FakeClock, ScriptedPhraser, ScriptedSource

NOW = "2026-11-29T12:00:00Z"
KEY = b"a secret only the team has"
SALARY = Fact(
    subject="Alice Smith",
    attribute="salary",
    value=85000,
    unit="EUR",
    source="hr",
    observed_at=NOW,
    citation="hr/alice-smith/salary",
)
POLICY = Policy(
    sensitive_subjects=frozenset({"Alice Smith"}), sensitive_attributes=frozenset({"salary"})
)
# Every way the secret was written on its way in: by the source, the caller and the model.
FORMS = ("85000", "85,000", "85.000", "85 000", "Alice Smith", "Smith, Alice", "alice-smith")


def store_bytes(path: Path) -> bytes:
    parts = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
    return b"".join(p.read_bytes() for p in parts if p.exists())


def test_sensitive_settings_without_a_key_are_a_config_error() -> None:
    with pytest.raises(ConfigError, match="redaction_key"):
        Snapshot.build(
            created_at=parse_instant(NOW),
            question="q",
            facts=[SALARY],
            policy=POLICY,
            prompt_version="p1",
            phraser="template",
            output="",
            status="ok",
        )


def test_a_grounder_with_a_store_and_sensitive_settings_needs_a_key(tmp_path: Path) -> None:
    with SqliteSnapshotStore(tmp_path / "s.db") as store, pytest.raises(ConfigError):
        Grounder([], policy=POLICY, store=store)


def test_every_written_form_of_every_secret_stays_out_of_the_store_files(tmp_path: Path) -> None:
    path = tmp_path / "snapshots.db"
    clock = FakeClock(NOW)
    # The model writes the salary grouped, names her surname first, repeats the
    # citation; the retry is another attempt, with the amount written two more ways.
    phraser = ScriptedPhraser(
        [
            "Smith, Alice earns 85,000 EUR (hr/alice-smith/salary); alice-smith: 86,000.",
            "Alice Smith earns 85 000 EUR, or 85.000 EUR as written in Berlin.",
        ]
    )
    source = ScriptedSource("hr", [[SALARY]])
    with SqliteSnapshotStore(path) as store:
        grounder = Grounder(
            [source], policy=POLICY, phraser=phraser, clock=clock, store=store, redaction_key=KEY
        )
        answer = grounder.answer_sync(
            "What does Alice Smith earn?", {"subject": "Alice Smith", "person": "Smith, Alice"}
        )
        assert answer.attempts == 2
        raw = store_bytes(path)
        assert raw  # something was written
        for form in (*FORMS, "hr/alice-smith/salary"):
            assert form.encode() not in raw, form
            assert form.casefold().encode() not in raw.lower(), form


def test_a_finding_tied_to_a_sensitive_attribute_keeps_no_text_of_its_span() -> None:
    snapshot = Snapshot.build(
        created_at=parse_instant(NOW),
        question="q",
        facts=[SALARY],
        policy=POLICY,
        prompt_version="p1",
        phraser="template",
        output="She earns 91,500 EUR.",
        findings=[
            {
                "kind": "value_mismatch",
                "start": 10,
                "end": 20,
                "text": "91,500 EUR",
                "detail": "'91,500 EUR' does not match",
                "subject": None,
                "attribute": "salary",
            }
        ],
        status="refused",
        redaction_key=KEY,
    )
    assert "91,500" not in snapshot.canonical_json()
    assert snapshot.output.startswith("She earns [redacted:")


def test_the_template_phrasers_answer_keeps_no_secret(tmp_path: Path) -> None:
    path = tmp_path / "snapshots.db"
    with SqliteSnapshotStore(path) as store:
        grounder = Grounder(
            [ScriptedSource("hr", [[SALARY]])],
            policy=POLICY,
            phraser=TemplatePhraser(),
            clock=FakeClock(NOW),
            store=store,
            redaction_key=KEY,
        )
        grounder.answer_sync("What does Alice Smith earn?", {"subject": "Alice Smith"})
        raw = store_bytes(path).lower()
    for form in FORMS:
        assert form.casefold().encode() not in raw, form
