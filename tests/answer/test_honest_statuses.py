"""Statuses a dashboard can count: every source failed is ``unavailable``,
and a partial answer says what it left out."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from vouched import AnswerStatus, Fact, Grounder, Lexicon
from vouched.testing import FakeClock, ScriptedPhraser

NOW = "2026-11-29T12:10:00Z"


class _Static:
    name = "open-meteo"

    async def fetch(self, query: Any) -> Sequence[Fact]:
        return [
            Fact(
                subject="Berlin",
                attribute="temperature",
                value=Decimal("21.4"),
                unit="degC",
                source="open-meteo",
                observed_at="2026-11-29T12:00:00Z",
                ttl=900,
            )
        ]


class _Down:
    def __init__(self, name: str) -> None:
        self.name = name

    async def fetch(self, query: Any) -> Sequence[Fact]:
        raise ConnectionError("down")


class _Empty:
    name = "empty"

    async def fetch(self, query: Any) -> Sequence[Fact]:
        return []


def _ask(sources: list[Any], **kw: Any) -> Any:
    grounder = Grounder(sources, clock=FakeClock(NOW), **kw)
    return grounder.answer_sync("How is the weather in Berlin?", {"subject": "Berlin"})


def test_every_source_failing_is_unavailable_not_ok() -> None:
    answer = _ask([_Down("weather"), _Down("rates")])
    assert answer.status is AnswerStatus.UNAVAILABLE
    assert "unavailable right now" in answer.text or "Nothing about" in answer.text


def test_one_source_up_is_still_ok() -> None:
    assert _ask([_Static(), _Down("rates")]).status is AnswerStatus.OK


def test_a_source_with_no_data_is_an_answer_not_an_outage() -> None:
    assert _ask([_Empty(), _Down("rates")]).status is AnswerStatus.OK


def test_partial_says_which_subject_and_attribute_it_could_not_confirm() -> None:
    wrong = "The temperature in Berlin is 25 °C. It is a fine day."
    answer = _ask([_Static()], phraser=ScriptedPhraser([wrong]), on_fail="partial")
    assert answer.status is AnswerStatus.PARTIAL
    assert answer.dropped == ("The temperature in Berlin is 25 °C.",)
    assert answer.text == "It is a fine day. The temperature for Berlin could not be confirmed."


def test_partial_names_the_attribute_by_the_lexicons_phrase_not_its_code() -> None:
    wrong = "It is a fine day. The thermometer in Berlin reads 25 °C."
    answer = _ask(
        [_Static()],
        phraser=ScriptedPhraser([wrong]),
        on_fail="partial",
        lexicon=Lexicon(attributes={"temperature": ["air temperature", "thermometer"]}),
    )
    assert answer.text == "It is a fine day. The air temperature for Berlin could not be confirmed."


def test_partial_never_cuts_a_sentence_at_an_abbreviation() -> None:
    wrong = "Dr. Weber says it is a fine day. The temperature in Berlin is 25 °C."
    answer = _ask([_Static()], phraser=ScriptedPhraser([wrong]), on_fail="partial")
    assert answer.dropped == ("The temperature in Berlin is 25 °C.",)
    assert answer.text.startswith("Dr. Weber says it is a fine day. ")
