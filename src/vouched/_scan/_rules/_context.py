"""What the rules of stated quantities read: the sentence's context and each statement.

:class:`SentenceContext` is one sentence's frozen reading and structures, the fact
index and what earlier sentences left (:class:`Carry`); :class:`Stated` is one checked
quantity with its binding (its readings and evidence) and outcome. The helpers say
when a fact fits a quantity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from vouched._scan._facts._factindex import FactIndex, Reading, converts, quantity_matches
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._numbers import Quantity
from vouched._scan._lex._units import units_compatible
from vouched._scan._read._sentence import SentenceRead
from vouched._scan._read._values import Binding, Structures
from vouched._scan._rules._rule import Outcome

__all__ = ["Carry", "SentenceContext", "Stated", "any_fits", "finding_on", "fits"]


@dataclass(slots=True)
class Carry:
    """What one sentence leaves to the next: the first unvouched statement of each
    (subject, attribute), for restatements (compared with the first only: linear)."""

    firm: dict[tuple[str | None, str], Quantity] = field(default_factory=dict)


@dataclass(slots=True)
class SentenceContext:
    """What the rules of one sentence read: its frozen reading and structures, the facts,
    the carry; and what the rules of its quantities have decided so far."""

    sentence: SentenceRead
    structures: Structures
    index: FactIndex
    carry: Carry
    fitted: dict[int, set[str]] = field(default_factory=dict)  # pair halves' vouching subjects
    passed: list[Quantity] = field(default_factory=list)  # quantities vouched for so far
    occasions: str = "flag"  # Policy.other_occasions: "flag" or "leave"


class Stated(NamedTuple):
    """One checked quantity of a sentence, its binding and its outcome."""

    quantity: Quantity
    binding: Binding
    outcome: Outcome


def finding_on(
    quantity: Quantity,
    kind: FindingKind,
    detail: str,
    reading: object = None,
    against: Reading | None = None,
) -> Finding:
    """A finding on ``quantity``'s words, about ``reading``'s subject and attribute;
    ``against``: the fact it was checked against, named with its period and value
    when that fact has a period."""
    subject = getattr(reading, "subject", None)
    attribute = getattr(reading, "attribute", None)
    fact = None if against is None else against.fact
    period = None if fact is None else fact.period
    value = None if fact is None or period is None else fact.value
    start, end, text = quantity.start, quantity.end, quantity.text
    return Finding(kind, start, end, text, detail, subject, attribute, period, value)


def any_fits(quantity: Quantity, readings: list[Reading]) -> bool:
    return any(fits(quantity, reading) for reading in readings)


def fits(quantity: Quantity, reading: Reading) -> bool:
    """The reading's value as written or rounded, in a compatible unit, or converted to
    the quantity's unit (:func:`~vouched._scan._readings.converts`)."""
    if quantity_matches(quantity, reading) and units_compatible(quantity.unit, reading.unit):
        return True
    return converts(quantity, reading)
