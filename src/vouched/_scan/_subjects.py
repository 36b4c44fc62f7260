"""Which subjects a quantity may speak about: the mentions of its sentence, read as a reader would.

A mention right after the value joined by "in/at/for" ("7 °C in Geneva") binds
alone; "held X to" binds X; otherwise the mentions before it in its sentence
(its own clause first), pronouns and definite references resolved to the
subjects named before them, mentions after it, and the topic carried from
earlier sentences, in that order of cost. An unknown name that governs the
clause ("Hamburg is 17.8 °C" with no Hamburg facts) leaves the quantity unbound.
"""

from __future__ import annotations

from bisect import bisect_left

from vouched._scan._mentions import Mention, MentionKind, object_pronoun
from vouched._scan._reader._numbers import Quantity
from vouched._scan._sentence import SentenceRead
from vouched._scan._vocabulary import BRACKET_AFTER, CONNECTIVE, HELD_AFTER, HELD_BEFORE

__all__ = [
    "WINDOW",
    "SubjectReading",
    "held_object",
    "names_of",
    "subject_readings",
    "topic_of",
    "unknown_in",
]

_NAMED = MentionKind.NAMED
_PRONOUN = MentionKind.PRONOUN
_UNKNOWN = MentionKind.UNKNOWN


def names_of(ctx: SentenceRead, i: int) -> tuple[str, ...]:
    mention = ctx.mentions[i]
    if mention.kind == _PRONOUN:
        return ctx.resolved.get(mention.start, ())
    return mention.names


def unknown_in(ctx: SentenceRead, sentence: tuple[int, int], position: int) -> bool:
    """Is an unknown name mentioned in ``sentence`` before ``position``?"""
    low = bisect_left(ctx.mention_starts, sentence[0])
    high = bisect_left(ctx.mention_starts, position)
    return ctx.unknown_before[high] > ctx.unknown_before[low]


def topic_of(ctx: SentenceRead, position: int) -> tuple[str, ...]:
    """The subjects named last before ``position``, latest first."""
    i = bisect_left(ctx.mention_starts, position) - 1
    order: list[str] = []
    while i >= 0 and len(order) < 2:
        mention = ctx.mentions[i]
        if mention.kind == _NAMED:
            for name in mention.names[:1]:
                if name not in order:
                    order.append(name)
        elif mention.kind == _UNKNOWN and not order:
            return ()
        i -= 1
    return tuple(order)


def held_object(ctx: SentenceRead, low: int, before: int, floor: int) -> Mention | None:
    """The object of "held X to", "limited X to", "forced X into" before a number."""
    text = ctx.text
    for i in range(before - 1, low - 1, -1):
        mention = ctx.mentions[i]
        if mention.kind != _NAMED:
            continue
        if HELD_BEFORE.search(text, max(floor, mention.start - 20), mention.start) and (
            HELD_AFTER.match(text, mention.end)
        ):
            return mention
        return None
    return None


WINDOW = 12
"""How many mentions on each side of a number its subject is read from: a reader weighs the
nearest subjects of a sentence, and a sentence that names a subject before every number
costs what its length costs."""


SubjectReading = tuple[float, str, int]
"""(cost, subject, start of the mention that names it; -1 for the carried topic)."""


def subject_readings(
    ctx: SentenceRead, quantity: Quantity, sentence: tuple[int, int], clause: tuple[int, int]
) -> list[SubjectReading] | None:
    """(cost, subject, mention start) candidates; None when an unknown name governs."""
    right_after = _named_right_after(ctx, quantity, sentence)
    if right_after is not None:
        return right_after or None
    starts = ctx.mention_starts
    low = bisect_left(starts, sentence[0])
    before = bisect_left(starts, quantity.start, low)
    held = held_object(ctx, low, before, sentence[0])
    if held is not None:  # "held the Lakers to 38 percent": the Lakers' figure
        return [(0.0, name, held.start) for name in held.names]
    found = _named_before(ctx, low, before, clause)
    if found is None:
        return None
    found.extend(_named_after(ctx, quantity, before, sentence, clause))
    if not any(c < 1.0 for c, _, _ in found) and not unknown_in(ctx, sentence, quantity.start):
        topic = topic_of(ctx, sentence[0])
        found.extend((1.0 + 0.15 * rank, name, -1) for rank, name in enumerate(topic[:2]))
    return _cheapest(found)


