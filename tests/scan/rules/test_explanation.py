"""The clause and explanation families over one sentence's judged quantities."""

from __future__ import annotations

from vouched import Finding, FindingKind
from vouched._scan._rules import judge
from vouched._scan._rules._explanation import explained_names

from ._build import build

_K = FindingKind


def test_a_clause_whose_numbers_are_all_another_subjects_is_one_subject_mismatch() -> None:
    built = build("weather", "Munich has a temperature of 21.4 °C and 63% humidity.")
    ctx = built.context()
    judged = [s._replace(outcome=judge(s.quantity, s.binding, ctx)) for s in built.stated()]
    explained = explained_names(judged, ctx)
    found = [s.outcome for s in explained if isinstance(s.outcome, Finding)]
    assert [(f.kind, f.text) for f in found] == [(_K.SUBJECT_MISMATCH, "Munich")]
