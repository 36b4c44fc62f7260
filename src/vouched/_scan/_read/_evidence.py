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

Time binds like a subject (:func:`read_in_time`): when facts are valid for periods, a
sentence is still read once, and each stated quantity and word is bound on the view of
the period that governs its stretch, found by its position; the rules get one Evidence
per period the sentence speaks of. :class:`Reader` reads every sentence of a text with
what was compiled once; :class:`Handed` is what a sentence leaves to the next.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import Any, NamedTuple

from vouched._scan._facts._factindex import FactIndex
from vouched._scan._facts._lexicon import Lexicon
from vouched._scan._facts._periodviews import PeriodViews
from vouched._scan._facts._wordmatch import RELATION
from vouched._scan._lex._numbers import read_numbers
from vouched._scan._lex._numwords import word_tokens
from vouched._scan._lex._quantities import Quantity, QuantityKind
from vouched._scan._lex._spans import Spans
from vouched._scan._lex._units import CURRENCY_UNITS, canonical_unit
from vouched._scan._lex._vocabulary import may_compute
from vouched._scan._read._binding import bind, evidence
from vouched._scan._read._derived import computed_words, journey, signed
from vouched._scan._read._mentions import Mention, MentionKind
from vouched._scan._read._sentence import (
    NO_COMPUTES,
    Computes,
    Cue,
    Found,
    Matchers,
    SentenceRead,
    find_all,
    read_sentence,
)
from vouched._scan._read._structures import read_structures
from vouched._scan._read._times import Period, SentenceTime, governing, has_clock, read_times
from vouched._scan._read._values import Binding, Evidence, Periods, Read, Structures, Timed
from vouched._scan._read._wordreading import WordReading, denied

__all__ = [
    "CARRIED",
    "DURATIONS",
    "Batch",
    "Handed",
    "Reader",
    "Weigher",
    "read_batch",
    "read_evidence",
    "read_in_time",
    "read_time",
]

DURATIONS = frozenset({"h", "min", "s", "ms", "d"})
"""Units of a duration: one no cue binds is no claim but in another unit of time."""


CARRIED = 6
"""How many subject mentions a sentence hands on to the next (the topic, pronouns)."""


class Batch(NamedTuple):
    """Sentences read together: what does not depend on what one sentence leaves to
    the next (tokens, the number reader, the phrase matchers), read once over all."""

    text: str
    lowered: str
    tokens: set[str]
    found: Found
    may_compute: bool  # does the batch hold any key of a computed value?


def read_batch(text: str, matchers: Matchers, capitals: frozenset[str]) -> Batch | None:
    """``text`` read as one batch; ``None`` when lowering it moves positions (rare: its
    sentences are then read one by one)."""
    lowered = text.lower()
    if len(lowered) != len(text):
        return None
    tokens = word_tokens(lowered)
    found = find_all(matchers, text, lowered, tokens, read_numbers(text, capitals, tokens))
    return Batch(text, lowered, tokens, found, may_compute(text))


@dataclass(slots=True)
class Handed:
    """What one sentence hands on to the next: the subjects named last (the topic, the
    antecedents of pronouns), every subject the text named (for counts: "the only
    other"), and the time it speaks of (``None``: every fact)."""

    carried: list[Mention] = field(default_factory=list)
    named: set[str] = field(default_factory=set)
    time: tuple[Period, ...] | None = None

    def hand_on(self, sentence: SentenceRead) -> None:
        """Keep the last subjects ``sentence`` named, renumbered before the next
        sentence's start, and every subject it named."""
        said = sentence.subject_mentions()
        self.named.update(m.names[0] for m in said if m.kind == MentionKind.NAMED and m.names)
        named = [*self.carried, *said][-CARRIED:]
        count = len(named)
        self.carried = [
            Mention(-2 * (count - i), -2 * (count - i) + 1, m.names, m.kind)
            for i, m in enumerate(named)
        ]


def read_time(lowered: str, found: Found, views: PeriodViews, handed: Handed) -> Timed:
    """What one sentence (lowered) says about time on the facts' calendar; the time it
    speaks of is handed on (in ``handed``)."""
    timing = _timing(lowered, found, views, handed.time)
    segments, handed.time = governing(lowered, timing, handed.time)
    # the digits of a time expression ("the 4th", "January 9") are its period's, not values
    masks = [(m.start, m.end) for m in timing.mentions]
    masks += [  # "at 14:00": a slot's own start names the slot
        (q.start, q.end)
        for q in found.quantities
        if q.kind is QuantityKind.TIME and any(int(v) in views.slot_starts for v in q.values)
    ]
    return Timed(timing, segments, tuple(masks))


