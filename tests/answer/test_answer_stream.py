"""Grounder.answer_stream: sentences only after they pass the scan, then the on-fail policy."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from vouched import (
    AnswerEvent,
    AnswerEventKind,
    AnswerStatus,
    Fact,
    Grounder,
    Prompt,
)
from vouched._answer._onfail import REFUSAL_TEXT, RefusalReason
from vouched.testing import FakeClock, MemorySnapshotStore, ScriptedPhraser, virtual_time

NOW = "2026-11-29T12:10:00Z"
GOOD = ["The temperature in Berlin is 21.4 °C.", "The relative humidity in Berlin is 63%."]
BAD = ["Winds reach 18 km/h.", "It will be 30 °C tomorrow."]
TRUE = " ".join(GOOD)
FABRICATED = f"{GOOD[0]} {BAD[0]} {GOOD[1]}"
K = AnswerEventKind


class _Static:
    name = "open-meteo"

    def __init__(self, facts: Sequence[Fact]) -> None:
        self.facts = list(facts)

    async def fetch(self, query: Any) -> Sequence[Fact]:
        return self.facts


def _weather() -> _Static:
    def fact(attribute: str, value: object, unit: str) -> Fact:
        return Fact(
            subject="Berlin",
            attribute=attribute,
            value=value,
            unit=unit,
            source="open-meteo",
            observed_at="2026-11-29T12:00:00Z",
            confidence=0.95,
            ttl=900,
        )

    return _Static(
        [fact("temperature", Decimal("21.4"), "degC"), fact("relative_humidity", 63, "%")]
    )


def _grounder(phraser: Any, **kw: Any) -> Grounder:
    return Grounder([_weather()], phraser=phraser, clock=FakeClock(NOW), **kw)


async def _events(grounder: Grounder) -> list[AnswerEvent]:
    stream = grounder.answer_stream("How is the weather in Berlin?", {"subject": "Berlin"})
    return [event async for event in stream]


def _stream(grounder: Grounder) -> list[AnswerEvent]:
    return asyncio.run(_events(grounder))


def _kinds(events: list[AnswerEvent]) -> list[tuple[str, int]]:
    return [(str(e.kind), e.segment) for e in events]


def _shown(events: list[AnswerEvent]) -> str:
    return "".join(e.text for e in events if e.kind is K.SENTENCE)


def test_a_clean_answer_arrives_sentence_by_sentence_then_done() -> None:
    events = _stream(_grounder(ScriptedPhraser([TRUE], piece_size=3)))
    assert _kinds(events) == [("sentence", 0), ("sentence", 0), ("done", 0)]
    assert _shown(events) == TRUE
    answer = events[-1].answer
    assert answer is not None
    assert answer.status is AnswerStatus.OK
    assert answer.text == TRUE


def test_refuse_stops_at_the_first_failing_sentence_with_a_refusal() -> None:
    events = _stream(_grounder(ScriptedPhraser([FABRICATED]), on_fail="refuse"))
    assert _kinds(events) == [("sentence", 0), ("refusal", 0), ("done", 0)]
    assert _shown(events) == GOOD[0]
    assert events[1].text == REFUSAL_TEXT
    answer = events[-1].answer
    assert answer is not None
    assert answer.status is AnswerStatus.REFUSED
    assert answer.refusal is RefusalReason.FINDINGS
    assert [f.text for f in answer.findings] == ["18 km/h"]


def test_the_sentences_after_a_failing_one_are_never_read_on() -> None:
    events = _stream(_grounder(ScriptedPhraser([FABRICATED]), on_fail="refuse"))
    assert GOOD[1] not in "".join(e.text for e in events)


def test_retry_follows_in_a_new_segment_the_client_can_tell_apart() -> None:
    phraser = ScriptedPhraser([FABRICATED, TRUE])
    events = _stream(_grounder(phraser, on_fail="retry"))
    assert _kinds(events) == [
        ("sentence", 0),
        ("retry", 1),
        ("sentence", 1),
        ("sentence", 1),
        ("done", 1),
    ]
    answer = events[-1].answer
    assert answer is not None
    assert answer.status is AnswerStatus.OK
    assert answer.text == TRUE
    assert answer.attempts == 2
    assert [p.quote for p in phraser.prompts[1].problems] == ["18 km/h"]


def test_partial_drops_the_rest_with_an_unavailable_note() -> None:
    events = _stream(_grounder(ScriptedPhraser([FABRICATED]), on_fail="partial"))
    assert _kinds(events) == [("sentence", 0), ("note", 0), ("done", 0)]
    assert "unavailable" in events[1].text
    answer = events[-1].answer
    assert answer is not None
    assert answer.status is AnswerStatus.PARTIAL
    assert answer.text == f"{GOOD[0]} {events[1].text}"  # the note, as a whole partial says it
    assert answer.dropped == (BAD[0],)


def test_partial_with_nothing_shown_is_a_refusal() -> None:
    events = _stream(_grounder(ScriptedPhraser([f"{BAD[0]} {GOOD[0]}"]), on_fail="partial"))
    assert _kinds(events) == [("refusal", 0), ("done", 0)]
    answer = events[-1].answer
    assert answer is not None
    assert answer.refusal is RefusalReason.NOTHING_LEFT


def test_a_finding_in_the_last_unterminated_sentence_is_caught_at_the_end() -> None:
    events = _stream(
        _grounder(ScriptedPhraser([f"{GOOD[0]} Winds reach 18 km/h"]), on_fail="refuse")
    )
    assert _kinds(events) == [("sentence", 0), ("refusal", 0), ("done", 0)]
    assert "18" not in _shown(events)


def test_a_phraser_that_fails_mid_way_is_a_refusal_naming_the_error() -> None:
    from vouched import PhraserStreamError  # noqa: PLC0415

    class _Breaks:
        name = "breaks"

        async def phrase(self, prompt: Prompt) -> str:
            raise AssertionError("not called: the phraser streams")

        async def phrase_stream(self, prompt: Prompt) -> AsyncIterator[str]:
            yield GOOD[0] + " "
            raise PhraserStreamError("model server's stream broke off: ReadError")

    events = _stream(_grounder(_Breaks()))
    assert _kinds(events) == [("sentence", 0), ("refusal", 0), ("done", 0)]
    answer = events[-1].answer
    assert answer is not None
    assert answer.refusal is RefusalReason.PHRASER_ERROR
    assert "broke off" in answer.reasons[0]


def test_a_stream_that_hangs_is_refused_at_the_phrase_timeout() -> None:
    class _Hangs:
        name = "hangs"

        async def phrase(self, prompt: Prompt) -> str:
            raise AssertionError("not called: the phraser streams")

        async def phrase_stream(self, prompt: Prompt) -> AsyncIterator[str]:
            yield GOOD[0] + " "
            await asyncio.Event().wait()
            yield "never"

    with virtual_time() as loop:
        events = loop.run(_events(_grounder(_Hangs(), phrase_timeout=5)))
    spent = loop.elapsed
    assert _kinds(events) == [("sentence", 0), ("refusal", 0), ("done", 0)]
    answer = events[-1].answer
    assert answer is not None
    assert answer.refusal is RefusalReason.PHRASER_TIMEOUT
    assert spent == 5


def test_a_phraser_that_cannot_stream_is_still_handed_on_sentence_by_sentence() -> None:
    events = _stream(_grounder(lambda prompt: TRUE))
    assert _kinds(events) == [("sentence", 0), ("sentence", 0), ("done", 0)]


def test_the_snapshot_is_written_as_for_answer() -> None:
    store = MemorySnapshotStore()
    grounder = _grounder(ScriptedPhraser([FABRICATED]), on_fail="partial", store=store)

    async def main() -> list[AnswerEvent]:
        events = await _events(grounder)
        await grounder.settle()
        return events

    events = asyncio.run(main())
    (snapshot,) = store.iter()
    assert snapshot.output == f"{GOOD[0]} {events[1].text}"  # what was shown, note included
    assert snapshot.status == "partial"


def test_the_done_event_times_the_first_sentence() -> None:
    events = _stream(_grounder(ScriptedPhraser([TRUE])))
    answer = events[-1].answer
    assert answer is not None
    assert "first_sentence" in answer.timings


@settings(max_examples=60, deadline=None)
@given(
    sentences=st.lists(st.sampled_from(GOOD + BAD), min_size=1, max_size=6),
    piece_size=st.integers(min_value=1, max_value=40),
    on_fail=st.sampled_from(["refuse", "partial", "retry"]),
)
def test_no_character_of_a_failing_sentence_is_ever_shown(
    sentences: list[str], piece_size: int, on_fail: str
) -> None:
    text = " ".join(sentences)
    events = _stream(_grounder(ScriptedPhraser([text], cycle=True, piece_size=piece_size),
                               on_fail=on_fail))  # fmt: skip
    for segment in {e.segment for e in events}:
        shown = "".join(e.text for e in events if e.kind is K.SENTENCE and e.segment == segment)
        assert not any(bad in shown for bad in BAD)
        clean_prefix = text.split(BAD[0])[0].split(BAD[1])[0]
        assert clean_prefix.startswith(shown)
    assert events[-1].kind is K.DONE


def test_a_streamed_refusal_records_each_attempt_with_its_action() -> None:
    events = _stream(_grounder(ScriptedPhraser([FABRICATED, FABRICATED])))
    answer = events[-1].answer
    assert answer is not None
    assert answer.status is AnswerStatus.REFUSED
    assert [str(a.action) for a in answer.trail] == ["retry", "refuse"]
    # What the model said up to where reading stopped: the fabrication included.
    assert all(a.text.startswith(f"{GOOD[0]} {BAD[0]}") for a in answer.trail)
    assert all(a.prompt_version == answer.prompt_version for a in answer.trail)


def test_a_streamed_answer_when_every_source_failed_is_unavailable() -> None:
    class _Down:
        name = "down"

        async def fetch(self, query: Any) -> Sequence[Fact]:
            raise ConnectionError("down")

    grounder = Grounder([_Down()], clock=FakeClock(NOW))
    answer = _stream(grounder)[-1].answer
    assert answer is not None
    assert answer.status is AnswerStatus.UNAVAILABLE
