"""Relation rules of the words family: comparisons stated in words, and what every
relation rule reads (its phrase's relation, its subject, the operands).

"X colder than Y" must hold between their facts. A relation whose operands have no
grounded fact is an ``ungrounded_claim``. Ranks, thresholds and counts ("team-high",
"a triple-double", "the only other starter") are in :mod:`._ranks`. Each rule is in
:data:`~vouched._scan._rules._words.WORD_RULES` at its priority.
"""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple, TypeVar

from vouched._scan._facts._attributenames import PLAIN_NAMES, AttributeNames, possessive
from vouched._scan._facts._counts import Count
from vouched._scan._facts._factindex import rounds_to
from vouched._scan._facts._gameparts import period_parts
from vouched._scan._facts._lexrelations import Comparison, Superlative, Threshold
from vouched._scan._facts._wordmatch import RELATION
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._numbers import Quantity, QuantityKind
from vouched._scan._lex._units import in_base_unit
from vouched._scan._read._wordreading import (
    NOBODY,
)
from vouched._scan._rules._explanation import self_compared
from vouched._scan._rules._margins import (
    first_is_other,
    holds,
    in_period,
    margin_holds,
    named_before,
    other_side,
    stated_relation,
)
from vouched._scan._rules._rule import PASSED, Outcome
from vouched._scan._rules._said import Said, WordContext, word_finding

__all__ = [
    "Operand",
    "checked",
    "comparable",
    "not_grounded",
    "operand_of",
    "quantity_matches_value",
    "relation_of",
    "shown",
    "stated_comparison",
    "subject_with",
]

_K = FindingKind


class Operand(NamedTuple):
    """A subject's value of an attribute as a relation compares it: in its dimension's
    base unit (a time as minutes of the day, a date as a day number)."""

    value: Decimal
    unit: str | None
    kind: QuantityKind


def operand_of(ctx: WordContext, subject: str, attribute: str) -> Operand | str:
    """A subject's one value of an attribute, or why there is none: "silent" (the pair is
    silent), "none" (no grounded value) or "many" (several values: not comparable)."""
    readings = ctx.index.pair_readings(subject, attribute)
    if not readings:
        return "silent" if (subject, attribute) in ctx.index.silent_pairs else "none"
    found = {(r.kind, r.value, r.unit) for r in readings}
    if len(found) != 1:
        return "many"
    kind, value, unit = found.pop()
    based, base = in_base_unit(value, unit)
    return Operand(based, base, kind)


def comparable(a: Operand, b: Operand) -> bool:
    return a.kind is b.kind and a.unit == b.unit


def quantity_matches_value(quantity: Quantity, value: Decimal) -> bool:
    """Does a stated number say ``value`` (as written or rounded to the precision shown)?"""
    return rounds_to(value, quantity.value, quantity.quantum)


def subject_with(
    ctx: WordContext, said: Said, attributes: tuple[str, ...], *, after: bool = True
) -> str | Finding | None:
    """The subject of a relation phrase (:func:`subject_of`), checked by :func:`_checked`."""
    read = ctx.read(said)
    subject = read.subject if after else read.subject_before
    return checked(ctx, said, subject, attributes)


def checked(
    ctx: WordContext, said: Said, subject: str | None, attributes: tuple[str, ...]
) -> str | Finding | None:
    """``subject`` when some fact of ``attributes`` speaks of it. A subject no fact is
    about, or one of the same kind as those that have the attributes but without them (a
    currency with no spread fact), is an ``ungrounded_claim``; another kind of subject
    leaves the phrase alone ("the Bucks led for most of the game" is no player's scoring
    rank)."""
    if subject is None:
        return None
    if subject != NOBODY and any(ctx.index.knows(subject, a) for a in attributes):
        return subject
    if subject == NOBODY or ctx.facts.same_kind(subject, attributes):
        name = subject or "a subject no fact is about"
        words = ctx.index.names.of(subject or None, attributes[0])
        return word_finding(
            said, _K.UNGROUNDED_CLAIM, f"no grounded {words} for {name}", subject or None
        )
    return None


def shown(ctx: WordContext, subject: str, attribute: str) -> str:
    facts = ctx.index.facts_of(subject, attribute)
    if not facts:
        return "unknown"
    fact = facts[0]
    return f"{fact.value} {fact.unit}" if fact.unit else str(fact.value)


def not_grounded(
    said: Said, subject: str, attribute: str, why: str, names: AttributeNames = PLAIN_NAMES
) -> Finding | None:
    """No one value to compare: ``silent_spoken`` for a silent one, else
    ``ungrounded_claim``; ``names`` says the attribute in the detail."""
    if why == "many":
        return None  # several values: not one to compare
    if why == "silent":
        return word_finding(
            said,
            _K.SILENT_SPOKEN,
            f"{names.named(subject, attribute)} is silent",
            subject,
            attribute,
        )
    words = names.of(subject, attribute)
    return word_finding(
        said, _K.UNGROUNDED_CLAIM, f"no grounded {words} for {subject}", subject, attribute
    )


