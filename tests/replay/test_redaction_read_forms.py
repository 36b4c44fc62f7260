"""The eight written forms of a sensitive salary (85,000) and name (Alice Smith)
a person reads directly, stored in clear before: each is redacted now, and the
words that only look like them are left alone."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from vouched import Fact, Policy, Snapshot

POLICY = Policy(
    sensitive_subjects=frozenset({"Alice Smith"}), sensitive_attributes=frozenset({"salary"})
)
FACT = Fact(subject="Alice Smith", attribute="salary", value=85000, unit="EUR", source="hr",
            observed_at="2026-11-29T12:00:00Z")  # fmt: skip


def _stored(text: str) -> str:
    snapshot = Snapshot.build(
        created_at=datetime(2026, 11, 29, 12, tzinfo=UTC), question=f"And {text}?",
        facts=[FACT], policy=POLICY, prompt_version="p1", phraser="t",
        output=f"Per the record, {text} it is.", status="ok", redaction_key=b"a team secret",
    )  # fmt: skip
    return snapshot.canonical_json()


@pytest.mark.parametrize(
    "form",
    [".85e5", "0b10100110000001000", "0o246010", "85 large", "85 tausend", "85 Tsd.",
     "八万五千", "8.5万", "A l i c e S m i t h", "Al1ce Sm1th", "4lice 5mith"],
)  # fmt: skip
def test_a_directly_readable_form_is_never_stored_in_clear(form: str) -> None:
    stored = json.loads(_stored(form))
    assert form.casefold() not in stored["output"].casefold()
    assert form.casefold() not in stored["question"].casefold()
    assert "[redacted:" in stored["output"]


@pytest.mark.parametrize("text", ["Malice", "rose 4.5. then", "5 large eggs", "A.S.A.P."])
def test_what_only_looks_like_a_secret_is_kept(text: str) -> None:
    assert f"Per the record, {text} it is." in json.loads(_stored(text))["output"]
