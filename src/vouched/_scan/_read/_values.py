"""The values the binding stage reads and produces: what structures force, the structures
of a sentence, readings, derived values, bindings; and :class:`Evidence`, one sentence
as the read stage hands it to the rules
(:func:`~vouched._scan._read._evidence.read_evidence`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from vouched._scan._lex._numbers import Quantity
from vouched._scan._lex._spans import Spans
from vouched._scan._read._sentence import Cue, SentenceRead
from vouched._scan._read._times import Period, Segment, SentenceTime

if TYPE_CHECKING:
    from vouched._scan._read._wordreading import WordReading

__all__ = [
    "MARGIN",
    "UNBOUND",
    "Binding",
    "Denied",
    "Derived",
    "Evidence",
    "Forced",
    "Periods",
    "Read",
    "Reading",
    "Structures",
    "Timed",
    "Weigh",
    "dedupe",
]

MARGIN = 0.45
"""Readings within this cost of the best one are plausible too."""


class Forced(NamedTuple):
    attributes: tuple[str, ...]
    subjects: tuple[str, ...] | None  # None: read the subject from the clause
    mention: int = -1  # the subject mention that bound them, for subject_mismatch
    pair: bool = False  # one half of a pair read from one phrase
    phrase: tuple[int, int] | None = None  # the span of the pair phrase that named them


class Structures(NamedTuple):
    """What spans several quantities of one sentence, read once before any of them is
    bound (:func:`vouched._scan._read._structures.read_structures`) and frozen after."""

    quantities: Sequence[Quantity]  # with those written without digits, in order
    masked: Sequence[tuple[int, int]]  # spans whose numbers are no claims
    forced: Mapping[int, Forced]  # quantity start -> what a structure says it states
    taken: frozenset[int]  # cues right after a number of their own
    partners: Mapping[int, int]  # "113-107": second value -> first, two subjects
    adjacent: Mapping[int, Cue | None]  # quantity start -> the cue right after it
    groups: Mapping[int, int]  # quantity start -> its run of values sharing a cue
    quantity_starts: Sequence[int]

    def in_pair(self, quantity: Quantity) -> bool:
        """Is ``quantity`` one half of a pair read from one phrase ("(33-34)", "9-for-12")?"""
        forced = self.forced.get(quantity.start)
        return forced is not None and forced.pair


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
    for ``subject_mismatch``. ``cue`` is the span of the cue of a clear reading
    (for ``attribute_mismatch``). ``derived`` and ``comparison`` are the quantity's
    evidence read before its rules run (:func:`~vouched._scan._read._binding.evidence`):
    the computed value it states, the comparison a bound is stated with.
    """

    readings: tuple[Reading, ...]
    attribute: str | None
    clear: bool
    mention: int = -1
    derived: Derived | None = None
    firm: bool = False  # one subject named in the sentence, clear attribute: for inconsistency
    subjectless: bool = False  # the text names no subject it could be about
    governed: bool = False  # no attribute word: read from the named subject's facts
    unknown: bool = False  # a name no fact is about governs it ("Cologne is 17.8 °C")
    cue: tuple[int, int] | None = None  # the span of the cue of a clear reading
    comparison: str | None = None  # "over 50 percent": ">" (see _derived.comparison)


UNBOUND = Binding((), None, False)
UNKNOWN_SUBJECT = Binding((), None, False, unknown=True)
"""The binding of a number stated for a subject no fact is about."""


def dedupe(readings: tuple[Reading, ...]) -> tuple[Reading, ...]:
    seen: set[tuple[str, str]] = set()
    kept: list[Reading] = []
    for reading in readings:
        key = (reading.subject, reading.attribute)
        if key not in seen:
            seen.add(key)
            kept.append(reading)
    return tuple(kept)


Denied = Callable[[int, int], bool]
"""Is the word at ``[start, end)`` denied or hedged, so not stated
(:func:`~vouched._scan._read._wordreading.denied` over one sentence)?"""

Weigh = Callable[[Quantity, Binding, Iterable[Quantity]], Binding]
"""A claim's binding with its evidence beside it, over the claims vouched for before it
(:class:`~vouched._scan._read._evidence.Weigher`)."""


class Evidence(NamedTuple):
    """One sentence read, frozen: what every rule family of a sentence reads."""

    sentence: SentenceRead
    structures: Structures
    masks: Spans  # names, placeholders, quotes, relation phrases: nothing in them is a claim
    durations: tuple[tuple[Quantity, Binding], ...]  # durations no cue binds
    claims: tuple[tuple[Quantity, Binding], ...]  # the stated quantities that are claims
    words: tuple[Cue, ...]  # words that state facts, outside placeholders and quotes
    readings: Mapping[tuple[int, int], WordReading]  # each word's reading, by its span
    denied: Denied  # is the word at a span denied or hedged (so not stated)?
    weigh: Weigh  # a claim's evidence beside its binding, over the claims vouched before it


class Timed(NamedTuple):
    """What one sentence says about time, read once (facts valid for periods): its
    time expressions and the weekdays that contradict their dates (``timing``), which
    time governs each stretch (``segments``), and the spans whose digits name a period
    rather than state a value (``masks``: "the 4th", "January 9", a slot's start)."""

    timing: SentenceTime
    segments: list[Segment]
    masks: tuple[tuple[int, int], ...]


Periods = tuple[Period, ...] | None
"""The periods a stretch of a sentence speaks of (``None``: every fact)."""


class Read(NamedTuple):
    """One sentence read: what it says about time (``None``: no fact has a period), an
    Evidence per period it speaks of (one, on every fact, when no fact has a period),
    and its reading (what it hands on)."""

    timed: Timed | None
    views: list[tuple[Periods, Evidence]]
    sentence: SentenceRead
