"""Binding: which (subject, attribute) a stated quantity speaks about, read as a reader would.

Each quantity gets every reading a careful reader could give it, each with a
cost (lower reads more naturally), built from the mentions of the text
(:mod:`vouched._scan._mentions`):

- **attribute** from the cue that governs it: the phrase right after it ("8
  points", "a 16-point ...", "63% humidity": cost 0, clear); a phrase before it
  joined by linking words ("winds of 15", "gusting to 32", "humidity is 63%":
  clear); its unit when only one attribute of its subjects is stated in that
  unit ("21 °C": clear); a phrase elsewhere in its clause or sentence (a guess:
  never enough for a mismatch). Kind and unit are hard constraints: a time binds
  only time-valued attributes, km/h only speeds, a percent only percentages.
  A word right after the number that is no cue ("40% chance of rain") blocks
  the guess from the unit: the number is about that word.
- **subject** from the clause: a mention right after the value joined by
  "in/at/for" ("7 °C in Geneva") binds alone; otherwise the mentions before it
  in its sentence (its own clause first), pronouns and definite references
  resolved to the subjects named before them, mentions after it, and the topic
  carried from earlier sentences, in that order of cost. Only subjects that
  have the attribute count. An unknown name that governs the clause
  ("Hamburg is 17.8 °C" with no Hamburg facts) leaves the quantity unbound.
- **structures**: lists of values with lists of subjects ("Berlin and Munich
  are 21 °C and 17.8 °C", "... respectively"); lexicon pairs ("9-for-12 from
  the field": made, attempted; "(33-34)" after a team: wins, losses;
  "113-107": two subjects' values); countable articles ("a steal" is one) and
  value phrases ("sold out" is 0 seats) are quantities bound to their attribute.

The scanner then accepts a quantity when any *plausible* reading (cost within
:data:`MARGIN` of the best) vouches for it: strict about the attribute,
lenient about the subject within the sentence.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple

from vouched._scan._factindex import FactIndex
from vouched._scan._lexicon import Lexicon, Pair, PhraseMatcher, phrase_matcher
from vouched._scan._mentions import (
    Mention,
    MentionKind,
    conjunction_before,
    object_pronoun,
    read_structure,
)
from vouched._scan._reader._numbers import Quantity, QuantityKind
from vouched._scan._reader._units import same_dimension, units_compatible
from vouched._scan._reader._words import word_tokens

__all__ = ["MARGIN", "Binder", "Binding", "Derived", "Matchers", "Reading", "compile_matchers"]

MARGIN = 0.45
"""Readings within this cost of the best one are plausible too."""

_NAMED = MentionKind.NAMED
_PRONOUN = MentionKind.PRONOUN
_UNKNOWN = MentionKind.UNKNOWN
_DIGIT = re.compile(r"\d")
_LINKING = frozenset(
    {
        "of", "to", "at", "is", "was", "are", "were", "be", "been", "being", "around",
        "about", "roughly", "nearly", "almost", "approximately", "near", "some", "just",
        "only", "over", "under", "by", "from", "reached", "reaching", "reaches", "hit",
        "hits", "stands", "stood", "sits", "sat", "currently", "now", "a", "an", "the",
        "with", "s", "its", "his", "their", "her", "likely", "expected", "forecast",
        "set", "scheduled", "for", "will", "should", "still", "right", "measured",
        "measuring", "reading", "reads", "showing", "shows", "sitting", "standing",
        "registering", "registered", "holding", "holds", "held", "steady", "as", "high",
        "low", "up", "down", "than", "more", "less", "exactly", "precisely", "already",
        "also", "even", "well", "very", "this", "today", "tonight", "morning", "afternoon",
        "evening", "in", "on", "has", "had", "have", "got", "gets", "went", "go",
        "going", "coming", "came", "comes", "and", "or", "per", "costs", "cost", "priced",
    }
)  # fmt: skip
# Words that may follow a number without making it about something else.
_AT_WORDS = frozenset({"at", "the", "on", "for", "in", "its", "their"})
_LINK_MARKS = frozenset({":", "=", "~", "\u2248"})
_FILLER_AFTER = frozenset(
    {
        "and", "or", "but", "with", "in", "at", "on", "for", "this", "that", "the", "today",
        "tonight", "now", "currently", "right", "so", "while", "as", "of", "to", "by",
        "from", "than", "then", "which", "when", "per", "a", "an", "is", "was", "are",
        "were", "against", "versus", "vs", "compared", "respectively", "each",
        "apiece", "overall", "outside", "here", "there", "yesterday", "tomorrow",
        "according", "though", "although", "whereas", "since", "until", "after", "before",
        "during", "over", "under", "around", "about", "up", "down", "higher", "lower",
        "lately", "earlier", "later", "too", "also", "only", "exactly", "sharp", "flat",
        "even", "just", "both", "all", "it", "he", "she", "they", "we", "you",
    }
)  # fmt: skip
_HELD_BEFORE = re.compile(
    r"\b(?:held|holding|holds|hold|limited|limiting|limits|limit|kept|keeping|keeps"
    r"|forced|forcing|forces|force)\s+(?:the\s+)?$",
    re.I,
)
_HELD_AFTER = re.compile(r"(?:\s*\(.*?\))?\s+(?:to|into|under)\b", re.I)
_WORD_AFTER = re.compile(r"\s*[^\W\d_]")
_BRACKET_AFTER = re.compile(r"\s*[(\[]\s*(?:the\s+)?", re.IGNORECASE)
_CONNECTIVE = re.compile(r"\s*(?:in|at|for|of|from|on|to)\s+(?:the\s+)?", re.IGNORECASE)
_GAP_WORDS = re.compile(r"[^\W_]+|[^\w\s]", re.UNICODE)
_PAIR_GAP = re.compile(r"\s*(?:[-\u2013\u2014]|to)\s*|\s*-?\s*(?:for|of)\s*-?\s*", re.I)
_VALUE_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s(?:and|&|versus|vs\.?|against)\s)\s*", re.I)
_SUBJECT_JOIN = re.compile(
    r"\s*(?:,\s*(?:and\s+)?|\s(?:and|&)\s"
    r"|\s+(?:is|are|was|feels|looks)?\s*(?:\w+er|more\s+\w+|less\s+\w+)\s+than\s+)\s*",
    re.I,
)
_RESPECTIVELY = re.compile(r"\s*,?\s*(?:\(\s*)?respectively\b", re.I)
_ARTICLE = re.compile(r"(?:^|(?<=\W))(a|an|a\s+pair\s+of|a\s+couple\s+of|a\s+single)\s+$", re.I)
_ARTICLE_VALUES = {"a": 1, "an": 1, "one": 1, "a single": 1, "a pair of": 2, "a couple of": 2}
# Derived values: a difference ("a 12-point win", "3 degrees warmer", "led by 12").
_DIFFERENCE_AFTER = re.compile(
    r"\s*(?:[-\u2013]\s*)?(?:[^\W\d_]+\s*(?:[-\u2013]\s*)?)?"
    r"(?:win|victory|lead|margin|loss|defeat|deficit|edge|triumph|blowout|rout|advantage"
    r"|warmer|colder|cooler|hotter|higher|lower|more|fewer|less|cheaper|dearer|pricier"
    r"|later|earlier|faster|slower|ahead|behind|longer|shorter|bigger|smaller|difference"
    r"|quicker|busier|wetter|drier|windier|calmer|stronger|weaker|greater|smaller"
    r"|gap|above|below|over|under|up\s+on|down\s+on|range|spread|swing"
    r"|(?:from|since|versus|vs\.?|on|against)\s+(?:the\s+|its\s+)?(?:previous|prior|last"
    r"|day\s+before|earlier))\b",
    re.I,
)
_DIFFERENCE_BEFORE = re.compile(
    r"\b(?:won|win|wins|lost|lose|loses|led|leads|lead|trailed|trails|beat|beats|defeated"
    r"|outscored|edged|margin|difference|gap|differ|differs|differed|gain|gained|rise|rose"
    r"|drop|dropped|fall|fell|change|changed)\s+(?:\w+\s+){0,3}?"
    r"(?:by|of)\s+(?:just\s+|only\s+)?$",
    re.I,
)
_COMPARISON = re.compile(
    r"\b(?P<op>over|above|more\s+than|greater\s+than|higher\s+than|at\s+least|in\s+excess\s+of"
    r"|exceeding|beyond|under|below|less\s+than|fewer\s+than|lower\s+than|at\s+most"
    r"|no\s+more\s+than|up\s+to)\s+$",
    re.I,
)
_BELOW = frozenset({"under", "below", "less than", "fewer than", "lower than"})
_AT_MOST = frozenset({"at most", "no more than", "up to"})
_AT_LEAST = frozenset({"at least"})
# Sign words a reader applies to a number: "1.15% lower", "3 degrees below zero", "gave up $2".
_FALL_AFTER = re.compile(
    r"\s*(?:lower|down|below\s+(?:zero|freezing|0)|in\s+the\s+red|under\s+zero)\b", re.I
)
_FALL_BEFORE = re.compile(
    r"\b(?:gave\s+up|gives\s+up|giving\s+up|shed|sheds|slipped|slips|declined|declines"
    r"|dropped|drops|lost|loses|fell|falls|down|decreased|eased|eases|retreated|minus)"
    r"\s+(?:by\s+)?(?:just\s+|some\s+|about\s+|nearly\s+)?$",
    re.I,
)
# "down $2.18, or 1.15%": the sign word governs the restatement after "or"
_FALL_CHAIN = re.compile(
    r"\b(?:down|fell|lost|dropped|declined|slipped|shed|gave\s+up)\s+[^,;\n]{1,24}?,?\s+or\s+$",
    re.I,
)
_MINUS_MARK = re.compile(r"(?:^|[\s(\[])[-\u2212]$")  # "(-$2.18)": a sign the reader left out
_CENTS = re.compile(r"\s*(?:cents?|pence)\b", re.I)
_BELOW_ZERO = re.compile(r"\s*(?:degrees?\s+)?below\s+(?P<zero>zero|freezing)\b", re.I)
_MARGIN_NOUN = re.compile(
    r"\b(?:win|victory|lead|margin|loss|defeat|deficit|edge|triumph|blowout|rout|advantage"
    r"|difference|gap)\b",
    re.I,
)
_REFERENCE = re.compile(r"\s+(?:its|the|their|his|her|that|this)\b", re.I)  # "below its high"
_THAN = re.compile(r"\s+(?:\w+\s+){0,2}?than\b", re.I)
_SUM_WORDS = re.compile(
    r"\b(?:together|combined|in\s+total|a\s+total\s+of|totall?ing|altogether|in\s+all|sum)\b",
    re.I,
)


_COMPARE_WORDS = frozenset(
    {"over", "above", "than", "least", "excess", "exceeding", "beyond", "under", "below",
     "most", "up"}
)  # fmt: skip


def _alternatives(*patterns: re.Pattern[str]) -> frozenset[str]:
    """Every plain word a pattern can need (gates the pattern: most texts have none)."""
    words: set[str] = set()
    for pattern in patterns:
        words.update(w for w in re.findall(r"[a-z]+", pattern.pattern) if len(w) > 2)
    return frozenset(words)


_COMPUTE_WORDS = _alternatives(_DIFFERENCE_AFTER, _DIFFERENCE_BEFORE, _SUM_WORDS) | {"all"}


class Reading(NamedTuple):
    """One way to read a quantity: this subject's attribute, at this cost."""

    cost: float
    subject: str
    attribute: str


