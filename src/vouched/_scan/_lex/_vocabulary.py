"""The words and phrases the readers of a sentence look for, compiled once from data.

The words themselves are data (:data:`vouched._scan._lex._english.ENGLISH`, one family
per key: what a careful English reader treats as one family, linking words between
a cue and its number, fillers after a number, comparison words, ...); here they
become the sets and patterns the readers use, each pattern a structure around
families (no word list is written inside a pattern). The readers (``_cues``,
``_subjects``, ``_structures``, ``_derived``, ``_words``) import from here; nothing
here reads a text.
"""

from __future__ import annotations

import re

from vouched._scan._lex._english import ENGLISH

__all__ = [
    "ARTICLE",
    "ARTICLE_VALUES",
    "AT_LEAST",
    "AT_MOST",
    "AT_WORDS",
    "BELOW",
    "BELOW_ZERO",
    "BRACKET_AFTER",
    "CENTS",
    "COMPARE_WORDS",
    "COMPARISON",
    "CONNECTIVE",
    "COUNT_SOURCE",
    "DIFFERENCE_AFTER",
    "DIFFERENCE_AFTER_KEYS",
    "DIFFERENCE_BEFORE",
    "DIFFERENCE_BEFORE_KEYS",
    "DIGIT",
    "EACH_AFTER",
    "EACH_BEFORE",
    "EXTREME_BEFORE",
    "FALL_AFTER",
    "FALL_BEFORE",
    "FALL_CHAIN",
    "FILLER_AFTER",
    "FROM_NOW_BEFORE",
    "GAP_WORDS",
    "GROUP_OPENS",
    "HEDGE_BEFORE",
    "HELD_AFTER",
    "HELD_BEFORE",
    "HOURS_THEN_MINUTES",
    "INFORMATION_AFTER",
    "JOURNEY_AFTER",
    "JOURNEY_BEFORE",
    "LATER_OPPONENT",
    "LEVEL_LINK",
    "LINKING",
    "LINK_MARKS",
    "LIST_JOIN",
    "MARGIN_NOUN",
    "MINUS_MARK",
    "MOVE_WORDS",
    "NEGATION",
    "ORDINAL_BEFORE",
    "OTHER_OCCASION",
    "OWN_AFTER",
    "OWN_VALUE_GAP",
    "PAIR_GAP",
    "PER_AFTER",
    "PLACE_AFTER",
    "REFERENCE",
    "RESPECTIVELY",
    "ROLE_NOUNS",
    "SAME_VALUE_PHRASES",
    "STANDING",
    "STANDING_KEYS",
    "STATE_LINKS",
    "SUBJECT_JOIN",
    "SUM_KEYS",
    "SUM_WORDS",
    "THAN",
    "TOTAL_AFTER",
    "TOTAL_BEFORE",
    "VAGUE_AMOUNT",
    "VAGUE_AMOUNTS",
    "VALUE_JOIN",
    "VALUE_PLACE_BEFORE",
    "WEEKDAYS",
    "WHEN_AFTER",
    "WORD_AFTER",
    "ZONE_AFTER",
    "ZONE_HOURS",
    "computes",
    "extreme_before",
    "folded",
    "holds_key",
    "may_compute",
    "words_between",
]

DIGIT = re.compile(r"\d")


def _phrase(word: str) -> str:
    """One word or phrase as a pattern: a space is any whitespace, a trailing period
    optional ("vs." reads "vs" too)."""
    optional_period = word.endswith(".") and len(word) > 1
    core = word[:-1] if optional_period else word
    return r"\s+".join(re.escape(part) for part in core.split(" ")) + (
        r"\.?" if optional_period else ""
    )


def _any(family: str) -> str:
    """A family of :data:`~vouched._scan._lex._english.ENGLISH` as one alternation, in order."""
    return "|".join(_phrase(word) for word in ENGLISH[family])


def _set(family: str) -> frozenset[str]:
    return frozenset(ENGLISH[family])


def _keys(*families: str) -> tuple[str, ...]:
    """The longest word of each phrase of ``families``: every match of the phrase holds it,
    so a text holding none of them holds no match (an exact gate)."""
    keys = (max(word.rstrip(".").split(" "), key=len) for f in families for word in ENGLISH[f])
    return tuple(dict.fromkeys(keys))


