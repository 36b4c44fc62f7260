"""Revisions: one quantity's outcome made sharper after its quantity rule decided.

Applied in order to each checked quantity (:data:`REVISIONS`): two subjects' values
written as one pair must fit jointly; a value no fact vouches for that contradicts
an earlier statement of the same pair is an inconsistency.
"""

from __future__ import annotations

from collections.abc import Callable

from vouched._scan._facts._factindex import describe, rounds_to
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._numbers import Quantity, QuantityKind
from vouched._scan._lex._units import units_compatible
from vouched._scan._lex._vocabulary import OTHER_OCCASION
from vouched._scan._read._mentions import MentionKind
from vouched._scan._rules._context import SentenceContext, Stated, any_fits, finding_on
from vouched._scan._rules._rule import PASSED, Family, Outcome, Rule, decided, ran

__all__ = ["REVISIONS", "RevisionCheck", "RevisionRule", "revise"]

_K = FindingKind
_NUMBER = QuantityKind.NUMBER

RevisionCheck = Callable[[Stated, SentenceContext], Outcome]
"""A revision: the quantity's outcome, kept or made sharper."""
RevisionRule = Rule[RevisionCheck]


def pair_jointly(stated: Stated, ctx: SentenceContext) -> Outcome:
    """Two subjects' values written as one pair ("110-110") must fit them jointly: the
    second may not be vouched for only by the subject that vouched for the first."""
    quantity, binding, outcome = stated
    if outcome is not PASSED or not ctx.structures.partners or not binding.readings:
        return outcome
    index = ctx.index
    subjects = {
        r.subject
        for r in binding.readings
        if any_fits(quantity, index.pair_readings(r.subject, r.attribute))
    }
    ctx.fitted[quantity.start] = subjects
    partner = ctx.structures.partners.get(quantity.start)
    if partner is None:
        return outcome
    first = ctx.fitted.get(partner, set())
    if len(first) != 1 or subjects != first:
        return outcome
    other = next((r for r in binding.readings if r.subject not in first), None)
    if other is None:
        return outcome
    facts = index.pair_readings(other.subject, other.attribute)
    return finding_on(
        quantity,
        _K.VALUE_MISMATCH,
        f"{quantity.text!r} is the second value of a pair whose first is already "
        f"{next(iter(first))}'s; it does not match "
        + "; ".join(describe(r, index.names) for r in facts[:1]),
        other,
    )


def restated(stated: Stated, ctx: SentenceContext) -> Outcome:
    """A value no fact vouches for that contradicts the first statement of the same
    subject and attribute on the same occasion is an ``inconsistency`` (compared with
    the first only)."""
    quantity, binding, outcome = stated
    if (
        not isinstance(outcome, Finding)
        or outcome.kind is not _K.UNGROUNDED_NUMBER
        or not binding.clear
        or binding.attribute is None
    ):
        return outcome
    subject = binding.readings[0].subject if binding.readings else _named(quantity, ctx)
    key = (subject, binding.attribute + _occasion(quantity, ctx))
    earlier = ctx.carry.firm.setdefault(key, quantity)
    if earlier is quantity or _consistent(quantity, earlier):
        return outcome
    return Finding(
        _K.INCONSISTENCY,
        quantity.start,
        quantity.end,
        quantity.text,
        f"{quantity.text!r} contradicts {earlier.text!r} stated earlier for "
        f"{ctx.index.names.named(subject, binding.attribute)}, "
        "and no fact vouches for either",
        outcome.subject,
        binding.attribute,
    )


def _named(quantity: Quantity, ctx: SentenceContext) -> str | None:
    """The subject a quantity no fact reads is stated for: one named in its clause, else
    the last one named before it (a pronoun's antecedents, the topic), by name."""
    sentence = ctx.sentence
    start, end = sentence.structure.clause(quantity.start)
    before: tuple[str, ...] = ()
    for mention in sentence.mentions:
        names = (
            sentence.resolved.get(mention.start, ())
            if mention.kind == MentionKind.PRONOUN
            else mention.names
        )
        if start <= mention.start < end and names:
            return "|".join(names)
        if mention.start < quantity.start and names:
            before = names
    return "|".join(before) if before else None


def _occasion(quantity: Quantity, ctx: SentenceContext) -> str:
    """The words of the quantity's clause that put it on another occasion than the
    present ("it was 4 yesterday", "tomorrow it climbs to 4"), as a key suffix: values
    of one quantity on different occasions never contradict each other."""
    sentence = ctx.sentence
    start, end = sentence.structure.clause(quantity.start)
    words = sorted({m.group().lower() for m in OTHER_OCCASION.finditer(sentence.text, start, end)})
    return "@" + "|".join(words) if words else ""


def _consistent(a: Quantity, b: Quantity) -> bool:
    if a.kind is not b.kind:
        return True
    if a.kind is _NUMBER:
        if not units_compatible(a.unit, b.unit) or (a.unit and b.unit and a.unit != b.unit):
            return True  # a conversion, judged on its own
        return any(
            rounds_to(x, y, b.quantum) or rounds_to(y, x, a.quantum)
            for x in a.values
            for y in b.values
        )
    return bool(set(a.values) & set(b.values))


REVISIONS: tuple[RevisionRule, ...] = (
    Rule("pair_jointly", pair_jointly, (_K.VALUE_MISMATCH,)),
    Rule("restated", restated, (_K.INCONSISTENCY,)),
)
"""Applied in order to each quantity's outcome."""


def revise(stated: Stated, ctx: SentenceContext) -> Outcome:
    """The revisions, in order, of one statement's outcome (run per stated item by the
    quantity family's :func:`~vouched._scan._rules._quantity.run`: what a revision
    leaves vouched for is what the next claim's evidence reads)."""
    ran(Family.REVISION)
    outcome = stated.outcome
    for revision in REVISIONS:
        revised = revision.check(stated._replace(outcome=outcome), ctx)
        if revised is not outcome and isinstance(revised, Finding):
            decided(revision, revised)
        outcome = revised
    return outcome
