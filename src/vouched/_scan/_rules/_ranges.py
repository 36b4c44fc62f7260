"""A range stated for a period ("temperatures ranging from 3 to 9 °C on Friday",
"winds between 2.1 and 4.6 m/s") says the period's lowest and highest value of one
quantity, not two values it happens to hold; an extreme stated for a period ("gusts
of up to 12 m/s over the five days", "temperatures dropping to -3 °C") says its
highest (lowest) value, not one it happens to hold.

Pure: the sentence, its quantities, and the facts valid in each stretch.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from itertools import pairwise

from vouched._fact import Fact
from vouched._scan._facts._factindex import FactIndex, rounds_to
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._numbers import Quantity, QuantityKind
from vouched._scan._lex._units import canonical_unit, units_compatible
from vouched._scan._lex._vocabulary import extreme_before

__all__ = ["Stretch", "wrong_extreme_values", "wrong_ranges"]

Stretch = tuple[int, int, FactIndex]
"""[start, end) of a stretch of the sentence and the index of the facts valid in its
period (a view's: its groups of values are made once per unit, :meth:`FactIndex.derived
<vouched._scan._facts._factindex.FactIndex.derived>`, ~4% of a forecast's scan)."""

_RANGE_WORD = re.compile(
    r"\b(?:range|ranges|ranging|vary|varies|varying|between|fluctuat\w*|spanning)\b"
)
_LINK = re.compile(
    r"^\s*(?:°\s*[cf]?|degrees?(?:\s+(?:celsius|fahrenheit))?|[a-z/%]{1,12})?\s*"
    r"(?:to|and|-|\u2013)\s*(?:a\s+(?:high|maximum)\s+of\s+)?$"
)
_WINDOW = 45


def _groups(facts: Sequence[Fact], unit: str | None) -> list[list[Decimal]]:
    """The values of each subject's attribute in ``unit``, and of each subject's family
    of attributes sharing a first word (``temperature``, ``temperature_max``,
    ``temperature_min``). Never pooled across subjects: Salzburg's cold nights are
    not the low end of Vienna's range."""
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
        families.setdefault((subject, attribute.split("_", 1)[0]), []).extend(values)
    return [*by_attribute.values(), *families.values()]


def _groups_at(stretches: Sequence[Stretch], start: int, unit: str | None) -> list[list[Decimal]]:
    """The non-empty groups of the facts valid in the stretch holding ``start``."""
    index = next((x for a, b, x in stretches if a <= start < b), None)
    return [] if index is None else [g for g in index.derived(_groups, unit) if g]


def wrong_ranges(
    part: str,
    quantities: Sequence[Quantity],
    stretches: Sequence[Stretch],
    flagged: Sequence[Finding],
) -> list[Finding]:
    """A range whose ends are not the lowest and highest value of one quantity over
    the period (each end rounded to the precision shown) is ``value_mismatch`` over
    the range. Ranges with an end already found wrong are left to that finding."""
    lowered = part.lower()
    numbers = [q for q in quantities if q.kind is QuantityKind.NUMBER]
    found: list[Finding] = []
    for first, second in pairwise(numbers):
        if not _LINK.match(lowered[first.end : second.start]):
            continue
        if not _RANGE_WORD.search(lowered[max(0, first.start - _WINDOW) : first.start]):
            continue
        if any(f.start < second.end and first.start < f.end for f in flagged):
            continue
        unit = second.unit or first.unit
        groups = _groups_at(stretches, first.start, unit)
        if unit is None or not groups:
            continue
        low, high = sorted((first, second), key=lambda q: q.value)
        if any(
            rounds_to(min(g), low.value, low.quantum)
            and rounds_to(max(g), high.value, high.quantum)
            for g in groups
        ):
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
        groups = _groups_at(stretches, quantity.start, quantity.unit)
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
