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
from typing import Final, NamedTuple

from vouched._scan._lex._english import ENGLISH
from vouched._scan._lex._splitter import is_initial

__all__ = [
    "Mention",
    "MentionKind",
    "Structure",
    "is_name",
    "name_modifiers",
    "names_a_subject",
    "not_short_name",
    "read_structure",
]


class MentionKind:
    """What a subject-like mention is (plain ints: compared on the hot path)."""

    NAMED: Final = 0  # a known subject or one of its aliases
    PRONOUN: Final = 1  # he, they, it, the city ...: refers to a subject named before
    UNKNOWN: Final = 2  # a capitalised name that no fact is about


class Mention(NamedTuple):
    start: int
    end: int
    names: tuple[str, ...]  # the subjects (or attributes) it may name; () for UNKNOWN
    kind: int = MentionKind.NAMED


_PRONOUNS = frozenset(ENGLISH["pronouns"])
_OBJECT_PRONOUNS = frozenset(ENGLISH["object_pronouns"])
_REFERENCE_NOUNS = frozenset(ENGLISH["reference_nouns"])
_CONJUNCTIONS = frozenset(ENGLISH["conjunctions"])
_NOT_NAMES = frozenset(ENGLISH["not_names"])
_SUBJECT_VERBS = frozenset(ENGLISH["subject_verbs"])
_DESTINATION = frozenset(ENGLISH["destination_words"])


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


def _structure_pattern() -> re.Pattern[str]:
    pronouns = "|".join(sorted(_PRONOUNS, key=len, reverse=True))
    nouns = "|".join(sorted(_REFERENCE_NOUNS, key=len, reverse=True))
    # The leading lookahead rejects most positions at once (inside words, spaces): the
    # alternation is tried only at marks and word starts (halves read_structure's time).
    return re.compile(
        r"(?=[.!?;\n,()\[\]|\u2013\u2014-]|\b[^\W\d_])"
        r"(?:(?P<end>[.!?](?=\s|$))|(?P<stop>[;\n])|(?P<punct>[,()\[\]|\u2013\u2014])"
        r"|(?P<dash>(?<=\s)-(?=\s))"
        rf"|(?P<pro>(?i:\b(?:{pronouns})\b))"
        rf"|(?P<the>(?i:\bthe\s+(?:{nouns})\b))"
        r"|(?P<cap>\b[^\W\d_a-z][^\W_]*(?:['\u2019][^\W_]+)*"
        r"(?:\s+[^\W\d_a-z][^\W_]*(?:['\u2019][^\W_]+)*)*))"
    )


# One pass finds every token that matters here (sentence and clause marks, pronouns,
# definite references, runs of capitalised words); plain words are skipped in C.
_STRUCTURE = _structure_pattern()
_WORD_BEFORE = re.compile(r"([^\W\d_]+)\W*$")
_WORD_AFTER = re.compile(r"\W*([^\W\d_]+)")
_CAPITAL_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


def read_structure(text: str, known: Sequence[tuple[int, int]]) -> Structure:
    """One pass over the text. ``known`` are the spans of known mentions (subjects,
    attribute phrases, quantities), sorted: capitalised words inside them are not
    unknown names."""
    sentences: list[int] = []
    clauses: list[int] = []
    pronouns: list[Mention] = []
    unknown: list[Mention] = []
    known_starts = [s for s, _ in known]
    sentence_start = 0
    for match in _STRUCTURE.finditer(text):
        group = match.lastgroup
        start, end = match.span()
        if group == "end" and is_initial(text, start, sentence_start):
            continue  # "J. Williams": the splitter's reading of a name's initial
        if group in {"end", "stop"}:
            sentences.append(end)
            clauses.append(end)
            sentence_start = end
        elif group == "punct":
            clauses.append(start if text[start] in "([" else end)
        elif group == "dash":
            if not _next_to_digit(text, start, end):
                clauses.append(end)
        elif group == "pro":
            pronouns.append(Mention(start, end, (match.group().lower(),), MentionKind.PRONOUN))
        elif group == "the":
            pronouns.append(Mention(start, end, ("the",), MentionKind.PRONOUN))
        else:
            i = bisect_right(known_starts, start) - 1
            if i >= 0 and known[i][1] >= end:
                continue  # the common case: a known subject or phrase ("Berlin")
            _capitals(text, match, sentence_start, known_starts, known, unknown)
    return Structure(len(text), sentences, clauses, pronouns, unknown)


