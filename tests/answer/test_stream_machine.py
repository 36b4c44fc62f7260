"""A streamed answer keeps every guard a whole answer has: the output cap, the
caller-number check, the named partial note, the snapshot (also when the
reader leaves), and nothing it sends carries a failing sentence's words."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from vouched import AnswerEvent, AnswerEventKind, AnswerStatus, Fact, Grounder
from vouched._answer._events import DISCONNECTED
from vouched._answer._onfail import UNCHECKED_TEXT, RefusalReason
from vouched._jsonio import dumps
from vouched.testing import FakeClock, MemorySnapshotStore, ScriptedPhraser

NOW = "2026-11-29T12:10:00Z"
GOOD = "The temperature in Berlin is 21.4 °C."
BAD = "Winds reach 18 km/h."


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


def _grounder(texts: list[str], **kw: Any) -> Grounder:
    return Grounder([_Static()], phraser=ScriptedPhraser(texts), clock=FakeClock(NOW), **kw)


def _run(grounder: Grounder, query: Any = None) -> list[AnswerEvent]:
    async def main() -> list[AnswerEvent]:
        stream = grounder.answer_stream("How warm is Berlin?", query or {"subject": "Berlin"})
        events = [event async for event in stream]
        await grounder.settle()
        return events

    return asyncio.run(main())


def test_a_stream_past_the_output_cap_is_refused_like_a_whole_answer() -> None:
    events = _run(_grounder([GOOD + " It is warm." * 50], max_output_chars=100))
    answer = events[-1].answer
    assert answer is not None
    assert answer.status is AnswerStatus.REFUSED
    assert answer.refusal is RefusalReason.OUTPUT_TOO_LONG
    assert events[-2].kind is AnswerEventKind.REFUSAL
    assert answer.text == UNCHECKED_TEXT  # too long to check: not "not supported"


def test_a_streamed_sentence_repeating_an_unvouched_caller_number_fails() -> None:
    query = {"subject": "Berlin", "note": "Berlin at 35 °C"}
    events = _run(_grounder([f"{GOOD} Berlin at 35 °C is hot."], on_fail="partial"), query)
    said = "".join(e.text for e in events if e.kind is AnswerEventKind.SENTENCE)
    assert "35" not in said
    answer = events[-1].answer
    assert answer is not None
    assert answer.status is AnswerStatus.PARTIAL


def test_a_refusal_event_names_codes_and_spans_not_the_sentence() -> None:
    events = _run(_grounder([BAD], on_fail="refuse"))
    refusal = next(e for e in events if e.kind is AnswerEventKind.REFUSAL)
    assert refusal.reasons
    assert all("18" not in reason for reason in refusal.reasons)
    assert refusal.reasons[0].startswith("ungrounded_number at ")


def test_the_done_event_as_json_carries_no_word_of_a_failing_sentence() -> None:
    events = _run(_grounder([f"{GOOD} {BAD}"], on_fail="partial"))
    document = dumps(events[-1].to_json())
    assert "18" not in document
    assert "Winds" not in document


def test_the_snapshot_keeps_the_failing_sentence() -> None:
    store = MemorySnapshotStore()
    _run(_grounder([f"{GOOD} {BAD}"], on_fail="partial", store=store))
    (snapshot,) = store.iter()
    assert any("18 km/h" in attempt.text for attempt in snapshot.trail)


def test_a_partial_stream_names_what_could_not_be_confirmed() -> None:
    events = _run(_grounder([f"{GOOD} {BAD}"], on_fail="partial"))
    note = next(e for e in events if e.kind is AnswerEventKind.NOTE)
    assert note.text.endswith("it could not be checked.")


def test_a_reader_that_leaves_still_leaves_a_snapshot_of_what_it_was_sent() -> None:
    store = MemorySnapshotStore()
    grounder = _grounder([f"{GOOD} It is a mild day. {GOOD}"], store=store)

    async def main() -> AnswerEvent:
        stream = grounder.answer_stream("How warm is Berlin?", {"subject": "Berlin"})
        first = await anext(stream)
        await stream.aclose()  # the reader hangs up after one sentence
        await grounder.settle()
        return first

    first = asyncio.run(main())
    (snapshot,) = store.iter()
    assert snapshot.status == "partial"
    assert snapshot.output == first.text.strip()
    (attempt,) = snapshot.trail  # the attempt under way, with why it ended
    assert attempt.action == "disconnected"
    assert attempt.text == first.text
    assert snapshot.attempts == 1


def test_a_left_stream_is_recorded_with_the_reason_disconnected() -> None:
    grounder = _grounder([f"{GOOD} It is a mild day."])
    seen: list[Any] = []

    class _Observer:
        def observe(self, answer: Any, verdicts: Any) -> None:
            seen.append(answer)

    grounder.observers = (_Observer(),)

    async def main() -> None:
        stream = grounder.answer_stream("How warm is Berlin?", {"subject": "Berlin"})
        await anext(stream)
        await stream.aclose()

    asyncio.run(main())
    (answer,) = seen
    assert answer.reasons == (DISCONNECTED,)
