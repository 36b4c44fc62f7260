"""Binding a quantity to the attribute and subject that govern it, as a reader would.

Sentences end at ``. ! ?`` followed by a space, at line breaks and at ``;``;
clauses also end at ", ", dashes and brackets. For one quantity:

- **attribute**: the nearest attribute phrase in its clause whose facts fit
  the quantity's kind and unit (a phrase before it wins over one after it at
  the same distance; a phrase already governing a nearer value of another run
  is skipped: "fell by 1.15% to $187.42"); else the one attribute its subject
  states in its unit; else the nearest fitting phrase earlier in its sentence
  (a *weak* binding: when it disagrees, membership decides).
- **subject**: a mention right after it joined by "in/at/for/of" ("17 °C in
  Munich"); else the last subject named in its sentence; else a mention later
  in its clause; else the subject carried over from an earlier sentence
  ("carried": a weaker binding, see :class:`Binding`).
- **runs**: values joined by "and"/commas/"versus" in one unit pair with a
  list of as many subjects joined the same way ("Berlin and Munich are 21 °C
  and 17.8 °C"), or with the last subjects named when "respectively" follows.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from functools import lru_cache
from operator import itemgetter, methodcaller
from typing import NamedTuple

from vouched._scan._factindex import FactIndex
from vouched._scan._lexicon import Lexicon, PhraseMatcher, phrase_matcher
from vouched._scan._reader._numbers import Quantity
from vouched._scan._reader._words import word_tokens

__all__ = ["Binder", "Binding"]

# One pass finds both: a leading character class lets the engine skip ahead fast.
_BOUNDARY = re.compile(
    r"[.!?\n;,()\[\]|\u2013\u2014-]"
    r"(?:(?<=[.!?])(?=\s|$)|(?<=[\n;()\[\]|])|(?<=,)(?=\s)|(?<=\s[-\u2013\u2014])(?=\s))"
)
_DIGIT = re.compile(r"\d")
_VALUE_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s(?:and|&|versus|vs\.?|against)\s)\s*", re.I)
_SUBJECT_JOIN = re.compile(
    r"\s*(?:,\s*(?:and\s+)?|\s(?:and|&)\s"
    r"|\s+(?:is|are|was|feels|looks)?\s*(?:\w+er|more\s+\w+|less\s+\w+)\s+than\s+)\s*",
    re.I,
)
_RESPECTIVELY = re.compile(r"\s*,?\s*(?:\(\s*)?respectively\b", re.I)
_SENTENCE_CHARS = frozenset(".!?\n;")
_START = itemgetter(0)
_MATCH_END = methodcaller("end")
_CONNECTIVE = re.compile(r"\s*(?:in|at|for|of|from|on|to)\s+(?:the\s+)?", re.IGNORECASE)


class Binding(NamedTuple):
    """Who and what a quantity speaks about.

    ``explicit`` is False when the subject was only carried over from an
    earlier sentence. ``firm`` is False when the attribute was only guessed
    (from the unit without a subject named in the sentence, or from a phrase
    in an earlier clause): a weak binding that disagrees falls back to
    membership instead of claiming a mismatch.
    """

    subject: str | None
    attribute: str | None
    explicit: bool
    firm: bool


class _Mention(NamedTuple):
    start: int
    end: int
    names: tuple[str, ...]


@lru_cache(maxsize=128)
def _attribute_matcher(lexicon: Lexicon, known: frozenset[str]) -> PhraseMatcher:
    return phrase_matcher(_attribute_pairs(lexicon, known))


@lru_cache(maxsize=128)
def _subject_matcher(lexicon: Lexicon, known: frozenset[str]) -> PhraseMatcher:
    return phrase_matcher(_subject_pairs(lexicon, known))


def _attribute_pairs(lexicon: Lexicon, known: frozenset[str]) -> tuple[tuple[str, str], ...]:
    pairs: set[tuple[str, str]] = set()
    for attribute, phrases in lexicon.attributes.items():
        if attribute in known:
            pairs.update((phrase, attribute) for phrase in phrases)
    for attribute in known:
        pairs.add((attribute, attribute))
        if "_" in attribute:
            pairs.add((attribute.replace("_", " "), attribute))
    return tuple(sorted(pairs))


def _subject_pairs(lexicon: Lexicon, known: frozenset[str]) -> tuple[tuple[str, str], ...]:
    pairs: set[tuple[str, str]] = set()
    for subject, aliases in lexicon.subjects.items():
        if subject in known:
            pairs.update((alias, subject) for alias in aliases)
    pairs.update((subject, subject) for subject in known)
    return tuple(sorted(pairs))


class Binder:
    """Mentions of one text, ready to bind its quantities."""

    def __init__(
        self,
        text: str,
        index: FactIndex,
        lexicon: Lexicon,
        lowered: str | None = None,
        tokens: set[str] | None = None,
    ) -> None:
        self.text = text
        self.index = index
        lowered = text.lower() if lowered is None else lowered
        tokens = word_tokens(lowered) if tokens is None else tokens
        attributes = _attribute_matcher(lexicon, frozenset(index.attributes))
        subjects = _subject_matcher(lexicon, frozenset(index.subjects))
        self.attributes = list(map(_Mention._make, attributes.find(text, lowered, tokens)))
        self.subjects = list(map(_Mention._make, subjects.find(text, lowered, tokens)))
        self._assigned: dict[int, str] = {}
        self._groups: dict[int, int] = {}
        self._joins: dict[int, bool] = {}
        self._quantity_starts: list[int] = []
        self._attribute_starts = list(map(_START, self.attributes))
        self._subject_starts = list(map(_START, self.subjects))
        clauses = list(map(_MATCH_END, _BOUNDARY.finditer(text)))
        self._clauses = clauses
        self._sentences = [end for end in clauses if text[end - 1] in _SENTENCE_CHARS]
        names = index.strings_with_digits
        self._names = (
            [
                (start, end)
                for start, end, _ in phrase_matcher(tuple((n, n) for n in names)).find(
                    text, lowered, tokens
                )
            ]
            if names
            else []
        )

    def masked_spans(self) -> list[tuple[int, int]]:
        """Subject mentions, digit-bearing names and phrases: their digits are not claims."""
        text = self.text
        phrases = [
            (m.start, m.end)
            for m in self.attributes
            if _DIGIT.search(text, m.start, m.end)  # "95th percentile"
        ]
        return [(m.start, m.end) for m in self.subjects] + self._names + phrases

    # -- boundaries ----------------------------------------------------------

    @staticmethod
    def _region(bounds: list[int], position: int, length: int) -> tuple[int, int]:
        i = bisect_right(bounds, position)
        start = bounds[i - 1] if i else 0
        end = bounds[i] if i < len(bounds) else length
        return start, end

    # -- binding -------------------------------------------------------------

    def _group(self, quantities: list[Quantity]) -> None:
        """Number the runs of quantities that belong together (ranges, lists of
        values in one unit): a phrase before a run governs all of it."""
        self._quantity_starts = [q.start for q in quantities]
        group = 0
        previous: Quantity | None = None
        for index, quantity in enumerate(quantities):
            if previous is None or not (
                (quantity.unit == previous.unit or None in (quantity.unit, previous.unit))
                and ((previous.in_range and quantity.in_range) or self._joined(quantities, index))
            ):
                group += 1
            self._groups[quantity.start] = group
            previous = quantity

    def _joined(self, quantities: list[Quantity], index: int) -> bool:
        """Are ``quantities[index - 1]`` and ``quantities[index]`` joined by and/commas/versus?
        (Asked by grouping and by distribution: matched once.)"""
        joined = self._joins.get(index)
        if joined is None:
            left, right = quantities[index - 1], quantities[index]
            joined = _VALUE_JOIN.fullmatch(self.text, left.end, right.start) is not None
            self._joins[index] = joined
        return joined

    def distribute(self, quantities: list[Quantity]) -> None:
        """Pair runs of values with runs of subjects, as a reader does with
        "Berlin and Munich are 21 °C and 17.8 °C" or "... 63% and 70% respectively"."""
        text = self.text
        length = len(text)
        self._joins = {}  # joins are cached by position in this list
        self._group(quantities)
        count = len(quantities)
        index = 0
        while index < count:
            stop = index + 1  # the run is quantities[index:stop]
            while stop < count:
                nxt = quantities[stop]
                last = quantities[stop - 1]
                if (
                    nxt.kind is not last.kind
                    or (nxt.unit != last.unit and None not in (nxt.unit, last.unit))
                    or nxt.in_range
                    or last.in_range
                    or not self._joined(quantities, stop)
                ):
                    break
                stop += 1
            if stop - index < 2:
                index = stop
                continue
            run = quantities[index:stop]
            index = stop
            sentence = self._region(self._sentences, run[0].start, length)
            subjects = self._coordinated_subjects(sentence[0], run[0].start, len(run))
            if subjects is None and _RESPECTIVELY.match(text, run[-1].end):
                subjects = self._last_distinct_subjects(sentence[0], run[0].start, len(run))
            if subjects is not None:
                for quantity, subject in zip(run, subjects, strict=True):
                    self._assigned[quantity.start] = subject

    def _claimed_between(self, position: int, quantity: Quantity) -> bool:
        """Is there a quantity of another group between ``position`` and ``quantity``?"""
        starts = self._quantity_starts
        low = bisect_left(starts, position)
        high = bisect_left(starts, quantity.start, low)
        if low == high:
            return False
        groups = self._groups
        group = groups.get(quantity.start)
        return any(groups.get(start) != group for start in starts[low:high])

    def _coordinated_subjects(self, start: int, end: int, count: int) -> list[str] | None:
        """The last list of ``count`` subjects joined by and/commas/comparisons."""
        low = bisect_left(self._subject_starts, start)
        high = bisect_left(self._subject_starts, end)
        mentions = self.subjects[low:high]
        if len(mentions) < count:
            return None
        group = mentions[-count:]
        for left, right in itertools.pairwise(group):
            if not _SUBJECT_JOIN.fullmatch(self.text, left.end, right.start):
                return None
        return [m.names[0] for m in group]

    def _last_distinct_subjects(self, start: int, end: int, count: int) -> list[str] | None:
        low = bisect_left(self._subject_starts, start)
        high = bisect_left(self._subject_starts, end)
        order: list[str] = []
        for mention in self.subjects[low:high]:
            if mention.names[0] not in order:
                order.append(mention.names[0])
        return order[-count:] if len(order) >= count else None

    def bind(self, quantity: Quantity) -> Binding:
        length = len(self.text)
        position = quantity.start
        bounds = self._sentences
        i = bisect_right(bounds, position)
        sentence = (bounds[i - 1] if i else 0, bounds[i] if i < len(bounds) else length)
        bounds = self._clauses
        i = bisect_right(bounds, position)
        clause = (bounds[i - 1] if i else 0, bounds[i] if i < len(bounds) else length)
        subject: str | None = self._assigned.get(quantity.start)
        explicit = True
        if subject is None:
            subject, explicit = self._subject(quantity, sentence, clause)
        attribute, firm = self._attribute(quantity, subject if explicit else None, sentence, clause)
        if attribute is None and subject is not None and not explicit:
            attribute, firm = self._attribute(quantity, subject, sentence, clause)
            firm = False
        return Binding(subject, attribute, explicit, firm)

    def _fitting(self, mention: _Mention, quantity: Quantity) -> str | None:
        accepts = self.index.accepts
        for name in mention.names:
            if accepts(name, quantity):
                return name
        return None

    def _attribute(
        self,
        quantity: Quantity,
        subject: str | None,
        sentence: tuple[int, int],
        clause: tuple[int, int],
    ) -> tuple[str | None, bool]:
        mentions = self.attributes
        starts = self._attribute_starts
        low = bisect_left(starts, clause[0])
        high = bisect_left(starts, clause[1], low)
        best: tuple[int, str] | None = None
        q_start, q_end = quantity.start, quantity.end
        accepts = self.index.accepts
        for index in range(low, high):
            mention = mentions[index]
            for name in mention.names:
                if accepts(name, quantity):
                    break
            else:
                continue
            if mention.end <= q_start:
                if self._claimed_between(mention.end, quantity):
                    continue  # "fell by 1.15% to $187.42": "fell" governs 1.15%, not $187.42
                gap = q_start - mention.end
            elif mention.start >= q_end:
                gap = mention.start - q_end + 1
            else:
                gap = 0  # "63% humidity" written as the phrase "% humidity"
            if best is None or gap < best[0]:
                best = (gap, name)
        if best is not None:
            return best[1], True
        if subject is not None:
            by_unit = self.index.attribute_for_unit(subject, quantity.unit)
            if by_unit is not None:
                return by_unit, True
        by_unit = self.index.attribute_for_unit(None, quantity.unit)
        if by_unit is not None:
            return by_unit, False
        low = bisect_left(starts, sentence[0])
        high = bisect_left(starts, quantity.start)
        for mention in reversed(mentions[low:high]):
            earlier = self._fitting(mention, quantity)
            if earlier is not None:
                return earlier, False
        return None, False

    def _subject(
        self, quantity: Quantity, sentence: tuple[int, int], clause: tuple[int, int]
    ) -> tuple[str | None, bool]:
        mentions = self.subjects
        if not mentions:
            return None, False
        starts = self._subject_starts
        after = bisect_left(starts, quantity.end)
        if after < len(mentions):
            following = mentions[after]
            if following.start < clause[1] and _CONNECTIVE.fullmatch(
                self.text, quantity.end, following.start
            ):
                return following.names[0], True
        before = bisect_left(starts, quantity.start) - 1
        if before >= 0 and mentions[before].start >= sentence[0]:
            return mentions[before].names[0], True
        if after < len(mentions) and mentions[after].start < clause[1]:
            return mentions[after].names[0], True
        if before >= 0:
            return mentions[before].names[0], False
        return None, False