def _timing(
    lowered: str, found: Found, views: PeriodViews, before: tuple[Period, ...] | None
) -> SentenceTime:
    """The sentence's times, a time of day naming the minute it states when the facts
    change within a day and the sentence states a number besides its times ("at 9 a.m.
    it will be 5 °C"). A sentence whose only numbers are times and dates claims those
    ("the sunrise will be at 6:00 AM"): its clock times stay values."""
    if not views.slot_starts or not has_clock(lowered):
        return read_times(lowered, views.calendar, before)
    timing = read_times(lowered, views.calendar, before, clocks=True)
    spans = [(m.start, m.end) for m in timing.mentions]
    if any(
        q.kind is QuantityKind.NUMBER and not any(a <= q.start < b for a, b in spans)
        for q in found.quantities
    ):
        return timing
    return read_times(lowered, views.calendar, before)


class Weigher:
    """A claim's evidence beside its binding (:func:`~vouched._scan._read._binding.evidence`):
    the difference or sum the text says it computes over ``passed`` (the sentence's
    quantities vouched for before it, which the rules decide), else the comparison a bound
    is stated with. The sentence's words of a computed value are searched when the first
    claim asks, and only when the batch may state one at all."""

    __slots__ = ("_asked", "_gates", "_sentence", "_structures")

    def __init__(
        self,
        sentence: SentenceRead,
        structures: Structures,
        may_compute: bool,
        asked: frozenset[tuple[QuantityKind, Any]] = frozenset(),
    ) -> None:
        self._sentence = sentence
        self._structures = structures
        self._gates: Computes | None = None if may_compute else NO_COMPUTES
        self._asked = asked

    def __call__(self, quantity: Quantity, bound: Binding, passed: Iterable[Quantity]) -> Binding:
        gates = self._gates
        if gates is None:
            gates = self._gates = computed_words(self._sentence.text)
        return evidence(
            self._sentence, self._structures, quantity, bound, passed, gates, self._asked
        )


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
    masks = _masks(found, structures, spans)
    return _bound(sentence, structures, masks, found, spans, asked, may_compute)


def read_in_time(  # noqa: PLR0917 - read_evidence's inputs, the time read and the views
    part: str,
    found: Found,
    spans: Sequence[tuple[int, int]],
    timed: Timed,
    views: PeriodViews,
    lexicon: Lexicon,
    carried: list[Mention],
    asked: frozenset[tuple[QuantityKind, Any]],
    *,
    may_compute: bool = True,
) -> list[tuple[Periods, Evidence]]:
    """The sentence ``part`` read once, with facts valid for periods: each stated
    quantity and word bound on the view of the period that governs its stretch
    (``timed.segments``); one Evidence per period the sentence speaks of, holding the
    quantities and words of its stretches. A sentence that speaks of one period is read
    on that period's facts; one that speaks of several is read (its names, clauses and
    structures) on every fact, and each stretch's quantities are bound on its own."""
    spans = [*spans, *timed.masks]
    distinct = list(dict.fromkeys(s[2] for s in timed.segments)) or [None]
    if len(distinct) == 1:
        index = views.view(distinct[0])[0]
        evidence = read_evidence(
            part, found, spans, index, lexicon, carried, asked, may_compute=may_compute
        )
        return [(distinct[0], evidence)]
    whole = read_sentence(part, views.whole[0], lexicon, found, carried=carried)
    structures = read_structures(whole, found.quantities)
    masks = _masks(found, structures, spans)
    read: list[tuple[Periods, Evidence]] = []
    for periods in distinct:
        within = Spans([(a, b) for a, b, p in timed.segments if p == periods])
        sentence = whole._replace(facts=views.view(periods)[0])
        bound = _bound(sentence, structures, masks, found, spans, asked, may_compute, within)
        read.append((periods, bound))
    return read


def _masks(found: Found, structures: Structures, spans: Sequence[tuple[int, int]]) -> Spans:
    """Names, placeholders, quotes and relation phrases: nothing in them is a claim."""
    relations = [(w.start, w.end) for w in found.words if _is_relation(w)]
    return Spans([*structures.masked, *spans, *relations])


