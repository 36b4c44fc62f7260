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
from collections.abc import Sequence

from vouched._scan._lex._numbers import Quantity
from vouched._scan._lex._units import canonical_unit
from vouched._scan._lex._vocabulary import (
    BRACKET_AFTER,
    CONNECTIVE,
    HELD_AFTER,
    HELD_BEFORE,
    OWN_VALUE_GAP,
    PLACE_AFTER,
    VALUE_PLACE_BEFORE,
)
from vouched._scan._read._mentions import (
    Mention,
    MentionKind,
    is_name,
    names_a_subject,
    object_pronoun,
)
from vouched._scan._read._sentence import Cue, SentenceRead

__all__ = [
    "WINDOW",
    "SubjectReading",
    "held_object",
    "names_of",
    "subject_readings",
    "topic_of",
    "unknown_governs",
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


def unknown_governs(ctx: SentenceRead, quantity: Quantity, sentence: tuple[int, int]) -> bool:
    """Is ``quantity`` stated for a name no fact is about: the name right after it joined
    by "in"/"at"/"for" ("21.4 °C in Munich"), or the name that opens its clause as its
    subject or place ("Cologne is 17.8 °C", "In Munich it is 21.4 °C")? Not when a known
    subject of the sentence may be the number's ("Acme slid to $187.42 in Friday's
    session", "The Bucks beat the Magic 93 - 89 at BMO Harris Bradley Center")."""
    return _unknown_after(ctx, quantity, sentence) or _unknown_before(ctx, quantity, sentence)


def _known(ctx: SentenceRead, mention: Mention) -> bool:
    return mention.kind == _NAMED or (
        mention.kind == _PRONOUN and bool(ctx.resolved.get(mention.start))
    )


def _unknown_after(ctx: SentenceRead, quantity: Quantity, sentence: tuple[int, int]) -> bool:
    starts, mentions, text = ctx.mention_starts, ctx.mentions, ctx.text
    after = bisect_left(starts, quantity.end)
    if after >= len(mentions):
        return False
    name = mentions[after]
    if (
        name.kind != _UNKNOWN
        or name.start >= sentence[1]
        or PLACE_AFTER.fullmatch(text, quantity.end, name.start) is None
        or not is_name(text[name.start : name.end])
    ):
        return False
    low = bisect_left(starts, sentence[0])
    return not any(  # "21.4 °C in Berlin and 21.4 °C in Munich": Berlin is the first's
        _known(ctx, m) and VALUE_PLACE_BEFORE.search(text, max(0, m.start - 24), m.start) is None
        for m in mentions[low:after]
    )


def _unknown_before(ctx: SentenceRead, quantity: Quantity, sentence: tuple[int, int]) -> bool:
    starts, mentions = ctx.mention_starts, ctx.mentions
    low = bisect_left(starts, sentence[0])
    i = bisect_left(starts, quantity.start, low) - 1
    while i >= low and mentions[i].kind == _PRONOUN and _stands_for_previous(ctx, i, low):
        i -= 1  # "In Munich it is 21.4 °C": "it" is Munich
    if i < low or mentions[i].kind != _UNKNOWN:
        return False
    name = mentions[i]
    if not names_a_subject(ctx.text, name, ctx.structure.clause(name.start)[0], sentence[0]):
        return False
    end = min(sentence[1], ctx.structure.clause(quantity.end)[1])
    high = bisect_left(starts, end)
    # "Trading was busy: 3,254,100 Acme shares": a known subject after it in its clause
    return not any(_known(ctx, m) and m.start > quantity.start for m in mentions[i:high])


def _stands_for_previous(ctx: SentenceRead, i: int, low: int) -> bool:
    """Is the pronoun ``i`` one that refers to nothing, or one right after the name before
    it ("In Munich, it is")?"""
    if not ctx.resolved.get(ctx.mentions[i].start):
        return True
    return i > low and not ctx.text[ctx.mentions[i - 1].end : ctx.mentions[i].start].strip(" ,")


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
    ctx: SentenceRead,
    quantity: Quantity,
    sentence: tuple[int, int],
    clause: tuple[int, int],
    cue: Cue | None,
    *,
    numbers: Sequence[Quantity] = (),
    starts: Sequence[int] = (),
) -> list[SubjectReading] | None:
    """(cost, subject, mention start) candidates; None when an unknown name governs.
    ``cue``: the attribute phrase right after the quantity, if any; ``numbers`` and
    their ``starts``: the text's quantities, in order (a name with a number of its own
    in the same unit is not another number's: "Vienna is 5.8 °C and Graz 3.2 °C")."""
    own = _Own(ctx, quantity, numbers, starts)
    right_after = _named_right_after(ctx, quantity, sentence, cue)
    if right_after is not None:
        return right_after or None
    starts = ctx.mention_starts
    low = bisect_left(starts, sentence[0])
    before = bisect_left(starts, quantity.start, low)
    held = held_object(ctx, low, before, sentence[0])
    if held is not None:  # "held the Lakers to 38 percent": the Lakers' figure
        return [(0.0, name, held.start) for name in held.names]
    found = _named_before(ctx, low, before, clause, own)
    if found is None:
        return None
    found.extend(_named_after(ctx, quantity, before, sentence, clause, own=own))
    if not any(c < 1.0 for c, _, _ in found) and not unknown_in(ctx, sentence, quantity.start):
        topic = topic_of(ctx, sentence[0])
        found.extend((1.0 + 0.15 * rank, name, -1) for rank, name in enumerate(topic[:2]))
    return _cheapest(found)


