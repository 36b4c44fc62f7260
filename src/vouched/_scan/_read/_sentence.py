"""One sentence's mentions, read once and frozen: the context every binding reader works on.

:func:`read_sentence` builds a :class:`SentenceRead` once per sentence from what the
compiled phrase matchers (:func:`compile_matchers`, once per scanner) found in it:
attribute cues, subject mentions (named, pronouns and definite references resolved to
the subjects named before them, unknown names), the sentence's clause structure, pair
and value phrases. The readers (``_subjects``, ``_cues``, ``_structures``,
``_derived``) are functions over it. :class:`~vouched._scan._read._values.Structures` is the
next stage's frozen value: what spans several quantities (runs, pairs, lists), read
once before any quantity is bound. Neither changes after it is built.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any, NamedTuple, TypeVar

from vouched._scan._facts._commonquantities import COMMON_QUANTITIES
from vouched._scan._facts._factindex import FactIndex
from vouched._scan._facts._lexicon import (
    Lexicon,
    Pair,
    PhraseMatcher,
    build_phrase_matcher,
    phrase_matcher,
)
from vouched._scan._facts._shortnames import short_names
from vouched._scan._facts._wordmatch import WordFacts, word_matcher
from vouched._scan._lex._numbers import Quantity
from vouched._scan._lex._vocabulary import (
    INFORMATION_AFTER,
    LINKING,
    SAME_VALUE_PHRASES,
    words_between,
)
from vouched._scan._read._mentions import (
    Mention,
    MentionKind,
    Structure,
    conjunction_before,
    name_modifiers,
    not_short_name,
    read_structure,
)

__all__ = [
    "NO_COMPUTES",
    "Computes",
    "Cue",
    "Found",
    "Matchers",
    "SentenceRead",
    "compile_matchers",
    "find_all",
    "is_number_word",
    "read_sentence",
    "resolve",
    "words_between",
]

_NAMED = MentionKind.NAMED
_PRONOUN = MentionKind.PRONOUN
_UNKNOWN = MentionKind.UNKNOWN


class Cue(NamedTuple):
    start: int
    end: int
    names: tuple[str, ...]


class Computes(NamedTuple):
    """Which words of a computed value a sentence holds: a difference's after the number
    ("a 12-point win"), before it ("won by"), a sum's ("together")."""

    after: bool
    before: bool
    total: bool


NO_COMPUTES = Computes(after=False, before=False, total=False)
"""A sentence whose batch holds no key of a computed value."""


@lru_cache(maxsize=128)
def _attribute_matcher(lexicon: Lexicon, known: frozenset[str]) -> PhraseMatcher:
    # A stream of pairs (see _subject_matcher): the phrases of every lexicon attribute
    # (one no fact has is still named: a number it names is no other fact's), each
    # attribute's own name, and each in the plural, since a reader takes "prices" for
    # "price"; then the common quantities the lexicon does not name (_quantities).
    def phrases(attribute: str) -> Iterator[str]:
        own: tuple[str, ...] = (
            (attribute, attribute.replace("_", " ")) if "_" in attribute else (attribute,)
        )
        # an own name that is a linking word ("TO", a box score's turnovers) is no phrase
        own = tuple(o for o in own if o.lower() not in LINKING)
        for phrase in (*lexicon.attributes.get(attribute, ()), *own):
            yield phrase
            yield from _number_forms(phrase)

    def pairs() -> Iterator[tuple[str, str]]:
        for attribute in known:
            for phrase in phrases(attribute):
                yield phrase, attribute
        taken = {" ".join(p.lower().split()) for a in known for p in phrases(a)}
        for attribute in sorted(set(lexicon.attributes) - known):
            for phrase in phrases(attribute):  # a phrase of a stated attribute reads as it
                if " ".join(phrase.lower().split()) not in taken:
                    yield phrase, attribute
        yield from _common_quantities(lexicon, known)

    return build_phrase_matcher(pairs())


def _common_quantities(lexicon: Lexicon, known: frozenset[str]) -> Iterator[tuple[str, str]]:
    """The phrases of each common quantity none of whose phrases the lexicon lists, as
    the fact attribute it usually is when the facts have one, else as itself."""
    listed = {" ".join(p.lower().split()) for ps in lexicon.attributes.values() for p in ps}
    listed.update(a.lower() for a in known)
    listed.update(a.replace("_", " ").lower() for a in known)
    for name, quantity in COMMON_QUANTITIES.items():
        if any(phrase in listed for phrase in quantity.phrases):
            continue
        attribute = next((a for a in quantity.attributes if a in known), name)
        for phrase in quantity.phrases:
            yield phrase, attribute


