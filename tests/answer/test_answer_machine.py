"""The on-fail machine is one pure function: plan + attempt outcome -> next action."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

import pytest

from vouched import AnswerStatus, ConfigError, Fact, Finding, Grounder, OnFail
from vouched._answer._machine import (
    AnswerMode,
    GuardErrorPolicy,
    Outcome,
    after_partial,
    next_action,
    provisional,
    steps_for,
)
from vouched._answer._onfail import REFUSAL_TEXT, UNCHECKED_TEXT, RefusalReason, plan
from vouched._replay._attempts import AttemptAction
from vouched.testing import FakeClock, ScriptedPhraser

RETRY_THEN_REFUSE = plan("retry")
NOW = "2026-11-29T12:10:00Z"
GOOD = "The temperature in Berlin is 21.4 °C."


def test_a_passing_attempt_is_accepted_as_ok() -> None:
    decided = next_action(RETRY_THEN_REFUSE, 0, Outcome.PASSED)
    assert (decided.action, decided.status) == (AttemptAction.ACCEPT, AnswerStatus.OK)


def test_findings_under_a_retry_step_ask_again() -> None:
    decided = next_action(RETRY_THEN_REFUSE, 0, Outcome.FINDINGS)
    assert (decided.action, decided.status) == (AttemptAction.RETRY, None)


def test_findings_after_the_last_retry_refuse() -> None:
    decided = next_action(RETRY_THEN_REFUSE, 1, Outcome.FINDINGS)
    assert decided.status is AnswerStatus.REFUSED
    assert decided.refusal is RefusalReason.FINDINGS


def test_a_phraser_timeout_refuses_at_once_whatever_the_plan() -> None:
    decided = next_action(RETRY_THEN_REFUSE, 0, Outcome.TIMEOUT)
    assert (decided.action, decided.refusal) == (AttemptAction.ERROR, RefusalReason.PHRASER_TIMEOUT)


def test_audit_runs_only_the_plans_last_step() -> None:
    assert steps_for(RETRY_THEN_REFUSE, AnswerMode.AUDIT) == (OnFail.REFUSE,)


def test_audit_passes_the_text_of_a_refused_attempt() -> None:
    decided = next_action((OnFail.REFUSE,), 0, Outcome.FINDINGS, mode=AnswerMode.AUDIT)
    assert decided.passes_text
    assert decided.status is AnswerStatus.REFUSED


def test_a_guard_error_refuses_when_closed_and_passes_unchecked_when_open() -> None:
    closed = next_action(RETRY_THEN_REFUSE, 0, Outcome.GUARD_ERROR)
    opened = next_action(RETRY_THEN_REFUSE, 0, Outcome.GUARD_ERROR,
                         on_guard_error=GuardErrorPolicy.OPEN)  # fmt: skip
    assert closed.refusal is RefusalReason.GUARD_ERROR
    assert (opened.status, opened.passes_text) == (AnswerStatus.UNCHECKED, True)


def test_partial_with_nothing_kept_refuses_as_nothing_left() -> None:
    assert after_partial(kept=False).refusal is RefusalReason.NOTHING_LEFT
    assert after_partial(kept=True).status is AnswerStatus.PARTIAL


def test_only_a_retry_steps_sentences_are_provisional() -> None:
    assert provisional(RETRY_THEN_REFUSE, 0)
    assert not provisional(RETRY_THEN_REFUSE, 1)


class _Berlin:
    name = "open-meteo"

    async def fetch(self, query: Any) -> Sequence[Fact]:
        if query.get("subject", "Berlin") != "Berlin":
            return []
        return [Fact(subject="Berlin", attribute="temperature", value=Decimal("21.4"),
                     unit="degC", source="open-meteo", observed_at="2026-11-29T12:00:00Z",
                     ttl=900)]  # fmt: skip


def _broken(text: str) -> Iterable[Finding]:
    raise RuntimeError("a check with a bug")


@pytest.mark.parametrize("streamed", [False, True])
def test_a_failing_check_refuses_as_guard_error_when_closed(streamed: bool) -> None:
    grounder = Grounder([_Berlin()], phraser=ScriptedPhraser([GOOD]), clock=FakeClock(NOW),
                        checks=[_broken])  # fmt: skip
    answer = _answer(grounder, streamed=streamed)
    assert answer.status is AnswerStatus.REFUSED
    assert answer.refusal is RefusalReason.GUARD_ERROR
    # nothing was judged, so the refusal must not read as "found wanting"
    assert answer.text == UNCHECKED_TEXT != REFUSAL_TEXT


@pytest.mark.parametrize("streamed", [False, True])
def test_a_failing_check_passes_the_text_unchecked_when_open(streamed: bool) -> None:
    grounder = Grounder([_Berlin()], phraser=ScriptedPhraser([GOOD]), clock=FakeClock(NOW),
                        checks=[_broken], on_guard_error="open")  # fmt: skip
    answer = _answer(grounder, streamed=streamed)
    assert answer.status is AnswerStatus.UNCHECKED
    assert answer.text == GOOD


def test_an_unknown_mode_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="mode"):
        Grounder([], mode="shadowy")


def _answer(grounder: Grounder, *, streamed: bool) -> Any:
    async def main() -> Any:
        if not streamed:
            return await grounder.answer("How warm?", {"subject": "Berlin"})
        events = [e async for e in grounder.answer_stream("How warm?", {"subject": "Berlin"})]
        return events[-1].answer  # type: ignore[union-attr]

    return asyncio.run(main())


class _Nothing:
    name = "empty"

    async def fetch(self, query: Any) -> Sequence[Fact]:
        return []


def test_a_caller_number_in_the_second_query_of_a_list_is_checked() -> None:
    grounder = Grounder([_Berlin()], clock=FakeClock(NOW))
    queries = [{"subject": "Berlin"}, {"subject": "31 °C"}]
    answer = asyncio.run(grounder.answer("Berlin?", queries))
    assert "31 °C" not in answer.text
    assert answer.status is not AnswerStatus.OK


def test_a_source_without_facts_for_a_subject_does_not_contradict_another() -> None:
    grounder = Grounder([_Berlin(), _Nothing()], clock=FakeClock(NOW))
    answer = asyncio.run(grounder.answer("Berlin?", {"subject": "Berlin"}))
    assert "21.4 °C" in answer.text
    assert "Nothing about Berlin" not in answer.text


def test_a_guard_error_in_audit_passes_the_text_whatever_the_policy() -> None:
    decided = next_action(RETRY_THEN_REFUSE, 0, Outcome.GUARD_ERROR, mode=AnswerMode.AUDIT)
    assert (decided.status, decided.passes_text) == (AnswerStatus.UNCHECKED, True)


@pytest.mark.parametrize("streamed", [False, True])
def test_a_failing_check_in_audit_mode_lets_the_models_words_through(streamed: bool) -> None:
    grounder = Grounder([_Berlin()], phraser=ScriptedPhraser([GOOD]), clock=FakeClock(NOW),
                        checks=[_broken], mode="audit", on_guard_error="closed")  # fmt: skip
    answer = _answer(grounder, streamed=streamed)
    assert (answer.status, answer.text) == (AnswerStatus.UNCHECKED, GOOD)
    assert "guard_error" in answer.reasons
