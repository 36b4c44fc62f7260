"""Which attribute a quantity states: the cue that governs it, strict about the attribute.

The phrase right after it ("8 points", "63% humidity": cost 0, clear); a phrase
before it joined by linking words ("winds of 15", "the rate for EUR/GBP is
1.0842": clear); its unit when only one attribute of its subjects is stated in
that unit ("21 °C": clear); a phrase elsewhere in its clause or sentence (a
guess: never enough for a mismatch). Kind and unit are hard constraints. A word
right after the number that is no cue ("40% chance of rain") blocks the guess
from the unit. A bare number stated for a named subject reads that subject's
facts of its kind (``governed_attributes``).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from vouched._scan._lex._numbers import Quantity, QuantityKind
from vouched._scan._lex._vocabulary import (
    FILLER_AFTER,
    GAP_WORDS,
    LEVEL_LINK,
    LINK_MARKS,
    LINKING,
    MOVE_WORDS,
    PER_AFTER,
    WHEN_AFTER,
    WORD_AFTER,
    extreme_before,
)
from vouched._scan._read._mentions import MentionKind
from vouched._scan._read._sentence import Cue, SentenceRead, words_between
from vouched._scan._read._subjects import WINDOW, names_of
from vouched._scan._read._values import Structures

__all__ = [
    "AttributeReading",
    "attribute_readings",
    "claimed_between",
    "cue_after",
    "gap_words",
    "governed_attributes",
    "leads_on",
    "linked_before",
    "noun_after",
    "unit_attributes",
    "unit_guess",
]

_NAMED = MentionKind.NAMED


AttributeReading = tuple[float, tuple[str, ...], bool]
"""(cost, attribute names, clear): one attribute a quantity may state."""

_Found = tuple[float, tuple[str, ...], bool, tuple[int, int] | None]


def attribute_readings(
    ctx: SentenceRead,
    st: Structures,
    quantity: Quantity,
    sentence: tuple[int, int],
    clause: tuple[int, int],
) -> tuple[list[AttributeReading], tuple[int, int] | None]:
    """The attribute cues that could govern ``quantity``, cheapest first, and the span of
    the cue of a clear reading (for ``attribute_mismatch``)."""
    right_after, blocked = _cue_right_after(ctx, st, quantity, clause)
    if right_after is not None:
        return _chosen([right_after])
    found = _cue_before(ctx, st, quantity, clause)
    if not found or found[0][0] > 0:
        found.extend(_cue_later(ctx, st, quantity, clause))
    if not blocked and quantity.unit is not None and not any(c for _, _, c, _ in found):
        found.extend((*g, None) for g in unit_guess(ctx, quantity, sentence))
    if not found:
        found.extend(_nearest_phrase(ctx, st, quantity, sentence))
    readings, span = _chosen(found)
    return _extreme_named(ctx, quantity, readings), span


_EXTREME_REACH = 32  # characters before a number where its extreme words are read


def _extreme_named(
    ctx: SentenceRead, quantity: Quantity, readings: list[AttributeReading]
) -> list[AttributeReading]:
    """ "gusts of up to 12 m/s", "temperatures climbing to 9 °C": words right before the
    number that name the period's maximum (minimum) keep, of each reading's attributes,
    the period's extremes (``wind_gust_max``), when it has them: one slot's value does
    not vouch for the period's highest."""
    if not readings:
        return readings
    suffix = extreme_before(ctx.text[max(0, quantity.start - _EXTREME_REACH) : quantity.start])
    if suffix is None:
        return readings
    return [
        (cost, tuple(n for n in names if n.endswith(suffix)) or names, clear)
        for cost, names, clear in readings
    ]


def _chosen(found: list[_Found]) -> tuple[list[AttributeReading], tuple[int, int] | None]:
    """The cheapest readings (within 0.1 of the best), and the best clear one's cue span."""
    found.sort(key=lambda item: item[0])
    if not found:
        return [], None
    floor = found[0][0]
    kept = [item for item in found if item[0] <= floor + 0.1]
    span = kept[0][3] if kept[0][2] else None
    return [(cost, names, clear) for cost, names, clear, _ in kept], span


