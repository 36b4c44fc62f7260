"""The English time words the period reader understands (validated data, one home).

Parts of the day are hours in the place's local time, [start, end); an end past
24 reaches into the next morning ("tonight": 18 to 30, i.e. 06:00 the next day).
"""

from __future__ import annotations

from types import MappingProxyType

from vouched._calendar import MONTHS

__all__ = [
    "FOLLOWING_DAY",
    "MONTHS",
    "ORDINALS",
    "PARTS_OF_DAY",
    "RELATIVE_DAYS",
    "WEEKDAYS",
    "WHOLE_PERIOD",
]

WEEKDAYS = MappingProxyType(
    {
        "monday": 0,
        "mon": 0,
        "tuesday": 1,
        "tue": 1,
        "tues": 1,
        "wednesday": 2,
        "wed": 2,
        "thursday": 3,
        "thu": 3,
        "thur": 3,
        "thurs": 3,
        "friday": 4,
        "fri": 4,
        "saturday": 5,
        "sat": 5,
        "sunday": 6,
        "sun": 6,
    }
)
"""Weekday words -> Monday-based index (abbreviations only with a date beside them)."""


ORDINALS = MappingProxyType(
    {
        "one": 1,
        "first": 1,
        "two": 2,
        "second": 2,
        "three": 3,
        "third": 3,
        "four": 4,
        "fourth": 4,
        "five": 5,
        "fifth": 5,
        "six": 6,
        "sixth": 6,
        "seven": 7,
        "seventh": 7,
    }
)
"""Number words for "day three", "the third day"."""

PARTS_OF_DAY = MappingProxyType(
    {
        "morning": (6, 12),
        "afternoon": (12, 18),
        "evening": (18, 24),
        "night": (18, 30),
        "overnight": (0, 6),
        "daytime": (6, 18),
    }
)
"""A part of a day -> (first hour, end hour) in local time."""

RELATIVE_DAYS = MappingProxyType(
    {
        "yesterday": -1,
        "today": 0,
        "tomorrow": 1,
        "the day after tomorrow": 2,
    }
)
"""Days counted from the local date of ``now``."""

FOLLOWING_DAY = ("the following day", "the next day", "the day after")
"""The day after the day named last (in the sentence or the one before): "Friday
is clear; the following day brings rain". With no day named before, "the day after"
is the day after tomorrow and the others name nothing."""

WHOLE_PERIOD = (
    "this week",
    "the week",
    "the next few days",
    "the coming days",
    "the next five days",
    "the next 5 days",
    "the five-day",
    "the 5-day",
    "five-day forecast",
    "5-day forecast",
    "forecast period",
    "the period",
    "the entire period",
    "throughout the week",
    "overall",
    "in general",
    "all week",
    "the coming week",
    "the rest of the week",
    "the days ahead",
    "the whole period",
    "the forecast",
    "the whole forecast",
    "the entire forecast",
    *(
        f"{lead}{count} days"
        for lead in ("the next ", "the ", "all ", "over ")
        for count in ("three", "four", "five", "six", "seven", "3", "4", "5", "6", "7")
    ),
)
"""Phrases that speak of the whole forecast (a sentence with one reads every fact;
a time named beside one, "the forecast for Friday", still decides)."""