def _number_forms(phrase: str) -> list[str]:
    """The phrase with one word in the plural ("price" -> "prices", "closing price" ->
    "closing prices"), for lower-case phrases of plain words."""
    if not phrase.islower():
        return []
    words = phrase.split(" ")
    forms = []
    for i, word in enumerate(words):
        if not word.isalpha() or len(word) < 4:
            continue
        if word.endswith(("s", "y")):
            continue  # singulars are the lexicon's to list: "shots" is a noun, "shot" a verb
        forms.append(" ".join([*words[:i], word + "s", *words[i + 1 :]]))
    return forms


@lru_cache(maxsize=128)
def _subject_matcher(lexicon: Lexicon, known: frozenset[str]) -> PhraseMatcher:
    # Built from a stream of pairs, not a sorted copy: a lexicon of 150,000
    # subjects would be held three times over.
    pairs = (
        (phrase, subject)
        for subject, aliases in lexicon.subjects.items()
        for phrase in (subject, *aliases)
    )
    short = (
        (phrase, subject)
        for phrase, subjects in _short_names(lexicon, known).items()
        for subject in subjects
    )
    return build_phrase_matcher(itertools.chain(pairs, ((s, s) for s in known), short))


@lru_cache(maxsize=128)
def _short_names(lexicon: Lexicon, known: frozenset[str]) -> Mapping[str, tuple[str, ...]]:
    return short_names(lexicon.subjects, known)


@lru_cache(maxsize=128)
def _pair_matcher(
    lexicon: Lexicon, known: frozenset[str]
) -> tuple[PhraseMatcher, tuple[Pair, ...]]:
    pairs = tuple(p for p in lexicon.pairs if p.first in known and p.second in known)
    entries = tuple((phrase, str(i)) for i, p in enumerate(pairs) for phrase in p.phrases)
    return phrase_matcher(entries), pairs


@lru_cache(maxsize=128)
def _value_matcher(lexicon: Lexicon, known: frozenset[str]) -> PhraseMatcher:
    entries = tuple(
        (phrase, f"{attribute}\x00{value}")
        for attribute, phrases in lexicon.values.items()
        if attribute in known
        for phrase, value in _with_same(phrases).items()
    )
    return phrase_matcher(entries)


def _with_same(phrases: Mapping[str, Any]) -> dict[str, Any]:
    """A lexicon's value phrases of one attribute and the phrases that state the same
    value as one of them (:data:`SAME_VALUE_PHRASES`: "on schedule" as "on time"), unless
    the lexicon gives those a value of their own."""
    found = dict(phrases)
    for group in SAME_VALUE_PHRASES:
        declared = next((p for p in group if p in phrases), None)
        if declared is not None:
            for phrase in group:
                found.setdefault(phrase, phrases[declared])
    return found


class Matchers(NamedTuple):
    """The phrase matchers of one (lexicon, facts) pair: compiled once per :class:`Scanner`."""

    attributes: PhraseMatcher
    subjects: PhraseMatcher
    pairs: PhraseMatcher
    pair_table: tuple[Pair, ...]
    values: PhraseMatcher | None
    digit_names: PhraseMatcher | None
    words: PhraseMatcher | None  # facts stated in words (vouched._scan._read._wordreading)
    short: frozenset[str] = frozenset()  # surnames and given names: read only capitalised


def compile_matchers(
    lexicon: Lexicon, index: FactIndex, words: WordFacts | None = None
) -> Matchers:
    attributes = frozenset(index.attributes)
    pairs, pair_table = _pair_matcher(lexicon, attributes)
    with_digits = index.strings_with_digits
    known = frozenset(index.subjects)
    return Matchers(
        _attribute_matcher(lexicon, attributes),
        _subject_matcher(lexicon, known),
        pairs,
        pair_table,
        _value_matcher(lexicon, attributes) if lexicon.values else None,
        phrase_matcher(tuple((n, n) for n in with_digits)) if with_digits else None,
        word_matcher(lexicon, words or WordFacts(index)),
        frozenset(_short_names(lexicon, known)),
    )


Span = tuple[int, int, tuple[str, ...]]


