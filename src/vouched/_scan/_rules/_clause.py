"""Clause rules: a clause's quantities judged together, after their own rules.

When the numbers of a clause fit another attribute of the same subject, the numbers
are right and the words naming them are wrong: the finding moves onto those words
(``attribute_mismatch`` on the attribute words; a wrong name is the explanation
family's ``subject_mismatch``). Applied in order (:data:`CLAUSE_RULES`).
"""

from __future__ import annotations

from collections.abc import Callable

from vouched._scan._facts._attributenames import possessive
from vouched._scan._facts._factindex import Reading
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._numbers import Quantity, QuantityKind
from vouched._scan._lex._units import units_compatible
from vouched._scan._read._values import Evidence
from vouched._scan._rules._context import Judged, SentenceContext, Stated, any_fits, sharpened
from vouched._scan._rules._rule import PASSED, Rule

__all__ = ["CLAUSE_RULES", "DISTINCT_COUNT", "ClauseCheck", "ClauseRule", "run"]

_K = FindingKind
_NUMBER = QuantityKind.NUMBER

ClauseCheck = Callable[[list[Stated], SentenceContext], list[Stated]]
"""A clause rule: the sentence's statements, some outcomes replaced."""
ClauseRule = Rule[ClauseCheck]


def _fractional(quantity: Quantity) -> bool:
    return quantity.kind is _NUMBER and quantity.value != quantity.value.to_integral_value()


def _replace(stated: list[Stated], replaced: dict[int, Finding | None]) -> list[Stated]:
    if not replaced:
        return stated
    out: list[Stated] = []
    for item in stated:
        if id(item) not in replaced:
            out.append(item)
            continue
        swap = replaced[id(item)]
        out.append(item._replace(outcome=swap if swap is not None else PASSED))
    return out


def named_column(stated: list[Stated], ctx: SentenceContext) -> list[Stated]:
    """When the two numbers of a pair phrase ("6-for-9 from three-point range") do not
    both hold for the columns the phrase names, but both hold exactly for another pair of
    columns of the same subject (its free throws), the numbers are right and the words
    naming the columns are wrong: one ``attribute_mismatch`` on the phrase. Small counts
    ("1-3", "4-of-4") fit some other column by coincidence too often: the pair must hold
    a value of at least :data:`DISTINCT_COUNT` (or a fraction)."""
    forced_at = ctx.structures.forced
    halves: dict[tuple[int, int], list[Stated]] = {}
    for item in stated:
        forced = forced_at.get(item.quantity.start)
        if forced is not None and forced.phrase is not None and item.binding.readings:
            halves.setdefault(forced.phrase, []).append(item)
    replaced: dict[int, Finding | None] = {}
    for phrase, pair in halves.items():
        if (
            len(pair) != 2
            or all(item.outcome is PASSED for item in pair)
            or not any(_distinct(item.quantity) for item in pair)
        ):
            continue
        found = _other_columns(pair, ctx)
        if found is None:
            continue
        subject, named, other = found
        start, end = phrase
        finding = Finding(
            _K.ATTRIBUTE_MISMATCH,
            start,
            end,
            ctx.sentence.text[start:end],
            f"the numbers are {subject}'s {other[0]}-{other[1]}, not {named[0]}-{named[1]}",
            subject,
            named[0],
        )
        replaced[id(pair[0])] = finding
        replaced[id(pair[1])] = None
    return _replace(stated, replaced)


