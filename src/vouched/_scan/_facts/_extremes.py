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
from typing import Any, NamedTuple

from vouched._exceptions import InputError
from vouched._fact import Fact
from vouched._scan._facts._factreadings import rounds_to
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._quantities import Quantity, QuantityKind
from vouched._scan._lex._units import canonical_unit, units_compatible
from vouched._scan._read._times import Period

__all__ = [
    "Difference",
    "Extreme",
    "extremes_of",
    "stated_differences",
    "wrong_comparisons",
    "wrong_extremes",
]

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


class Difference(NamedTuple):
    """A number stated as the difference of two periods ("Friday will be 6 °C warmer
    than Thursday"): the number, and whether the two periods' values are that far
    apart (within the precision shown), with a detail naming them."""

    quantity: Quantity
    holds: bool
    detail: str


_DIFFERENCE_GAP = re.compile(r"^\s*(?:degrees?\s+)?$")


def stated_differences(
    part: str,
    comparisons: Mapping[str, Any],
    every_fact: Sequence[Fact],
    days: Sequence[tuple[int, int, Period]],
    quantities: Sequence[Quantity],
) -> list[Difference]:
    """ "Friday will be 6 °C warmer than Thursday": a number right before a lexicon
    comparison between two periods the sentence names (the one named last before the
    number, the one named first after the comparison) states how far apart the
    attribute's values for them are; it holds when their difference, rounded to the
    precision shown, is the number (the direction is the comparison's own check)."""
    if len(days) < 2 or not quantities:
        return []
    lowered = part.lower()
    out: list[Difference] = []
    for phrase, comparison in comparisons.items():
        word = " ".join(phrase.casefold().split()).split()[0]
        for match in re.finditer(rf"\b{re.escape(word)}\b", lowered):
            said = _number_before(lowered, match.start(), quantities)
            if said is None:
                continue
            before = [d for d in days if d[1] <= said.start]
            after = [d for d in days if d[0] >= match.end()]
            if not before or not after or before[-1][2] == after[0][2]:
                continue
            found = _difference(said, comparison.attribute, every_fact, before[-1][2], after[0][2])
            if found is not None:
                out.append(found)
    return out


def _number_before(lowered: str, position: int, quantities: Sequence[Quantity]) -> Quantity | None:
    """The number written right before ``position`` ("6 °C warmer", "6 degrees warmer")."""
    return next(
        (
            q
            for q in quantities
            if q.kind is QuantityKind.NUMBER
            and q.end <= position
            and _DIFFERENCE_GAP.match(lowered[q.end : position])
        ),
        None,
    )


def _difference(
    said: Quantity, attribute: str, every_fact: Sequence[Fact], first: Period, second: Period
) -> Difference | None:
    """How far apart ``attribute``'s values for the two periods are, against ``said``."""
    one = _one_value(every_fact, attribute, first)
    other = _one_value(every_fact, attribute, second)
    if one is None or other is None:
        return None
    if said.unit is not None and not units_compatible(said.unit, _unit_of(every_fact, attribute)):
        return None
    apart = abs(one - other)
    return Difference(
        said,
        any(rounds_to(apart, v, said.quantum) for v in said.values),
        f"{said.text!r} is the difference of {attribute} between the two periods named: "
        f"{one} and {other} are {apart} apart",
    )


def _unit_of(facts: Sequence[Fact], attribute: str) -> str | None:
    return next((canonical_unit(f.unit) for f in facts if f.attribute == attribute), None)