class Found(NamedTuple):
    """What the compiled matchers and the number reader find in a text, read once: the
    spans of attribute cues, subject aliases, pair and value phrases, digit-bearing
    names, and the quantities; each list sorted by start."""

    cues: list[Cue]
    subjects: list[Span]
    pair_phrases: list[Cue]
    pair_table: tuple[Pair, ...]
    value_phrases: list[Cue]
    digit_names: list[tuple[int, int]]
    quantities: list[Quantity]
    words: list[Cue]

    def within(self, start: int, end: int) -> Found:
        """What lies wholly inside ``[start, end)``, moved to start at 0 (one sentence)."""
        return Found(
            [Cue(c.start - start, c.end - start, c.names) for c in _inside(self.cues, start, end)],
            [(s - start, e - start, n) for s, e, n in _inside(self.subjects, start, end)],
            [
                Cue(c.start - start, c.end - start, c.names)
                for c in _inside(self.pair_phrases, start, end)
            ],
            self.pair_table,
            [
                Cue(c.start - start, c.end - start, c.names)
                for c in _inside(self.value_phrases, start, end)
            ],
            [(s - start, e - start) for s, e in _inside(self.digit_names, start, end)],
            [
                q._replace(start=q.start - start, end=q.end - start)
                for q in _inside(self.quantities, start, end)
            ],
            [Cue(c.start - start, c.end - start, c.names) for c in _inside(self.words, start, end)]
            if self.words
            else self.words,
        )


_Item = TypeVar("_Item", bound=tuple[Any, ...])


def _inside(items: list[_Item], start: int, end: int) -> list[_Item]:
    """The items (sorted by start, their first two fields start and end) wholly inside
    ``[start, end)``; found by bisection, so slicing a text into sentences stays linear."""
    low = bisect_left(items, start, key=itemgetter(0))
    high = bisect_left(items, end, lo=low, key=itemgetter(0))
    return [item for item in items[low:high] if item[1] <= end]


def find_all(
    matchers: Matchers,
    text: str,
    lowered: str,
    tokens: set[str],
    quantities: list[Quantity],
) -> Found:
    """Every phrase the matchers know in ``text``, with its ``quantities``: one pass each."""
    subjects = matchers.subjects.find(text, lowered, tokens)
    if matchers.short:
        subjects = [h for h in subjects if not not_short_name(text, lowered, h, matchers.short)]
    return Found(
        [Cue(s, e, n) for s, e, n in matchers.attributes.find(text, lowered, tokens)],
        subjects,
        [Cue(s, e, n) for s, e, n in matchers.pairs.find(text, lowered, tokens)],
        matchers.pair_table,
        [
            Cue(s, e, n)
            for s, e, n in matchers.values.find(text, lowered, tokens)
            if INFORMATION_AFTER.match(text, e) is None  # "no delay information"
        ]
        if matchers.values is not None
        else [],
        [(s, e) for s, e, _ in matchers.digit_names.find(text, lowered, tokens)]
        if matchers.digit_names is not None
        else [],
        quantities,
        [Cue(s, e, n) for s, e, n in matchers.words.find(text, lowered, tokens)]
        if matchers.words is not None
        else [],
    )


def resolve(mentions: list[Mention]) -> dict[int, tuple[str, ...]]:
    """Each pronoun's antecedents: the distinct subjects named before it, latest first."""
    resolved: dict[int, tuple[str, ...]] = {}
    recent: list[str] = []
    for mention in mentions:
        if mention.kind == _NAMED:
            name = mention.names[0]
            if name in recent:
                recent.remove(name)
            recent.insert(0, name)
            del recent[4:]
        elif mention.kind == _PRONOUN:
            resolved[mention.start] = tuple(recent)
        elif mention.names:  # an unknown subject of a sentence: "he" is about it
            recent.clear()
    return resolved


class SentenceRead(NamedTuple):
    """The mentions of one sentence, read once and frozen: built by :func:`read_sentence`,
    never changed after (a tuple: assigning any attribute raises ``AttributeError``, and
    mypy refuses it; its sequences and tables are typed read-only).

    Carried subjects (those named in earlier sentences, oldest first) are mentions at
    negative positions: the topic and the antecedents of pronouns. ``facts`` is the
    index of the facts the sentence is judged on.
    """

    # A NamedTuple: frozen at tuple cost, and mypyc compiles it (a class that sets its
    # slots through object.__setattr__ fails compiled). A slots class measured no faster
    # (callgrind, realistic answers: +1.9% over the mutable reading, the tuple +1.4%).
    text: str
    facts: FactIndex
    lexicon: Lexicon
    cues: Sequence[Cue]
    cue_starts: Sequence[int]
    named: Sequence[Mention]
    pairs: tuple[Pair, ...]
    pair_phrases: Sequence[Cue]
    structure: Structure  # read once here; its clause starts are final once built
    mentions: Sequence[Mention]
    mention_starts: Sequence[int]
    unknown_before: Sequence[int]  # unknown names among the first i mentions
    resolved: Mapping[int, tuple[str, ...]]  # a pronoun's start -> its antecedents
    value_phrases: Sequence[Cue]
    # Sign words ("fell", "lower") matter only where the facts have signs: in a box
    # score, "dropped 17 points" is a scoring verb.
    signs: bool
    digit_names: Sequence[tuple[int, int]]

    def subject_mentions(self) -> list[Mention]:
        """This sentence's named subjects and unknown subjects, in order: what the next
        sentence carries."""
        return [
            m
            for m in self.mentions
            if m.start >= 0 and (m.kind == _NAMED or (m.kind == _UNKNOWN and m.names))
        ]