LINKING = _set("linking")
AT_WORDS = _set("at_words")
"""Words that may follow a number without making it about something else."""
LINK_MARKS = frozenset({":", "=", "~", "\u2248"})
FILLER_AFTER = _set("filler_after")
HELD_BEFORE = re.compile(rf"\b(?:{_any('held_verbs')})\s+(?:the\s+)?$", re.I)
HELD_AFTER = re.compile(rf"(?:\s*\(.*?\))?\s+(?:{_any('held_to')})\b", re.I)
WORD_AFTER = re.compile(r"\s*[^\W\d_]")
WHEN_AFTER = re.compile(rf"\s*(?:{_any('times_after')})\b", re.IGNORECASE)
"""Words after a number that say when, not what ("1.0842 today", "at 7 °C right now",
"0.8571 at the moment"): the number is still its subject's."""
BRACKET_AFTER = re.compile(r"\s*[(\[]\s*(?:the\s+)?", re.IGNORECASE)
PLACE_AFTER = re.compile(rf"\s*(?:{_any('value_places')})\s+(?:the\s+)?", re.IGNORECASE)
"""The words between a value and the place or subject it is stated for ("21 °C in Munich")."""
VALUE_PLACE_BEFORE = re.compile(
    rf"[\d%°$€£¥]\s*(?:[^\W\d_]{{1,5}}(?:/[^\W\d_]{{1,2}})?\s*)?(?:{_any('value_places')})\s+(?:the\s+)?$",
    re.IGNORECASE,
)
"""A value and its unit right before a subject it is stated for ("21.4 °C in Berlin")."""
CONNECTIVE = re.compile(rf"\s*(?:{_any('connectives')})\s+(?:the\s+)?", re.IGNORECASE)
OWN_VALUE_GAP = re.compile(rf"\s*:?\s*(?:(?:{_any('own_value_links')})\s+)?", re.IGNORECASE)
"""The gap between a name and a number right after it that is the name's own."""
GAP_WORDS = re.compile(r"[^\W_]+|[^\w\s]", re.UNICODE)


def words_between(text: str, start: int, end: int) -> list[str]:
    """The words (and punctuation marks) of ``text[start:end]``, lower-cased."""
    return [w.lower() for w in GAP_WORDS.findall(text, start, end)]


PAIR_GAP = re.compile(
    rf"\s*(?:[-\u2013\u2014]|to)\s*|\s*-?\s*(?:{_any('pair_words')})\s*-?\s*", re.I
)
VALUE_JOIN = re.compile(rf"\s*(?:,\s*(?:and\s+)?|\s(?:{_any('value_joins')})\s)\s*", re.I)
SUBJECT_JOIN = re.compile(
    rf"\s*(?:,\s*(?:and\s+)?|\s(?:{_any('subject_joins')})\s"
    rf"|\s+(?:{_any('comparing_verbs')})?\s*(?:\w+er|more\s+\w+|less\s+\w+)\s+than\s+)\s*",
    re.I,
)
RESPECTIVELY = re.compile(r"\s*,?\s*(?:\(\s*)?respectively\b", re.I)
ARTICLE = re.compile(rf"(?:^|(?<=\W))({_any('articles')})\s+$", re.I)
ARTICLE_VALUES = {"a": 1, "an": 1, "one": 1, "a single": 1, "a pair of": 2, "a couple of": 2}
VAGUE_AMOUNT = re.compile(rf"\b({_any('vague_amounts')})\s+({_any('vague_units')})\b", re.I)
"""A vague amount of time ("a few minutes", "several hours"): a claim of a small amount."""
SAME_VALUE_PHRASES = (ENGLISH["on_time"],)
"""Groups of phrases that state one value (a lexicon's value for one is each one's)."""
FROM_NOW_BEFORE = re.compile(rf"\b(?:{_any('from_now_before')})\s+$", re.I)
"""Before an amount of time, a wait or a span, not a delay ("leaves in a few minutes")."""
VAGUE_AMOUNTS = {
    "a few": range(2, 8),
    "a couple of": range(1, 4),
    "a couple": range(1, 4),
    "several": range(3, 16),
    "a handful of": range(3, 7),
}
"""The amounts a reader allows each vague word (lenient: "a few" up to 7)."""
# A journey's length ("a journey of 1 hour 43 minutes", "a 95-minute trip").
JOURNEY_BEFORE = re.compile(
    rf"\b(?:{_any('journey_words')})(?:\s+(?:{_any('journey_links')}))*\s*$", re.I
)
JOURNEY_AFTER = re.compile(rf"[\s-]*(?:long\s+)?(?:{_any('journey_words')})\b", re.I)
HOURS_THEN_MINUTES = re.compile(r"\s*,?\s*(?:and\s+)?")
"""The gap between the hours and the minutes of one duration ("1 hour 43 minutes")."""
# Derived values: a difference ("a 12-point win", "3 degrees warmer", "led by 12").
DIFFERENCE_AFTER = re.compile(
    r"\s*(?:[-\u2013]\s*)?(?:[^\W\d_]+\s*(?:[-\u2013]\s*)?)?"
    rf"(?:{_any('difference_after')}"
    rf"|(?:{_any('since_words')})\s+(?:(?:{_any('reference_articles')})\s+)?"
    rf"(?:{_any('earlier_words')}))\b",
    re.I,
)
DIFFERENCE_BEFORE = re.compile(
    rf"\b(?:{_any('difference_before')})\s+(?:\w+\s+){{0,3}}?"
    rf"(?:{_any('by_words')})\s+(?:(?:{_any('only_words')})\s+)?$",
    re.I,
)
COMPARISON = re.compile(rf"\b(?P<op>{_any('comparisons')})\s+$", re.I)
EXTREME_BEFORE = (
    ("_max", re.compile(rf"\b(?:{_any('highest_before')})\s*$", re.I)),
    ("_min", re.compile(rf"\b(?:{_any('lowest_before')})\s*$", re.I)),
)
"""Words right before a number that name a period's maximum or minimum, with the
suffix of the attribute they read ("gusts of up to 12 m/s": ``wind_gust_max``)."""
TOTAL_BEFORE = re.compile(rf"\b(?:{_any('total_before')})\s*$", re.I)
TOTAL_AFTER = re.compile(rf"\s*(?:[\w-]+\s+){{0,3}}?(?:{_any('total_after')})\b", re.I)
"""Words before (right before) or after (within three words) a number that state a
sum over its period: "a total of 7 mm", "7 mm of rain in total"."""
_EXTREME_LAST = frozenset(
    phrase.rsplit(" ", 1)[-1] for family in ("highest_before", "lowest_before")
    for phrase in ENGLISH[family]
)  # fmt: skip
_EXTREME_SECOND = tuple(
    dict.fromkeys(
        phrase.split(" ")[-2] for family in ("highest_before", "lowest_before")
        for phrase in ENGLISH[family]
    )
)  # fmt: skip


