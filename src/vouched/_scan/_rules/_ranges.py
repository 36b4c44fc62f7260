"""A range stated for a period ("temperatures ranging from 3 to 9 °C on Friday",
"winds between 2.1 and 4.6 m/s") says the period's lowest and highest value of one
quantity, not two values it happens to hold; an extreme stated for a period ("gusts
of up to 12 m/s over the five days", "temperatures dropping to -3 °C") says its
highest (lowest) value, not one it happens to hold.

Pure: the sentence, its quantities, and the facts valid in each stretch.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from decimal import ROUND_DOWN, Decimal
from itertools import pairwise
from typing import NamedTuple, TypeVar

from vouched._fact import Fact
from vouched._scan._facts._factindex import FactIndex, rounds_to
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._numbers import Quantity, QuantityKind
from vouched._scan._lex._units import canonical_unit, units_compatible
from vouched._scan._lex._vocabulary import TOTAL_AFTER, TOTAL_BEFORE, extreme_before

__all__ = [
    "Stretch",
    "Total",
    "held_ranges",
    "stated_totals",
    "wrong_extreme_values",
    "wrong_ranges",
]

Stretch = tuple[int, int, FactIndex]
"""[start, end) of a stretch of the sentence and the index of the facts valid in its
period (a view's, built once per scanner: what is read off its facts is made once per
unit, :func:`_read_at`)."""

_U = TypeVar("_U", str, "str | None")
_T = TypeVar("_T")

_RANGE_WORD = re.compile(
    r"\b(?:range|ranges|ranging|vary|varies|varying|between|fluctuat\w*|spanning)\b"
)
_LINK = re.compile(
    r"^\s*(?:°\s*[cf]?|degrees?(?:\s+(?:celsius|fahrenheit))?|[a-z/%]{1,12})?\s*"
    r"(?:to|and|-|\u2013)\s*(?:a\s+(?:high|maximum)\s+of\s+)?$"
)
_WINDOW = 45
_DASHES = ("-", "\u2013")  # "1008-1011 hPa", "5\u20139 \u00b0C": a range without a range word


def _groups(facts: Sequence[Fact], unit: str | None) -> list[list[Decimal]]:
    """The values of each subject's attribute in ``unit``, and of each subject's family
    of attributes sharing a first word (``temperature``, ``temperature_max``,
    ``temperature_min``). Never pooled across subjects: Salzburg's cold nights are
    not the low end of Vienna's range."""
    return [values for _, values in _keyed_groups(facts, unit)]


def _read_at(
    stretches: Sequence[Stretch],
    start: int,
    read: Callable[[Sequence[Fact], _U], _T],
    unit: _U,
) -> _T:
    """``read(facts, unit)`` on the facts valid in the stretch holding ``start`` (none
    when no stretch does), made once per view and unit (:meth:`FactIndex.derived
    <vouched._scan._facts._factindex.FactIndex.derived>`): each walked every fact of the
    view (~250 on a five-day forecast) for each range, extreme and total, ~4% of a
    forecast's scan."""
    index = next((x for a, b, x in stretches if a <= start < b), None)
    return read((), unit) if index is None else index.derived(read, unit)


def _keyed_groups(facts: Sequence[Fact], unit: str | None) -> list[tuple[str, list[Decimal]]]:
    """:func:`_groups` with the family (first word of the attribute) of each."""
    by_attribute: dict[tuple[str, str], list[Decimal]] = {}
    for fact in facts:
        value = fact.value
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            continue
        if unit is not None and not units_compatible(unit, canonical_unit(fact.unit)):
            continue
        by_attribute.setdefault((fact.subject, fact.attribute), []).append(Decimal(value))
    families: dict[tuple[str, str], list[Decimal]] = {}
    for (subject, attribute), values in by_attribute.items():
        families.setdefault((subject, _family(attribute)), []).extend(values)
    # one fact (a day's high) is no span: "from 5.5 °C to 5.5 °C" on a day whose high
    # is 5.5 °C says every value of the day is 5.5, unless the period holds one value
    spans = [(k, g) for k, g in by_attribute.items() if len(g) > 1] or list(by_attribute.items())
    return [
        *((_family(attribute), g) for (_, attribute), g in spans),
        *((family, g) for (_, family), g in families.items()),
    ]