def _named_right_after(
    ctx: SentenceRead, quantity: Quantity, sentence: tuple[int, int]
) -> list[SubjectReading] | None:
    """A mention right after the value decides alone: in brackets ("182 ms (gateway)") or
    joined by a connective ("7 °C in Geneva"). ``[]`` when that mention is an unknown
    name (the number is unbound); None when there is no such mention."""
    mentions = ctx.mentions
    after = bisect_left(ctx.mention_starts, quantity.end)
    if after >= len(mentions):
        return None
    following = mentions[after]
    text = ctx.text
    if following.kind == _NAMED and BRACKET_AFTER.fullmatch(text, quantity.end, following.start):
        return [(0.0, name, following.start) for name in following.names]
    cue = ctx.adjacent.get(quantity.start)
    gap_start = max(quantity.end, cue.end) if cue is not None else quantity.end
    if following.start >= sentence[1] or not CONNECTIVE.fullmatch(text, gap_start, following.start):
        return None
    if following.kind == _UNKNOWN:
        return []
    if following.kind == _NAMED:
        return [(0.0, name, following.start) for name in following.names]
    return None


def _named_before(
    ctx: SentenceRead, low: int, before: int, clause: tuple[int, int]
) -> list[SubjectReading] | None:
    """The subjects named before the number in its sentence, nearest first (its own clause
    cheaper, an object pronoun dearer); None when the nearest is an unknown name or a
    pronoun that refers to none ("Hamburg is 17.8 °C" with no Hamburg facts)."""
    found: list[SubjectReading] = []
    mentions = ctx.mentions
    for i in range(before - 1, max(low, before - WINDOW) - 1, -1):
        mention = mentions[i]
        in_clause = mention.start >= clause[0]
        if mention.kind == _UNKNOWN:
            if not found and (in_clause or mention.names):
                return None  # no fact is about the nearest subject
            continue
        if mention.kind == _PRONOUN and not ctx.resolved.get(mention.start):
            if not found:
                return None  # "he" after a name no fact is about
            continue
        base = 0.2 if in_clause else 0.5
        if mention.kind == _PRONOUN and object_pronoun(mention):
            base += 0.6
        names = names_of(ctx, i)
        for rank, name in enumerate(names if mention.kind == _PRONOUN else names[:3]):
            found.append((base + 0.5 * rank, name, mention.start))
    return found


def _named_after(
    ctx: SentenceRead,
    quantity: Quantity,
    before: int,
    sentence: tuple[int, int],
    clause: tuple[int, int],
) -> list[SubjectReading]:
    """The subjects named later in the sentence (dearer: a reader looks back first)."""
    found: list[SubjectReading] = []
    mentions = ctx.mentions
    for i in range(before, min(len(mentions), before + WINDOW)):
        mention = mentions[i]
        if mention.start >= sentence[1]:
            break
        if mention.start < quantity.end or mention.kind != _NAMED:
            continue
        base = 1.2 if mention.start < clause[1] else 1.6
        found.extend((base, name, mention.start) for name in mention.names)
    return found


def _cheapest(found: list[SubjectReading]) -> list[SubjectReading]:
    """Each subject once, at its cheapest reading (the nearest mention on a tie)."""
    best: dict[str, SubjectReading] = {}
    for item in found:
        kept = best.get(item[1])
        if kept is None or item[0] < kept[0]:
            best[item[1]] = item
    return list(best.values()) if len(best) < len(found) else found
