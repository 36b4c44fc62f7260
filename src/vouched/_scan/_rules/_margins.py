"""Margins and periods of a comparison: pure arithmetic over the facts.

A comparison phrase may say how much ("edged": by at most a few points; "routed":
by many; :class:`~vouched._scan._facts._lexrelations.Comparison` ``by_at_least`` /
``by_at_most``), against whom when no one is named ("cruised to a win": the one
other subject with the attribute, ``versus = "other"``), and within which period
("pulled away in the second half": the sum of the parts the lexicon's ``periods``
section declares, :mod:`vouched._scan._facts._gameparts`). These helpers compute the sides;
the word rule (:func:`vouched._scan._wordrules.stated_comparison`) judges.
"""

from __future__ import annotations

from bisect import bisect_left
from decimal import Decimal
from typing import Literal

from vouched._scan._facts._factindex import FactIndex
from vouched._scan._facts._lexrelations import Comparison
from vouched._scan._read._mentions import MentionKind
from vouched._scan._read._sentence import SentenceRead

__all__ = [
    "MAX_OTHERS",
    "first_is_other",
    "holds",
    "in_period",
    "margin_holds",
    "named_before",
    "other_side",
    "stated_relation",
    "summed",
]

MAX_OTHERS = 2
"""``versus = "other"`` reads a side only when exactly one other subject has the
attribute; it looks at no more than this many owners (a game's two teams)."""


def other_side(index: FactIndex, subject: str, attribute: str) -> str | None:
    """The one subject other than ``subject`` with a fact of ``attribute``, if exactly one."""
    owners = index.subjects_of(attribute)
    if len(owners) > MAX_OTHERS:
        return None
    others = [s for s in owners if s != subject]
    return others[0] if len(others) == 1 and len(owners) == MAX_OTHERS else None


def named_before(sentence: SentenceRead, start: int, subject: str) -> bool:
    """Is ``subject`` the nearest mention before ``start`` in its sentence, by name (not a
    pronoun)? A phrase that takes no object ("pulled away") is judged only for a subject
    its sentence names."""
    low = sentence.structure.sentence(start)[0]
    i = bisect_left(sentence.mention_starts, start) - 1
    if i < 0:
        return False
    mention = sentence.mentions[i]
    return (
        mention.start >= low
        and mention.kind == MentionKind.NAMED
        and mention.names[:1] == (subject,)
    )


def summed(index: FactIndex, subject: str, parts: tuple[str, ...]) -> Decimal | None:
    """The sum of ``subject``'s values of ``parts`` (a period's quarters); None when one
    is missing."""
    total = Decimal(0)
    for part in parts:
        value = index.numeric_value(subject, part)
        if value is None:
            return None
        total += value
    return total


def margin_holds(relation: Comparison, left: Decimal, right: Decimal) -> bool:
    """Does the difference between the sides lie within the phrase's declared margin?"""
    size = abs(left - right)
    if relation.by_at_least is not None and size < relation.by_at_least:
        return False
    return relation.by_at_most is None or size <= relation.by_at_most


def holds(left: Decimal, op: str, right: Decimal) -> bool:
    """Does ``left op right`` hold (``op``: a comparison's ``holds``)?"""
    return {
        "<": left < right,
        "<=": left <= right,
        ">": left > right,
        ">=": left >= right,
        "=": left == right,
    }[op]


def stated_relation(relation: Comparison) -> str:
    """What a comparison states, for a detail: "> by at most 5"."""
    low, high = relation.by_at_least, relation.by_at_most
    size = "" if low is None else f" by at least {low}"
    size += "" if high is None else f" by at most {high}"
    return relation.holds + size


def in_period(
    index: FactIndex, relation: Comparison, sides: tuple[str, str], parts: tuple[str, ...]
) -> str | Literal[True] | None:
    """A comparison within a period, each side the sum of its parts: True when it holds,
    the detail of a mismatch when not, None when a part is missing."""
    left, right = sides
    a, b = summed(index, left, parts), summed(index, right, parts)
    if a is None or b is None:
        return None
    if holds(a, relation.holds, b) and margin_holds(relation, a, b):
        return True
    return (
        f"{left}'s {' + '.join(parts)} is {a}, {right}'s is {b}: "
        f"{stated_relation(relation)} does not hold"
    )


def first_is_other(index: FactIndex, subject: str, parts: tuple[str, ...], op: str) -> bool:
    """For "X <phrase> X": does the relation hold with another subject first ("the
    Pelicans defeated the Suns") and not with it second? Then the first name is wrong.
    Each side is the sum of ``parts`` (the attribute itself, or a period's parts).
    Looks at no more than :data:`MAX_WEIGHED` other subjects."""
    own = summed(index, subject, parts)
    if own is None:
        return False
    for other in index.subjects_of(parts[0])[:MAX_WEIGHED]:
        value = summed(index, other, parts)
        if other == subject or value is None:
            continue
        if holds(value, op, own) and not holds(own, op, value):
            return True
    return False


MAX_WEIGHED = 64
"""Subjects tried as the other side of a subject compared with itself."""