def _window(quantity: Quantity, binding: Binding, index: FactIndex) -> bool:
    """A duration written as a compound before its noun ("a 3-hour precipitation of
    0.9 mm", "the 24-hour total") names the window the noun is counted over, not the
    noun's value, unless the noun's facts are durations ("a 45-minute delay")."""
    text = quantity.text
    if text.find("-", 1) < 0 or not text[-1:].isalpha():
        return False
    return not any(
        canonical_unit(fact.unit) in DURATIONS
        for reading in binding.readings
        for fact in index.facts_of(reading.subject, reading.attribute)
    )


def _bound(  # noqa: PLR0917 - the sentence read, and what its claims are read with
    sentence: SentenceRead,
    structures: Structures,
    masks: Spans,
    found: Found,
    spans: Sequence[tuple[int, int]],
    asked: frozenset[tuple[QuantityKind, Any]],
    may_compute: bool,
    within: Spans | None = None,
) -> Evidence:
    """The sentence's claims bound on its facts, and its words read (``within``: only
    the quantities and words that start in these stretches)."""
    durations: list[tuple[Quantity, Binding]] = []
    claims: list[tuple[Quantity, Binding]] = []
    for read in structures.quantities:
        if within is not None and not within.holds(read.start):
            continue
        if not _is_claim(read, masks, asked):
            continue
        quantity = signed(sentence, read)
        binding = bind(sentence, structures, quantity)
        if quantity.soft and not binding.clear and quantity.unit is None:
            continue  # "two trains", "the 3rd": small words count only when bound
        window = binding.clear and _window(quantity, binding, sentence.facts)
        if quantity.unit in DURATIONS and not binding.unknown and (not binding.clear or window):
            # "may be delayed by 15 minutes": a duration no cue binds is no claim,
            # unless it is a fact's value in another unit of time ("182 s" for 182 ms)
            # or a journey's length ("a 95-minute trip"), checked as one; a name no
            # fact is about makes it one ("Cologne is 21 minutes late": ungrounded)
            trip = journey(sentence, quantity, structures.quantities)
            if trip is None:
                durations.append((quantity, binding))
            else:
                claims.append((quantity, binding._replace(derived=trip)))
        else:
            claims.append((quantity, binding))
    words: tuple[Cue, ...] = ()
    if found.words:
        # words inside placeholders and quotes are not statements; names may be
        unsaid = Spans(spans)
        words = tuple(
            w
            for w in found.words
            if not unsaid.covers(w.start, w.end) and (within is None or within.holds(w.start))
        )
    readings = MappingProxyType(
        {(w.start, w.end): WordReading(sentence, w.start, w.end) for w in words}
    )
    weigh = Weigher(sentence, structures, may_compute, asked)
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


class Reader:
    """What every sentence of a text is read with, compiled once: the facts (their
    index, and their views by period when some fact has one), the lexicon, and the
    question's numbers."""

    __slots__ = ("asked", "index", "lexicon", "views")

    def __init__(
        self,
        index: FactIndex,
        lexicon: Lexicon,
        asked: frozenset[tuple[QuantityKind, Any]],
        views: PeriodViews | None,
    ) -> None:
        self.index = index
        self.lexicon = lexicon
        self.asked = asked
        self.views = views

    def read(
        self,
        part: str,
        found: Found,
        spans: Sequence[tuple[int, int]],
        handed: Handed,
        may_compute: bool,
    ) -> Read:
        """The sentence ``part`` read once (``spans``: placeholders and quotes, where
        nothing is a statement; ``handed``: what the sentence before left, its time
        updated here)."""
        carried, asked, views = handed.carried, self.asked, self.views
        if views is None:
            evidence = read_evidence(
                part,
                found,
                spans,
                self.index,
                self.lexicon,
                carried,
                asked,
                may_compute=may_compute,
            )
            return Read(None, [(None, evidence)], evidence.sentence)
        timed = read_time(part.lower(), found, views, handed)
        read = read_in_time(
            part,
            found,
            spans,
            timed,
            views,
            self.lexicon,
            carried,
            asked,
            may_compute=may_compute,
        )
        return Read(timed, read, read[-1][1].sentence)