def extreme_before(before: str) -> str | None:
    """The suffix (``"_max"``, ``"_min"``) of the extreme the words ending ``before``
    name, or None. An exact gate first: every phrase ends on one of a few words ("at",
    "to": most numbers pass that), the word before them ends on one of a few more (the
    second gate spares two searches for ~1% of an answer's scan)."""
    words = before.rstrip().rsplit(None, 2)
    if len(words) < 2 or words[-1].lower() not in _EXTREME_LAST:
        return None
    if not folded(words[-2]).endswith(_EXTREME_SECOND):
        return None
    return next((suffix for suffix, pattern in EXTREME_BEFORE if pattern.search(before)), None)


BELOW = _set("below")
AT_MOST = _set("at_most")
AT_LEAST = _set("at_least")
# Sign words a reader applies to a number: "1.15% lower", "3 degrees below zero", "gave up $2".
MOVE_WORDS = _set("move_words")
INFORMATION_AFTER = re.compile(rf"\s+(?:{_any('information_nouns')})\b", re.I)
# "to" / "from" (a currency sign allowed) right before a number: the level a move reached
LEVEL_LINK = re.compile(rf"\b(?:{_any('level_links')})\s+(?:US\$|[$€£¥₹]\s?)?$", re.I)
FALL_AFTER = re.compile(rf"\s*(?:{_any('fall_after')})\b", re.I)
FALL_BEFORE = re.compile(
    rf"\b(?:{_any('fall_before')})"
    rf"\s+(?:(?:{_any('fall_by')})\s+)?(?:(?:{_any('fall_hedges')})\s+)?$",
    re.I,
)
# "down $2.18, or 1.15%": the sign word governs the restatement after "or"
FALL_CHAIN = re.compile(rf"\b(?:{_any('fall_chain')})\s+[^,;\n]{{1,24}}?,?\s+or\s+$", re.I)
MINUS_MARK = re.compile(r"(?:^|[\s(\[])[-\u2212]$")  # "(-$2.18)": a sign the reader left out
CENTS = re.compile(rf"\s*(?:{_any('cents')})\b", re.I)
BELOW_ZERO = re.compile(
    rf"\s*(?:(?:{_any('degree_words')})\s+)?below\s+(?P<zero>{_any('zero_words')})\b", re.I
)
MARGIN_NOUN = re.compile(rf"\b(?:{_any('margin_nouns')})\b", re.I)
REFERENCE = re.compile(rf"\s+(?:{_any('references')})\b", re.I)  # "below its high"
THAN = re.compile(r"\s+(?:\w+\s+){0,2}?than\b", re.I)
SUM_WORDS = re.compile(rf"\b(?:{_any('sum_words')})\b", re.I)
# A count for every subject of a list: "A and B each scored two", "two goals apiece".
EACH_AFTER = re.compile(rf"\s+(?:{_any('each_words')})\b", re.I)
EACH_BEFORE = re.compile(rf"\s+(?:{_any('each_words')})(?:\s+[^\W\d_]+){{0,3}}\s+", re.I)
# A count handed to a list: "three goals from A, B and C" (the list joined as subjects).
COUNT_SOURCE = re.compile(rf"\s+(?:{_any('count_sources')})\s+", re.I)
LIST_JOIN = re.compile(rf"\s*(?:,\s*(?:and\s+)?|\s(?:{_any('subject_joins')})\s)\s*", re.I)

