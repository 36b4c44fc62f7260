"""What the rules of stated quantities read: the sentence's context and each statement.

:class:`SentenceContext` is one sentence's frozen reading and structures, the fact
index and what earlier sentences left (:class:`Carry`); :class:`Stated` is one checked
quantity with its binding (its readings and evidence) and outcome; :class:`Judged` is
one sentence's judgement so far, handed from family to family in the registry's order.
The helpers say when a fact fits a quantity.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import NamedTuple

from vouched._scan._facts._factindex import FactIndex, Reading, converts, quantity_matches
from vouched._scan._facts._wordmatch import WordFacts
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._numbers import Quantity
from vouched._scan._lex._units import units_compatible
from vouched._scan._read._sentence import SentenceRead
from vouched._scan._read._values import Binding, Denied, Structures
from vouched._scan._rules._rule import Outcome, Rule, decided

__all__ = [
    "Carry",
    "Judged",
    "SentenceContext",
    "Stated",
    "any_fits",
    "finding_on",
    "fits",
    "sharpened",
]


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
    denied: Denied  # is the word at a span denied or hedged (the Evidence's)?
    fitted: dict[int, set[str]] = field(default_factory=dict)  # pair halves' vouching subjects
    passed: list[Quantity] = field(default_factory=list)  # quantities vouched for so far
    wrong: list[Quantity] = field(default_factory=list)  # quantities found wrong so far
    occasions: str = "flag"  # Policy.other_occasions: "flag" or "leave"


class Stated(NamedTuple):
    """One checked quantity of a sentence, its binding and its outcome."""

    quantity: Quantity
    binding: Binding
    outcome: Outcome


@dataclass(slots=True)
class Judged:
    """One sentence's judgement so far, handed from family to family (each family's
    ``run(evidence, so_far)``) in the registry's order.

    Beside the sentence's :class:`~vouched._scan._read._evidence.Evidence` the rules
    read ``ctx`` (the quantity rules' context: the facts, the carry, what passed),
    ``facts`` (the facts as words read them) and ``named`` (the subjects earlier
    sentences named). What the families before decided: ``stated``, each claim and its
    outcome (which a later family of statements may sharpen); ``found``, the findings
    no later family revises (durations); ``words``, the findings of words (which yield a
    span to the findings of numbers); ``checked``, how many claims were checked.
    """

    ctx: SentenceContext
    facts: WordFacts
    named: AbstractSet[str] = frozenset()
    stated: list[Stated] = field(default_factory=list)
    found: list[Finding] = field(default_factory=list)
    words: list[Finding] = field(default_factory=list)
    checked: int = 0

    def numbers(self) -> list[Finding]:
        """The findings of numbers: durations, then each statement's outcome."""
        return [*self.found, *(s.outcome for s in self.stated if isinstance(s.outcome, Finding))]


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


def sharpened(
    rules: tuple[Rule[Callable[[list[Stated], SentenceContext], list[Stated]]], ...],
    stated: list[Stated],
    ctx: SentenceContext,
) -> list[Stated]:
    """``rules`` applied in order to a sentence's statements, each seeing the outcomes
    the one before left (the clause and explanation families); each new finding is
    reported to :func:`~vouched._scan._rules._rule.decided` (a rule returns the list it
    read when it changes no outcome, most sentences: nothing is compared then)."""
    for rule in rules:
        checked = rule.check(stated, ctx)
        if checked is not stated:  # a rule that changes nothing returns the list it read
            before = {id(s.outcome) for s in stated}
            for item in checked:
                if isinstance(item.outcome, Finding) and id(item.outcome) not in before:
                    decided(rule, item.outcome)
        stated = checked
    return stated
