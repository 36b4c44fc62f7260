"""``vouched.testing.KeyedPhraser``: a fake model answering from a table keyed on the
prompt's question (what the docs' examples use for model calls)."""

from __future__ import annotations

import asyncio

import pytest

from vouched import PhraserError, build_prompt
from vouched.testing import KeyedPhraser


def _ask(model: KeyedPhraser, question: str) -> str:
    return asyncio.run(model.phrase(build_prompt(question, [], [])))


def test_each_question_gets_its_own_answer() -> None:
    model = KeyedPhraser({"Berlin?": "It is 4 °C.", "Munich?": "It is 7 °C."})
    assert (_ask(model, "Munich?"), _ask(model, "Berlin?")) == ("It is 7 °C.", "It is 4 °C.")


def test_a_second_prompt_for_one_question_gets_the_next_answer_then_the_last() -> None:
    model = KeyedPhraser({"Berlin?": ["first", "retry"]})
    assert [_ask(model, "Berlin?") for _ in range(3)] == ["first", "retry", "retry"]


def test_an_unknown_question_is_a_phraser_error_naming_it() -> None:
    model = KeyedPhraser({"Berlin?": "It is 4 °C."})
    with pytest.raises(PhraserError, match="'Paris\\?'"):
        _ask(model, "Paris?")


def test_the_question_is_matched_without_surrounding_spaces() -> None:
    assert _ask(KeyedPhraser({" Berlin? ": "yes"}), "Berlin?\n") == "yes"