def _capitals(  # noqa: PLR0917 - private; the pass's state, in order
    text: str,
    match: re.Match[str],
    sentence_start: int,
    known_starts: list[int],
    known: Sequence[tuple[int, int]],
    unknown: list[Mention],
) -> None:
    """A run of capitalised words outside known mentions is an unknown name when it
    is not a sentence's first common word ("The", "Today")."""
    words = list(_CAPITAL_WORD.finditer(text, *match.span()))
    run: list[re.Match[str]] = []
    for word in [*words, None]:
        if word is not None and not _inside(known_starts, known, word.start()):
            run.append(word)
            continue
        if len(run) > 1 and run[0].group().lower() in _OPENING_WORDS:
            run = run[1:]  # "In Munich it is", "The Norwegian krone": not part of the name
        if run:
            start, end = run[0].start(), run[-1].end()
            first = run[0].group().lower()
            at_start = not text[sentence_start:start].strip(" \t\"'(\u201c")
            before = _WORD_BEFORE.search(text, max(0, start - 20), start)
            after = _WORD_AFTER.match(text, end)
            previous = before.group(1).lower() if before else ""
            following = after.group(1).lower() if after else ""
            if (
                previous in _DESTINATION
                and before is not None
                and _ends_known(text, known_starts, known, before.start(1))
            ):
                run = []  # "ICE 1537 to Munich": the train's destination, no subject
                continue
            if first not in _NOT_NAMES and (
                not at_start
                or len(run) > 1
                or following in _SUBJECT_VERBS
                or previous in {"in", "at", "for"}
            ):
                role = ("subject",) if at_start else ()
                unknown.append(Mention(start, end, role, MentionKind.UNKNOWN))
            run = []


_BE_VERBS = frozenset(
    {"is", "was", "are", "were", "has", "had", "sees", "saw", "stands", "stood", "sits", "sat",
     "feels", "looks", "remains", "s", "\u2019s", "'s"}
)  # fmt: skip


def names_a_subject(text: str, mention: Mention, clause: int, sentence: int) -> bool:
    """Does the name at ``mention`` open its sentence, or a clause after a conjunction
    (``clause``, ``sentence``: where they start), as its subject or place: a subject's
    verb after it ("Cologne is", "while Initech closed", "The Norwegian krone is"), or
    "in"/"at" before it ("In Munich it is")? A name inside a clause ("arrival in Munich
    is", ", at Golden 1 Center", "Hof, Germany will") and a capitalised common word
    ("Shares", "Friday's") govern nothing."""
    if not is_name(text[mention.start : mention.end]):
        return False
    opening = _OPENS_CLAUSE.fullmatch(text, clause, mention.start)
    if opening is None:
        return False
    if clause > sentence and not opening.group("conjunction"):
        return False  # "temperatures in Hof, Germany will ...": an apposition
    if opening.group("place"):
        return True
    after = _TWO_WORDS_AFTER.match(text, mention.end)
    if after is None:
        return False
    first, second = after.group(1), after.group(2) or ""
    # "Cologne is", "Initech closed", "The Norwegian krone is"
    return first.lower() in _SUBJECT_VERBS or (first.islower() and second in _BE_VERBS)


def is_name(text: str) -> bool:
    """Could ``text``, capitalised, name a subject (not "Friday's", "Shares", "The")?"""
    first = text.split(maxsplit=1)[0].lower() if text.strip() else ""
    first = re.sub(r"['\u2019]s$", "", first)
    return first not in _NOT_NAMES and first not in _REFERENCE_NOUNS


