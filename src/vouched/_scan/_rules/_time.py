"""The time rules: what a sentence says about the period it speaks of.

They run only when some fact has a period (:class:`~vouched._scan._facts._periodviews.PeriodViews`);
each reads the sentence, the time it names and the facts valid in the period that
governs a stretch of it. The pure judges they call live in ``_facts._conditions``,
``_facts._extremes``, ``_rules._ranges`` and ``_rules._timefindings``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from vouched._fact import Fact
from vouched._scan._facts._conditions import Said, judge_conditions
from vouched._scan._facts._extremes import (
    Difference,
    Extreme,
    stated_differences,
    wrong_comparisons,
    wrong_extremes,
)
from vouched._scan._facts._periodviews import PeriodViews
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._numbers import Quantity
from vouched._scan._read._times import Period, SentenceTime
from vouched._scan._read._values import Timed
from vouched._scan._rules._ranges import (
    Stretch,
    Total,
    held_ranges,
    stated_totals,
    wrong_extreme_values,
    wrong_ranges,
)
from vouched._scan._rules._rule import Family, Rule, decided, ran
from vouched._scan._rules._timefindings import joined_ranges, uncovered

__all__ = [
    "TIME_RULES",
    "InView",
    "TimeRule",
    "compared_periods",
    "run_periods",
    "run_time_rule",
    "stated_condition",
    "stated_extreme",
    "stated_range",
    "together",
    "uncovered_period",
    "weekday_beside_date",
]

_K = FindingKind

TimeRule = Rule[Callable[..., list[Finding]]]


def weekday_beside_date(part: str, timing: SentenceTime) -> list[Finding]:
    """A weekday written beside a date ("Wednesday, January 4") names that date's
    weekday: when the date falls on another, the weekday is wrong."""
    return [
        Finding(_K.VALUE_MISMATCH, start, end, part[start:end], f"weekday: {detail}")
        for start, end, detail in timing.wrong_weekdays
    ]


def stated_condition(
    part: str, said: Sequence[Said], present: frozenset[str], within: list[tuple[int, int]]
) -> list[Finding]:
    """Weather stated for a period ("light rain on Saturday", "a dry weekend") is
    what the period's condition facts say; a hedge ("a chance of showers") is no
    statement."""
    return judge_conditions(part, said, present, within)


def stated_range(
    part: str,
    quantities: Sequence[Quantity],
    stretches: Sequence[Stretch],
    flagged: Sequence[Finding],
) -> list[Finding]:
    """A range stated for a period ("ranging from 3 to 9 °C on Friday") is the
    period's lowest and highest value of one quantity, each rounded as shown; an
    extreme ("gusts of up to 12 m/s over the five days") is its highest (lowest)."""
    ranges = wrong_ranges(part, quantities, stretches, flagged)
    return [*ranges, *wrong_extreme_values(part, quantities, stretches, [*flagged, *ranges])]


def stated_extreme(
    part: str,
    extremes: tuple[Extreme, ...],
    every_fact: Sequence[Fact],
    stretches: Sequence[tuple[int, int, tuple[Period, ...] | None]],
) -> list[Finding]:
    """ "The coldest day will be Monday": the period named holds the attribute's lowest
    (highest) value of every period the facts give it for."""
    return wrong_extremes(part, extremes, every_fact, stretches)


def compared_periods(
    part: str,
    comparisons: Mapping[str, Any],
    every_fact: Sequence[Fact],
    days: Sequence[tuple[int, int, Period]],
) -> list[Finding]:
    """ "Sunday will be colder than Saturday": a declared comparison between the two
    periods a sentence names holds of the attribute's values for them."""
    return wrong_comparisons(part, comparisons, every_fact, days)


def stated_difference(part: str, differences: Sequence[Difference]) -> list[Finding]:
    """ "Friday will be 6 °C warmer than Thursday": a number stated as how far apart two
    named periods are is their values' difference, rounded as shown; else
    ``value_mismatch`` on the number (a right one is vouched by the two facts)."""
    return [
        Finding(
            _K.VALUE_MISMATCH,
            d.quantity.start,
            d.quantity.end,
            part[d.quantity.start : d.quantity.end],
            d.detail,
        )
        for d in differences
        if not d.holds
    ]


