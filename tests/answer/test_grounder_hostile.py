"""The Grounder under hostile text: capped, scanned off the loop, the caller's text checked."""

from __future__ import annotations

import asyncio

from vouched import AnswerStatus, Fact, Grounder, GuardedSource, SourceError
from vouched.testing import FakeClock, ScriptedPhraser, ScriptedSource

NOW = "2026-11-29T12:00:00Z"
TEMPERATURE = Fact(
    subject="Berlin",
    attribute="temperature",
    value=21,
    unit="degC",
    source="weather",
    observed_at=NOW,
)


def test_a_phrased_text_over_the_cap_is_refused_as_output_too_long() -> None:
    grounder = Grounder(
        [ScriptedSource("weather", [[TEMPERATURE]])],
        phraser=ScriptedPhraser(["It is 21 °C in Berlin. " * 50]),
        clock=FakeClock(NOW),
        max_output_chars=100,
    )
    answer = grounder.answer_sync("How warm is it in Berlin?")
    assert answer.status is AnswerStatus.REFUSED
    assert answer.refusal == "output_too_long"


def test_a_number_in_the_query_subject_echoed_in_a_silence_is_a_finding() -> None:
    clock = FakeClock(NOW)
    down = GuardedSource(ScriptedSource("weather", [SourceError("down")]), clock=clock)
    grounder = Grounder([down], clock=clock, on_fail="refuse")
    answer = grounder.answer_sync("What is the weather?", {"subject": "Berlin, where it is 31 °C,"})
    assert answer.status is AnswerStatus.REFUSED
    assert [f.text for f in answer.findings] == ["31 °C"]


def test_a_long_scan_leaves_the_event_loop_free() -> None:
    # Many numbers no fact vouches for: a scan that takes a while.
    long_text = " ".join(f"Berlin had {n} mm of rain on day {n}." for n in range(400))
    phrased = asyncio.Event()

    def phrase(prompt: object) -> str:
        phrased.set()
        return long_text

    grounder = Grounder(
        [ScriptedSource("weather", [[TEMPERATURE]])],
        phraser=ScriptedPhraser([phrase]),
        clock=FakeClock(NOW),
        on_fail="refuse",
    )

    async def run() -> int:
        ticks = 0
        answering = asyncio.create_task(grounder.answer("How wet was Berlin?"))
        await phrased.wait()
        while not answering.done():
            ticks += 1
            await asyncio.sleep(0)
        await answering
        return ticks

    # On the loop, the scan would run between two ticks: a handful at most.
    assert asyncio.run(run()) > 50
