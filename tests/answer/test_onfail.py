"""On-fail policies as values, and the pure pieces behind retry and partial."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from vouched import Fact, OnFail, build_prompt
from vouched._answer._onfail import drop_sentences, plan, problems_for, sentence_spans


@dataclass(frozen=True)
class _Finding:
    kind: str
    start: int
    end: int
    text: str
    detail: str
    subject: str | None = None
    attribute: str | None = None


def _finding(text: str, needle: str, **kw: str) -> _Finding:
    start = text.index(needle)
    return _Finding(
        kw.pop("kind", "ungrounded_number"), start, start + len(needle), needle, "x", **kw
    )


def test_retry_alone_means_retry_once_then_refuse() -> None:
    assert plan("retry") == (OnFail.RETRY, OnFail.REFUSE)


def test_retry_then_partial_is_a_plan() -> None:
    assert plan(("retry", "partial")) == (OnFail.RETRY, OnFail.PARTIAL)


def test_partial_and_refuse_are_terminal_steps() -> None:
    assert plan("partial") == (OnFail.PARTIAL,)
    assert plan(OnFail.REFUSE) == (OnFail.REFUSE,)


def test_a_step_after_a_terminal_step_is_refused() -> None:
    with pytest.raises(ValueError, match="last step"):
        plan(("partial", "retry"))


def test_unknown_step_names_the_choices() -> None:
    with pytest.raises(ValueError, match="retry, partial, refuse"):
        plan("substitute")


def test_a_decimal_point_does_not_end_a_sentence() -> None:
    text = "It is 21.4 °C in Berlin. Wind is 18 km/h!  Rain? None."
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "It is 21.4 °C in Berlin.",
        "Wind is 18 km/h!",
        "Rain?",
        "None.",
    ]


def test_partial_drops_only_the_sentences_holding_findings() -> None:
    text = "It is 21.4 °C in Berlin. Winds reach 18 km/h. Humidity is 63%."
    result = drop_sentences(text, [_finding(text, "18")], lambda rest: [])
    assert result.text == "It is 21.4 °C in Berlin. Humidity is 63%."
    assert result.dropped == ("Winds reach 18 km/h.",)


def test_partial_rechecks_what_is_left_and_drops_again() -> None:
    text = "In Berlin it is 21.4 °C. It is 19 °C there too. Humidity is 63%."

    def check(rest: str) -> list[_Finding]:
        return [_finding(rest, "63")] if "63" in rest else []

    result = drop_sentences(text, [_finding(text, "19")], check)
    assert result.text == "In Berlin it is 21.4 °C."
    assert len(result.dropped) == 2
    assert [f.text for f in result.findings] == ["19", "63"]


def test_partial_leaves_nothing_when_every_sentence_has_a_finding() -> None:
    text = "Winds reach 18 km/h."
    assert drop_sentences(text, [_finding(text, "18")], lambda rest: []).text == ""


def test_partial_never_rewrites_the_kept_words() -> None:
    text = "It is  21.40 °C in Berlin. Winds reach 18 km/h."
    result = drop_sentences(text, [_finding(text, "18")], lambda rest: [])
    assert result.text == "It is  21.40 °C in Berlin."


def test_problems_quote_the_words_and_name_the_contradicted_fact() -> None:
    fact = Fact(
        subject="Berlin",
        attribute="relative_humidity",
        value=63,
        source="open-meteo",
        observed_at="2026-11-29T12:00:00Z",
    )
    prompt = build_prompt("?", [fact], [Fact.silence("Berlin", "wind_speed", "timeout")])
    text = "Humidity is 70%. Wind is 18 km/h."
    findings = [
        _finding(
            text, "70%", kind="value_mismatch", subject="Berlin", attribute="relative_humidity"
        ),
        _finding(text, "18 km/h", kind="silent_spoken", attribute="wind_speed"),
        _finding(text, "Wind"),
    ]
    problems = problems_for(prompt, text, findings)
    assert [(p.kind, p.quote, p.fact_ids) for p in problems] == [
        ("value_mismatch", "70%", ("f1",)),
        ("silent_spoken", "18 km/h", ("s1",)),
        ("ungrounded_number", "Wind", ()),
    ]