def _cue_right_after(
    ctx: SentenceRead, st: Structures, quantity: Quantity, clause: tuple[int, int]
) -> tuple[_Found | None, bool]:
    """The noun right after the number decides ("8 points"); a cue of another kind there
    blocks guessing from the unit ("40% chance of rain"). (reading, blocked)."""
    after = st.adjacent.get(quantity.start)
    if (
        after is not None
        and quantity.unit is not None  # "two steals on 11-of-26": a bare count owns its noun
        and leads_on(ctx, st.quantity_starts, after)
        and linked_before(ctx, quantity, clause)
    ):
        after = None  # "winds of 15 km/h gusting to 32": "gusting" is the next number's
    if after is None:
        return None, noun_after(ctx, quantity)
    accepts = ctx.facts.accepts
    names = tuple(n for n in after.names if accepts(n, quantity))
    if not names and after.start < quantity.end and quantity.unit is not None:
        # the phrase is the unit ("27 minutes" for unitless MIN facts)
        bare = quantity._replace(unit=None)
        names = tuple(n for n in after.names if accepts(n, bare))
    if names:
        return (0.0, names, True, (after.start, after.end)), False
    return None, True


def _cue_before(
    ctx: SentenceRead, st: Structures, quantity: Quantity, clause: tuple[int, int]
) -> list[_Found]:
    """A cue before the number in its clause, joined by linking words ("winds of 15",
    "humidity is 63%", a named subject between: "the rate for EUR/GBP is 1.0842")."""
    accepts = ctx.facts.accepts
    low = bisect_left(ctx.cue_starts, clause[0])
    high = bisect_left(ctx.cue_starts, quantity.start, low)
    for i in range(high - 1, low - 1, -1):
        cue = ctx.cues[i]
        if cue.end > quantity.start:
            continue
        names = tuple(n for n in cue.names if accepts(n, quantity))
        if not names:
            continue
        if claimed_between(st, cue.end, quantity) or cue.start in st.taken:
            return []  # "one steal and one block": "steal" has its own number
        if _level_after_move(ctx.text, cue, quantity):
            return []  # "fell 1.36% to $418.32", "down from $424.10": a level, not the move
        gap = [w for w in gap_words(ctx, cue.end, quantity.start) if w not in LINK_MARKS]
        odd = sum(w not in LINKING for w in gap)
        if len(gap) <= 6 and odd <= 2 and all(w.isalpha() for w in gap):
            # "winds of 15", "the wind is light at 8 km/h" (one describing word)
            return [(0.3 + 0.05 * len(gap) + 0.2 * odd, names, True, (cue.start, cue.end))]
        return [(1.0, names, False, None)]
    return []


def _level_after_move(text: str, cue: Cue, quantity: Quantity) -> bool:
    """Is ``quantity`` the level a move reached or left: the cue is a word of a move and
    "to" or "from" stands right before the number ("fell 1.36% to $418.32", "down from
    $424.10")? The move's own size is the number right after the move word."""
    if " ".join(text[cue.start : cue.end].lower().split()) not in MOVE_WORDS:
        return False
    return LEVEL_LINK.search(text, max(cue.end, quantity.start - 12), quantity.start) is not None


def _cue_later(
    ctx: SentenceRead, st: Structures, quantity: Quantity, clause: tuple[int, int]
) -> list[_Found]:
    """A cue a few linking words after the number ("63 percent humidity")."""
    later = cue_after(ctx, quantity, clause[1], linking=3)
    if later is None or later is st.adjacent.get(quantity.start):
        return []
    if leads_on(ctx, st.quantity_starts, later):
        return []  # "$418.32, a drop of $5.78": the cue has its own number after it
    names = _stated(ctx, later, quantity)
    return [(0.6, names, True, (later.start, later.end))] if names else []


def _stated(ctx: SentenceRead, cue: Cue, quantity: Quantity) -> tuple[str, ...]:
    """The names of a cue away from its number that fit it: only attributes some fact
    states (a named attribute no fact states claims only the number it governs)."""
    known = ctx.facts.attributes
    return tuple(n for n in cue.names if n in known and ctx.facts.accepts(n, quantity))


def _nearest_phrase(
    ctx: SentenceRead, st: Structures, quantity: Quantity, sentence: tuple[int, int]
) -> list[_Found]:
    """The nearest fitting phrase earlier in the sentence: a guess."""
    low = bisect_left(ctx.cue_starts, sentence[0])
    high = bisect_left(ctx.cue_starts, quantity.start, low)
    for i in range(high - 1, low - 1, -1):
        cue = ctx.cues[i]
        names = _stated(ctx, cue, quantity)
        if names and not claimed_between(st, cue.end, quantity):
            return [(1.4, names, False, None)]
    return []


