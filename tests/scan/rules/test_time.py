"""The time family driven alone (a world whose facts have periods; 3 December 2026 is a
Thursday)."""

from __future__ import annotations

from vouched import FindingKind
from vouched._scan._rules._time import weekday_beside_date

from ._build import build

_K = FindingKind


def test_a_weekday_that_contradicts_the_date_beside_it_is_a_value_mismatch_on_it() -> None:
    text = "On Saturday, 4 December, highs reach 9 °C."
    found = weekday_beside_date(text, build("forecast", text).timing())
    assert [(f.kind, f.text) for f in found] == [(_K.VALUE_MISMATCH, "Saturday")]


def test_a_weekday_that_names_the_date_beside_it_makes_no_finding() -> None:
    text = "On Friday, 4 December, highs reach 9 °C."
    assert weekday_beside_date(text, build("forecast", text).timing()) == []