_OPENS_CLAUSE = re.compile(
    r"[\s\"'(\u201c,;:\u2013\u2014-]*"
    r"(?:(?P<conjunction>and|but|while|whereas|whilst|although|though|yet|or)\s+)?"
    r"(?:(?P<place>in|at)\s+)?(?:(?:the|a|an)\s+)?",
    re.IGNORECASE,
)
_TWO_WORDS_AFTER = re.compile(r"\W*([^\W\d_]+)(?:\s+([^\W\d_]+))?")
_BE_VERBS = frozenset({"is", "was", "are", "were", "has", "had"})
_OPENING_WORDS = frozenset({"in", "at", "the", "a", "an"})
"""Capitalised words that open a sentence before a name ("In Munich", "The Norwegian krone")."""


def _next_to_digit(text: str, start: int, end: int) -> bool:
    """A " - " next to a number joins its parts: "16 - point", "( 33 - 34 )", "9 - for - 12"."""
    before = text[max(0, start - 3) : start].rstrip()
    after = text[end : end + 3].lstrip()
    return before[-1:].isdigit() or after[:1].isdigit()


def _ends_known(
    text: str, starts: list[int], spans: Sequence[tuple[int, int]], position: int
) -> bool:
    """Does a known mention end right before ``position`` (spaces between)?"""
    end = len(text[:position].rstrip())
    i = bisect_right(starts, end - 1) - 1
    return i >= 0 and spans[i][1] == end


def _inside(starts: list[int], spans: Sequence[tuple[int, int]], position: int) -> bool:
    i = bisect_right(starts, position) - 1
    return i >= 0 and spans[i][1] > position


_CONJUNCTION_BEFORE = re.compile(
    r"\b(?:" + "|".join(sorted(_CONJUNCTIONS)) + r")\s+(?:the\s+)?$", re.IGNORECASE
)


def conjunction_before(text: str, position: int, floor: int) -> int | None:
    """The start of a conjunction ("and", "while") right before ``position``
    (optionally with "the" between), not before ``floor``; else None."""
    match = _CONJUNCTION_BEFORE.search(text, floor, position)
    return match.start() if match else None


def object_pronoun(mention: Mention) -> bool:
    return mention.names[0] in _OBJECT_PRONOUNS


def spans_between(starts: list[int], low: int, high: int) -> tuple[int, int]:
    """Index range of ``starts`` inside [low, high)."""
    a = bisect_left(starts, low)
    return a, bisect_left(starts, high, a)


# one or two capitalised words and a space, right before a name ("the Denver Nuggets")
_NAME_MODIFIER = re.compile(r"(?:[^\W\d_a-z][^\W\d_]*\s){1,2}$")


def name_modifiers(text: str, named: Sequence[Mention]) -> list[tuple[int, int]]:
    """Capitalised words right before a subject's own name (not an alias) are part of
    that name, not a subject of their own: the head of an English name comes last ("the
    Denver Nuggets", "the Phoenix Suns"). Before an alias they are not: "Eric Dragic"
    is no name of Goran Dragic's."""
    spans = []
    for mention in named:
        if text[mention.start : mention.end].casefold() not in {
            n.casefold() for n in mention.names
        }:
            continue
        found = _NAME_MODIFIER.search(text, max(0, mention.start - 40), mention.start)
        if found is not None:
            spans.append((found.start(), mention.start))
    return spans


# a capitalised word and a space right before a position ("Eric Curry")
_FIRST_NAME_BEFORE = re.compile(r"([^\W\d_a-z][^\W\d_]*)\s$")


def not_short_name(
    text: str, lowered: str, hit: tuple[int, int, tuple[str, ...]], short: frozenset[str]
) -> bool:
    """Is a match of a surname or given name alone (``short``) no name: "green" in lower
    case, or a surname after another first name ("Eric Curry" is not Stephen Curry)?"""
    start, end, _ = hit
    if lowered[start:end] not in short:
        return False
    if text[start].islower():
        return True
    before = _FIRST_NAME_BEFORE.search(text, max(0, start - 30), start)
    if before is None or before.group(1).isupper():
        return False  # "MVP Jokic": a title, not a first name
    return is_name(before.group(1))