def stated_total(part: str, totals: Sequence[Total]) -> list[Finding]:
    """ "7 mm of rain in total over the weekend": a number stated as a total over a
    period of several days is the sum of their amounts, rounded as shown; else
    ``value_mismatch`` on the number (a right one is vouched by the days it adds)."""
    return [
        Finding(
            _K.VALUE_MISMATCH,
            t.quantity.start,
            t.quantity.end,
            part[t.quantity.start : t.quantity.end],
            t.detail,
        )
        for t in totals
        if not t.holds
    ]


def uncovered_period(
    part: str, timing: SentenceTime, periods: tuple[Period, ...], said: list[Finding]
) -> list[Finding]:
    """Values stated for a period no fact covers (day six of a five-day forecast) are
    vouched by nothing: one ungrounded claim on the time named."""
    return uncovered(part, timing, periods, said)


def together(
    part: str, findings: list[Finding], bounds: Sequence[tuple[int, int]] = ()
) -> list[Finding]:
    """Wrong values stated together in one clause about one time (a range, a day's
    high and low, one slot read for the wrong day) are one wrong statement: one
    finding over them. ``bounds``: the stretches each time governs."""
    return joined_ranges(part, findings, bounds)


_NUMBER_KINDS = (_K.VALUE_MISMATCH, _K.UNGROUNDED_NUMBER, _K.UNIT_MISMATCH)
_ANY_STATEMENT = tuple(FindingKind)

TIME_RULES: tuple[TimeRule, ...] = (
    Rule("weekday_beside_date", weekday_beside_date, (_K.VALUE_MISMATCH,)),
    Rule("stated_condition", stated_condition, (_K.VALUE_MISMATCH,)),
    Rule("stated_total", stated_total, (_K.VALUE_MISMATCH,)),
    Rule("stated_range", stated_range, (_K.VALUE_MISMATCH,)),
    Rule("stated_extreme", stated_extreme, (_K.RELATION_MISMATCH,)),
    Rule("compared_periods", compared_periods, (_K.RELATION_MISMATCH,)),
    Rule("stated_difference", stated_difference, (_K.VALUE_MISMATCH,)),
    Rule("uncovered_period", uncovered_period, (_K.UNGROUNDED_CLAIM,)),
    Rule("together", together, _ANY_STATEMENT),  # keeps the kinds of what it joins
)
"""In the order the reading applies them."""


def run_time_rule(name: str, *args: Any) -> list[Finding]:
    """Run the time rule ``name``; each finding it returns is reported as decided."""
    rule = next(r for r in TIME_RULES if r.name == name)
    found = rule.check(*args)
    for finding in found:
        decided(rule, finding)
    return list(found)


InView = tuple["tuple[Period, ...] | None", list[Finding], list[Finding]]
"""One sentence judged on one period's view: the periods, the findings of numbers and
of words."""


def run_periods(  # noqa: PLR0917 - the sentence, its time, the views and their judgements
    part: str,
    quantities: Sequence[Quantity],
    timed: Timed,
    views: PeriodViews,
    comparisons: Mapping[str, Any],
    judged: list[InView],
) -> tuple[list[Finding], list[Finding], list[Finding]]:
    """The time family over one sentence judged on the view of each period it speaks
    of: weekdays that contradict their dates, each view's findings where its period
    governs (:func:`_in_periods`), then the rules over the whole sentence
    (:func:`_whole`). The findings of the sentence's time words, of numbers, and of
    words (which yield a span to the others)."""
    ran(Family.TIME)
    weekdays = run_time_rule("weekday_beside_date", part, timed.timing)
    kept, kept_words = _in_periods(part, timed, views, judged)
    return weekdays, _whole(part, quantities, timed, views, comparisons, kept), kept_words