class Derived(NamedTuple):
    """A quantity that states a computed value, and what the facts compute to."""

    operation: str  # "difference" | "sum"
    matches: bool
    detail: str


class Binding(NamedTuple):
    """What a quantity speaks about.

    ``readings`` are the plausible readings, best first (empty: unbound, check
    by membership). ``clear`` is True when the attribute is read from a cue, a
    unit or a structure, not guessed: only a clear attribute can be a mismatch.
    ``attribute`` is the attribute read even when no subject has it. ``mention``
    is the start of the subject mention that governs the quantity (-1: none),
    for ``subject_mismatch``.
    """

    readings: tuple[Reading, ...]
    attribute: str | None
    clear: bool
    mention: int = -1
    derived: Derived | None = None
    firm: bool = False  # one subject named in the sentence, clear attribute: for inconsistency
    subjectless: bool = False  # the text names no subject it could be about
    governed: bool = False  # no attribute word: read from the named subject's facts


_UNBOUND = Binding((), None, False)


class _Cue(NamedTuple):
    start: int
    end: int
    names: tuple[str, ...]


class _Forced(NamedTuple):
    attributes: tuple[str, ...]
    subjects: tuple[str, ...] | None  # None: read the subject from the clause
    mention: int = -1  # the subject mention that bound them, for subject_mismatch
    pair: bool = False  # one half of a pair read from one phrase


@lru_cache(maxsize=128)
def _attribute_matcher(lexicon: Lexicon, known: frozenset[str]) -> PhraseMatcher:
    pairs: set[tuple[str, str]] = set()
    for attribute, phrases in lexicon.attributes.items():
        if attribute in known:
            pairs.update((phrase, attribute) for phrase in phrases)
    for attribute in known:
        pairs.add((attribute, attribute))
        if "_" in attribute:
            pairs.add((attribute.replace("_", " "), attribute))
    # a reader takes "prices" for "price"
    pairs.update({(variant, a) for phrase, a in list(pairs) for variant in _number_forms(phrase)})
    return phrase_matcher(tuple(sorted(pairs)))


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
    pairs: set[tuple[str, str]] = set()
    for subject, aliases in lexicon.subjects.items():
        pairs.update((alias, subject) for alias in aliases)
        pairs.add((subject, subject))
    pairs.update((subject, subject) for subject in known)
    return phrase_matcher(tuple(sorted(pairs)))


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
        for phrase, value in phrases.items()
    )
    return phrase_matcher(entries)