def stated_column(stated: list[Stated], ctx: SentenceContext) -> list[Stated]:
    """A number its cue names as one attribute of its subject that is exactly the value of
    one other attribute of that subject ("Acme closed at $190.05", its day's high; "ICE
    1537 arrives at 14:05", its departure): the number is right, the attribute words are
    wrong, ``attribute_mismatch`` on them. Alone, a number is enough only where a
    coincidence is unlikely: a time, a date, or a fraction with three significant digits.
    A period's extreme stated with one of the period's other values (a high that is one
    slot's temperature) keeps its ``value_mismatch`` on the number."""
    structures = ctx.structures
    replaced: dict[int, Finding | None] = {}
    for item in stated:
        outcome, quantity = item.outcome, item.quantity
        span = item.binding.cue
        if (
            span is None
            or not isinstance(outcome, Finding)
            or outcome.kind is not _K.VALUE_MISMATCH
            or structures.in_pair(quantity)
            or not _unlikely_coincidence(quantity)
        ):
            continue
        best = item.binding.readings[0] if item.binding.readings else None
        if best is None:
            continue
        others = [
            a
            for a in ctx.index.fitting_attributes(best.subject, quantity.kind, quantity.unit)
            if a != best.attribute and _exactly(quantity, ctx.index.pair_readings(best.subject, a))
        ]
        if len(others) != 1 or _extreme_of(best.attribute, others[0]):
            continue
        start, end = span
        replaced[id(item)] = Finding(
            _K.ATTRIBUTE_MISMATCH,
            start,
            end,
            ctx.sentence.text[start:end],
            f"{quantity.text!r} is {possessive(best.subject)} "
            f"{ctx.index.names.of(best.subject, others[0])}, "
            f"not its {ctx.index.names.of(best.subject, best.attribute)}",
            best.subject,
            best.attribute,
        )
    return _replace(stated, replaced)


_EXTREME_SUFFIXES = ("_max", "_min")


def _extreme_of(named: str, other: str) -> bool:
    """Whether ``named`` is a period's extreme of ``other`` (``temperature_max`` of
    ``temperature``): a value the period held that is not its extreme ("a high of 3 °C"
    where 3 °C is one slot's temperature and the day's high is 7 °C) is a wrong number,
    not right words for another attribute; the finding stays on the number."""
    return named.endswith(_EXTREME_SUFFIXES) and named[:-4] == other


def _exactly(quantity: Quantity, readings: list[Reading]) -> bool:
    return any(
        r.kind is quantity.kind
        and r.value == quantity.value
        and units_compatible(quantity.unit, r.unit)
        for r in readings
    )


def _unlikely_coincidence(quantity: Quantity) -> bool:
    if quantity.kind is not _NUMBER:
        return True  # a time or a date
    digits = quantity.value.normalize().as_tuple().digits
    return _fractional(quantity) and len(digits) >= 3


DISTINCT_COUNT = 5
"""The smallest whole number that makes a pair of counts unlikely to fit another column
by chance."""


def _distinct(quantity: Quantity) -> bool:
    return _fractional(quantity) or abs(quantity.value) >= DISTINCT_COUNT


def _other_columns(
    pair: list[Stated], ctx: SentenceContext
) -> tuple[str, tuple[str, str], tuple[str, str]] | None:
    """(subject, the columns named, the other columns both numbers fit), if exactly one."""
    first, second = pair
    subject = first.binding.readings[0].subject
    if second.binding.readings[0].subject != subject:
        return None
    named = (first.binding.readings[0].attribute, second.binding.readings[0].attribute)
    index = ctx.index
    fits = [
        (p.first, p.second)
        for p in ctx.sentence.pairs
        if not p.two_subjects
        and (p.first, p.second) != named
        and any_fits(first.quantity, index.pair_readings(subject, p.first))
        and any_fits(second.quantity, index.pair_readings(subject, p.second))
    ]
    if len(set(fits)) != 1:
        return None
    return subject, named, fits[0]


CLAUSE_RULES: tuple[ClauseRule, ...] = (
    Rule("named_column", named_column, (_K.ATTRIBUTE_MISMATCH,)),
    Rule("stated_column", stated_column, (_K.ATTRIBUTE_MISMATCH,)),
)
"""Applied in order to a sentence's checked quantities, after their own rules; a wrong
name is the explanation family's (:mod:`vouched._scan._rules._explanation`)."""


def run(evidence: Evidence, so_far: Judged) -> list[Finding]:
    """The clause family over the sentence's statements: their outcomes sharpened in
    ``so_far.stated`` (the explanation family may sharpen them again), none returned."""
    so_far.stated = sharpened(CLAUSE_RULES, so_far.stated, so_far.ctx)
    return []