_END_KINDS = (FindingKind.UNGROUNDED_NUMBER,)
"""What a range's end may be found on its own before the range is read and the range
then says better: a value no fact has ("from 3 to 4 °C" for a day of 1.67 to 4.81 °C
is wrong at its low end, though 3 rounds a slot's value and 4 none)."""


def _family(attribute: str) -> str:
    return attribute.split("_", 1)[0]


def _stated_ranges(part: str, quantities: Sequence[Quantity]) -> list[tuple[Quantity, Quantity]]:
    """The ranges of a sentence: two numbers after a range word ("between", "ranging")
    or joined by a dash ("1008-1011 hPa")."""
    lowered = part.lower()
    numbers = [q for q in quantities if q.kind is QuantityKind.NUMBER]
    found: list[tuple[Quantity, Quantity]] = []
    for first, second in pairwise(numbers):
        if not _LINK.match(lowered[first.end : second.start]):
            continue
        dashed = lowered[first.end : second.start].strip() in _DASHES
        if dashed or _RANGE_WORD.search(lowered[max(0, first.start - _WINDOW) : first.start]):
            found.append((first, second))
    return found


def _holding(
    first: Quantity, second: Quantity, stretches: Sequence[Stretch]
) -> frozenset[str] | None:
    """The families whose values over the range's period it states (ends rounded as
    shown, inward or truncated); ``None`` when the period has no values in its unit."""
    unit = second.unit or first.unit
    groups = [(k, g) for k, g in _read_at(stretches, first.start, _keyed_groups, unit) if g]
    if unit is None or not groups:
        return None
    low, high = sorted((first, second), key=lambda q: q.value)
    return frozenset(k for k, g in groups if _low_end(min(g), low) and _high_end(max(g), high))


def held_ranges(
    part: str, quantities: Sequence[Quantity], stretches: Sequence[Stretch]
) -> list[tuple[int, int, frozenset[str]]]:
    """The ranges that state their period's span ([start, end) and the families they
    hold for): their ends are read as the range, not one slot's value each."""
    out: list[tuple[int, int, frozenset[str]]] = []
    for first, second in _stated_ranges(part, quantities):
        families = _holding(first, second, stretches)
        if families:
            out.append((first.start, second.end, families))
    return out


def wrong_ranges(
    part: str,
    quantities: Sequence[Quantity],
    stretches: Sequence[Stretch],
    flagged: Sequence[Finding],
) -> list[Finding]:
    """A range whose ends are not the lowest and highest value of one quantity over
    the period (each end rounded to the precision shown, or inward, or truncated) is
    ``value_mismatch`` over the range. A range is two numbers after a range word
    ("between", "ranging") or joined by a dash ("1008-1011 hPa"). Ranges with an end
    already found wrong as some value (the one a reader marks) are left to that
    finding; the time family reads a wrong range in place of ungrounded ends."""
    found: list[Finding] = []
    for first, second in _stated_ranges(part, quantities):
        if any(
            f.start < second.end and first.start < f.end and f.kind not in _END_KINDS
            for f in flagged
        ):
            continue
        if _holding(first, second, stretches) != frozenset():
            continue
        found.append(
            Finding(
                FindingKind.VALUE_MISMATCH,
                first.start,
                second.end,
                part[first.start : second.end],
                "a range for a period is its lowest and highest value of one quantity",
            )
        )
    return found


def _low_end(lowest: Decimal, said: Quantity) -> bool:
    """A range's low end states the period's lowest value rounded as shown, or rounded
    inward ("from 26 °C" for a low of 25.46 °C: within one step of the precision shown,
    never below it), or truncated ("-10" for -10.23)."""
    step = said.quantum
    return (
        rounds_to(lowest, said.value, step)
        or (step > 0 and lowest <= said.value < lowest + step)
        or _truncates(lowest, said)
    )


def _high_end(highest: Decimal, said: Quantity) -> bool:
    """A range's high end: the period's highest value rounded as shown, rounded inward
    ("to 35 °C" for a high of 35.92 °C) or truncated."""
    step = said.quantum
    return (
        rounds_to(highest, said.value, step)
        or (step > 0 and highest - step < said.value <= highest)
        or _truncates(highest, said)
    )


