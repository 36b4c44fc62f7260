"""The Grounder end to end: sources -> gate -> prompt -> phraser -> scan -> on-fail."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import pytest

from vouched import (
    AnswerRefusedError,
    AnswerStatus,
    Fact,
    Grounder,
    PhraserHTTPError,
    Prompt,
)
from vouched._answer._onfail import REFUSAL_TEXT, RefusalReason
from vouched.testing import FakeClock, MemorySnapshotStore, ScriptedPhraser

NOW = "2026-11-29T12:10:00Z"
TRUE = "The temperature in Berlin is 21.4 °C. The relative humidity in Berlin is 63%."
FABRICATED = "The temperature in Berlin is 21.4 °C. Winds reach 18 km/h."


class _Static:
    def __init__(self, name: str, facts: Sequence[Fact]) -> None:
        self.name = name
        self.facts = list(facts)
        self.queries: list[Any] = []

    async def fetch(self, query: Any) -> Sequence[Fact]:
        self.queries.append(query)
        return self.facts


class _Broken:
    name = "broken"

    async def fetch(self, query: Any) -> Sequence[Fact]:
        raise ConnectionError("down")


def _weather(observed_at: str = "2026-11-29T12:00:00Z") -> _Static:
    def fact(attribute: str, value: object, unit: str) -> Fact:
        return Fact(
            subject="Berlin",
            attribute=attribute,
            value=value,
            unit=unit,
            source="open-meteo",
            observed_at=observed_at,
            confidence=0.95,
            ttl=900,
        )

    return _Static(
        "open-meteo",
        [fact("temperature", Decimal("21.4"), "degC"), fact("relative_humidity", 63, "%")],
    )


def _grounder(phraser: Any = None, **kw: Any) -> Grounder:
    sources = kw.pop("sources", [_weather()])
    return Grounder(sources, phraser=phraser, clock=FakeClock(NOW), **kw)


def _ask(grounder: Grounder, question: str = "How is the weather in Berlin?") -> Any:
    return grounder.answer_sync(question, {"subject": "Berlin"})


def test_all_grounded_with_the_template_phraser_is_ok_in_one_attempt() -> None:
    answer = _ask(_grounder())
    assert answer.status is AnswerStatus.OK
    assert answer.text == TRUE
    assert answer.attempts == 1
    assert answer.findings == ()
    assert len(answer.grounded) == 2


def test_the_query_reaches_the_sources() -> None:
    source = _weather()
    _ask(_grounder(sources=[source]))
    assert source.queries == [{"subject": "Berlin"}]


def test_answer_records_the_prompt_version_and_stage_timings() -> None:
    answer = _ask(_grounder())
    assert answer.prompt_version.startswith("p-")
    assert set(answer.timings) == {"sources", "gate", "phrase", "scan", "total"}


def test_fabricated_number_is_caught_and_a_clean_retry_is_ok() -> None:
    phraser = ScriptedPhraser([FABRICATED, TRUE])
    answer = _ask(_grounder(phraser))
    assert answer.status is AnswerStatus.OK
    assert answer.text == TRUE
    assert answer.attempts == 2
    assert [f.text for f in answer.trail[0].findings] == ["18 km/h"]


def test_retry_quotes_the_findings_back_to_the_model() -> None:
    phraser = ScriptedPhraser([FABRICATED, TRUE])
    _ask(_grounder(phraser))
    assert phraser.prompts[0].problems == ()
    assert [p.quote for p in phraser.prompts[1].problems] == ["18 km/h"]
    assert '"problems"' in phraser.prompts[1].user


def test_fabricating_twice_is_refused_with_reasons_and_never_substituted() -> None:
    phraser = ScriptedPhraser([FABRICATED, FABRICATED])
    answer = _ask(_grounder(phraser))
    assert answer.status is AnswerStatus.REFUSED
    assert answer.refusal is RefusalReason.FINDINGS
    assert answer.text == REFUSAL_TEXT
    assert "18" not in answer.text
    assert any("18" in reason for reason in answer.reasons)
    assert answer.attempts == 2


def test_refuse_policy_refuses_after_one_attempt() -> None:
    answer = _ask(_grounder(ScriptedPhraser([FABRICATED, TRUE]), on_fail="refuse"))
    assert answer.status is AnswerStatus.REFUSED
    assert answer.attempts == 1


def test_partial_policy_drops_the_sentence_with_the_finding_and_marks_it() -> None:
    answer = _ask(_grounder(ScriptedPhraser([FABRICATED]), on_fail="partial"))
    assert answer.status is AnswerStatus.PARTIAL
    assert answer.text == (
        "The temperature in Berlin is 21.4 °C. "
        "Part of the answer could not be confirmed and was left out."
    )
    assert answer.dropped == ("Winds reach 18 km/h.",)


def test_partial_with_nothing_left_is_refused() -> None:
    answer = _ask(_grounder(ScriptedPhraser(["Winds reach 18 km/h."]), on_fail="partial"))
    assert answer.status is AnswerStatus.REFUSED
    assert answer.refusal is RefusalReason.NOTHING_LEFT


def test_retry_then_partial_phrases_twice_then_keeps_what_passes() -> None:
    phraser = ScriptedPhraser([FABRICATED, FABRICATED])
    answer = _ask(_grounder(phraser, on_fail=("retry", "partial")))
    assert answer.status is AnswerStatus.PARTIAL
    assert phraser.calls == 2


def test_phraser_http_error_is_a_typed_refusal_not_an_exception() -> None:
    phraser = ScriptedPhraser([PhraserHTTPError("model server answered HTTP 500", status=500)])
    answer = _ask(_grounder(phraser))
    assert answer.status is AnswerStatus.REFUSED
    assert answer.refusal is RefusalReason.PHRASER_ERROR
    assert "HTTP 500" in answer.reasons[0]


def test_a_bug_in_a_callable_phraser_is_a_refusal() -> None:
    def broken(prompt: Prompt) -> str:
        raise KeyError("oops")

    answer = _ask(_grounder(broken))
    assert answer.refusal is RefusalReason.PHRASER_ERROR


def test_a_hanging_phraser_is_refused_at_the_phrase_timeout() -> None:
    async def hang(prompt: Prompt) -> str:
        await asyncio.Event().wait()
        return "never"

    answer = _ask(_grounder(hang, phrase_timeout=0.05))
    assert answer.status is AnswerStatus.REFUSED
    assert answer.refusal is RefusalReason.PHRASER_TIMEOUT


def test_raise_for_refusal_raises_the_typed_error() -> None:
    answer = _ask(_grounder(ScriptedPhraser([FABRICATED]), on_fail="refuse"))
    with pytest.raises(AnswerRefusedError, match="findings"):
        answer.raise_for_refusal()


def test_a_plain_callable_phraser_is_used() -> None:
    answer = _ask(_grounder(lambda prompt: "The temperature in Berlin is 21.4 °C."))
    assert answer.status is AnswerStatus.OK


def test_stale_facts_are_stripped_and_said_unavailable() -> None:
    answer = _ask(_grounder(sources=[_weather("2026-11-29T11:00:00Z")]))
    assert answer.grounded == ()
    assert {str(v.reason) for v in answer.violations} == {"stale"}
    assert "21.4" not in answer.text
    assert "The temperature in Berlin is unavailable right now" in answer.text
    assert "out of date" in answer.text
    assert answer.status is AnswerStatus.OK


def test_a_failing_source_becomes_a_stated_silence() -> None:
    answer = _ask(_grounder(sources=[_weather(), _Broken()]))
    assert answer.status is AnswerStatus.OK
    assert [(f.subject, f.attribute, f.silent_reason) for f in answer.silences] == [
        ("Berlin", "*", "source_error")
    ]
    assert "Nothing about Berlin is available right now (the source reported an error)." in (
        answer.text
    )


def test_grounding_rate_counts_the_gate_not_the_stated_silences() -> None:
    answer = _ask(_grounder(sources=[_weather("2026-11-29T11:00:00Z")]))
    assert answer.counts == {"grounded": 0, "silent": 0, "violation": 2}
    assert answer.grounding_rate == 0.0


class _FullDisk:
    def write(self, snapshot: object) -> None:
        raise OSError("disk full")


def test_each_answer_is_written_to_the_store() -> None:
    store = MemorySnapshotStore()
    grounder = _grounder(store=store)
    _ask(grounder, "How is the weather in Berlin?")
    _ask(grounder, "And how is the weather in Berlin now?")
    assert sorted(s.question for s in store.iter()) == [  # one instant: in id order
        "And how is the weather in Berlin now?",
        "How is the weather in Berlin?",
    ]


def test_a_failing_store_never_breaks_the_answer_and_is_counted() -> None:
    grounder = _grounder(store=_FullDisk())
    answer = _ask(grounder)
    assert answer.status is AnswerStatus.OK
    assert grounder.store_failures == 1


def test_a_stalled_store_neither_delays_the_answer_nor_blocks_the_event_loop() -> None:
    release = threading.Event()
    threads: list[int] = []

    class _Stalled:
        def write(self, snapshot: Any) -> None:
            threads.append(threading.get_ident())
            assert release.wait(timeout=10)

    grounder = _grounder(store=_Stalled())

    async def main() -> tuple[AnswerStatus, AnswerStatus, int]:
        first = await grounder.answer("?", {"subject": "Berlin"})
        second = await grounder.answer("?", {"subject": "Berlin"})  # loop still free
        release.set()
        await grounder.settle()
        return first.status, second.status, threading.get_ident()

    first, second, loop_thread = asyncio.run(main())
    assert (first, second) == (AnswerStatus.OK, AnswerStatus.OK)
    assert len(threads) == 2
    assert loop_thread not in threads


def test_answer_sync_refuses_to_run_inside_an_event_loop() -> None:
    grounder = _grounder()

    async def main() -> None:
        grounder.answer_sync("?")

    with pytest.raises(RuntimeError, match="await answer"):
        asyncio.run(main())


def test_answer_to_json_is_plain_data() -> None:
    document = _ask(_grounder()).to_json()
    assert document["status"] == "ok"
    assert document["attempts"] == 1
    assert document["grounding_rate"] == 1.0


def test_snapshots_land_in_a_real_sqlite_store_and_replay_the_answer(tmp_path: Any) -> None:
    from vouched import SqliteSnapshotStore  # noqa: PLC0415

    store = SqliteSnapshotStore(tmp_path / "snapshots.db")
    answer = _ask(_grounder(ScriptedPhraser([FABRICATED, TRUE]), store=store))
    (snapshot,) = list(store.iter())
    assert snapshot.output == answer.text
    assert snapshot.prompt_version == answer.prompt_version
    assert snapshot.attempts == 2
    assert snapshot.status == "ok"


def test_quoting_a_text_fact_is_not_an_unsupported_quote() -> None:
    notice = Fact(
        subject="Museum",
        attribute="notice",
        value="Closed for renovation until the spring",
        source="museum-feed",
        observed_at="2026-11-29T12:00:00Z",
    )
    quoting = 'The museum says: "Closed for renovation until the spring".'
    answer = _ask(_grounder(lambda prompt: quoting, sources=[_Static("museum-feed", [notice])]))
    assert answer.status is AnswerStatus.OK, answer.findings


def test_an_invented_quote_is_caught() -> None:
    invented = 'The weather service says: "a glorious week of sunshine ahead".'
    answer = _ask(_grounder(ScriptedPhraser([invented, invented])))
    assert answer.status is AnswerStatus.REFUSED
    assert "unsupported_quote" in {str(f.kind) for f in answer.findings}
