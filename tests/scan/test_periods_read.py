"""Time words become periods of the place's local time (pure: a sentence and a calendar)."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from vouched._scan._read._times import Calendar, governing, read_times

PLUS_ONE = timezone(timedelta(hours=1))
# Thursday 3 December 2026; the facts cover Thursday to Monday
CALENDAR = Calendar(
    timedelta(hours=1), date(2026, 12, 3), tuple(date(2026, 12, d) for d in range(3, 8))
)


def _at(day: int, hour: int = 0) -> datetime:
    return datetime(2026, 12, day, tzinfo=PLUS_ONE) + timedelta(hours=hour)


def _periods(text: str) -> object:
    return read_times(text.lower(), CALENDAR).periods


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("On Friday it rains.", ((_at(4), _at(5)),)),
        ("Tomorrow it rains.", ((_at(4), _at(5)),)),
        ("The day after tomorrow it rains.", ((_at(5), _at(6)),)),
        ("Tonight it rains.", ((_at(3, 18), _at(4, 6)),)),
        ("This afternoon it rains.", ((_at(3, 12), _at(3, 18)),)),
        ("Friday afternoon it rains.", ((_at(4, 12), _at(4, 18)),)),
        ("On the night of the 5th it rains.", ((_at(5, 18), _at(6, 6)),)),
        ("Over the weekend it rains.", ((_at(5), _at(7)),)),
        ("On December 6 it rains.", ((_at(6), _at(7)),)),
        ("On 6 December it rains.", ((_at(6), _at(7)),)),
        ("On 2026-12-06 it rains.", ((_at(6), _at(7)),)),
        ("December 4-6 will be wet.", ((_at(4), _at(7)),)),
        ("From Friday to Sunday it rains.", ((_at(4), _at(7)),)),
        ("Early next week it rains.", ((_at(7), _at(10)),)),
        ("The last day of the forecast is dry.", ((_at(7), _at(8)),)),
    ],
)
def test_time_words_become_local_periods(text: str, expected: object) -> None:
    assert _periods(text) == expected


def test_day_three_may_count_a_partial_first_day_or_not() -> None:
    assert _periods("Day three is dry.") == ((_at(5), _at(6)), (_at(6), _at(7)))


def test_a_phrase_about_the_whole_forecast_reads_every_fact() -> None:
    assert _periods("Over the next five days it stays mild.") is None


def test_a_sentence_without_time_words_names_no_period() -> None:
    assert _periods("It stays mild.") == ()


def test_a_weekday_beside_a_date_of_another_weekday_is_wrong() -> None:
    timing = read_times("wednesday, december 4 is dry.", CALENDAR)
    assert [(s, e) for s, e, _ in timing.wrong_weekdays] == [(0, 9)]
    assert timing.periods == ((_at(4), _at(5)),)


def test_a_time_after_its_value_governs_back_to_the_last_separator() -> None:
    text = "highs of 12 on friday and 9 on saturday."
    segments, handed = governing(text, read_times(text, CALENDAR), None)
    twelve, nine = text.index("12"), text.index("9 on")
    assert next(p for a, b, p in segments if a <= twelve < b) == ((_at(4), _at(5)),)
    assert next(p for a, b, p in segments if a <= nine < b) == ((_at(5), _at(6)),)
    assert handed is None  # a time inside a clause is not handed on


def test_a_sentence_that_opens_with_a_time_hands_it_on() -> None:
    text = "on saturday it rains."
    _, handed = governing(text, read_times(text, CALENDAR), None)
    assert handed == ((_at(5), _at(6)),)
