"""``answer_sync`` takes ``answer``'s parameters, and a snapshot scheduled on one event
loop is settled from another (``asyncio.run(answer)`` then ``asyncio.run(settle)``)."""

from __future__ import annotations

import asyncio

from vouched import Fact, Grounder
from vouched.testing import FakeClock, MemorySnapshotStore, ScriptedPhraser, ScriptedSource

READING = Fact(
    subject="Berlin",
    attribute="temperature",
    value=4.3,
    unit="°C",
    source="weather",
    observed_at="2026-11-29T11:58:00Z",
    ttl=900,
)
CLOCK = "2026-11-29T12:00:00Z"


def test_answer_sync_takes_facts_instead_of_sources() -> None:
    grounder = Grounder([], phraser=ScriptedPhraser(["It is 4.3 °C."]), clock=FakeClock(CLOCK))
    answer = grounder.answer_sync("How warm is Berlin?", facts=[READING])
    assert answer.grounded == (READING,)


def test_answer_sync_takes_an_on_fail_plan_for_one_answer() -> None:
    model = ScriptedPhraser(["It is 4.3 °C. Winds of 18 km/h."], cycle=True)
    grounder = Grounder([], phraser=model, clock=FakeClock(CLOCK))
    answer = grounder.answer_sync("How warm is Berlin?", facts=[READING], on_fail="partial")
    assert answer.status == "partial"


def test_answer_sync_takes_the_callers_messages() -> None:
    model = ScriptedPhraser(["It is 4.3 °C."])
    grounder = Grounder([], phraser=model, clock=FakeClock(CLOCK))
    said = [{"role": "user", "content": "How warm is Berlin?"}]
    grounder.answer_sync("How warm is Berlin?", facts=[READING], messages=said)
    assert model.prompts[0].conversation == tuple(said)


def test_a_snapshot_is_settled_from_a_later_event_loop() -> None:
    store = MemorySnapshotStore()
    grounder = Grounder(
        [ScriptedSource("weather", [[READING]])],
        phraser=ScriptedPhraser(["It is 4.3 °C in Berlin."]),
        clock=FakeClock(CLOCK),
        store=store,
    )
    asyncio.run(grounder.answer("How warm is Berlin?", {"subject": "Berlin"}))
    asyncio.run(grounder.settle())
    assert [snapshot.question for snapshot in store.iter()] == ["How warm is Berlin?"]