def _in_periods(
    part: str, timed: Timed, views: PeriodViews, judged: list[InView]
) -> tuple[list[Finding], list[Finding]]:
    """Each period's findings where that period governs, with the conditions stated
    for it; a period no fact covers makes its stretch's findings one."""
    conditions = views.conditions.statements(part.lower())
    kept: list[Finding] = []
    kept_words: list[Finding] = []
    for periods, all_said, all_words in judged:
        mine = [(a, b) for a, b, p in timed.segments if p == periods]
        said = [f for f in all_said if any(a <= f.start < b for a, b in mine)]
        words = [f for f in all_words if any(a <= f.start < b for a, b in mine)]
        if conditions:  # conditions stated for the period ("light rain on Saturday")
            present = views.present(periods)
            said += run_time_rule("stated_condition", part, conditions, present, mine)
        if (said or words) and periods and not views.covered(periods):
            said = run_time_rule("uncovered_period", part, timed.timing, periods, [*said, *words])
            words = []
        kept.extend(said)
        kept_words.extend(words)
    return kept, kept_words


def _without_range_ends(
    part: str, quantities: Sequence[Quantity], stretches: Sequence[Stretch], kept: list[Finding]
) -> list[Finding]:
    """A range that states its period's span ("from 2 to 4 °C on Monday" for a day of
    1.67 to 4.81 °C) is the claim its ends make: findings that read an end as one slot's
    value of that quantity (or of none) are dropped."""
    held = held_ranges(part, quantities, stretches)
    if not held:
        return kept
    return [
        f
        for f in kept
        if not any(
            a <= f.start
            and f.end <= b
            and f.kind in _NUMBER_KINDS
            and (f.attribute is None or f.attribute.split("_", 1)[0] in families)
            for a, b, families in held
        )
    ]


def _whole(  # noqa: PLR0917 - the sentence, its time, the views and what was kept
    part: str,
    quantities: Sequence[Quantity],
    timed: Timed,
    views: PeriodViews,
    comparisons: Mapping[str, Any],
    kept: list[Finding],
) -> list[Finding]:
    """The time rules over the whole sentence: extremes, periods compared, totals,
    ranges, and findings that belong together."""
    segments = timed.segments
    # "a low on day three to a high of 12 °C": a time's digits are no range's end
    quantities = [q for q in quantities if not any(a <= q.start < b for a, b in timed.masks)]
    stretches = [(a, b, views.view(p)[0]) for a, b, p in segments]
    every = views.whole[0].grounded
    if views.extremes:  # "the coldest day will be Monday"
        kept += run_time_rule("stated_extreme", part, views.extremes, every, segments)
    if comparisons:  # "Sunday will be colder than Saturday"
        mentions = timed.timing.mentions
        days = [(m.start, m.end, m.periods[0]) for m in mentions if len(m.periods) == 1]
        kept += run_time_rule("compared_periods", part, comparisons, every, days)
        differences = stated_differences(part, comparisons, every, days, quantities)
        if differences:  # "6 °C warmer than Thursday": the number is the two days' gap
            kept = _restated(kept, [d.quantity for d in differences])
            kept += run_time_rule("stated_difference", part, differences)
    totals = stated_totals(part, quantities, stretches)
    if totals:  # "7 mm in total over the weekend": the days' amounts added
        kept = _restated(kept, [t.quantity for t in totals])
        kept += run_time_rule("stated_total", part, totals)
    kept = _ranged(part, quantities, stretches, kept)
    bounds = [(a, b) for a, b, _ in segments]
    return run_time_rule("together", part, kept, bounds)


def _restated(kept: list[Finding], read: Sequence[Quantity]) -> list[Finding]:
    """``kept`` without the findings on numbers a time rule reads another way."""
    said = {(q.start, q.end) for q in read}
    return [f for f in kept if (f.start, f.end) not in said]


def _ranged(
    part: str, quantities: Sequence[Quantity], stretches: Sequence[Stretch], kept: list[Finding]
) -> list[Finding]:
    """Ranges read as ranges: the ends of one that holds are vouched by it, a wrong one
    is one finding in place of its ends' ungrounded numbers."""
    kept = _without_range_ends(part, quantities, stretches, kept)
    ranged = run_time_rule("stated_range", part, quantities, stretches, kept)
    kept = [f for f in kept if not any(r.start <= f.start and f.end <= r.end for r in ranged)]
    return [*kept, *ranged]
