"""Binding: which (subject, attribute) a stated quantity speaks about, read as a reader would.

Each quantity gets every reading a careful reader could give it, each with a
cost (lower reads more naturally): an attribute from the cue that governs it
(:mod:`vouched._scan._read._cues`) and a subject from its sentence
(:mod:`vouched._scan._read._subjects`), over the sentence's mentions read once
(:class:`~vouched._scan._read._sentence.SentenceRead`) and the structures that span
several quantities (:class:`~vouched._scan._read._values.Structures`, read by
:mod:`vouched._scan._read._structures`: pairs, lists, count words), both frozen before
any quantity is bound. :func:`bind` reads them and returns the quantity's
:class:`Binding` (its per-quantity state: readings, the cue span); :func:`evidence`
adds what :mod:`vouched._scan._read._derived` reads of it (a difference or sum it states,
the comparison of a bound) before the rules judge it.

The rules (:mod:`vouched._scan._rules`) then accept a quantity when any
*plausible* reading (cost within :data:`MARGIN` of the best) vouches for it:
strict about the attribute, lenient about the subject within the sentence. They
read the quantity, its binding and the frozen sentence values, never this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from vouched._scan._facts._gameparts import period_parts
from vouched._scan._lex._numbers import Quantity, QuantityKind
from vouched._scan._read._cues import (
    AttributeReading,
    attribute_readings,
    governed_attributes,
    unit_attributes,
)
from vouched._scan._read._derived import comparison, converted, derived, group_count, journey
from vouched._scan._read._sentence import (
    Computes,
    Matchers,
    SentenceRead,
    compile_matchers,
)
from vouched._scan._read._subjects import (
    SubjectReading,
    subject_readings,
    unknown_governs,
    unknown_in,
)
from vouched._scan._read._values import (
    MARGIN,
    UNBOUND,
    UNKNOWN_SUBJECT,
    Binding,
    Derived,
    Reading,
    Structures,
    dedupe,
)

__all__ = [
    "MARGIN",
    "Binding",
    "Derived",
    "Matchers",
    "Reading",
    "bind",
    "compile_matchers",
    "evidence",
]

_Candidates = tuple[list[AttributeReading], list[SubjectReading], bool]


def bind(ctx: SentenceRead, st: Structures, quantity: Quantity) -> Binding:
    """Every plausible (subject, attribute) reading of ``quantity``, best first, with the
    span of the cue of a clear reading."""
    structure = ctx.structure
    sentence = structure.sentence(quantity.start)
    clause = structure.clause(quantity.start)
    candidates, cue = _candidates(ctx, st, quantity, sentence, clause)
    if candidates is None:
        return UNBOUND if cue is None else UNBOUND._replace(cue=cue)
    if isinstance(candidates, Binding):  # a name no fact is about governs it
        return candidates if cue is None else candidates._replace(cue=cue)
    two_sided = quantity.start in st.partners or quantity.start in st.partners.values()
    return _readings(ctx, quantity, sentence, candidates, cue, in_period=not two_sided)


def _readings(
    ctx: SentenceRead,
    quantity: Quantity,
    sentence: tuple[int, int],
    candidates: _Candidates,
    cue: tuple[int, int] | None,
    *,
    in_period: bool = True,
) -> Binding:
    attributes, subjects, governed = candidates
    readings, mention_of = _pairings(ctx, attributes, subjects)
    if not readings:
        readings = _sole_owner(ctx, quantity, attributes, sentence)
        if not readings:
            best_attribute = attributes[0]
            read = best_attribute[1][0] if best_attribute[2] else None
            return Binding((), read, best_attribute[2], subjectless=not subjects, cue=cue)
    readings.sort()
    best = readings[0].cost
    plausible = tuple(r for r in readings if r.cost <= best + MARGIN)
    clear = next(c for a, names, c in attributes if plausible[0].attribute in names)
    firm = clear and len({r.subject for r in plausible}) == 1 and best <= 1.0
    if in_period and ctx.lexicon.periods:
        plausible = tuple(_period_reading(ctx, r, sentence) for r in plausible)
    return Binding(
        dedupe(plausible),
        plausible[0].attribute,
        clear,
        mention_of.get(plausible[0].subject, -1),
        firm=firm,
        governed=governed,
        cue=cue,
    )


def _candidates(
    ctx: SentenceRead,
    st: Structures,
    quantity: Quantity,
    sentence: tuple[int, int],
    clause: tuple[int, int],
) -> tuple[_Candidates | Binding | None, tuple[int, int] | None]:
    """The attribute and subject candidates (a structure's forced ones first), and whether
    the attribute was read from the named subject's facts; None when unbound, and
    :data:`UNKNOWN_SUBJECT` when a name no fact is about governs the quantity. Beside
    them, the span of the cue of a clear reading."""
    forced = st.forced.get(quantity.start)
    cue: tuple[int, int] | None = None
    if forced is not None and forced.attributes:
        attributes: list[AttributeReading] = [(0.0, forced.attributes, True)]
    else:
        attributes, cue = attribute_readings(ctx, st, quantity, sentence, clause)
    if forced is not None and forced.subjects is not None:
        subjects: list[SubjectReading] = [(0.0, s, forced.mention) for s in forced.subjects]
        if not attributes:
            attributes = unit_attributes(ctx, quantity, [s for _, s, _ in subjects])
    else:
        adjacent = st.adjacent.get(quantity.start)
        found = subject_readings(
            ctx,
            quantity,
            sentence,
            clause,
            adjacent,
            numbers=st.quantities,
            starts=st.quantity_starts,
        )
        if found is None:  # an unknown name is nearest: unbound, or its own if it governs
            governs = unknown_governs(ctx, quantity, sentence)
            return (UNKNOWN_SUBJECT if governs else None), cue
        subjects = found
    if attributes:
        return (attributes, subjects, False), cue
    attributes = governed_attributes(ctx, quantity, subjects)
    return ((attributes, subjects, True) if attributes else None), cue


def _pairings(
    ctx: SentenceRead, attributes: list[AttributeReading], subjects: list[SubjectReading]
) -> tuple[list[Reading], dict[str, int]]:
    """Each (subject, attribute) candidate some fact speaks of, with its cost, and the
    mention that named each subject."""
    index = ctx.facts
    readings: list[Reading] = []
    mention_of: dict[str, int] = {}
    for a_cost, names, _clear in attributes:
        for s_cost, subject, at in subjects:
            for name in names:
                if index.knows(subject, name):
                    readings.append(Reading(a_cost + s_cost, subject, name))
                    mention_of.setdefault(subject, at)
    return readings, mention_of


def _period_reading(ctx: SentenceRead, reading: Reading, sentence: tuple[int, int]) -> Reading:
    """A count in a sentence that names a period ("Harbour Town scored twice in the second
    half", "In the second half, Rovers added three more goals") is that period's column
    when the subject has one: the second half's goals, not the match's. A score pair is
    read as a whole elsewhere (a period named later governs no final score)."""
    parts = period_parts(ctx.lexicon.periods, reading.attribute, ctx.text, *sentence)
    if parts is None or len(parts) != 1 or not ctx.facts.knows(reading.subject, parts[0]):
        return reading
    return reading._replace(attribute=parts[0])


def _sole_owner(
    ctx: SentenceRead,
    quantity: Quantity,
    attributes: list[AttributeReading],
    sentence: tuple[int, int],
) -> list[Reading]:
    """Only one subject has a clear attribute at all: the number is about it (unless an
    unknown name is in the sentence before it)."""
    if unknown_in(ctx, sentence, quantity.start):
        return []
    readings: list[Reading] = []
    for a_cost, names, clear in attributes:
        if not clear:
            continue
        for name in names:
            owners = ctx.facts.subjects_of(name)
            if len(owners) == 1:
                readings.append(Reading(a_cost + 2.5, owners[0], name))
    return readings


def evidence(  # noqa: PLR0917 - the reading stage's inputs, in flow order
    ctx: SentenceRead,
    st: Structures,
    quantity: Quantity,
    binding: Binding,
    passed: Iterable[Quantity],
    gates: Computes,
    asked: frozenset[tuple[QuantityKind, Any]] = frozenset(),
) -> Binding:
    """``binding`` with what the quantity's rules judge beside it: the difference or sum
    the text says it computes (over ``passed``, the sentence's quantities vouched for
    before it; ``gates``: the sentence's words of a computed value), or the conversion
    of an amount the question holds (``asked``) through a rate fact, else the
    comparison a bound is stated with."""
    # a half of a score line ("the 118-111 win") is a team's value, not a margin
    two_sided = quantity.start in st.partners or quantity.start in st.partners.values()
    found = None if two_sided else journey(ctx, quantity, st.quantities)
    if found is None and not two_sided:
        found = converted(ctx, quantity, st.quantities, asked)
    if found is None and not two_sided:
        found = derived(ctx, quantity, passed, gates, st.adjacent.get(quantity.start))
    if found is None and not two_sided:
        found = group_count(ctx, quantity, st.adjacent.get(quantity.start))
    if found is not None:
        return binding._replace(derived=found)
    if binding.readings:
        op = comparison(ctx, quantity)
        if op is not None:
            return binding._replace(comparison=op)
    return binding