def _named_right_after(
    ctx: SentenceRead, quantity: Quantity, sentence: tuple[int, int], cue: Cue | None
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
    gap_start = max(quantity.end, cue.end) if cue is not None else quantity.end
    if following.start >= sentence[1] or not CONNECTIVE.fullmatch(text, gap_start, following.start):
        return None
    if following.kind == _UNKNOWN:
        return []
    if following.kind == _NAMED:
        member = _member_before(ctx, after, sentence[0], following.names)
        if member is not None:  # "Booker scored 35 points for Phoenix": the player's
            return member
        return [(0.0, name, following.start) for name in following.names]
    return None


def _member_before(
    ctx: SentenceRead, after: int, start: int, group: tuple[str, ...]
) -> list[SubjectReading] | None:
    """The nearest subject named before mention ``after`` (in its sentence) when its
    facts name ``group`` (a player's team): "for <team>" then says whose team he plays
    for, not whose number it is."""
    for i in range(after - 1, -1, -1):
        mention = ctx.mentions[i]
        if mention.start < start:
            return None
        if mention.kind == _NAMED or (mention.kind == _PRONOUN and ctx.resolved.get(mention.start)):
            names = names_of(ctx, i)
            if any(ctx.facts.belongs_to(n, g) for n in names for g in group):
                return [(0.0, name, mention.start) for name in names]
            return None
    return None


def _named_before(
    ctx: SentenceRead,
    low: int,
    before: int,
    clause: tuple[int, int],
    own: _Own | None = None,
) -> list[SubjectReading] | None:
    """The subjects named before the number in its sentence, nearest first (its own clause
    cheaper, an object pronoun dearer); None when the nearest is an unknown name or a
    pronoun that refers to none ("Hamburg is 17.8 °C" with no Hamburg facts). Past the
    nearest named subject, a name with a number of its own between it and the nearer
    one is passed over ("Murray scored 31 and Jokic 24": 24 is not Murray's)."""
    found: list[SubjectReading] = []
    mentions = ctx.mentions
    nearest = -1  # where the nearest named subject stands, once found
    for i in range(before - 1, max(low, before - WINDOW) - 1, -1):
        mention = mentions[i]
        if nearest >= 0 and own is not None and own.has_one(mention, nearest):
            continue
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
        if nearest < 0 and names:
            nearest = mention.start
    return found


class _Own:
    """Whether a name states a number of its own right after it, in the unit of the
    number being bound ("Graz 3.2 °C", "Murray scored 31"): such a name is not a
    candidate for another number of the sentence."""

    __slots__ = ("_ctx", "_numbers", "_starts", "_unit")

    def __init__(
        self,
        ctx: SentenceRead,
        quantity: Quantity,
        numbers: Sequence[Quantity],
        starts: Sequence[int],
    ) -> None:
        self._ctx, self._numbers, self._starts = ctx, numbers, starts
        self._unit = canonical_unit(quantity.unit)

    def has_one(self, mention: Mention, limit: int) -> bool:
        """A number of ``mention``'s own starts before ``limit``."""
        if mention.kind != _NAMED:
            return False
        i = bisect_left(self._starts, mention.end)
        if i >= len(self._starts) or self._starts[i] >= limit:
            return False
        if OWN_VALUE_GAP.fullmatch(self._ctx.text, mention.end, self._starts[i]) is None:
            return False
        return canonical_unit(self._numbers[i].unit) == self._unit


def _named_after(
    ctx: SentenceRead,
    quantity: Quantity,
    before: int,
    sentence: tuple[int, int],
    clause: tuple[int, int],
    *,
    own: _Own | None = None,
) -> list[SubjectReading]:
    """The subjects named later in the sentence (dearer: a reader looks back first), but
    for one with a number of its own after it, before the next name ("Vienna is 5.8 °C
    and Graz 3.2 °C": 5.8 is not Graz's)."""
    found: list[SubjectReading] = []
    mentions = ctx.mentions
    for i in range(before, min(len(mentions), before + WINDOW)):
        mention = mentions[i]
        if mention.start >= sentence[1]:
            break
        if mention.start < quantity.end or mention.kind != _NAMED:
            continue
        following = mentions[i + 1].start if i + 1 < len(mentions) else sentence[1]
        if own is not None and own.has_one(mention, min(following, sentence[1])):
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
