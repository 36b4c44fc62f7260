"""What the word rules read: one sentence's words that state facts, and their context.

:class:`WordContext` is what the word rules of one sentence read (its reading, the
facts in words, the lexicon, its checked quantities, its words that state facts);
:class:`Said` is one such word. Shared by :mod:`._words` and :mod:`._relation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import NamedTuple

from vouched._scan._facts._factindex import FactIndex
from vouched._scan._facts._lexicon import Lexicon, Word
from vouched._scan._facts._wordmatch import WordFacts
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._read._sentence import Cue, SentenceRead
from vouched._scan._read._wordreading import WordReading
from vouched._scan._rules._context import Stated

__all__ = ["Said", "WordContext", "elsewhen", "same_value", "same_word", "word_finding"]

_K = FindingKind


@dataclass(slots=True)
class WordContext:
    """What the word rules of one sentence read."""

    sentence: SentenceRead
    facts: WordFacts
    lexicon: Lexicon
    stated: list[Stated]  # the sentence's checked quantities, in order
    words: list[Cue]  # the sentence's words that state facts
    earlier: AbstractSet[str] = frozenset()  # the subjects earlier sentences named (read only)
    readings: Mapping[tuple[int, int], WordReading] = field(default_factory=dict)

    def read(self, said: Said) -> WordReading:
        """What the read stage read about the word ``said`` (who, whether stated)."""
        return self.readings[said.start, said.end]

    @property
    def index(self) -> FactIndex:
        return self.facts.index


class Said(NamedTuple):
    """One word that states a fact: its span, its text and its matcher tags."""

    start: int
    end: int
    text: str
    tags: tuple[str, ...]

    def family(self, family: str) -> list[str]:
        """The tags of one family, without their family mark."""
        return [t[2:] for t in self.tags if t[0] == family]


def word_finding(
    said: Said,
    kind: FindingKind,
    detail: str,
    subject: str | None = None,
    attribute: str | None = None,
) -> Finding:
    return Finding(kind, said.start, said.end, said.text, detail, subject, attribute)


def elsewhen(said: Said, ctx: WordContext) -> bool:
    """Is the word about a later occasion than the facts' (all past: a game's box score)?
    Then the facts neither vouch for it nor deny it."""
    return ctx.facts.past and ctx.read(said).later


def same_value(fact: Word | None, stated: Word) -> bool:
    return fact is not None and same_word(fact, stated)


def same_word(fact: Word, stated: Word) -> bool:
    if isinstance(fact, bool) or isinstance(stated, bool):
        return fact is stated
    return " ".join(fact.casefold().split()) == " ".join(stated.casefold().split())
