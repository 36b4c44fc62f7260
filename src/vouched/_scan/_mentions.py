"""The mentions of one text: read once, then reasoned over.

One pass over the word tokens of the text finds sentence and clause
boundaries, pronouns and definite references ("he", "they", "it", "the
city"), conjunctions that open a clause ("and Munich ...", "while the
Cavaliers ..."), and capitalised names that are no known subject (an unknown
subject: "Hamburg" when no fact is about Hamburg). Subject aliases and
attribute phrases come from the lexicon's phrase matchers (keyed by first
word, so the cost follows the text).

Every mention carries its character span; quantities are placed among them
by position (``bisect``), so nothing here rescans the text per quantity.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["Mention", "MentionKind", "Structure", "read_structure"]


class MentionKind:
    """What a subject-like mention is (plain ints: compared on the hot path)."""

    NAMED = 0  # a known subject or one of its aliases
    PRONOUN = 1  # he, they, it, the city ...: refers to a subject named before
    UNKNOWN = 2  # a capitalised name that no fact is about


class Mention(NamedTuple):
    start: int
    end: int
    names: tuple[str, ...]  # the subjects (or attributes) it may name; () for UNKNOWN
    kind: int = MentionKind.NAMED


# One token pattern for the whole pass: words (with inner apostrophes and dots of
# abbreviations kept out), digits, and single punctuation characters.
_TOKEN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*|\n|\S")
_SENTENCE_END = frozenset(".!?")
_HARD_STOP = frozenset(";\n")
_CLAUSE_PUNCT = frozenset(",()[]|:\u2013\u2014")
_PRONOUNS = frozenset(
    {"he", "she", "him", "his", "her", "they", "them", "their", "it", "its", "who", "whose"}
)
_OBJECT_PRONOUNS = frozenset({"him", "her", "them"})
# Definite references a reader resolves to the last subject named: "the city".
_REFERENCE_NOUNS = frozenset(
    {
        "city", "town", "capital", "team", "squad", "club", "side", "stock", "company",
        "share", "shares", "firm", "currency", "pair", "rate", "train", "service",
        "workshop", "course", "class", "session", "event", "store", "shop", "branch",
        "product", "item", "route", "line", "flight", "station", "location", "venue",
        "player", "guard", "forward", "center", "centre", "star", "veteran", "rookie",
    }
)  # fmt: skip
_CONJUNCTIONS = frozenset(
    {"and", "but", "while", "whereas", "although", "though", "yet", "as", "whilst", "or"}
)
# Capitalised words that start sentences without naming anything.
_NOT_NAMES = frozenset(
    {
        "a", "an", "the", "this", "that", "these", "those", "there", "here", "it", "its",
        "he", "she", "they", "we", "you", "i", "our", "your", "their", "his", "her",
        "today", "tonight", "tomorrow", "yesterday", "now", "currently", "right", "overall",
        "meanwhile", "also", "however", "in", "at", "on", "for", "with", "by", "from", "to",
        "of", "and", "but", "or", "as", "if", "so", "then", "after", "before", "during",
        "while", "when", "expect", "note", "please", "yes", "no", "not", "all", "both",
        "each", "every", "some", "most", "many", "few", "one", "two", "three", "current",
        "latest", "live", "according", "based", "data", "unfortunately", "sadly",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "january", "february", "march", "april", "may", "june", "july", "august",
        "september", "october", "november", "december", "am", "pm", "utc", "gmt",
        "mr", "mrs", "ms", "dr", "st", "ok", "okay", "sure", "well", "still", "just",
        "only", "even", "again", "later", "earlier", "next", "last", "first", "second",
        "third", "final", "despite", "thanks", "what", "which", "where", "why", "how",
        "who", "whose", "is", "are", "was", "were", "will", "would", "could", "should",
        "can", "might", "do", "does", "did", "has", "have", "had",
    }
)  # fmt: skip
# Words after a sentence-initial capitalised word that make it a subject ("Hamburg is").
_SUBJECT_VERBS = frozenset(
    {
        "is", "was", "are", "were", "has", "had", "have", "sees", "saw", "will", "reports",
        "reported", "shows", "showed", "stands", "stood", "sits", "sat", "feels", "looks",
        "remains", "hits", "hit", "reached", "reaches", "scored", "posted", "added",
        "finished", "recorded", "tallied", "costs", "cost", "trades", "traded", "closed",
        "opened", "rose", "fell", "gained", "lost", "leaves", "left", "departs", "arrives",
        "s", "\u2019s", "'s",
    }
)  # fmt: skip


class Structure:
    """Sentences, clauses, pronouns and unknown names of one text, by position."""

    __slots__ = ("clauses", "length", "pronouns", "sentences", "unknown")

    def __init__(
        self,
        length: int,
        sentences: list[int],
        clauses: list[int],
        pronouns: list[Mention],
        unknown: list[Mention],
    ) -> None:
        self.length = length
        self.sentences = sentences  # sorted ends (exclusive) of sentences but the last
        self.clauses = clauses  # sorted clause boundaries (sentence ends included)
        self.pronouns = pronouns
        self.unknown = unknown

    def sentence(self, position: int) -> tuple[int, int]:
        return _region(self.sentences, position, self.length)

    def clause(self, position: int) -> tuple[int, int]:
        return _region(self.clauses, position, self.length)

    def add_clause_starts(self, starts: Sequence[int]) -> None:
        """Conjunctions that open a clause before a subject ("and Munich ...")."""
        if starts:
            self.clauses = sorted({*self.clauses, *starts})


def _region(bounds: list[int], position: int, length: int) -> tuple[int, int]:
    i = bisect_right(bounds, position)
    return (bounds[i - 1] if i else 0), (bounds[i] if i < len(bounds) else length)


def read_structure(text: str, known: Sequence[tuple[int, int]]) -> Structure:
    """One pass over the tokens. ``known`` are the spans of known mentions (subjects,
    attribute phrases), sorted: capitalised words inside them are not unknown names."""
    sentences: list[int] = []
    clauses: list[int] = []
    pronouns: list[Mention] = []
    unknown: list[Mention] = []
    known_starts = [s for s, _ in known]
    tokens = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]
    count = len(tokens)
    length = len(text)
    sentence_start = 0  # index of the first token of the current sentence
    previous_word = ""
    i = 0
    while i < count:
        start, end, word = tokens[i]
        first = word[0]
        if not first.isalnum():
            if (
                (first in _SENTENCE_END and (end == length or text[end].isspace()))
                or first in _HARD_STOP
                or (first == "\n")
            ):
                sentences.append(end)
                clauses.append(end)
                sentence_start = i + 1
            elif first in _CLAUSE_PUNCT:
                clauses.append(end if first not in "([" else start)
            elif first == "-" and _spaced_dash(text, start, end, tokens, i):
                clauses.append(end)
            previous_word = ""
            i += 1
            continue
        lowered = word.lower()
        if lowered in _PRONOUNS:
            kind = MentionKind.PRONOUN
            pronouns.append(Mention(start, end, (lowered,), kind))
        elif lowered == "the" and i + 1 < count and tokens[i + 1][2].lower() in _REFERENCE_NOUNS:
            noun_end = tokens[i + 1][1]
            pronouns.append(Mention(start, noun_end, ("the",), MentionKind.PRONOUN))
        elif first.isupper() and not _inside(known_starts, known, start):
            # a run of capitalised words: one name ("New York" when New York has no facts)
            j = i
            while (
                j + 1 < count
                and tokens[j + 1][2][0].isupper()
                and not _inside(known_starts, known, tokens[j + 1][0])
            ):
                j += 1
            name_end = tokens[j][1]
            at_start = i == sentence_start
            nxt = tokens[j + 1][2].lower() if j + 1 < count else ""
            if (
                lowered not in _NOT_NAMES
                and not word.isdigit()
                and (
                    not at_start
                    or j > i
                    or nxt in _SUBJECT_VERBS
                    or previous_word in {"in", "at", "for"}
                )
            ):
                role = ("subject",) if at_start else ()
                unknown.append(Mention(start, name_end, role, MentionKind.UNKNOWN))
            previous_word = tokens[j][2].lower()
            i = j + 1
            continue
        previous_word = lowered
        i += 1
    return Structure(length, sentences, clauses, pronouns, unknown)


def _inside(starts: list[int], spans: Sequence[tuple[int, int]], position: int) -> bool:
    i = bisect_right(starts, position) - 1
    return i >= 0 and spans[i][1] > position


def _spaced_dash(
    text: str, start: int, end: int, tokens: list[tuple[int, int, str]], i: int
) -> bool:
    """A " - " between words is a dash (a clause boundary), but not next to a number:
    "16 - point", "( 33 - 34 )", "9 - for - 12" join their parts."""
    if start == 0 or end >= len(text) or not (text[start - 1].isspace() and text[end].isspace()):
        return False
    before = tokens[i - 1][2] if i else ""
    after = tokens[i + 1][2] if i + 1 < len(tokens) else ""
    return not (before[-1:].isdigit() or after[:1].isdigit())


def conjunction_before(text: str, position: int, floor: int) -> int | None:
    """The start of a conjunction ("and", "while") right before ``position``
    (optionally with "the" between), not before ``floor``; else None."""
    j = position
    words: list[tuple[int, str]] = []
    while len(words) < 2:
        k = j
        while k > floor and text[k - 1].isspace():
            k -= 1
        m = k
        while m > floor and text[m - 1].isalpha():
            m -= 1
        if m == k:
            break
        words.append((m, text[m:k].lower()))
        j = m
    for index, (at, word) in enumerate(words):
        if word in _CONJUNCTIONS:
            return at
        if word != "the" or index:
            break
    return None


def object_pronoun(mention: Mention) -> bool:
    return mention.names[0] in _OBJECT_PRONOUNS


def spans_between(starts: list[int], low: int, high: int) -> tuple[int, int]:
    """Index range of ``starts`` inside [low, high)."""
    a = bisect_left(starts, low)
    return a, bisect_left(starts, high, a)
