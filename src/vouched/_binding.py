"""Binding a quantity to the attribute and subject that govern it, as a reader would.

Sentences end at ``. ! ?`` followed by a space, at line breaks and at ``;``;
clauses also end at ", ", dashes and brackets. For one quantity:

- **attribute**: the nearest attribute phrase in its clause whose facts fit
  the quantity's kind and unit (a phrase before it wins over one after it at
  the same distance); else the one attribute its subject states in its unit;
  else the nearest fitting phrase earlier in its sentence.
- **subject**: a mention right after it joined by "in/at/for/of" ("17 °C in
  Munich"); else the last subject named in its sentence; else a mention later
  in its clause; else the subject carried over from an earlier sentence
  ("carried": a weaker binding, see :class:`Binding`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import NamedTuple

from vouched._lexicon import Lexicon, PhraseMatcher, phrase_matcher
from vouched._numbers import Quantity
from vouched._vouch import FactIndex

__all__ = ["Binder", "Binding"]

_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n|;")
_CLAUSE_END = re.compile(r"[.!?](?=\s|$)|\n|;|,\s|\s[-\u2013\u2014]\s|[()\[\]]|\|")
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


def _attribute_pairs(lexicon: Lexicon, index: FactIndex) -> tuple[tuple[str, str], ...]:
    pairs: set[tuple[str, str]] = set()
    known = index.attributes
    for attribute, phrases in lexicon.attributes.items():
        if attribute in known:
            pairs.update((phrase, attribute) for phrase in phrases)
    for attribute in known:
        pairs.add((attribute, attribute))
        if "_" in attribute:
            pairs.add((attribute.replace("_", " "), attribute))
    return tuple(sorted(pairs))


def _subject_pairs(lexicon: Lexicon, index: FactIndex) -> tuple[tuple[str, str], ...]:
    pairs: set[tuple[str, str]] = set()
    known = index.subjects
    for subject, aliases in lexicon.subjects.items():
        if subject in known:
            pairs.update((alias, subject) for alias in aliases)
    pairs.update((subject, subject) for subject in known)
    return tuple(sorted(pairs))


class Binder:
    """Mentions of one text, ready to bind its quantities."""

    def __init__(self, text: str, index: FactIndex, lexicon: Lexicon) -> None:
        self.text = text
        self.index = index
        attributes: PhraseMatcher = phrase_matcher(_attribute_pairs(lexicon, index))
        subjects: PhraseMatcher = phrase_matcher(_subject_pairs(lexicon, index))
        self.attributes = [_Mention(*m) for m in attributes.find(text)]
        self.subjects = [_Mention(*m) for m in subjects.find(text)]
        self._attribute_starts = [m.start for m in self.attributes]
        self._subject_starts = [m.start for m in self.subjects]
        self._sentences = [m.end() for m in _SENTENCE_END.finditer(text)]
        self._clauses = [m.end() for m in _CLAUSE_END.finditer(text)]
        names = index.strings_with_digits
        self._names = (
            [m.span() for m in phrase_matcher(tuple((n, n) for n in names)).pattern.finditer(text)]  # type: ignore[union-attr]  # names is non-empty here
            if names
            else []
        )

    def masked_spans(self) -> list[tuple[int, int]]:
        """Subject mentions and digit-bearing names: their digits are not claims."""
        return [(m.start, m.end) for m in self.subjects] + self._names

    # -- boundaries ----------------------------------------------------------

    @staticmethod
    def _region(bounds: list[int], position: int, length: int) -> tuple[int, int]:
        i = bisect_right(bounds, position)
        start = bounds[i - 1] if i else 0
        end = bounds[i] if i < len(bounds) else length
        return start, end

    # -- binding -------------------------------------------------------------

    def bind(self, quantity: Quantity) -> Binding:
        length = len(self.text)
        sentence = self._region(self._sentences, quantity.start, length)
        clause = self._region(self._clauses, quantity.start, length)
        subject, explicit = self._subject(quantity, sentence, clause)
        attribute, firm = self._attribute(quantity, subject if explicit else None, sentence, clause)
        if attribute is None and subject is not None and not explicit:
            attribute, firm = self._attribute(quantity, subject, sentence, clause)
            firm = False
        return Binding(subject, attribute, explicit, firm)

    def _fitting(self, mention: _Mention, quantity: Quantity) -> str | None:
        for name in mention.names:
            if self.index.accepts(name, quantity):
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
        high = bisect_left(starts, clause[1])
        best: tuple[int, str] | None = None
        for mention in mentions[low:high]:
            name = self._fitting(mention, quantity)
            if name is None:
                continue
            if mention.end <= quantity.start:
                gap = quantity.start - mention.end
            elif mention.start >= quantity.end:
                gap = mention.start - quantity.end + 1
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
            name = self._fitting(mention, quantity)
            if name is not None:
                return name, False
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