# Exact gates of the three patterns above, on the sentence folded as the patterns'
# IGNORECASE folds it: every match of a pattern holds the longest word of one of its
# phrases (a cheap substring test first), and holds it followed by a word boundary
# (DIFFERENCE_AFTER's phrases all end on one, each word before the last is followed by
# whitespace), followed by whitespace (DIFFERENCE_BEFORE: searched in a window whose start
# may cut a word, so no leading boundary is asked), or preceded by one (SUM_WORDS: searched
# up to an end that may cut a word). So a sentence the gate refuses holds no match;
# tests/scan/test_scan_gates.py holds the claim.
DIFFERENCE_AFTER_KEYS = _keys("difference_after", "earlier_words")
DIFFERENCE_BEFORE_KEYS = _keys("difference_before")
SUM_KEYS = _keys("sum_words")
_AFTER_GATE = re.compile("(?:" + "|".join(map(re.escape, DIFFERENCE_AFTER_KEYS)) + r")\b")
_BEFORE_GATE = re.compile("(?:" + "|".join(map(re.escape, DIFFERENCE_BEFORE_KEYS)) + r")\s")
_SUM_GATE = re.compile(r"\b(?:" + "|".join(map(re.escape, SUM_KEYS)) + ")")
# IGNORECASE matches four letters beyond ASCII to ASCII ones; str.lower() does not
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
_FOLDS = ("\u0130", "\u0131", "\u017f", "\u212a")


def folded(text: str) -> str:
    """``text`` lower-cased as IGNORECASE compares an ASCII pattern with it."""
    # translate() reads a dict per character (~13 us a sentence): only where it changes
    if any(map(text.__contains__, _FOLDS)):
        text = text.translate(_FOLD)
    return text.lower()


def may_compute(text: str) -> bool:
    """Does ``text`` hold a key of any of the three patterns? (No: none of its parts
    holds a match; a cheap test of a whole batch of sentences.)"""
    low = folded(text)
    keys = (DIFFERENCE_AFTER_KEYS, DIFFERENCE_BEFORE_KEYS, SUM_KEYS)
    return any(holds_key(low, family) for family in keys)


def computes(text: str) -> tuple[bool, bool, bool]:
    """May ``text`` hold a match of DIFFERENCE_AFTER, DIFFERENCE_BEFORE, SUM_WORDS? (No
    means none; see the gates above.)"""
    low = folded(text)
    return (
        holds_key(low, DIFFERENCE_AFTER_KEYS) and _AFTER_GATE.search(low) is not None,
        holds_key(low, DIFFERENCE_BEFORE_KEYS) and _BEFORE_GATE.search(low) is not None,
        holds_key(low, SUM_KEYS) and _SUM_GATE.search(low) is not None,
    )


def holds_key(text: str, keys: tuple[str, ...]) -> bool:
    """Does ``text`` (already :func:`folded`) hold one of ``keys``?"""
    return any(map(text.__contains__, keys))


COMPARE_WORDS = _set("compare_words")


# -- facts stated in words (vouched._scan._read._wordreading) ------------------------------------

WEEKDAYS = {
    day: number
    for number, name in enumerate(ENGLISH["weekdays"])
    for day in (name, name + "s")  # "meets on Thursdays"
}
"""Weekday names (and their plurals) by ISO weekday - 1: Monday is 0."""

