"""When an extreme happens: "the coldest day will be Monday", "the lowest pressure
on the 8th", "Saturday will be the wettest day".

The lexicon's ``extremes`` section declares the phrases::

    "extremes": {"coldest": {"attribute": "temperature_min", "rank": "min"},
                 "windiest": {"attribute": "wind_speed_max", "rank": "max"}}

A phrase stated for a period (the time that governs its stretch) holds when the
period's value of the attribute is the lowest (``min``) or highest (``max``) of
every period the facts give it for, ties included. It is checked per subject,
never over subjects pooled: over the subjects the sentence names ("the coldest day
in Vienna"), else every subject with such facts, and wrong only when it holds for
none of them; for one subject, over facts whose periods form one series, none
overlapping another (the days of a forecast, a first or last day it covers only in
part included), and only when the period has such a fact. Negated or hedged phrases
("not the coldest", "one of the coldest") are not checked.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from vouched._exceptions import InputError
from vouched._fact import Fact
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._read._times import Period

__all__ = ["Extreme", "extremes_of", "wrong_comparisons", "wrong_extremes"]

_NOT = re.compile(r"\b(?:not|n't|one of|among|no|never)\b[\w\s]{0,12}$")


@dataclass(frozen=True)
class Extreme:
    """A phrase that says which period holds an attribute's lowest or highest value."""

    phrase: str
    attribute: str
    rank: str  # "min" or "max"


def extremes_of(section: Mapping[str, Any]) -> tuple[Extreme, ...]:
    """The lexicon's ``extremes`` section, validated (errors name the field)."""
    out = []
    for phrase, declared in section.items():
        at = f"extremes.{phrase}"
        if not isinstance(declared, Mapping) or set(declared) != {"attribute", "rank"}:
            raise InputError('must be {"attribute": name, "rank": "min" or "max"}', field=at)
        if declared["rank"] not in ("min", "max") or not isinstance(declared["attribute"], str):
            raise InputError('must be {"attribute": name, "rank": "min" or "max"}', field=at)
        out.append(
            Extreme(" ".join(phrase.casefold().split()), declared["attribute"], declared["rank"])
        )
    return tuple(out)


def _values(facts: Sequence[Fact], attribute: str) -> dict[tuple[Any, ...], Decimal]:
    found: dict[tuple[Any, ...], Decimal] = {}
    for fact in facts:
        value = fact.value
        if fact.attribute != attribute or fact.period is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            continue
        found[(fact.subject, *fact.period)] = Decimal(value)
    return found


def wrong_extremes(
    part: str,
    extremes: tuple[Extreme, ...],
    every_fact: Sequence[Fact],
    stretches: Sequence[tuple[int, int, tuple[Period, ...] | None]],
) -> list[Finding]:
    """``relation_mismatch`` on each extreme phrase whose period does not hold it."""
    lowered = part.lower()
    found: list[Finding] = []
    for extreme in extremes:
        if extreme.phrase not in lowered:  # an exact gate: every match holds the phrase
            continue
        for match in re.finditer(rf"\b{re.escape(extreme.phrase)}\b", lowered):
            start, end = match.span()
            if _NOT.search(lowered[max(0, start - 24) : start]):
                continue
            if any(f.start < end and start < f.end for f in found):
                continue  # "coldest" and "coldest day" are one phrase said once
            periods = next((p for a, b, p in stretches if a <= start < b), None)
            if not periods:
                continue
            judged = [
                _holds(extreme, values, periods)
                for values in _per_subject(every_fact, extreme.attribute, lowered)
            ]
            verdicts = [v for v in judged if v is not None]
            if not verdicts or any(ok for ok, _ in verdicts):
                continue
            best = verdicts[0][1]
            found.append(
                Finding(
                    FindingKind.RELATION_MISMATCH,
                    start,
                    end,
                    part[start:end],
                    f"the {extreme.rank} of {extreme.attribute} ({best}) is in another period",
                    attribute=extreme.attribute,
                )
            )
    return found


def _per_subject(
    facts: Sequence[Fact], attribute: str, lowered: str
) -> list[dict[tuple[Any, ...], Decimal]]:
    """The attribute's values per subject: of the subjects ``lowered`` (the sentence)
    names, else of every subject."""
    values = _values(facts, attribute)
    subjects = sorted({key[0] for key in values})
    named = [s for s in subjects if re.search(rf"\b{re.escape(s.casefold())}\b", lowered)]
    return [{k: v for k, v in values.items() if k[0] == subject} for subject in named or subjects]


def _holds(
    extreme: Extreme, values: dict[tuple[Any, ...], Decimal], periods: tuple[Period, ...]
) -> tuple[bool, Decimal] | None:
    """Does one subject's period hold the extreme (and its extreme value)? None when
    its facts cannot say (periods that overlap, none in the period named)."""
    if not _one_per_stretch(values):
        return None
    named = [v for key, v in values.items() if any(key[1] < e and s < key[2] for s, e in periods)]
    if not named:
        return None
    best = min(values.values()) if extreme.rank == "min" else max(values.values())
    return best in named, best


def _one_per_stretch(values: dict[tuple[Any, ...], Decimal]) -> bool:
    """Whether the periods are one series (the days of a forecast, a first and last day
    the forecast covers only in part included): none overlaps another. A day's value
    beside its slots' values would compare a day with its own hours."""
    spans = sorted((key[1], key[2]) for key in values)
    return all(end <= start for (_, end), (start, _) in itertools.pairwise(spans))


_HOLDS = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "=": lambda a, b: a == b,
}


def _one_value(facts: Sequence[Fact], attribute: str, period: Period) -> Decimal | None:
    found = [v for key, v in _values(facts, attribute).items() if (key[1], key[2]) == period]
    return found[0] if len(found) == 1 else None


def wrong_comparisons(
    part: str,
    comparisons: Mapping[str, Any],
    every_fact: Sequence[Fact],
    days: Sequence[tuple[int, int, Period]],
) -> list[Finding]:
    """ "Sunday will be colder than Saturday", "colder on Sunday than on Saturday": a
    lexicon comparison between the two periods a sentence names (``days``: their
    spans and periods, in text order) holds of the attribute's values for them."""
    if len(days) != 2 or days[0][2] == days[1][2]:
        return []
    lowered = part.lower()
    found: list[Finding] = []
    for phrase, comparison in comparisons.items():
        words = " ".join(phrase.casefold().split())
        pattern = rf"\b{re.escape(words)}\b"
        if words.endswith(" than"):  # "colder on Sunday than on Saturday": the time between
            pattern = rf"\b{re.escape(words[:-5])}\b[^.;]{{0,40}}?\bthan\b"
        for match in re.finditer(pattern, lowered):
            start, end = match.span()
            if not days[0][0] < end <= days[1][0] or _NOT.search(
                lowered[max(0, start - 24) : start]
            ):
                continue
            first = _one_value(every_fact, comparison.attribute, days[0][2])
            second = _one_value(every_fact, comparison.attribute, days[1][2])
            if first is None or second is None or _HOLDS[comparison.holds](first, second):
                continue
            found.append(
                Finding(
                    FindingKind.RELATION_MISMATCH,
                    start,
                    end,
                    part[start:end],
                    f"{comparison.attribute}: {first} {comparison.holds} {second} does not hold",
                    attribute=comparison.attribute,
                )
            )
    return found
