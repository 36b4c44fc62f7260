"""A period far in the future or the past is read, never a crash (issue 39, item 11).

"Until further notice" is often written as valid until 9999-12-31; a scan that
names a time used to shift periods by the longest fact's length and left
datetime's range (OverflowError): a guard error on every forecast answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vouched import AnswerStatus, Fact, FindingKind, Grounder, Lexicon, scan
from vouched.testing import FakeClock, ScriptedPhraser

NOW = datetime(2026, 12, 6, 12, tzinfo=UTC)  # a Sunday
LEXICON = Lexicon.from_json({"attributes": {"temperature_max": ["high", "a high of"]}})
TIME_WORDS = [
    "Tomorrow the high is 5 °C.",
    "On Tuesday the high is 7 °C.",
    "The high is 7 °C on 8 December.",
    "On the last day the high is 7 °C.",
    "Early next week the high is 5 °C.",
    "Over the weekend the high is 5 °C.",
    "Day three has a high of 7 °C.",
    "Tonight the high is 5 °C.",
]


def _fact(attribute: str, value: object, start: str, end: str, unit: str | None) -> Fact:
    return Fact(subject="Vienna", attribute=attribute, value=value, unit=unit, source="s",
                observed_at="2026-12-06T10:00:00Z", ttl=86400,
                valid_from=start, valid_until=end)  # fmt: skip


MONDAY, TUESDAY, WEDNESDAY = ("2026-12-07T00:00+01:00", "2026-12-08T00:00+01:00",
                               "2026-12-09T00:00+01:00")  # fmt: skip
FORECAST = [
    _fact("temperature_max", Decimal(5), MONDAY, TUESDAY, "degC"),
    _fact("temperature_max", Decimal(7), TUESDAY, WEDNESDAY, "degC"),
]
UNTIL_FURTHER_NOTICE = _fact(
    "warning", "storm", "2026-12-06T00:00+01:00", "9999-12-31T00:00+01:00", None
)


@pytest.mark.parametrize("text", TIME_WORDS)
def test_a_fact_valid_until_9999_leaves_every_time_word_readable(text: str) -> None:
    scan(text, [*FORECAST, UNTIL_FURTHER_NOTICE], LEXICON, now=NOW)  # raised OverflowError


def test_a_wrong_high_for_tomorrow_is_caught_beside_a_fact_valid_until_9999() -> None:
    report = scan("Tomorrow the high is 7 °C.", [*FORECAST, UNTIL_FURTHER_NOTICE], LEXICON, now=NOW)
    assert [f.kind for f in report.findings] == [FindingKind.VALUE_MISMATCH]


def test_a_right_high_for_tomorrow_passes_beside_a_fact_valid_until_9999() -> None:
    report = scan("Tomorrow the high is 5 °C.", [*FORECAST, UNTIL_FURTHER_NOTICE], LEXICON, now=NOW)
    assert report.passed


def test_a_fact_valid_until_9999_is_visible_to_a_sentence_about_tomorrow() -> None:
    warning = _fact("warning_level", 3, "2026-12-06T00:00+01:00", "9999-12-31T00:00+01:00", None)
    report = scan("Tomorrow the warning level is 4.", [*FORECAST, warning],
                  Lexicon.from_json({"attributes": {"warning_level": ["warning level"]}}),
                  now=NOW)  # fmt: skip
    assert [f.kind for f in report.findings] == [FindingKind.VALUE_MISMATCH]


def test_a_period_that_began_in_year_one_is_read() -> None:
    ancient = _fact("warning", "storm", "0001-01-01T00:00+00:00", "2026-12-31T00:00+00:00", None)
    report = scan("Tomorrow the high is 5 °C.", [*FORECAST, ancient], LEXICON, now=NOW)
    assert report.passed


@pytest.mark.parametrize(("high", "passed"), [(7, True), (5, False)])
def test_a_day_at_the_end_of_9999_is_not_counted_as_the_forecasts_last_day(
    high: int, passed: bool
) -> None:
    last = _fact("warning", "storm", "9999-12-31T00:00+00:00", "9999-12-31T23:00+00:00", None)
    report = scan(f"On the last day the high is {high} °C.", [*FORECAST, last], LEXICON, now=NOW)
    assert report.passed is passed


_INSTANTS = st.datetimes(
    min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
)


@settings(max_examples=60, deadline=None)
@given(start=_INSTANTS, end=_INSTANTS, now=_INSTANTS, text=st.sampled_from(TIME_WORDS))
def test_scanning_never_raises_whatever_period_and_now(
    start: datetime, end: datetime, now: datetime, text: str
) -> None:
    if not start < end:
        start, end = end, start
    if start == end:
        return
    odd = Fact(subject="Vienna", attribute="warning", value="storm", source="s",
               observed_at="2026-12-06T10:00:00Z", valid_from=start, valid_until=end)  # fmt: skip
    scan(text, [*FORECAST, odd], LEXICON, now=now)


class _Forecast:
    name = "forecast"

    async def fetch(self, query: Any) -> Sequence[Fact]:
        return [*FORECAST, UNTIL_FURTHER_NOTICE]


def _answer(texts: list[str], on_guard_error: str) -> Any:
    grounder = Grounder([_Forecast()], phraser=ScriptedPhraser(texts), lexicon=LEXICON,
                        clock=FakeClock(NOW), on_guard_error=on_guard_error,
                        on_fail="refuse")  # fmt: skip
    return asyncio.run(grounder.answer("What's the high in Vienna tomorrow?", {}))


@pytest.mark.parametrize("on_guard_error", ["open", "closed"])
def test_a_wrong_high_beside_a_fact_until_9999_is_refused_not_passed_unchecked(
    on_guard_error: str,
) -> None:
    answer = _answer(["Tomorrow the high in Vienna is 7 °C."], on_guard_error)
    assert answer.status is AnswerStatus.REFUSED
    assert answer.findings


@pytest.mark.parametrize("on_guard_error", ["open", "closed"])
def test_a_right_high_beside_a_fact_until_9999_is_answered(on_guard_error: str) -> None:
    answer = _answer(["Tomorrow the high in Vienna is 5 °C."], on_guard_error)
    assert answer.status is AnswerStatus.OK
