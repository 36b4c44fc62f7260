"""The words family, each rule driven alone on one word that states a fact."""

from __future__ import annotations

from vouched import Finding, FindingKind
from vouched._scan._rules._words import judge_words, stated_comparison

from ._build import Built, build

_K = FindingKind


def test_a_comparison_the_facts_contradict_is_a_relation_mismatch() -> None:
    built = build("weather", "Berlin is colder than Munich today.")
    outcome = stated_comparison(built.said("colder than"), built.words())
    assert isinstance(outcome, Finding)
    assert (outcome.kind, outcome.text) == (_K.RELATION_MISMATCH, "colder than")


def test_a_comparison_the_facts_hold_makes_no_finding() -> None:
    built = build("weather", "Munich is colder than Berlin today.")
    assert not isinstance(stated_comparison(built.said("colder than"), built.words()), Finding)


def test_a_negated_comparison_is_never_judged() -> None:
    built = build("weather", "Berlin is not colder than Munich today.")
    assert judge_words(built.words()) == ([], 0)


def test_negation_is_a_field_of_the_words_reading() -> None:
    negated = build("weather", "Berlin is not colder than Munich today.")
    plain = build("weather", "Berlin is colder than Munich today.")
    assert negated.evidence.readings[_span(negated, "colder than")].denied is True
    assert plain.evidence.readings[_span(plain, "colder than")].denied is False


def test_a_words_reading_names_the_subjects_around_it() -> None:
    built = build("weather", "Berlin is colder than Munich today.")
    read = built.evidence.readings[_span(built, "colder than")]
    assert (read.before, read.after) == (("Berlin",), "Munich")


def _span(built: Built, phrase: str) -> tuple[int, int]:
    start = built.text.index(phrase)
    return start, start + len(phrase)
