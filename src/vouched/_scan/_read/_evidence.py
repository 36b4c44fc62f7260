"""One sentence as the read stage hands it to the rules: a frozen :class:`Evidence`.

The read stage reads a sentence once, in one direction: its mentions and clauses
(:func:`~vouched._scan._read._sentence.read_sentence`), the structures that span several
quantities (:func:`~vouched._scan._read._structures.read_structures`), what is masked
(names, placeholders, quotes, relation phrases, the question's numbers), and each
quantity that is a claim, signed and bound (:func:`~vouched._scan._read._binding.bind`);
a duration no cue binds is set apart (the duration family's), small words no cue binds
are no claim. The rules read the result and never call the readers back: what a
claim's evidence reads of the rules' own decisions (the quantities vouched for before
it, over which a stated difference or sum is computed) is asked of the Evidence's
:class:`Weigher`, item by item.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from types import MappingProxyType
from typing import Any

from vouched._scan._facts._factindex import FactIndex
from vouched._scan._facts._lexicon import Lexicon
from vouched._scan._facts._wordmatch import RELATION
from vouched._scan._lex._quantities import Quantity, QuantityKind
from vouched._scan._lex._spans import Spans
from vouched._scan._lex._units import CURRENCY_UNITS
from vouched._scan._read._binding import bind, evidence
from vouched._scan._read._derived import computed_words, signed
from vouched._scan._read._mentions import Mention
from vouched._scan._read._sentence import (
    NO_COMPUTES,
    Computes,
    Cue,
    Found,
    SentenceRead,
    read_sentence,
)
from vouched._scan._read._structures import read_structures
from vouched._scan._read._values import Binding, Evidence, Structures
from vouched._scan._read._wordreading import WordReading, denied

__all__ = ["DURATIONS", "Weigher", "read_evidence"]

DURATIONS = frozenset({"h", "min", "s", "ms", "d"})
"""Units of a duration: one no cue binds is no claim but in another unit of time."""


class Weigher:
    """A claim's evidence beside its binding (:func:`~vouched._scan._read._binding.evidence`):
    the difference or sum the text says it computes over ``passed`` (the sentence's
    quantities vouched for before it, which the rules decide), else the comparison a bound
    is stated with. The sentence's words of a computed value are searched when the first
    claim asks, and only when the batch may state one at all."""

    __slots__ = ("_gates", "_sentence", "_structures")

    def __init__(self, sentence: SentenceRead, structures: Structures, may_compute: bool) -> None:
        self._sentence = sentence
        self._structures = structures
        self._gates: Computes | None = None if may_compute else NO_COMPUTES

    def __call__(self, quantity: Quantity, bound: Binding, passed: Iterable[Quantity]) -> Binding:
        gates = self._gates
        if gates is None:
            gates = self._gates = computed_words(self._sentence.text)
        return evidence(self._sentence, self._structures, quantity, bound, passed, gates)


def read_evidence(  # noqa: PLR0917 - the sentence and what was compiled for it
    part: str,
    found: Found,
    spans: Sequence[tuple[int, int]],
    index: FactIndex,
    lexicon: Lexicon,
    carried: list[Mention],
    asked: frozenset[tuple[QuantityKind, Any]],
    *,
    may_compute: bool = True,
) -> Evidence:
    """The sentence ``part`` read on ``index`` (``found``: its quantities and phrases;
    ``spans``: placeholders and quotes, where nothing is a statement; ``carried``: the
    mentions the sentence before handed on; ``asked``: the question's numbers;
    ``may_compute``: whether the batch holds any word of a computed value)."""
    sentence = read_sentence(part, index, lexicon, found, carried=carried)
    structures = read_structures(sentence, found.quantities)
    relations = [(w.start, w.end) for w in found.words if _is_relation(w)]
    masks = Spans([*structures.masked, *spans, *relations])
    durations: list[tuple[Quantity, Binding]] = []
    claims: list[tuple[Quantity, Binding]] = []
    for read in structures.quantities:
        if not _is_claim(read, masks, asked):
            continue
        quantity = signed(sentence, read)
        binding = bind(sentence, structures, quantity)
        if quantity.soft and not binding.clear and quantity.unit is None:
            continue  # "two trains", "the 3rd": small words count only when bound
        if quantity.unit in DURATIONS and not binding.clear:
            # "may be delayed by 15 minutes": a duration no cue binds is no claim,
            # unless it is a fact's value in another unit of time ("182 s" for 182 ms)
            durations.append((quantity, binding))
        else:
            claims.append((quantity, binding))
    words: tuple[Cue, ...] = ()
    if found.words:
        # words inside placeholders and quotes are not statements; names may be
        unsaid = Spans(spans)
        words = tuple(w for w in found.words if not unsaid.covers(w.start, w.end))
    readings = MappingProxyType(
        {(w.start, w.end): WordReading(sentence, w.start, w.end) for w in words}
    )
    weigh = Weigher(sentence, structures, may_compute)
    return Evidence(
        sentence,
        structures,
        masks,
        tuple(durations),
        tuple(claims),
        words,
        readings,
        partial(denied, sentence),
        weigh,
    )


def _is_relation(word: Cue) -> bool:
    """A relation phrase ("more punctual than"): the words inside it state no value."""
    return any(tag[0] == RELATION for tag in word.names)


def _is_claim(read: Quantity, masks: Spans, asked: frozenset[tuple[QuantityKind, Any]]) -> bool:
    """Numbers inside names, placeholders and long quotes, numbers the question
    holds, and the base of a rate ("1 EUR = 1.0842 USD") are not claims."""
    if masks.covers(read.start, read.end):
        return False
    if asked and any((read.kind, v) in asked for v in read.values):
        return False
    return not (read.unit in CURRENCY_UNITS and read.value == 1 and not read.alternatives)
