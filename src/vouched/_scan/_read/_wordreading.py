"""Reading facts stated in words: who a word speaks about, and whether it is stated.

The word rules (:mod:`vouched._scan._rules._words`) ask the sentence three
things about a word that states a fact (a weekday, a value word, a relation
phrase), each answered here from the sentence's mentions, read once
(:class:`~vouched._scan._read._sentence.SentenceRead`):

- **who**: the subjects named before it in its sentence, nearest first
  (pronouns resolved), then the topic carried from earlier sentences; for a
  comparison also the subject named right after it ("X colder than Y");
- **how tightly**: whether a value word is tied to its subject by linking words
  only ("the Rust course is held online", "Cousins of the Kings", "Kings center
  Cousins"), which is what a string fact's own value needs before it is read as
  that subject's value;
- **whether it is stated at all**: a negation in its clause ("did not beat",
  "isn't online") or a hedge right before it ("one of the coldest", "a near
  triple-double") leaves it unchecked: never a false alarm.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cached_property

from vouched._scan._lex._vocabulary import (
    HEDGE_BEFORE,
    LATER_OCCASION,
    MANNER_OF,
    NEGATION,
    PLACE_AFTER,
    ROLE_NOUNS,
    STATE_LINKS,
)
from vouched._scan._read._mentions import MentionKind
from vouched._scan._read._sentence import SentenceRead, words_between
from vouched._scan._read._subjects import topic_of

__all__ = [
    "LINK_WINDOW",
    "NOBODY",
    "WordReading",
    "denied",
    "later_occasion",
    "linked_subject",
    "manner_of",
    "place_of",
    "subject_after",
    "subject_of",
    "subjects_before",
]

_NAMED = MentionKind.NAMED
_PRONOUN = MentionKind.PRONOUN
_UNKNOWN = MentionKind.UNKNOWN
LINK_WINDOW = 5
"""How many linking words may tie a subject to a word value ("is currently held
online")."""
_HEDGE_REACH = 24  # characters before a phrase where a hedge is read


def subjects_before(ctx: SentenceRead, start: int, *, topic: bool = True) -> list[str] | None:
    """The subjects a word at ``start`` may speak about, nearest first: those named before
    it in its sentence (a pronoun's antecedents), then, with ``topic``, the subjects the
    earlier sentences named last. None when the nearest mention is a name no fact is about
    ("Hamburg is the coldest")."""
    sentence = ctx.structure.sentence(start)
    starts = ctx.mention_starts
    low = bisect_left(starts, sentence[0])
    found: list[str] = []
    for i in range(bisect_left(starts, start) - 1, low - 1, -1):
        mention = ctx.mentions[i]
        if mention.kind == _UNKNOWN:
            if not found and mention.names:
                return None
            continue
        names = ctx.resolved.get(mention.start, ()) if mention.kind == _PRONOUN else mention.names
        if mention.kind == _PRONOUN and not names and not found:
            return []  # "he" before anyone is named: no subject, and no name no fact is about
        for name in names[:1]:
            if name not in found:
                found.append(name)
    if topic:
        for name in topic_of(ctx, sentence[0]):
            if name not in found:
                found.append(name)
    return found


NOBODY = ""
"""What :func:`subject_after` and :func:`subject_of` say for a subject the lexicon names
but no fact is about ("the Calligraphy workshop")."""


def subject_after(ctx: SentenceRead, end: int) -> str | None:
    """The subject named first after ``end`` in its sentence ("colder than Geneva");
    :data:`NOBODY` when that is a name no fact is about."""
    sentence = ctx.structure.sentence(max(0, end - 1))
    starts = ctx.mention_starts
    i = bisect_left(starts, end)
    while i < len(ctx.mentions) and ctx.mentions[i].start < sentence[1]:
        mention = ctx.mentions[i]
        if mention.kind == _NAMED:
            return mention.names[0]
        if mention.kind == _UNKNOWN:
            return NOBODY  # "cheaper than the Calligraphy workshop": no fact is about it
        i += 1
    return None


def subject_of(ctx: SentenceRead, start: int, end: int, *, after: bool = True) -> str | None:
    """The subject a relation phrase at ``[start, end)`` speaks of: the nearest named
    before it in its sentence (a pronoun's antecedent), else, with ``after``, the one
    named after it ("the shortest of them is the watercolour class"), else the topic of
    earlier sentences. :data:`NOBODY` for a subject no fact is about."""
    before = subjects_before(ctx, start, topic=False)
    if before is None:
        return NOBODY
    if before:
        return before[0]
    if after:
        found = subject_after(ctx, end)
        if found is not None:
            return found
    topic = subjects_before(ctx, start)
    return topic[0] if topic else None


def place_of(ctx: SentenceRead, start: int, end: int) -> str | None:
    """The place a condition word at ``[start, end)`` speaks of: the one named right
    after it by "in", "at" or "for" ("sunny in Vienna"), else its subject
    (:func:`subject_of`: named before it, else after it, else the topic).
    :data:`NOBODY` for a name no fact is about."""
    gap = PLACE_AFTER.match(ctx.text, end)
    if gap is not None:
        starts = ctx.mention_starts
        i = bisect_left(starts, gap.end())
        if i < len(starts) and starts[i] == gap.end():
            mention = ctx.mentions[i]
            if mention.kind == _NAMED:
                return mention.names[0]
            if mention.kind == _UNKNOWN:
                return NOBODY
    return subject_of(ctx, start, end, after=True)


def linked_subject(ctx: SentenceRead, start: int, end: int) -> str | None:
    """The subject a word value at ``[start, end)`` qualifies, when linking words alone
    tie them: "X is held online", "X of the Kings", "X (Kings)" (subject first), or
    "the Kings' X", "Kings center X", "Off the bench, X" (value first). None when nothing
    ties it."""
    starts = ctx.mention_starts
    text = ctx.text
    sentence = ctx.structure.sentence(start)
    i = bisect_left(starts, start) - 1
    while i >= 0 and ctx.mentions[i].end > start:  # the value itself may be a name
        i -= 1
    if i >= 0 and ctx.mentions[i].start >= sentence[0]:
        mention = ctx.mentions[i]
        gap = words_between(text, mention.end, start)
        if len(gap) <= LINK_WINDOW and all(w in STATE_LINKS for w in gap):
            names = (
                ctx.resolved.get(mention.start, ()) if mention.kind == _PRONOUN else mention.names
            )
            if mention.kind != _UNKNOWN and names:
                return names[0]
    j = bisect_left(starts, end)
    if j < len(ctx.mentions) and ctx.mentions[j].start < sentence[1]:
        mention = ctx.mentions[j]
        gap = words_between(text, end, mention.start)
        if (
            mention.kind == _NAMED
            and len(gap) <= 3
            and all(w in ROLE_NOUNS or w in {"'", "s", ","} for w in gap)
        ):
            return mention.names[0]
    return None


def denied(ctx: SentenceRead, start: int, end: int) -> bool:
    """Is the word at ``[start, end)`` denied (a negation earlier in its clause) or
    hedged (right before it)? Either way it is not stated, so it is not checked."""
    text = ctx.text
    clause = ctx.structure.clause(start)
    if NEGATION.search(text, clause[0], start):
        return True
    return bool(HEDGE_BEFORE.search(text, max(clause[0], start - _HEDGE_REACH), start))


def later_occasion(ctx: SentenceRead, end: int) -> bool:
    """Does the sentence up to ``end`` speak of a later occasion ("will", "next")?"""
    sentence = ctx.structure.sentence(max(0, end - 1))
    return bool(LATER_OCCASION.search(ctx.text, sentence[0], end))


def manner_of(ctx: SentenceRead, start: int) -> bool:
    """Does a word at ``start`` follow, in its clause, a verb or noun whose manner it may
    describe ("book the class online", "tickets online")?"""
    clause = ctx.structure.clause(start)
    return bool(MANNER_OF.search(ctx.text, clause[0], start))


class WordReading:
    """Who one word that states a fact speaks about, and whether it is stated at all: the
    readers above at the word's own span, each read on first ask and kept (a rule asks
    one or two of them), so the rules read values and call no reader."""

    def __init__(self, sentence: SentenceRead, start: int, end: int) -> None:
        self._sentence = sentence
        self._start = start
        self._end = end

    @cached_property
    def denied(self) -> bool:
        """A negation in its clause or a hedge right before it: never judged."""
        return denied(self._sentence, self._start, self._end)

    @cached_property
    def before(self) -> tuple[str, ...]:
        """The subjects named before it in its sentence, nearest first (no topic)."""
        return tuple(subjects_before(self._sentence, self._start, topic=False) or ())

    @cached_property
    def after(self) -> str | None:
        """The subject named right after it ("X colder than Y")."""
        return subject_after(self._sentence, self._end)

    @cached_property
    def subject(self) -> str | None:
        """Its subject (:func:`subject_of`: named before it, else right after it)."""
        return subject_of(self._sentence, self._start, self._end, after=True)

    @cached_property
    def subject_before(self) -> str | None:
        """Its subject named before it only (:func:`subject_of` with ``after=False``)."""
        return subject_of(self._sentence, self._start, self._end, after=False)

    @cached_property
    def place(self) -> str | None:
        """The place a condition word speaks of (:func:`place_of`)."""
        return place_of(self._sentence, self._start, self._end)

    @cached_property
    def linked(self) -> str | None:
        """The subject it is tied to by linking words alone (:func:`linked_subject`)."""
        return linked_subject(self._sentence, self._start, self._end)

    @cached_property
    def manner(self) -> bool:
        """Does it say how, not what ("book the class online")?"""
        return manner_of(self._sentence, self._start)

    @cached_property
    def later(self) -> bool:
        """Does it speak of a later occasion ("their next game is on Friday")?"""
        return later_occasion(self._sentence, self._end)