def unit_guess(
    ctx: SentenceRead, quantity: Quantity, sentence: tuple[int, int]
) -> list[tuple[float, tuple[str, ...], bool]]:
    """The attribute a unit names: clear when one attribute of the subjects named
    in the sentence is stated in it ("Berlin is 21 °C"); when the subject named in the
    quantity's clause states several in it, one of those ("Munich is 5.9 °C": its
    temperature or its feels-like, and neither is 5.9); a guess otherwise."""
    index = ctx.facts
    low = bisect_left(ctx.mention_starts, sentence[0])
    high = bisect_left(ctx.mention_starts, sentence[1])
    here = bisect_left(ctx.mention_starts, quantity.start, low, high)
    clause = ctx.structure.clause(quantity.start)
    # a sentence naming no attribute at all: a bare value is one of its subject's own
    bare = bisect_left(ctx.cue_starts, sentence[0]) == bisect_left(ctx.cue_starts, sentence[1])
    names: set[str] = set()
    seen: set[str] = set()
    several: set[str] = set()  # a subject's attributes sharing the unit
    for i in range(max(low, here - WINDOW), min(high, here + WINDOW)):
        for subject in names_of(ctx, i)[:1]:
            if subject in seen:
                continue
            seen.add(subject)
            name = index.attribute_for_unit(subject, quantity.unit)
            if name is not None:
                names.add(name)
            elif bare and clause[0] <= ctx.mentions[i].start < clause[1]:
                several.update(index.attributes_for_unit(subject, quantity.unit))
    if len(names) == 1 and not several:
        return [(0.3, tuple(names), True)]
    if several:
        # "Munich is 5.9 °C": its temperature or its feels-like; one of them must hold
        # (beside another city that states one: "and Hamburg 4.3 °C", its temperature)
        return [(0.6, tuple(sorted(several | names)), True)]
    if not names:
        name = index.attribute_for_unit(None, quantity.unit)
        if name is not None:
            return [(0.9, (name,), False)]
        return []
    return [(0.9, tuple(sorted(names)), False)]


def unit_attributes(
    ctx: SentenceRead, quantity: Quantity, subjects: list[str]
) -> list[tuple[float, tuple[str, ...], bool]]:
    found: list[tuple[float, tuple[str, ...], bool]] = []
    for subject in subjects:
        name = ctx.facts.attribute_for_unit(subject, quantity.unit)
        if name is not None:
            found.append((0.3, (name,), True))
    return found


def governed_attributes(
    ctx: SentenceRead, quantity: Quantity, subjects: list[tuple[float, str, int]]
) -> list[tuple[float, tuple[str, ...], bool]]:
    """A number with no attribute word, stated for a subject named in its sentence
    ("EUR/GBP is 1.0842"): the subject's facts of the number's kind and unit are its
    readings; one such fact is a clear reading."""
    if (
        quantity.soft
        or quantity.unit is not None
        or quantity.kind is not QuantityKind.NUMBER
        or not subjects
        or _word_after(ctx, quantity)  # "3 stations": the number counts something else
    ):
        return []
    best = min(cost for cost, _, _ in subjects)
    if best > 0.2:  # a subject of another clause, the topic, a later mention
        return []
    found: list[tuple[float, tuple[str, ...], bool]] = []
    for cost, subject, _ in subjects:
        if cost > best:
            continue
        names = ctx.facts.fitting_attributes(subject, quantity.kind, quantity.unit)
        if names:
            found.append((0.4 if len(names) == 1 else 0.6, tuple(names), len(names) == 1))
    return found


def _word_after(ctx: SentenceRead, quantity: Quantity) -> bool:
    """Is ``quantity`` followed by a word ("3 stations", "0.9312 Swiss francs") other than
    one that says when ("1.0842 today", "at 1.0842 right now", "this morning") or the
    unit a rate is per ("11.5 per euro")?"""
    text, end = ctx.text, quantity.end
    if WORD_AFTER.match(text, end) is None or WHEN_AFTER.match(text, end) is not None:
        return False
    per = PER_AFTER.match(text, end)
    if per is None:
        return True
    rest = text[per.end() : per.end() + 1]
    return not (
        rest in {"", ".", ",", ";", ":", "!", "?", ")"} or WHEN_AFTER.match(text, per.end())
    )