NEGATION = re.compile(rf"\b(?:{_any('negations')}|\w+n[\'\u2019]t)\b", re.IGNORECASE)
"""A statement in words after one of these in its clause is denied or missed, not
stated: "did not beat", "isn't held online", "fell short of a double-double"."""

HEDGE_BEFORE = re.compile(
    rf"\b(?:{_any('hedges')})(?:\s+(?:{_any('hedge_articles')}))?\s*$", re.IGNORECASE
)
"""Words right before a relation phrase that hedge it ("one of the coldest", "a near
triple-double"): the relation is not stated."""

STATE_LINKS = _set("state_links")
"""Words that may stand between a subject and a word value that states its fact
("the Rust course is held online", "Cousins of the Kings", "Kings' Cousins")."""

ROLE_NOUNS = _set("role_nouns")
"""Nouns that may stand between a word value and the subject it qualifies ("Kings
center DeMarcus Cousins")."""

PER_AFTER = re.compile(r"\s*per\s+(?:one\s+|a\s+|each\s+)?[^\W\d_]+\b", re.IGNORECASE)
"""A rate's denominator right after a number ("11.5 per euro"): when a clause's end or
a word of when follows it, the number is still a value of its subject, not a count."""

ZONE_HOURS: dict[str, int] = {
    "utc": 0, "gmt": 0, "wet": 0, "west": 1, "bst": 1, "cet": 1, "cest": 2, "eet": 2,
    "eest": 3, "msk": 3, "est": -5, "edt": -4, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
    "jst": 9, "kst": 9, "aest": 10, "aedt": 11,
}  # fmt: skip
"""Time-zone abbreviations with one fixed offset from UTC, in hours ("16:00 CET" is
15:00 UTC); ambiguous ones (CST, IST) are left out."""
ZONE_AFTER = re.compile(rf"\s*(?:({'|'.join(ZONE_HOURS)}))\b", re.IGNORECASE)
"""A time-zone abbreviation right after a time."""

OTHER_OCCASION = re.compile(rf"\b(?:{_any('other_occasion')})\b|\w['\u2019]ll\b", re.IGNORECASE)
"""Words that put a statement on another occasion than the present one ("it was 4
yesterday", "tomorrow it climbs to 4", "it'll be 6"): a value then does not contradict
a value now."""

LATER_OCCASION = re.compile(rf"\b(?:{_any('later_occasion')})\b|\w[\'\u2019]ll\b", re.IGNORECASE)
"""Words that move a sentence to a later occasion ("will host", "their next game", "head
back home"): where every date the facts give had passed when observed (a box score), a
weekday or a value word in such a sentence is about another occasion than the facts'."""

OWN_AFTER = re.compile(rf"\s+(?:{_any('own_after')})\b", re.IGNORECASE)
"""After a number whose noun is left out: "12 of their own" (the noun named before)."""

STANDING = re.compile(
    rf"\b(?:{_any('ordinals')}|{_any('standing_ranks')}|\d+(?:{_any('ordinal_suffixes')}))"
    rf"(?:\s*-\s*|\s+)(?:{_any('standing_nouns')})\b",
    re.IGNORECASE,
)
"""A place in a season's table ("third place", "the seventh seed", "8th seed"): the
standings, which a game's facts do not hold."""
STANDING_KEYS = _keys("standing_nouns")
"""An exact gate of :data:`STANDING`: every match holds one of its nouns."""

LATER_OPPONENT = re.compile(rf"\b(?:{_any('later_opponent')})\s+(?:the\s+)?$", re.IGNORECASE)
"""The words right before the opponent (or the place) of a later occasion ("will host
the", "travel to"): matched against the text that ends where the name starts."""

MANNER_OF = re.compile(rf"\b(?:{_any('manner_of')})\b", re.IGNORECASE)
"""Verbs and nouns whose manner a value word may describe instead of its subject: "book
the pottery class online" says how to book, not where the class is held."""

GROUP_OPENS = re.compile(rf"\s+(?:{_any('group_determiners')})\s+", re.IGNORECASE)
"""Where a rank phrase turns from its verb to the group it ranks in ("led | the second
unit", "led | all scorers"): a reader marks the verb when the rank is wrong, the group
when the subject is not of it."""

ORDINAL_BEFORE = re.compile(
    rf"\b(?:{_any('ordinals')}|\d+(?:{_any('ordinal_suffixes')}))\s+$", re.IGNORECASE
)
"""An ordinal right before a phrase ("his second double-double"): it counts what the
phrase states."""