def _words(text: str, start: int, end: int) -> list[str]:
    return [w.lower() for w in _GAP_WORDS.findall(text, start, end)]


class Matchers(NamedTuple):
    """The phrase matchers of one (lexicon, facts) pair: compiled once per :class:`Scanner`."""

    attributes: PhraseMatcher
    subjects: PhraseMatcher
    pairs: PhraseMatcher
    pair_table: tuple[Pair, ...]
    values: PhraseMatcher | None
    digit_names: PhraseMatcher | None


def compile_matchers(lexicon: Lexicon, index: FactIndex) -> Matchers:
    attributes = frozenset(index.attributes)
    pairs, pair_table = _pair_matcher(lexicon, attributes)
    with_digits = index.strings_with_digits
    return Matchers(
        _attribute_matcher(lexicon, attributes),
        _subject_matcher(lexicon, frozenset(index.subjects)),
        pairs,
        pair_table,
        _value_matcher(lexicon, attributes) if lexicon.values else None,
        phrase_matcher(tuple((n, n) for n in with_digits)) if with_digits else None,
    )


class Binder:
    """The mentions of one sentence, ready to bind its quantities.

    ``carried``: the subjects named in earlier sentences (oldest first), as
    mentions at negative positions: the topic and the antecedents of pronouns.
    """

    def __init__(  # noqa: PLR0917 - the scanner passes what it has already computed
        self,
        text: str,
        index: FactIndex,
        lexicon: Lexicon,
        lowered: str | None = None,
        tokens: set[str] | None = None,
        quantities: Iterable[Quantity] = (),
        matchers: Matchers | None = None,
        carried: Sequence[Mention] = (),
    ) -> None:
        self.text = text
        self.index = index
        self.lexicon = lexicon
        lowered = text.lower() if lowered is None else lowered
        tokens = word_tokens(lowered) if tokens is None else tokens
        if matchers is None:
            matchers = compile_matchers(lexicon, index)
        cues = matchers.attributes.find(text, lowered, tokens)
        self.cues = [_Cue(s, e, names) for s, e, names in cues]
        self._cue_starts = [c.start for c in self.cues]
        subjects = index.subjects
        named: list[Mention] = []
        nameless: list[Mention] = []  # lexicon subjects no fact is about: unknown subjects
        for s, e, names in matchers.subjects.find(text, lowered, tokens):
            known_names = tuple(n for n in names if n in subjects)
            if known_names:
                named.append(Mention(s, e, known_names, _NAMED))
            else:
                nameless.append(Mention(s, e, ("subject",), _UNKNOWN))
        self.named = named
        self._pairs = matchers.pair_table
        self._pair_phrases = [
            _Cue(s, e, names) for s, e, names in matchers.pairs.find(text, lowered, tokens)
        ]
        known = sorted(
            [(m.start, m.end) for m in (*named, *nameless)]
            + [(c.start, c.end) for c in (*self.cues, *self._pair_phrases)]
            + [(q.start, q.end) for q in quantities]  # "°C", "USD" are units, not names
        )
        self.structure = read_structure(text, known)
        # A name wins over a reference or unknown name that overlaps it: "the capital"
        # (an alias) and "The Workshop Kiln" (a subject, not "the workshop").
        by_name = sorted([*named, *nameless])
        name_starts = [m.start for m in by_name]
        others = [
            m
            for m in (*self.structure.pronouns, *self.structure.unknown)
            if not _overlaps(by_name, name_starts, m)
        ]
        mentions = [*carried, *sorted([*by_name, *others])]
        self.mentions = mentions
        self._mention_starts = [m.start for m in mentions]
        self.structure.add_clause_starts(
            [
                at
                for m in mentions
                if m.kind != _UNKNOWN
                and m.start >= 0
                and (at := conjunction_before(text, m.start, max(0, m.start - 16))) is not None
            ]
        )
        self._resolved = self._resolve(mentions)

        self._value_phrases = (
            [_Cue(s, e, names) for s, e, names in matchers.values.find(text, lowered, tokens)]
            if matchers.values is not None
            else []
        )
        # Words that derived values and comparisons need: most texts have none.
        self._computes = not tokens.isdisjoint(_COMPUTE_WORDS)
        # Sign words ("fell", "lower") matter only where the facts have signs: in a box
        # score, "dropped 17 points" is a scoring verb.
        self._signs = index.has_negative
        self._compares = not tokens.isdisjoint(_COMPARE_WORDS)
        self._forced: dict[int, _Forced] = {}
        self._taken: set[int] = set()  # cues right after a number of their own
        self.partners: dict[int, int] = {}  # "113-107": second value -> first, two subjects
        self._adjacent: dict[int, _Cue | None] = {}  # quantity start -> the cue right after it
        self._groups: dict[int, int] = {}
        self._quantity_starts: list[int] = []
        self._names = (
            [(s, e) for s, e, _ in matchers.digit_names.find(text, lowered, tokens)]
            if matchers.digit_names is not None
            else []
        )

    def subject_mentions(self) -> list[Mention]:
        """This sentence's named subjects and unknown subjects, in order: what the next
        sentence carries."""
        return [
            m
            for m in self.mentions
            if m.start >= 0 and (m.kind == _NAMED or (m.kind == _UNKNOWN and m.names))
        ]

    # -- masks and extra quantities ------------------------------------------

    def masked_spans(self) -> list[tuple[int, int]]:
        """Subject mentions, digit-bearing names and phrases: their numbers are not claims.
        A number word inside an attribute phrase ("from three", "three-pointers") is
        part of the phrase's name."""
        text = self.text
        phrases = [
            (c.start, c.end)
            for c in self.cues
            if _DIGIT.search(text, c.start, c.end) or _has_number_word(text, c.start, c.end)
        ]
        pair_phrases = [(c.start, c.end) for c in self._pair_phrases]
        return [
            *((m.start, m.end) for m in self.named),
            *self._names,
            *phrases,
            *pair_phrases,
            *self.sign_spans(),
        ]

    def extra_quantities(self) -> list[Quantity]:
        """Quantities written without digits: "a steal" for a countable attribute,
        "a pair of steals", and the lexicon's value phrases ("sold out")."""
        text = self.text
        found: list[Quantity] = []
        countable = self.lexicon.countable
        if countable:
            for cue in self.cues:
                names = tuple(n for n in cue.names if n in countable)
                if not names:
                    continue
                match = _ARTICLE.search(text, max(0, cue.start - 16), cue.start)
                if match is None:
                    continue
                count = Decimal(_ARTICLE_VALUES[" ".join(match.group(1).lower().split())])
                start = match.start(1)
                found.append(
                    Quantity(
                        start, cue.end, text[start : cue.end], QuantityKind.NUMBER, count, _ONE
                    )
                )
                self._forced[start] = _Forced(names, None)
        for phrase in self._value_phrases:
            attributes: list[str] = []
            value: Decimal | None = None
            for name in phrase.names:
                attribute, _, number = name.partition("\x00")
                attributes.append(attribute)
                value = Decimal(number)
            if value is None:
                continue
            found.append(
                Quantity(
                    phrase.start,
                    phrase.end,
                    text[phrase.start : phrase.end],
                    QuantityKind.NUMBER,
                    value,
                    _ONE,
                )
            )
            self._forced[phrase.start] = _Forced(tuple(attributes), None)
        return found

    # -- structures over the quantity list ------------------------------------

    def prepare(self, quantities: list[Quantity]) -> None:
        """Read the structures that span several quantities: runs that share a cue,
        pairs, and lists of values with lists of subjects."""
        self._quantity_starts = [q.start for q in quantities]
        adjacent = self._adjacent
        for quantity in quantities:
            cue = self._cue_after(quantity, len(self.text), linking=0)
            adjacent[quantity.start] = cue
            if cue is None:  # "1.0815 at the previous fixing": the phrase is that number's
                cue = self._cue_after(quantity, len(self.text), linking=3, words=_AT_WORDS)
                if cue is not None and self._leads_on(cue):
                    cue = None  # "on volume of 1,187,400": the phrase leads on to its own
            if cue is not None:
                self._taken.add(cue.start)
        self._group(quantities)
        self._read_pairs(quantities)
        self._distribute(quantities)

    def _group(self, quantities: list[Quantity]) -> None:
        group = 0
        previous: Quantity | None = None
        for quantity in quantities:
            if previous is None or not (
                (quantity.unit == previous.unit or None in (quantity.unit, previous.unit))
                and (
                    (previous.in_range and quantity.in_range)
                    or _VALUE_JOIN.fullmatch(self.text, previous.end, quantity.start) is not None
                )
            ):
                group += 1
            self._groups[quantity.start] = group
            previous = quantity

    def _read_pairs(self, quantities: list[Quantity]) -> None:
        text = self.text
        pairs = self._pairs
        for left, right in itertools.pairwise(quantities):
            if left.start in self._forced or right.start in self._forced:
                continue
            if left.kind is not QuantityKind.NUMBER or right.kind is not QuantityKind.NUMBER:
                continue
            if _PAIR_GAP.fullmatch(text, left.end, right.start) is None:
                continue
            sentence = self.structure.sentence(left.start)
            pair = self._pair_phrase_near(left, right, sentence) if pairs else None
            if pair is not None and not pair.two_subjects:
                self._forced[left.start] = _Forced((pair.first,), None, pair=True)
                self._forced[right.start] = _Forced((pair.second,), None, pair=True)
                continue
            bracketed = self._bracketed(left, right)
            if bracketed is not None:
                subject, found, at = bracketed
                self._forced[left.start] = _Forced((found.first,), (subject,), at, pair=True)
                self._forced[right.start] = _Forced((found.second,), (subject,), at, pair=True)
                continue
            two = self._two_subjects(left, right, sentence, pair)
            if two is not None:
                attributes, subjects = two
                self._forced[left.start] = _Forced(attributes, subjects, pair=True)
                self._forced[right.start] = _Forced(attributes, subjects, pair=True)
                self.partners[right.start] = left.start

    def _pair_phrase_near(
        self, left: Quantity, right: Quantity, sentence: tuple[int, int]
    ) -> Pair | None:
        """A pair phrase right after the pair ("9-12 FG", "3-of-5 shooting") or before
        it ("a range of 980-1,120"), joined by linking words only."""
        text = self.text
        best: tuple[int, Pair] | None = None
        for phrase in self._pair_phrases:
            if phrase.start >= right.end and phrase.start < sentence[1]:
                gap = _words(text, right.end, phrase.start)
                if len(gap) <= 3 and all(w in _LINKING for w in gap):
                    distance = len(gap)
                else:
                    continue
            elif phrase.end <= left.start and phrase.end >= sentence[0]:
                gap = _words(text, phrase.end, left.start)
                if len(gap) <= 4 and all(w in _LINKING for w in gap):
                    distance = len(gap) + 1
                else:
                    continue
            else:
                continue
            pair = self._pairs[int(phrase.names[0])]
            if best is None or distance < best[0]:
                best = (distance, pair)
        return best[1] if best is not None else None

    def _bracketed(self, left: Quantity, right: Quantity) -> tuple[str, Pair, int] | None:
        """ "Team ( 33 - 34 )": a bracketed pair right after a subject mention."""
        text = self.text
        before = text[: left.start].rstrip()
        if not before.endswith("(") or not text[right.end :].lstrip().startswith(")"):
            return None
        opening = len(before) - 1
        i = bisect_left(self._mention_starts, opening) - 1
        if i < 0:
            return None
        mention = self.mentions[i]
        if text[mention.end : opening].strip(" 's\u2019"):
            return None
        for subject in self._names_of(i):
            for pair in self._pairs:
                if pair.bracketed and self.index.knows(subject, pair.first):
                    return subject, pair, mention.start
        return None

    def _two_subjects(
        self, left: Quantity, right: Quantity, sentence: tuple[int, int], pair: Pair | None
    ) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """ "The Celtics defeated the Lakers, 113-107" or "... outscored X, 37-20, in the
        fourth quarter": two subjects' values of one attribute, in either order."""
        subjects: list[str] = []
        low = bisect_left(self._mention_starts, sentence[0])
        high = bisect_left(self._mention_starts, left.start)
        for i in range(low, high):
            if self.mentions[i].kind == _NAMED:
                for name in self.mentions[i].names[:1]:
                    if name not in subjects:
                        subjects.append(name)
        if not subjects:
            return None
        subjects = subjects[-2:]
        attributes: tuple[str, ...] = ()
        if pair is not None:
            attributes = (pair.first,)
        else:
            cue = self._cue_after(right, sentence[1], linking=3)
            if cue is None:
                for phrase in self._pairs:
                    if phrase.two_subjects and self._pair_phrase_in(
                        phrase, sentence[0], left.start
                    ):
                        attributes = (phrase.first,)
                        break
            else:
                attributes = cue.names
        attributes = tuple(a for a in attributes if all(self.index.knows(s, a) for s in subjects))
        if not attributes:
            return None
        return attributes, tuple(subjects)

    def _pair_phrase_in(self, pair: Pair, start: int, end: int) -> bool:
        number = str(self._pairs.index(pair))
        return any(
            p.start >= start and p.end <= end and number in p.names for p in self._pair_phrases
        )

    def _distribute(self, quantities: list[Quantity]) -> None:
        """Pair runs of values with runs of subjects, as a reader does with "Berlin and
        Munich are 21 °C and 17.8 °C" or "... 63% and 70% respectively"."""
        text = self.text
        count = len(quantities)
        index = 0
        while index < count:
            stop = index + 1
            while stop < count:
                nxt, last = quantities[stop], quantities[stop - 1]
                if (
                    nxt.kind is not last.kind
                    or (
                        nxt.unit != last.unit
                        and None not in (nxt.unit, last.unit)
                        and not same_dimension(nxt.unit, last.unit)
                    )
                    or nxt.in_range
                    or last.in_range
                    or _VALUE_JOIN.fullmatch(text, last.end, nxt.start) is None
                ):
                    break
                stop += 1
            if stop - index < 2:
                index = stop
                continue
            run = quantities[index:stop]
            index = stop
            if any(q.start in self._forced for q in run):
                continue
            sentence = self.structure.sentence(run[0].start)
            subjects = self._coordinated(sentence[0], run[0].start, len(run))
            if subjects is None and _RESPECTIVELY.match(text, run[-1].end):
                subjects = self._last_distinct(sentence[0], run[0].start, len(run))
            if subjects is not None:
                for quantity, subject in zip(run, subjects, strict=True):
                    self._forced[quantity.start] = _Forced((), (subject,))

    def _coordinated(self, start: int, end: int, count: int) -> list[str] | None:
        low = bisect_left(self._mention_starts, start)
        high = bisect_left(self._mention_starts, end)
        mentions = [m for m in self.mentions[low:high] if m.kind == _NAMED]
        if len(mentions) < count:
            return None
        group = mentions[-count:]
        for a, b in itertools.pairwise(group):
            if not _SUBJECT_JOIN.fullmatch(self.text, a.end, b.start):
                return None
        return [m.names[0] for m in group]

    def _last_distinct(self, start: int, end: int, count: int) -> list[str] | None:
        low = bisect_left(self._mention_starts, start)
        high = bisect_left(self._mention_starts, end)
        order: list[str] = []
        for mention in self.mentions[low:high]:
            if mention.kind == _NAMED and mention.names[0] not in order:
                order.append(mention.names[0])
        return order[-count:] if len(order) >= count else None

    # -- pronouns --------------------------------------------------------------

    def _resolve(self, mentions: list[Mention]) -> dict[int, tuple[str, ...]]:
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

    def _names_of(self, i: int) -> tuple[str, ...]:
        mention = self.mentions[i]
        if mention.kind == _PRONOUN:
            return self._resolved.get(mention.start, ())
        return mention.names

    # -- binding one quantity -------------------------------------------------

    def signed(self, quantity: Quantity) -> Quantity:
        """``quantity`` as a reader takes it: cents as hundredths ("up 74 cents"), and
        negative when a sign says it fell ("1.15% lower", "down $2.18", "(-$2.18)",
        "3.2 degrees below zero")."""
        if quantity.kind is not QuantityKind.NUMBER or quantity.value < 0:
            return quantity
        text = self.text
        if quantity.unit is None and _CENTS.match(text, quantity.end):
            # "up 74 cents": a hundredth of the currency's unit
            hundred = Decimal(100)
            quantity = quantity._replace(
                value=quantity.value / hundred,
                quantum=quantity.quantum / hundred,
                alternatives=tuple(v / hundred for v in quantity.alternatives),
            )
        if not self._signs:
            return quantity
        if not (
            _MINUS_MARK.search(text, max(0, quantity.start - 2), quantity.start)
            or _FALL_AFTER.match(text, quantity.end)
            or _FALL_BEFORE.search(text, max(0, quantity.start - 24), quantity.start)
            or _FALL_CHAIN.search(text, max(0, quantity.start - 40), quantity.start)
        ):
            return quantity
        # the sign word decides: "fell 1.17%" is -1.17, never +1.17
        negative = [-v for v in quantity.values if v > 0] + [v for v in quantity.values if v < 0]
        return quantity._replace(value=negative[0], alternatives=tuple(negative[1:]))

    def sign_spans(self) -> list[tuple[int, int]]:
        """Spans of "zero" in "below zero": part of the sign, not a number."""
        spans = []
        if "below" in self.text.lower():
            for match in re.finditer(r"\bbelow\s+(zero)\b", self.text, re.I):
                spans.append(match.span(1))
        return spans

    def comparison(self, quantity: Quantity) -> str | None:
        """ "over 50 percent", "fewer than 10": the comparison a bound is stated with."""
        window = self.text[max(0, quantity.start - 24) : quantity.start]
        match = _COMPARISON.search(window)
        if match is None:
            return None
        op = " ".join(match["op"].lower().split())
        if op in _BELOW:
            return "<"
        if op in _AT_MOST:
            return "<="
        if op in _AT_LEAST:
            return ">="
        return ">"

    def in_pair(self, quantity: Quantity) -> bool:
        """Is ``quantity`` one half of a pair read from one phrase ("(33-34)", "9-for-12")?"""
        forced = self._forced.get(quantity.start)
        return forced is not None and forced.pair

    def bind(self, quantity: Quantity) -> Binding:
        structure = self.structure
        sentence = structure.sentence(quantity.start)
        clause = structure.clause(quantity.start)
        forced = self._forced.get(quantity.start)
        if forced is not None and forced.attributes:
            attributes: list[tuple[float, tuple[str, ...], bool]] = [(0.0, forced.attributes, True)]
        else:
            attributes = self._attributes(quantity, sentence, clause)
        if forced is not None and forced.subjects is not None:
            subjects: list[tuple[float, str, int]] = [
                (0.0, s, forced.mention) for s in forced.subjects
            ]
            if not attributes:
                attributes = self._unit_attributes(quantity, [s for _, s, _ in subjects])
        else:
            found = self._subjects(quantity, sentence, clause)
            if found is None:  # an unknown subject governs: unbound
                return _UNBOUND
            subjects = found
        governed = False
        if not attributes:
            attributes = self._governed_attributes(quantity, subjects)
            if not attributes:
                return _UNBOUND
            governed = True
        index = self.index
        readings: list[Reading] = []
        mention_of: dict[str, int] = {}
        for a_cost, names, _clear in attributes:
            for s_cost, subject, at in subjects:
                for name in names:
                    if index.knows(subject, name):
                        readings.append(Reading(a_cost + s_cost, subject, name))
                        mention_of.setdefault(subject, at)
        best_attribute = attributes[0]
        if not readings:
            # Only one subject has the attribute at all: the number is about it.
            for a_cost, names, clear in attributes:
                if not clear:
                    continue
                for name in names:
                    owners = index.subjects_of(name)
                    if len(owners) == 1 and not self._unknown_in(sentence, quantity.start):
                        readings.append(Reading(a_cost + 2.5, owners[0], name))
            if not readings:
                read = best_attribute[1][0] if best_attribute[2] else None
                return Binding((), read, best_attribute[2], subjectless=not subjects)
        readings.sort()
        best = readings[0].cost
        plausible = tuple(r for r in readings if r.cost <= best + MARGIN)
        clear = next(c for a, names, c in attributes if plausible[0].attribute in names)
        subjects_named = {r.subject for r in plausible}
        firm = clear and len(subjects_named) == 1 and best <= 1.0
        return Binding(
            _dedupe(plausible),
            plausible[0].attribute,
            clear,
            mention_of.get(plausible[0].subject, -1),
            firm=firm,
            governed=governed,
        )

    def _governed_attributes(
        self, quantity: Quantity, subjects: list[tuple[float, str, int]]
    ) -> list[tuple[float, tuple[str, ...], bool]]:
        """A number with no attribute word, stated for a subject named in its sentence
        ("EUR/GBP is 1.0842"): the subject's facts of the number's kind and unit are its
        readings; one such fact is a clear reading."""
        if (
            quantity.soft
            or quantity.unit is not None
            or quantity.kind is not QuantityKind.NUMBER
            or not subjects
            or _WORD_AFTER.match(self.text, quantity.end) is not None  # "3 stations", a list
        ):
            return []
        best = min(cost for cost, _, _ in subjects)
        if best > 0.2:  # a subject of another clause, the topic, a later mention
            return []
        found: list[tuple[float, tuple[str, ...], bool]] = []
        for cost, subject, _ in subjects:
            if cost > best:
                continue
            names = self.index.fitting_attributes(subject, quantity.kind, quantity.unit)
            if names:
                found.append((0.4 if len(names) == 1 else 0.6, tuple(names), len(names) == 1))
        return found

    def _unit_attributes(
        self, quantity: Quantity, subjects: list[str]
    ) -> list[tuple[float, tuple[str, ...], bool]]:
        found: list[tuple[float, tuple[str, ...], bool]] = []
        for subject in subjects:
            name = self.index.attribute_for_unit(subject, quantity.unit)
            if name is not None:
                found.append((0.3, (name,), True))
        return found

    def _attributes(  # noqa: PLR0915 - one ordered list of the cues a reader weighs
        self, quantity: Quantity, sentence: tuple[int, int], clause: tuple[int, int]
    ) -> list[tuple[float, tuple[str, ...], bool]]:
        """The attribute cues that could govern ``quantity``, cheapest first:
        (cost, attribute names, clear)."""
        accepts = self.index.accepts
        found: list[tuple[float, tuple[str, ...], bool]] = []
        after = self._adjacent.get(quantity.start)
        blocked = False
        if after is not None and self._leads_on(after) and self._linked_before(quantity, clause):
            after = None  # "winds of 15 km/h gusting to 32": "gusting" is the next number's
        if after is not None:
            names = tuple(n for n in after.names if accepts(n, quantity))
            if not names and after.start < quantity.end and quantity.unit is not None:
                # the phrase is the unit ("27 minutes" for unitless MIN facts)
                bare = quantity._replace(unit=None)
                names = tuple(n for n in after.names if accepts(n, bare))
            if names:
                return [(0.0, names, True)]  # "8 points": the noun after it decides
            blocked = True  # "40% chance of rain": a cue of another kind
        else:
            blocked = self._noun_after(quantity)
        # a cue before, joined by linking words: "winds of 15", "humidity is 63%"
        low = bisect_left(self._cue_starts, clause[0])
        high = bisect_left(self._cue_starts, quantity.start, low)
        for i in range(high - 1, low - 1, -1):
            cue = self.cues[i]
            if cue.end > quantity.start:
                continue
            names = tuple(n for n in cue.names if accepts(n, quantity))
            if not names:
                continue
            if self._claimed_between(cue.end, quantity) or cue.start in self._taken:
                break  # "one steal and one block": "steal" has its own number
            gap = [w for w in self._gap_words(cue.end, quantity.start) if w not in _LINK_MARKS]
            odd = sum(w not in _LINKING for w in gap)
            if len(gap) <= 6 and odd <= 2 and all(w.isalpha() for w in gap):
                # "winds of 15", "the wind is light at 8 km/h" (one describing word)
                found.append((0.3 + 0.05 * len(gap) + 0.2 * odd, names, True))
            else:
                found.append((1.0, names, False))
            break
        if not found or found[0][0] > 0:
            later = self._cue_after(quantity, clause[1], linking=3)
            if later is not None and later is not after:
                names = tuple(n for n in later.names if accepts(n, quantity))
                if names:
                    found.append((0.6, names, True))
        if not blocked and quantity.unit is not None and not any(c for _, _, c in found):
            found.extend(self._unit_guess(quantity, sentence))
        if not found:
            # the nearest fitting phrase earlier in the sentence: a guess
            low = bisect_left(self._cue_starts, sentence[0])
            high = bisect_left(self._cue_starts, quantity.start, low)
            for i in range(high - 1, low - 1, -1):
                cue = self.cues[i]
                names = tuple(n for n in cue.names if accepts(n, quantity))
                if names and not self._claimed_between(cue.end, quantity):
                    found.append((1.4, names, False))
                    break
        found.sort(key=lambda item: item[0])
        if found:
            floor = found[0][0]
            found = [item for item in found if item[0] <= floor + 0.1]
        return found

    def _unit_guess(
        self, quantity: Quantity, sentence: tuple[int, int]
    ) -> list[tuple[float, tuple[str, ...], bool]]:
        """The attribute a unit names: clear when one attribute of the subjects named
        in the sentence is stated in it ("Berlin is 21 °C"); a guess otherwise."""
        index = self.index
        low = bisect_left(self._mention_starts, sentence[0])
        high = bisect_left(self._mention_starts, sentence[1])
        names: set[str] = set()
        for i in range(low, high):
            for subject in self._names_of(i)[:1]:
                name = index.attribute_for_unit(subject, quantity.unit)
                if name is not None:
                    names.add(name)
        if len(names) == 1:
            return [(0.3, tuple(names), True)]
        if not names:
            name = index.attribute_for_unit(None, quantity.unit)
            if name is not None:
                return [(0.9, (name,), False)]
            return []
        return [(0.9, tuple(sorted(names)), False)]

    def _cue_after(
        self,
        quantity: Quantity,
        limit: int,
        *,
        linking: int,
        words: frozenset[str] = _LINKING,
    ) -> _Cue | None:
        """The attribute phrase right after ``quantity`` (or overlapping it: "% humidity"),
        with at most ``linking`` linking words between ("37-20 in the fourth quarter")."""
        text = self.text
        i = bisect_left(self._cue_starts, quantity.start)
        if (
            i > 0
            and self.cues[i - 1].end > quantity.start
            and self.cues[i - 1].start >= quantity.start - 1
        ):
            i -= 1
        while i < len(self.cues):
            cue = self.cues[i]
            if cue.start >= limit:
                return None
            if cue.start < quantity.end:
                if cue.end > quantity.end or cue.start >= quantity.start:
                    return cue  # the phrase holds the unit: "63% humidity" as "% humidity"
                i += 1
                continue
            gap = _words(text, quantity.end, cue.start)
            if not linking:
                if (
                    all(w in {"-", "\u2013"} for w in gap)
                    and len(gap) <= 1
                    and "\n" not in text[quantity.end : cue.start]
                ):
                    head = self.cues[i + 1] if i + 1 < len(self.cues) else None
                    if head is not None and not text[cue.end : head.start].strip():
                        return head  # "a 33-point first quarter": the last noun is the head
                    return cue
                return None
            if len(gap) <= linking and all(w in words for w in gap):
                return cue
            return None
        return None

    def _leads_on(self, cue: _Cue) -> bool:
        """Is ``cue`` followed by linking words and another number ("gusting to 32")?"""
        i = bisect_left(self._quantity_starts, cue.end)
        if i >= len(self._quantity_starts):
            return False
        gap = _words(self.text, cue.end, self._quantity_starts[i])
        return len(gap) <= 3 and all(w in _LINKING for w in gap)

    def _gap_words(self, start: int, end: int) -> list[str]:
        """The words between ``start`` and ``end``, a named subject counting as the linking
        word "of" ("the rate for EUR/GBP is 1.0842": the cue reaches the number)."""
        i = bisect_left(self._mention_starts, start)
        words: list[str] = []
        at = start
        mentions = self.mentions
        while i < len(mentions) and mentions[i].start < end:
            mention = mentions[i]
            if mention.kind == _NAMED and mention.end <= end:
                words.extend(_words(self.text, at, mention.start))
                words.append("of")
                at = mention.end
            i += 1
        words.extend(_words(self.text, at, end))
        return words

    def _linked_before(self, quantity: Quantity, clause: tuple[int, int]) -> bool:
        """Is there an attribute phrase before ``quantity`` in its clause, joined to it
        by linking words only ("winds of 15")?"""
        i = bisect_left(self._cue_starts, quantity.start) - 1
        if i < 0 or self.cues[i].start < clause[0] or self.cues[i].end > quantity.start:
            return False
        gap = _words(self.text, self.cues[i].end, quantity.start)
        return len(gap) <= 5 and all(w in _LINKING for w in gap)

    def _noun_after(self, quantity: Quantity) -> bool:
        """Is ``quantity`` followed by a word that says what it counts ("40% chance",
        "15 minutes"), which no cue names?"""
        text = self.text
        match = _GAP_WORDS.search(text, quantity.end, min(len(text), quantity.end + 40))
        if match is None:
            return False
        word = match.group()
        if not word[0].isalpha() or not word.islower():
            return False
        return word not in _FILLER_AFTER

    def _claimed_between(self, position: int, quantity: Quantity) -> bool:
        """Is there a quantity of another group between ``position`` and ``quantity``?"""
        starts = self._quantity_starts
        low = bisect_left(starts, position)
        high = bisect_left(starts, quantity.start, low)
        if low == high:
            return False
        group = self._groups.get(quantity.start)
        return any(self._groups.get(start) != group for start in starts[low:high])

    def _unknown_in(self, sentence: tuple[int, int], position: int) -> bool:
        low = bisect_left(self._mention_starts, sentence[0])
        high = bisect_left(self._mention_starts, position)
        return any(self.mentions[i].kind == _UNKNOWN for i in range(low, high))

    def _subjects(
        self, quantity: Quantity, sentence: tuple[int, int], clause: tuple[int, int]
    ) -> list[tuple[float, str, int]] | None:
        """(cost, subject, mention start) candidates; None when an unknown name governs."""
        text = self.text
        mentions = self.mentions
        starts = self._mention_starts
        after = bisect_left(starts, quantity.end)
        # "7 °C in Geneva": the mention right after the value, joined by a connective
        if after < len(mentions):
            following = mentions[after]
            if following.kind == _NAMED and _BRACKET_AFTER.fullmatch(
                text, quantity.end, following.start
            ):  # "182 ms (gateway)"
                return [(0.0, name, following.start) for name in following.names]
            cue = self._adjacent.get(quantity.start)
            gap_start = max(quantity.end, cue.end) if cue is not None else quantity.end
            if following.start < sentence[1] and _CONNECTIVE.fullmatch(
                text, gap_start, following.start
            ):
                if following.kind == _UNKNOWN:
                    return None
                if following.kind == _NAMED:
                    return [(0.0, name, following.start) for name in following.names]
        found: list[tuple[float, str, int]] = []
        low = bisect_left(starts, sentence[0])
        before = bisect_left(starts, quantity.start, low)
        held = self._held(low, before, sentence[0])
        if held is not None:  # "held the Lakers to 38 percent": the Lakers' figure
            return [(0.0, name, held.start) for name in held.names]
        first_in_clause = True
        for i in range(before - 1, low - 1, -1):
            mention = mentions[i]
            in_clause = mention.start >= clause[0]
            if mention.kind == _UNKNOWN:
                if not found and (in_clause or mention.names):
                    return None  # "Hamburg is 17.8 °C": no fact is about the nearest subject
                continue
            if mention.kind == _PRONOUN and not self._resolved.get(mention.start):
                if not found:
                    return None  # "he" after a name no fact is about
                continue
            base = 0.2 if in_clause else 0.5
            if mention.kind == _PRONOUN and object_pronoun(mention):
                base += 0.6
            names = self._names_of(i)
            for rank, name in enumerate(names if mention.kind == _PRONOUN else names[:3]):
                found.append((base + 0.5 * rank, name, mention.start))
            first_in_clause = False
        del first_in_clause
        for i in range(before, len(mentions)):
            mention = mentions[i]
            if mention.start >= sentence[1]:
                break
            if mention.start < quantity.end or mention.kind != _NAMED:
                continue
            base = 1.2 if mention.start < clause[1] else 1.6
            found.extend((base, name, mention.start) for name in mention.names)
        if not any(c < 1.0 for c, _, _ in found) and not self._unknown_in(sentence, quantity.start):
            topic = self._topic(sentence[0])
            found.extend((1.0 + 0.15 * rank, name, -1) for rank, name in enumerate(topic[:2]))
        return found

    def _held(self, low: int, before: int, floor: int) -> Mention | None:
        """The object of "held X to", "limited X to", "forced X into" before a number."""
        text = self.text
        for i in range(before - 1, low - 1, -1):
            mention = self.mentions[i]
            if mention.kind != _NAMED:
                continue
            if _HELD_BEFORE.search(text, max(floor, mention.start - 20), mention.start) and (
                _HELD_AFTER.match(text, mention.end)
            ):
                return mention
            return None
        return None

    def _topic(self, position: int) -> tuple[str, ...]:
        """The subjects named last before ``position``, latest first."""
        i = bisect_left(self._mention_starts, position) - 1
        order: list[str] = []
        while i >= 0 and len(order) < 2:
            mention = self.mentions[i]
            if mention.kind == _NAMED:
                for name in mention.names[:1]:
                    if name not in order:
                        order.append(name)
            elif mention.kind == _UNKNOWN and not order:
                return ()
            i -= 1
        return tuple(order)

    # -- derived values -------------------------------------------------------

    def derived(self, quantity: Quantity, stated: Iterable[Quantity]) -> Derived | None:
        """A difference or sum the text says it computes, checked against the facts."""
        if not self._computes:
            return None
        text = self.text
        sentence = self.structure.sentence(quantity.start)
        window = text[max(sentence[0], quantity.start - 60) : quantity.start]
        after = _DIFFERENCE_AFTER.match(text, quantity.end)
        before = _DIFFERENCE_BEFORE.search(window)
        if after is not None or before is not None:
            found = self._difference(quantity, sentence)
            if found is None or found.matches:
                return found
            # "3 degrees warmer than Munich", "a 12-point win": the text says it is a
            # difference; "1.15% lower" alone may be a change, checked as stated.
            said = before is not None or (
                after is not None
                and (
                    _MARGIN_NOUN.search(after.group()) is not None
                    or _THAN.match(text, after.end()) is not None
                    or _REFERENCE.match(text, after.end()) is not None
                )
            )
            return found if said else None
        if _SUM_WORDS.search(text, max(sentence[0], quantity.start - 40), quantity.end + 20):
            values = [q.value for q in stated if q.start >= sentence[0] and q.kind is quantity.kind]
            if len(values) >= 2:
                total = sum(values, Decimal(0))
                ok = _rounds(total, quantity)
                return Derived("sum", ok, f"the values stated before it sum to {total}")
        return None

    def _difference(self, quantity: Quantity, sentence: tuple[int, int]) -> Derived | None:
        index = self.index
        low = bisect_left(self._mention_starts, sentence[0])
        high = bisect_left(self._mention_starts, sentence[1])
        subjects: list[str] = []
        for i in range(low, high):
            for name in self._names_of(i)[:1]:
                if name not in subjects:
                    subjects.append(name)
        cue = self._adjacent.get(quantity.start)
        attributes = list(cue.names) if cue is not None else []
        if not attributes and quantity.unit is not None:
            attributes = sorted(
                {a for s in subjects if (a := index.attribute_for_unit(s, quantity.unit))}
            )
        if not attributes and len(subjects) >= 2:
            # "0.05 points higher than auth's": what the named subjects both state
            shared = [{a for a, _, _ in index.numeric_facts(s)} for s in subjects[:2]]
            attributes = sorted(shared[0] & shared[1])
        differences: list[tuple[Decimal, str]] = []
        for attribute in attributes:
            owners = [s for s in subjects if index.numeric_value(s, attribute) is not None]
            if len(owners) == 1:
                others = [s for s in index.subjects_of(attribute) if s != owners[0]]
                if len(others) == 1:
                    owners.append(others[0])
            for i, a in enumerate(owners):
                for b in owners[i + 1 :]:
                    va, vb = index.numeric_value(a, attribute), index.numeric_value(b, attribute)
                    if va is None or vb is None:
                        continue
                    differences.append((abs(va - vb), f"{a} {attribute} {va} - {b} {vb}"))
        between = bool(differences)
        for subject in subjects:  # two facts of one subject in one unit: rate - previous
            differences.extend(self._within(subject, quantity))
        if not differences:
            return None
        for value, _ in differences:
            if _rounds(value, quantity) or (quantity.unit != "%" and _rounds(-value, quantity)):
                return Derived("difference", True, "")
        if not between:
            return None  # which two of a subject's facts it computes is a guess: no finding
        shown = "; ".join(f"{d} ({how})" for d, how in differences[:3])
        return Derived("difference", False, f"the facts differ by {shown}")

    def _within(self, subject: str, quantity: Quantity) -> list[tuple[Decimal, str]]:
        """Differences between two numeric facts of ``subject`` stated in one unit
        (rate and previous rate, price and day high) and, for a percentage, their
        relative change."""
        index = self.index
        values = index.numeric_facts(subject)
        found: list[tuple[Decimal, str]] = []
        percent = quantity.unit == "%"
        for i, (a, va, unit_a) in enumerate(values):
            for b, vb, unit_b in values[i + 1 :]:
                if unit_a != unit_b or unit_a in {"%", None}:
                    continue  # counts of different things are not subtracted
                if percent:  # signed: "1.15% higher" is not a fall of 1.15%
                    for base, other in ((vb, va), (va, vb)):
                        if base:
                            change = (other - base) / base * 100
                            found.append((change, f"{subject} {a} vs {b}: {change:.2f}%"))
                elif units_compatible(quantity.unit, unit_a):
                    found.append((abs(va - vb), f"{subject} {a} {va} - {b} {vb}"))
        return found


_ONE = Decimal(1)


def _rounds(value: Decimal, quantity: Quantity) -> bool:
    from vouched._scan._factindex import rounds_to  # noqa: PLC0415 - same stage, keeps the top short

    return any(rounds_to(value, stated, quantity.quantum) for stated in quantity.values)


def _overlaps(spans: list[Mention], starts: list[int], mention: Mention) -> bool:
    i = bisect_left(starts, mention.end)
    return any(spans[j].end > mention.start for j in range(max(0, i - 2), i))


def _dedupe(readings: tuple[Reading, ...]) -> tuple[Reading, ...]:
    seen: set[tuple[str, str]] = set()
    kept: list[Reading] = []
    for reading in readings:
        key = (reading.subject, reading.attribute)
        if key not in seen:
            seen.add(key)
            kept.append(reading)
    return tuple(kept)


_NUMBER_WORDS = frozenset(
    {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve"}
)


def _has_number_word(text: str, start: int, end: int) -> bool:
    return any(w.lower() in _NUMBER_WORDS for w in _GAP_WORDS.findall(text, start, end))


del bisect_right