def cue_after(
    ctx: SentenceRead,
    quantity: Quantity,
    limit: int,
    *,
    linking: int,
    words: frozenset[str] = LINKING,
) -> Cue | None:
    """The attribute phrase right after ``quantity`` (or overlapping it: "% humidity"),
    with at most ``linking`` linking words between ("37-20 in the fourth quarter")."""
    text = ctx.text
    i = bisect_left(ctx.cue_starts, quantity.start)
    if (
        i > 0
        and ctx.cues[i - 1].end > quantity.start
        and ctx.cues[i - 1].start >= quantity.start - 1
    ):
        i -= 1
    while i < len(ctx.cues):
        cue = ctx.cues[i]
        if cue.start >= limit:
            return None
        if cue.start < quantity.end:
            if cue.end > quantity.end or cue.start >= quantity.start:
                return cue  # the phrase holds the unit: "63% humidity" as "% humidity"
            i += 1
            continue
        gap = words_between(text, quantity.end, cue.start)
        if not linking:
            if (
                all(w in {"-", "\u2013"} for w in gap)
                and len(gap) <= 1
                and "\n" not in text[quantity.end : cue.start]
            ):
                head = ctx.cues[i + 1] if i + 1 < len(ctx.cues) else None
                if head is not None and not text[cue.end : head.start].strip():
                    return head  # "a 33-point first quarter": the last noun is the head
                return cue
            return None
        if len(gap) <= linking and all(w in words for w in gap):
            return cue
        return None
    return None


def leads_on(ctx: SentenceRead, starts: Sequence[int], cue: Cue) -> bool:
    """Is ``cue`` followed by linking words and another number ("gusting to 32")?
    ``starts``: the starts of the sentence's quantities, in order."""
    i = bisect_left(starts, cue.end)
    if i >= len(starts):
        return False
    gap = words_between(ctx.text, cue.end, starts[i])
    return len(gap) <= 3 and all(w in LINKING for w in gap)


def gap_words(ctx: SentenceRead, start: int, end: int) -> list[str]:
    """The words between ``start`` and ``end``, a named subject counting as the linking
    word "of" ("the rate for EUR/GBP is 1.0842": the cue reaches the number)."""
    i = bisect_left(ctx.mention_starts, start)
    words: list[str] = []
    at = start
    mentions = ctx.mentions
    while i < len(mentions) and mentions[i].start < end:
        mention = mentions[i]
        if mention.kind == _NAMED and mention.end <= end:
            words.extend(words_between(ctx.text, at, mention.start))
            words.append("of")
            at = mention.end
        i += 1
    words.extend(words_between(ctx.text, at, end))
    return words


def linked_before(ctx: SentenceRead, quantity: Quantity, clause: tuple[int, int]) -> bool:
    """Is there an attribute phrase before ``quantity`` in its clause, joined to it
    by linking words only ("winds of 15")?"""
    i = bisect_left(ctx.cue_starts, quantity.start) - 1
    if i < 0 or ctx.cues[i].start < clause[0] or ctx.cues[i].end > quantity.start:
        return False
    gap = words_between(ctx.text, ctx.cues[i].end, quantity.start)
    return len(gap) <= 5 and all(w in LINKING for w in gap)


def noun_after(ctx: SentenceRead, quantity: Quantity) -> bool:
    """Is ``quantity`` followed by a word that says what it counts ("40% chance",
    "15 minutes"), which no cue names?"""
    text = ctx.text
    match = GAP_WORDS.search(text, quantity.end, min(len(text), quantity.end + 40))
    if match is None:
        return False
    word = match.group()
    if not word[0].isalpha() or not word.islower():
        return False
    return word not in FILLER_AFTER


def claimed_between(st: Structures, position: int, quantity: Quantity) -> bool:
    """Is there a quantity of another group between ``position`` and ``quantity``?"""
    starts = st.quantity_starts
    low = bisect_left(starts, position)
    high = bisect_left(starts, quantity.start, low)
    if low == high:
        return False
    groups = st.groups
    group = groups.get(quantity.start)
    return any(groups.get(start) != group for start in starts[low:high])
