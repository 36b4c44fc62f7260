"""Time as a binding dimension: the periods a sentence speaks of, and the facts
valid within them (README "Periods")."""

from vouched._scan._periods._conditions import ConditionWords, conditions_of, judge_conditions
from vouched._scan._periods._expressions import (
    Calendar,
    Period,
    Segment,
    SentenceTime,
    TimeMention,
    governing,
    read_times,
)
from vouched._scan._periods._extremes import (
    Extreme,
    extremes_of,
    wrong_comparisons,
    wrong_extremes,
)
from vouched._scan._periods._findings import joined_ranges, uncovered
from vouched._scan._periods._ranges import Stretch, wrong_ranges
from vouched._scan._periods._views import PeriodViews

__all__ = [
    "Calendar",
    "ConditionWords",
    "Extreme",
    "Period",
    "PeriodViews",
    "Segment",
    "SentenceTime",
    "Stretch",
    "TimeMention",
    "conditions_of",
    "extremes_of",
    "governing",
    "joined_ranges",
    "judge_conditions",
    "read_times",
    "uncovered",
    "wrong_comparisons",
    "wrong_extremes",
    "wrong_ranges",
]
