"""Binding: which (subject, attribute) a stated quantity speaks about, read as a reader would.

Each quantity gets every reading a careful reader could give it, each with a
cost (lower reads more naturally): an attribute from the cue that governs it
(:mod:`vouched._scan._cues`) and a subject from its sentence
(:mod:`vouched._scan._subjects`), over the sentence's mentions read once
(:class:`~vouched._scan._sentence.SentenceRead`) and the structures that span
several quantities (:mod:`vouched._scan._structures`: pairs, lists, count
words); :mod:`vouched._scan._derived` reads signs, bounds, differences and sums.

The rules (:mod:`vouched._scan._rules`) then accept a quantity when any
*plausible* reading (cost within :data:`MARGIN` of the best) vouches for it:
strict about the attribute, lenient about the subject within the sentence.
:class:`Binder` is the one face the rules use.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from vouched._scan._cues import (
    AttributeReading,
    attribute_readings,
    governed_attributes,
    unit_attributes,
)
from vouched._scan._derived import comparison, derived, signed
from vouched._scan._factindex import FactIndex
from vouched._scan._lexicon import Lexicon
from vouched._scan._mentions import Mention
from vouched._scan._reader._numbers import Quantity
from vouched._scan._sentence import Found, Matchers, SentenceRead, compile_matchers
from vouched._scan._structures import extra_quantities, in_pair, masked_spans, prepare
from vouched._scan._subjects import (
    SubjectReading,
    subject_readings,
    unknown_governs,
    unknown_in,
)
from vouched._scan._values import (
    MARGIN,
    UNBOUND,
    UNKNOWN_SUBJECT,
    Binding,
    Derived,
    Reading,
    dedupe,
)

__all__ = ["MARGIN", "Binder", "Binding", "Derived", "Matchers", "Reading", "compile_matchers"]


def bind(ctx: SentenceRead, quantity: Quantity) -> Binding:
    """Every plausible (subject, attribute) reading of ``quantity``, best first."""
    structure = ctx.structure
    sentence = structure.sentence(quantity.start)
    clause = structure.clause(quantity.start)
    candidates = _candidates(ctx, quantity, sentence, clause)
    if candidates is None:
        return UNBOUND
    if isinstance(candidates, Binding):
        return candidates  # a name no fact is about governs it
    attributes, subjects, governed = candidates
    readings, mention_of = _pairings(ctx, attributes, subjects)
    if not readings:
        readings = _sole_owner(ctx, quantity, attributes, sentence)
        if not readings:
            best_attribute = attributes[0]
            read = best_attribute[1][0] if best_attribute[2] else None
            return Binding((), read, best_attribute[2], subjectless=not subjects)
    readings.sort()
    best = readings[0].cost
    plausible = tuple(r for r in readings if r.cost <= best + MARGIN)
    clear = next(c for a, names, c in attributes if plausible[0].attribute in names)
    firm = clear and len({r.subject for r in plausible}) == 1 and best <= 1.0
    return Binding(
        dedupe(plausible),
        plausible[0].attribute,
        clear,
        mention_of.get(plausible[0].subject, -1),
        firm=firm,
        governed=governed,
    )


def _candidates(
    ctx: SentenceRead, quantity: Quantity, sentence: tuple[int, int], clause: tuple[int, int]
) -> tuple[list[AttributeReading], list[SubjectReading], bool] | Binding | None:
    """The attribute and subject candidates (a structure's forced ones first), and whether
    the attribute was read from the named subject's facts; None when unbound, and
    :data:`UNKNOWN_SUBJECT` when a name no fact is about governs the quantity."""
    forced = ctx.forced.get(quantity.start)
    if forced is not None and forced.attributes:
        attributes: list[AttributeReading] = [(0.0, forced.attributes, True)]
    else:
        attributes = attribute_readings(ctx, quantity, sentence, clause)
    if forced is not None and forced.subjects is not None:
        subjects: list[SubjectReading] = [(0.0, s, forced.mention) for s in forced.subjects]
        if not attributes:
            attributes = unit_attributes(ctx, quantity, [s for _, s, _ in subjects])
    else:
        found = subject_readings(ctx, quantity, sentence, clause)
        if found is None:  # an unknown name is nearest: unbound, or its own if it governs
            return UNKNOWN_SUBJECT if unknown_governs(ctx, quantity, sentence) else None
        subjects = found
    if attributes:
        return attributes, subjects, False
    attributes = governed_attributes(ctx, quantity, subjects)
    return (attributes, subjects, True) if attributes else None


def _pairings(
    ctx: SentenceRead, attributes: list[AttributeReading], subjects: list[SubjectReading]
) -> tuple[list[Reading], dict[str, int]]:
    """Each (subject, attribute) candidate some fact speaks of, with its cost, and the
    mention that named each subject."""
    index = ctx.index
    readings: list[Reading] = []
    mention_of: dict[str, int] = {}
    for a_cost, names, _clear in attributes:
        for s_cost, subject, at in subjects:
            for name in names:
                if index.knows(subject, name):
                    readings.append(Reading(a_cost + s_cost, subject, name))
                    mention_of.setdefault(subject, at)
    return readings, mention_of


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
            owners = ctx.index.subjects_of(name)
            if len(owners) == 1:
                readings.append(Reading(a_cost + 2.5, owners[0], name))
    return readings


class Binder(SentenceRead):
    """One sentence's context with the readers the rules call, complete when built.

    Building it reads the sentence (:class:`SentenceRead`), the spans whose numbers are
    no claims (:attr:`masked`), the quantities written without digits, and the
    structures over all of the sentence's quantities (:attr:`quantities`, in order):
    nothing is left to call before :meth:`bind`.
    """

    def __init__(
        self,
        text: str,
        index: FactIndex,
        lexicon: Lexicon,
        found: Found,
        *,
        tokens: set[str],
        carried: Sequence[Mention] = (),
    ) -> None:
        super().__init__(text, index, lexicon, found, tokens=tokens, carried=carried)
        self.masked = masked_spans(self)
        quantities = found.quantities
        extra = extra_quantities(self)
        if extra:
            quantities = sorted([*quantities, *extra], key=lambda q: (q.start, q.end))
        self.quantities: list[Quantity] = quantities
        prepare(self, quantities)

    def bind(self, quantity: Quantity) -> Binding:
        return bind(self, quantity)

    def signed(self, quantity: Quantity) -> Quantity:
        return signed(self, quantity)

    def comparison(self, quantity: Quantity) -> str | None:
        return comparison(self, quantity)

    def derived(self, quantity: Quantity, stated: Iterable[Quantity]) -> Derived | None:
        return derived(self, quantity, stated)

    def in_pair(self, quantity: Quantity) -> bool:
        return in_pair(self, quantity)