_CAPITAL_RUN = re.compile(r"\b[^\W\d_a-z][^\W_]*(?:\s+[^\W\d_a-z][^\W_]*){0,3}")


def _value_names(text: str, index: FactIndex) -> list[tuple[int, int]]:
    """Spans of capitalised words that are a string fact's value or its leading words."""
    names = index.value_names
    if not names:
        return []
    spans = []
    for match in _CAPITAL_RUN.finditer(text):
        words = match.group().split()
        for n in range(len(words), 0, -1):  # the longest leading run that is a value
            if " ".join(words[:n]).casefold() in names:
                end = match.start() + len(" ".join(words[:n]))
                if text[match.start() : end] == " ".join(words[:n]):
                    spans.append((match.start(), end))
                break
    return spans


def read_sentence(
    text: str,
    index: FactIndex,
    lexicon: Lexicon,
    found: Found,
    *,
    carried: Sequence[Mention] = (),
) -> SentenceRead:
    """Read one sentence's mentions from what the matchers found in it (``found``, moved
    to start at 0): the first stage after the text is split, and the last that reads
    the sentence's words for names."""
    cues = found.cues
    named, nameless = _subject_mentions(found.subjects, index.subjects)
    known = sorted(
        [(m.start, m.end) for m in (*named, *nameless)]
        + [(c.start, c.end) for c in (*cues, *found.pair_phrases)]
        + [(q.start, q.end) for q in found.quantities]  # "°C", "USD" are units, not names
        + _value_names(text, index)  # "to Stralsund": a destination, no unknown subject
        + name_modifiers(text, named)  # "the Denver Nuggets": one name, its head last
    )
    structure = read_structure(text, known)
    mentions = [*carried, *_with_references(sorted([*named, *nameless]), structure)]
    structure.add_clause_starts(_conjunction_starts(text, mentions))
    return SentenceRead(
        text,
        index,
        lexicon,
        cues,
        [c.start for c in cues],
        named,
        found.pair_table,
        found.pair_phrases,
        structure,
        mentions,
        [m.start for m in mentions],
        list(itertools.accumulate((m.kind == _UNKNOWN for m in mentions), initial=0)),
        resolve(mentions),
        found.value_phrases,
        index.has_negative,
        found.digit_names,
    )


def _subject_mentions(spans: list[Span], subjects: set[str]) -> tuple[list[Mention], list[Mention]]:
    """Alias matches as mentions: of subjects with facts (named), and of lexicon subjects no
    fact is about (unknown subjects)."""
    named: list[Mention] = []
    nameless: list[Mention] = []
    for s, e, names in spans:
        known_names = tuple(n for n in names if n in subjects)
        if known_names:
            named.append(Mention(s, e, known_names, _NAMED))
        else:
            nameless.append(Mention(s, e, ("subject",), _UNKNOWN))
    return named, nameless


def _with_references(by_name: list[Mention], structure: Structure) -> list[Mention]:
    """The names with the pronouns, references and unknown names that overlap none: a name
    wins ("the capital" as an alias; "The Workshop Kiln" is a subject, not "the workshop")."""
    name_starts = [m.start for m in by_name]
    others = [
        m
        for m in (*structure.pronouns, *structure.unknown)
        if not _overlaps(by_name, name_starts, m)
    ]
    return sorted([*by_name, *others])


def _conjunction_starts(text: str, mentions: list[Mention]) -> list[int]:
    """Conjunctions that open a clause before a subject ("and Munich ...")."""
    return [
        at
        for m in mentions
        if m.kind != _UNKNOWN
        and m.start >= 0
        and (at := conjunction_before(text, m.start, max(0, m.start - 16))) is not None
    ]


def _overlaps(spans: list[Mention], starts: list[int], mention: Mention) -> bool:
    i = bisect_left(starts, mention.end)
    return any(spans[j].end > mention.start for j in range(max(0, i - 2), i))


_NUMBER_WORDS = frozenset(
    {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve"}
)


def is_number_word(word: str) -> bool:
    return word.lower() in _NUMBER_WORDS