def _truncates(value: Decimal, said: Quantity) -> bool:
    """Is ``said`` ``value`` with the digits past its precision dropped?"""
    step = said.quantum
    if step <= 0:
        return False
    return (value / step).to_integral_value(rounding=ROUND_DOWN) * step == said.value


_EXTREME_REACH = 32  # characters before a number where its extreme words are read


def wrong_extreme_values(
    part: str,
    quantities: Sequence[Quantity],
    stretches: Sequence[Stretch],
    flagged: Sequence[Finding],
) -> list[Finding]:
    """A number after words that name a period's extreme ("up to", "peaking at",
    "dropping to") that is the highest (lowest) value over the period of no quantity
    in its unit (each subject's own, rounded as shown) is ``value_mismatch``: over a
    five-day forecast, "gusts of up to 9 m/s" is wrong when a day reaches 14 m/s,
    though 9 m/s is some day's strongest gust. Numbers already found wrong are left
    to that finding."""
    found: list[Finding] = []
    for quantity in quantities:
        if quantity.kind is not QuantityKind.NUMBER or quantity.unit is None:
            continue
        rank = extreme_before(part[max(0, quantity.start - _EXTREME_REACH) : quantity.start])
        if rank is None or any(f.start < quantity.end and quantity.start < f.end for f in flagged):
            continue
        groups = [g for g in _read_at(stretches, quantity.start, _groups, quantity.unit) if g]
        pick = max if rank == "_max" else min
        if not groups or any(rounds_to(pick(g), quantity.value, quantity.quantum) for g in groups):
            continue
        word = "highest" if rank == "_max" else "lowest"
        found.append(
            Finding(
                FindingKind.VALUE_MISMATCH,
                quantity.start,
                quantity.end,
                part[quantity.start : quantity.end],
                f"{quantity.text!r} is stated as the period's {word} value: "
                f"the {word} of no quantity there",
            )
        )
    return found


class Total(NamedTuple):
    """A number stated as a sum over its period ("7 mm in total over the weekend"),
    whether the period's daily amounts add up to it, and a detail naming them."""

    quantity: Quantity
    holds: bool
    detail: str


_TOTAL_SUFFIX = "_total"


def stated_totals(
    part: str, quantities: Sequence[Quantity], stretches: Sequence[Stretch]
) -> list[Total]:
    """A number stated as a total ("a total of 7 mm", "7 mm of rain in total") over a
    period holding the amounts of several days ("over the weekend") is their sum,
    rounded as shown, for some subject (never pooled): each day's ``<x>_total`` in its
    unit added up. A period with one day's amount is that day's fact."""
    out: list[Total] = []
    for quantity in quantities:
        if quantity.kind is not QuantityKind.NUMBER or quantity.unit is None or quantity.in_range:
            continue  # "a total of 1.5 to 2 mm": a range, the range rule's
        before = part[max(0, quantity.start - _EXTREME_REACH) : quantity.start]
        if not (TOTAL_BEFORE.search(before) or TOTAL_AFTER.match(part, quantity.end)):
            continue
        sums = _read_at(stretches, quantity.start, _daily_sums, quantity.unit)
        if not sums:
            continue
        holds = any(rounds_to(total, quantity.value, quantity.quantum) for total, _ in sums)
        total, named = sums[0]
        detail = f"{quantity.text!r} is stated as a total over the period: {named} add up to"
        out.append(Total(quantity, holds, f"{detail} {total}"))
    return out


def _daily_sums(facts: Sequence[Fact], unit: str) -> list[tuple[Decimal, str]]:
    """Per subject and total attribute in ``unit`` holding two or more periods: the sum
    of its values and what was added."""
    groups: dict[tuple[str, str], list[Fact]] = {}
    for fact in facts:
        if not fact.attribute.endswith(_TOTAL_SUFFIX) or fact.period is None:
            continue
        if isinstance(fact.value, bool) or not isinstance(fact.value, int | Decimal):
            continue
        if not units_compatible(unit, canonical_unit(fact.unit)):
            continue
        groups.setdefault((fact.subject, fact.attribute), []).append(fact)
    return [
        (
            sum((Decimal(f.value) for f in group), Decimal(0)),  # type: ignore[arg-type]
            f"{subject}'s {attribute} of {len(group)} periods",
        )
        for (subject, attribute), group in groups.items()
        if len({f.period for f in group}) > 1
    ]