def stated_comparison(said: Said, ctx: WordContext) -> Outcome | None:
    """ "X <phrase> Y" states attribute(X) <op> attribute(Y): X the nearest subject before
    the phrase that has the attribute, Y the subject named right after it (for a phrase
    that takes no object, ``versus = "other"``: the one other subject with the attribute).
    With a declared margin the difference must lie within it ("edged": by at most a few);
    with a period named in the phrase's clause ("in the second half") the sides are the
    sums of that period's parts. One that does not hold is ``relation_mismatch`` on the
    phrase; an operand with no grounded value ``ungrounded_claim`` (``silent_spoken``
    when it is silent)."""
    relation = relation_of(said, ctx, Comparison)
    if relation is None:
        return None
    attribute = relation.attribute
    left = subject_with(ctx, said, (attribute,), after=False)
    if not isinstance(left, str):
        return left
    if relation.versus is not None:
        if not named_before(ctx.sentence, said.start, left):
            return None  # "allowing them to coast": a pronoun's antecedent is a guess here
        named = other_side(ctx.index, left, attribute)
        if named is None:
            return None
    else:
        named = ctx.read(said).after
    right = checked(ctx, said, named, (attribute,))
    if not isinstance(right, str):
        return right
    if relation.at_some_part:
        return _at_some_part(said, ctx, relation, (left, right))
    structure = ctx.sentence.structure
    # the clause that holds the whole phrase: "out - scored" spans a dash, which may end a clause
    clause = (structure.clause(said.start)[0], structure.clause(said.end - 1)[1])
    parts = period_parts(ctx.lexicon.periods, attribute, ctx.sentence.text, *clause)
    if left == right:
        # which name is the other team's: the period the sentence names decides ("came out
        # strong in the third quarter, out-scoring the Jazz 29-8"), else the whole game
        periods = parts or period_parts(
            ctx.lexicon.periods,
            attribute,
            ctx.sentence.text,
            *ctx.sentence.structure.sentence(said.start),
        )
        first = first_is_other(ctx.index, left, periods or (attribute,), relation.holds)
        return self_compared(ctx.sentence, said.start, said.end, left, first=first)
    if parts is not None:
        return _in_period(said, ctx, relation, (left, right), parts)
    a, b = operand_of(ctx, left, attribute), operand_of(ctx, right, attribute)
    if not isinstance(a, Operand):
        return not_grounded(said, left, attribute, a, ctx.index.names)
    if not isinstance(b, Operand):
        return not_grounded(said, right, attribute, b, ctx.index.names)
    if not comparable(a, b):
        return None  # values in other currencies or kinds: nothing to compare
    if holds(a.value, relation.holds, b.value) and margin_holds(
        relation, *_margin_sides(ctx, (left, right), attribute, (a, b))
    ):
        return PASSED
    return word_finding(
        said,
        _K.RELATION_MISMATCH,
        f"{possessive(left)} {ctx.index.names.of(left, attribute)} is "
        f"{shown(ctx, left, attribute)}, {possessive(right)} is "
        f"{shown(ctx, right, attribute)}: {stated_relation(relation)} does not hold",
        left,
        attribute,
    )


def _at_some_part(
    said: Said, ctx: WordContext, relation: Comparison, sides: tuple[str, str]
) -> Outcome | None:
    """ "X battled back": the relation holds on the running totals at the end of some part
    before the last (the parts the lexicon's periods split the attribute into, in order:
    the quarters); ``relation_mismatch`` when it holds at none (X led after every one).
    None when the periods name fewer than two parts or a side lacks one."""
    attribute = relation.attribute
    parts = sorted({p for split in ctx.lexicon.periods.values() for p in split.get(attribute, ())})
    if len(parts) < 2:
        return None
    totals = [Decimal(0), Decimal(0)]
    for part in parts[:-1]:
        values = [ctx.index.numeric_value(side, part) for side in sides]
        if values[0] is None or values[1] is None:
            return None
        totals = [totals[0] + values[0], totals[1] + values[1]]
        if holds(totals[0], relation.holds, totals[1]):
            return PASSED
    left, right = sides
    return word_finding(
        said,
        _K.RELATION_MISMATCH,
        f"{left}'s running {attribute} is never {relation.holds} {right}'s at the end of "
        f"{', '.join(parts[:-1])}",
        left,
        attribute,
    )


def _margin_sides(
    ctx: WordContext, sides: tuple[str, str], attribute: str, operands: tuple[Operand, Operand]
) -> tuple[Decimal, Decimal]:
    """The two sides a margin is measured on: the facts' own numbers when both are plain
    numbers in one unit (182 ms and 47 ms: 135 ms apart, as the lexicon states margins),
    else the operands in their base unit (times as minutes of the day)."""
    a, b = operands
    if a.kind is QuantityKind.NUMBER:
        left = ctx.index.numeric_value(sides[0], attribute)
        right = ctx.index.numeric_value(sides[1], attribute)
        units = {r.unit for s in sides for r in ctx.index.pair_readings(s, attribute)}
        if left is not None and right is not None and len(units) == 1:
            return left, right
    return a.value, b.value


def _in_period(
    said: Said,
    ctx: WordContext,
    relation: Comparison,
    sides: tuple[str, str],
    parts: tuple[str, ...],
) -> Outcome | None:
    """The comparison within a period: each side the sum of its parts (left alone when a
    part is missing); with ``and_overall``, over the whole as well ("pulled away in the
    fourth quarter" said of the team that lost the game is wrong)."""
    verdict = in_period(ctx.index, relation, sides, parts)
    if verdict is None:
        return None
    if verdict is True and relation.and_overall:
        left, right = (ctx.index.numeric_value(side, relation.attribute) for side in sides)
        if left is not None and right is not None and not holds(left, relation.holds, right):
            verdict = (
                f"{sides[0]}'s {relation.attribute} is {left}, {sides[1]}'s is {right}: "
                f"{stated_relation(relation)} does not hold over the whole"
            )
    if verdict is True:
        return PASSED
    return word_finding(said, _K.RELATION_MISMATCH, verdict, sides[0], relation.attribute)


_R = TypeVar("_R", Comparison, Superlative, Threshold, Count)


def relation_of(said: Said, ctx: WordContext, kind: type[_R]) -> _R | None:
    for phrase in said.family(RELATION):
        relation = ctx.lexicon.relations.get(phrase)
        if isinstance(relation, kind):
            return relation
    return None
