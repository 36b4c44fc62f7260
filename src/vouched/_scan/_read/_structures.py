"""What spans several quantities: runs that share a cue, pairs, lists, count words.

Lexicon pairs ("9-for-12 from the field": made, attempted; "(33-34)" after a
team: wins, losses; "113-107": two subjects' values); lists of values with
lists of subjects ("Berlin and Munich are 21 °C and 17.8 °C", "...
respectively"); countable articles ("a steal" is one) and value phrases ("sold
out" is 0 seats) as quantities bound to their attribute; the spans whose
numbers are not claims (names, phrases with digits).
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections.abc import Sequence
from decimal import Decimal

from vouched._scan._facts._gameparts import period_parts, period_span, sum_attribute
from vouched._scan._facts._lexicon import Pair
from vouched._scan._lex._numbers import Quantity, QuantityKind
from vouched._scan._lex._units import canonical_unit, same_dimension
from vouched._scan._lex._vocabulary import (
    ARTICLE,
    ARTICLE_VALUES,
    AT_WORDS,
    DIGIT,
    FROM_NOW_BEFORE,
    GAP_WORDS,
    LINKING,
    OWN_AFTER,
    PAIR_GAP,
    RESPECTIVELY,
    SUBJECT_JOIN,
    VAGUE_AMOUNT,
    VAGUE_AMOUNTS,
    VALUE_JOIN,
)
from vouched._scan._read._cues import cue_after, leads_on
from vouched._scan._read._derived import sign_spans
from vouched._scan._read._mentions import MentionKind
from vouched._scan._read._sentence import (
    Cue,
    SentenceRead,
    is_number_word,
    words_between,
)
from vouched._scan._read._subjects import names_of
from vouched._scan._read._values import Forced, Structures

__all__ = [
    "bracketed_record",
    "coordinated",
    "distribute",
    "extra_quantities",
    "group_runs",
    "last_distinct",
    "masked_spans",
    "own_counts",
    "pair_phrase_in",
    "pair_phrase_near",
    "read_pairs",
    "read_structures",
    "two_subjects",
]

_NAMED = MentionKind.NAMED


_ONE = Decimal(1)


def masked_spans(ctx: SentenceRead) -> list[tuple[int, int]]:
    """Subject mentions, digit-bearing names, and the numbers inside attribute and pair
    phrases: they are not claims. A number word or digits inside a phrase ("from three",
    "three-pointers", "3Pt") are part of the phrase's name; the phrase's other words are
    not masked (in "24 percent from three-point range" the quantity ends in "percent")."""
    text = ctx.text
    inside = [
        span
        for c in (*ctx.cues, *ctx.pair_phrases)
        for span in _number_tokens(text, c.start, c.end)
    ]
    return [
        *((m.start, m.end) for m in ctx.named),
        *ctx.digit_names,
        *inside,
        *sign_spans(ctx),
    ]


def _number_tokens(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the digit runs and number words between ``start`` and ``end``."""
    return [
        m.span()
        for m in GAP_WORDS.finditer(text, start, end)
        if DIGIT.search(m.group()) or is_number_word(m.group())
    ]


def extra_quantities(ctx: SentenceRead, forced: dict[int, Forced]) -> list[Quantity]:
    """Quantities written without digits: "a steal" for a countable attribute,
    "a pair of steals", and the lexicon's value phrases ("sold out"); the attribute
    each states goes into ``forced``."""
    text = ctx.text
    found: list[Quantity] = []
    countable = ctx.lexicon.countable
    if countable:
        for cue in ctx.cues:
            names = tuple(n for n in cue.names if n in countable)
            if not names:
                continue
            match = ARTICLE.search(text, max(0, cue.start - 16), cue.start)
            if match is None:
                continue
            count = Decimal(ARTICLE_VALUES[" ".join(match.group(1).lower().split())])
            start = match.start(1)
            found.append(
                Quantity(start, cue.end, text[start : cue.end], QuantityKind.NUMBER, count, _ONE)
            )
            forced[start] = Forced(names, None)
    found.extend(_vague_amounts(text))
    for phrase in ctx.value_phrases:
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
        forced[phrase.start] = Forced(tuple(attributes), None)
    return found


def _vague_amounts(text: str) -> list[Quantity]:
    """ "a few minutes late", "delayed by several minutes": a small amount of time, each
    value a reader allows for the vague word (:data:`VAGUE_AMOUNTS`), soft (a claim only
    when bound), checked like the number it stands for."""
    found = []
    for match in VAGUE_AMOUNT.finditer(text):
        if FROM_NOW_BEFORE.search(text, max(0, match.start() - 8), match.start()):
            continue  # "leaves in a few minutes": when, not how late
        allowed = VAGUE_AMOUNTS[" ".join(match.group(1).lower().split())]
        values = tuple(Decimal(v) for v in allowed)
        found.append(
            Quantity(
                match.start(),
                match.end(),
                match.group(),
                QuantityKind.NUMBER,
                values[0],
                _ONE,
                canonical_unit(match.group(2).lower()),
                values[1:],
                soft=True,
            )
        )
    return found


def read_structures(ctx: SentenceRead, found: Sequence[Quantity]) -> Structures:
    """The structures over all of the sentence's quantities (``found``, with those written
    without digits): the spans whose numbers are no claims, the cue right after each
    quantity, runs that share a cue, pairs, and lists of values with lists of subjects.
    Read once, before any quantity is bound; frozen after."""
    forced: dict[int, Forced] = {}
    quantities = found
    extra = extra_quantities(ctx, forced)
    if extra:
        quantities = sorted([*quantities, *extra], key=lambda q: (q.start, q.end))
    starts = [q.start for q in quantities]
    adjacent, taken = _adjacent(ctx, quantities, starts)
    groups = group_runs(ctx, quantities)
    partners = read_pairs(ctx, quantities, forced)
    distribute(ctx, quantities, forced)
    own_counts(ctx, quantities, adjacent, forced)
    return Structures(
        quantities,
        masked_spans(ctx),
        forced,
        frozenset(taken),
        partners,
        adjacent,
        groups,
        starts,
    )


def _adjacent(
    ctx: SentenceRead, quantities: Sequence[Quantity], starts: list[int]
) -> tuple[dict[int, Cue | None], set[int]]:
    """Each quantity's cue right after it, and the cues taken by a number of their own."""
    adjacent: dict[int, Cue | None] = {}
    taken: set[int] = set()
    for quantity in quantities:
        cue = cue_after(ctx, quantity, len(ctx.text), linking=0)
        adjacent[quantity.start] = cue
        if cue is None:  # "1.0815 at the previous fixing": the phrase is that number's
            cue = cue_after(ctx, quantity, len(ctx.text), linking=3, words=AT_WORDS)
            if cue is not None and leads_on(ctx, starts, cue):
                cue = None  # "on volume of 1,187,400": the phrase leads on to its own
        if cue is not None:
            taken.add(cue.start)
    return adjacent, taken


def own_counts(
    ctx: SentenceRead,
    quantities: Sequence[Quantity],
    adjacent: dict[int, Cue | None],
    forced: dict[int, Forced],
) -> None:
    """ "The Hawks forced the Wizards into 14 turnovers, while committing just 12 of
    their own": a number with no noun of its own, followed by "of their own", counts the
    noun of the number before it in the sentence, for the subject named between the two
    (:func:`_own_subject`), else the sentence's subject (the first subject it names,
    whose own the count is), into ``forced``."""
    text = ctx.text
    previous: Cue | None = None
    for quantity in quantities:
        cue = adjacent.get(quantity.start)
        if cue is not None:
            previous = cue
            continue
        if previous is None or quantity.start in forced:
            continue
        if OWN_AFTER.match(text, quantity.end) is None:
            continue
        subject = _own_subject(ctx, previous.end, quantity.start)
        if subject is None:
            continue
        names = tuple(a for a in previous.names if ctx.facts.knows(subject, a))
        if names:
            forced[quantity.start] = Forced(names, (subject,))


def _own_subject(ctx: SentenceRead, after: int, position: int) -> str | None:
    """Whose own a count at ``position`` is: the subject named last between the number
    whose noun it borrows (ending at ``after``) and it ("Alianza making five changes and
    FAS responding with five of their own"), else the first subject its sentence names
    ("Denver forced Phoenix into 15 turnovers while committing 11 of their own")."""
    starts = ctx.mention_starts
    low = ctx.structure.sentence(position)[0]
    between = [
        m.names[0]
        for m in ctx.mentions[bisect_left(starts, after) : bisect_left(starts, position)]
        if m.kind == _NAMED and m.names
    ]
    if between:
        return between[-1]
    first = (
        m.names[0]
        for m in ctx.mentions[bisect_left(starts, low) : bisect_left(starts, position)]
        if m.kind == _NAMED and m.names
    )
    return next(first, None)


def group_runs(ctx: SentenceRead, quantities: Sequence[Quantity]) -> dict[int, int]:
    """Each quantity's run: values of one unit joined by value words or a range."""
    groups: dict[int, int] = {}
    group = 0
    previous: Quantity | None = None
    for quantity in quantities:
        if previous is None or not (
            (quantity.unit == previous.unit or None in (quantity.unit, previous.unit))
            and (
                (previous.in_range and quantity.in_range)
                or VALUE_JOIN.fullmatch(ctx.text, previous.end, quantity.start) is not None
            )
        ):
            group += 1
        groups[quantity.start] = group
        previous = quantity
    return groups


def read_pairs(
    ctx: SentenceRead, quantities: Sequence[Quantity], forced: dict[int, Forced]
) -> dict[int, int]:
    """Pairs of values read from one phrase ("9-for-12 from the field", "(33-34)",
    "113-107"), into ``forced``; the partners of two subjects' pairs (second -> first)."""
    partners: dict[int, int] = {}
    text = ctx.text
    pairs = ctx.pairs
    for left, right in itertools.pairwise(quantities):
        if left.start in forced or right.start in forced:
            continue
        if left.kind is not QuantityKind.NUMBER or right.kind is not QuantityKind.NUMBER:
            continue
        if PAIR_GAP.fullmatch(text, left.end, right.start) is None:
            continue
        if left.unit != right.unit and None not in (left.unit, right.unit):
            continue  # "fell 1.36% to $418.32": a pair's halves are of one unit
        sentence = ctx.structure.sentence(left.start)
        near = pair_phrase_near(ctx, left, right, sentence) if pairs else None
        pair = near[0] if near is not None else None
        if near is not None and pair is not None and not pair.two_subjects:
            span = near[1]
            forced[left.start] = Forced((pair.first,), None, pair=True, phrase=span)
            forced[right.start] = Forced((pair.second,), None, pair=True, phrase=span)
            continue
        bracketed = bracketed_record(ctx, left, right)
        if bracketed is not None:
            subject, found, at = bracketed
            forced[left.start] = Forced((found.first,), (subject,), at, pair=True)
            forced[right.start] = Forced((found.second,), (subject,), at, pair=True)
            continue
        two = two_subjects(ctx, left, right, sentence, pair)
        if two is not None:
            attributes, subjects, ordered = two
            first, second = _sides(ctx, attributes, subjects) if ordered else (subjects, subjects)
            forced[left.start] = Forced(attributes, first, pair=True)
            forced[right.start] = Forced(attributes, second, pair=True)
            partners[right.start] = left.start
    return partners


def pair_phrase_near(
    ctx: SentenceRead, left: Quantity, right: Quantity, sentence: tuple[int, int]
) -> tuple[Pair, tuple[int, int]] | None:
    """A pair phrase right after the pair ("9-12 FG", "3-of-5 shooting") or before
    it ("a range of 980-1,120"), joined by linking words only."""
    text = ctx.text
    best: tuple[int, Pair, tuple[int, int]] | None = None
    for phrase in ctx.pair_phrases:
        if phrase.start >= right.end and phrase.start < sentence[1]:
            gap = words_between(text, right.end, phrase.start)
            if len(gap) <= 3 and all(w in LINKING for w in gap):
                distance = len(gap)
            else:
                continue
        elif phrase.end <= left.start and phrase.end >= sentence[0]:
            gap = words_between(text, phrase.end, left.start)
            if len(gap) <= 4 and all(w in LINKING for w in gap):
                distance = len(gap) + 1
            else:
                continue
        else:
            continue
        pair = ctx.pairs[int(phrase.names[0])]
        if best is None or distance < best[0]:
            best = (distance, pair, (phrase.start, phrase.end))
    return (best[1], best[2]) if best is not None else None


def bracketed_record(
    ctx: SentenceRead, left: Quantity, right: Quantity
) -> tuple[str, Pair, int] | None:
    """ "Team ( 33 - 34 )": a bracketed pair right after a subject mention."""
    text = ctx.text
    before = text[: left.start].rstrip()
    if not before.endswith("(") or not text[right.end :].lstrip().startswith(")"):
        return None
    opening = len(before) - 1
    i = bisect_left(ctx.mention_starts, opening) - 1
    if i < 0:
        return None
    mention = ctx.mentions[i]
    if text[mention.end : opening].strip(" 's\u2019"):
        return None
    for subject in names_of(ctx, i):
        for pair in ctx.pairs:
            if pair.bracketed and ctx.facts.knows(subject, pair.first):
                return subject, pair, mention.start
    return None


def two_subjects(
    ctx: SentenceRead, left: Quantity, right: Quantity, sentence: tuple[int, int], pair: Pair | None
) -> tuple[tuple[str, ...], tuple[str, ...], bool] | None:
    """ "The Celtics defeated the Lakers, 113-107" or "... outscored X, 37-20, in the
    fourth quarter": two subjects' values of one attribute, in either order (a score is
    written winner first, whoever the sentence names: "Denver lost 118-111"). A stat
    battle after the one team named ("they won that battle, 46-34") is written as a
    score, the side with more first (the last item, True, says so: :func:`_sides`)."""
    subjects = _named_before(ctx, sentence[0], left.start)
    if not subjects:
        return None
    period, named = _score_words(ctx, left, right, sentence, pair)
    ordered = False
    if len(subjects) == 1 and (named is not None or period is not None):
        # "out - scoring the Knicks 25 - 21 in the first quarter": a period's column names
        # a score of two sides as a score word does
        columns = (*(period.names if period else ()), *((named,) if named else ()))
        other = _counterpart(ctx, subjects[0], columns)
        if other is None and named is not None:
            return None
        if other is not None:  # a column only one subject has ("9 - 15 FG"): its own pair
            subjects.append(other)
            ordered = period is None and named is not None and not _is_score(ctx, named)
    attributes = _scored(ctx, subjects, period)
    if not attributes and named is not None:
        attributes = _scored(ctx, subjects, None, (named,))
    if not attributes:
        return None
    return attributes, tuple(subjects), ordered


def _sides(
    ctx: SentenceRead, attributes: tuple[str, ...], subjects: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Whose value each half of a stat battle's pair states: it is written as a score
    is, the side with more first ("won that battle, 46-34"); when the sides are level
    or the facts do not tell, either half may be either side's."""
    one, other = (ctx.facts.numeric_value(s, attributes[0]) for s in subjects)
    if one is None or other is None or one == other:
        return subjects, subjects
    more, less = subjects if one > other else subjects[::-1]
    return (more,), (less,)


def _is_score(ctx: SentenceRead, attribute: str) -> bool:
    """Is ``attribute`` a score: a column the lexicon's periods split into parts (points,
    goals), or one of those parts?"""
    return any(
        attribute == whole or attribute in parts
        for split in ctx.lexicon.periods.values()
        for whole, parts in split.items()
    )


def _score_words(
    ctx: SentenceRead, left: Quantity, right: Quantity, sentence: tuple[int, int], pair: Pair | None
) -> tuple[Cue | None, str | None]:
    """The period cue and the score's named attribute for a pair of two subjects."""
    named = pair.first if pair is not None and pair.two_subjects else None
    period = cue_after(ctx, right, sentence[1], linking=4, words=_PERIOD_LINKS)
    if period is not None and named is not None and _is_pair_phrase(ctx, period):
        period = None  # "the 118-111 win": the score's own word, not the column "wins"
    if named is None and pair is None:
        named = _nearest_score_phrase(ctx, sentence[0], left.start)
    if period is None and named is not None:
        period = _cue_before(ctx, left, sentence[0])
    if period is None and _at_period(ctx, left, right, sentence):
        named = _period_sum(ctx, named, sentence) or named  # "led 58-57 at halftime"
    return period, named


def _named_before(ctx: SentenceRead, start: int, end: int) -> list[str]:
    """The last two subjects named (by name, each once) between ``start`` and ``end``."""
    subjects: list[str] = []
    low = bisect_left(ctx.mention_starts, start)
    high = bisect_left(ctx.mention_starts, end)
    for i in range(low, high):
        if ctx.mentions[i].kind == _NAMED:
            for name in ctx.mentions[i].names[:1]:
                if name not in subjects:
                    subjects.append(name)
    return subjects[-2:]


def _at_period(
    ctx: SentenceRead, left: Quantity, right: Quantity, sentence: tuple[int, int]
) -> bool:
    """Is a score a period's: the period phrase right after it ("58-57 at halftime"), or
    opening the sentence with no number stated before the score ("At halftime, ...
    58-57")? A period named elsewhere governs another score ("won 2-0 after leading 2-1
    at the break": the 2-0 is the match's), and a running score ("a 10-2 run in the
    third") is no period's total."""
    span = period_span(ctx.lexicon.periods, ctx.text, *sentence)
    if span is None:
        return False
    if span[0] >= right.end:
        gap = words_between(ctx.text, right.end, span[0])
        return len(gap) <= 1 and all(w in _PERIOD_LINKS for w in gap)
    if span[1] > left.start or words_between(ctx.text, sentence[0], span[0]):
        return False
    return not any(c.isdigit() for c in ctx.text[span[1] : left.start])


def _period_sum(ctx: SentenceRead, named: str | None, sentence: tuple[int, int]) -> str | None:
    """The column a period phrase of the sentence names for the score's attribute
    (``named``, else any the phrase declares): a part ("at half-time": first-half goals)
    or a sum of parts ("at halftime": the first two quarters' points, :func:`period_sums`)
    that the facts hold."""
    periods = ctx.lexicon.periods
    if not periods:
        return None
    names = (named,) if named is not None else tuple({a for s in periods.values() for a in s})
    for attribute in sorted(names):
        parts = period_parts(periods, attribute, ctx.text, *sentence)
        if parts is None:
            continue
        column = parts[0] if len(parts) == 1 else sum_attribute(parts)
        if ctx.facts.subjects_of(column):
            return column
    return None


def _nearest_score_phrase(ctx: SentenceRead, start: int, end: int) -> str | None:
    """The attribute of the two subjects' pair phrase nearest before ``end`` in
    ``[start, end)`` ("winning that battle, 43-34": the battle's, not the win's)."""
    found: str | None = None
    for phrase in ctx.pair_phrases:
        if phrase.start < start or phrase.end > end:
            continue
        for number in phrase.names:
            pair = ctx.pairs[int(number)]
            if pair.two_subjects:
                found = pair.first  # later phrases overwrite: the nearest wins
    return found


def _is_pair_phrase(ctx: SentenceRead, cue: Cue) -> bool:
    return any(p.start <= cue.start and p.end >= cue.end for p in ctx.pair_phrases)


def _cue_before(ctx: SentenceRead, left: Quantity, start: int) -> Cue | None:
    """ "won the third quarter 33-26": the attribute phrase right before a score pair,
    with at most "the" between, names its column (a period's score)."""
    i = bisect_left(ctx.cue_starts, left.start) - 1
    if i < 0 or ctx.cues[i].start < start:
        return None
    cue = ctx.cues[i]
    gap = words_between(ctx.text, cue.end, left.start)
    return cue if len(gap) <= 1 and all(w in _PERIOD_LINKS for w in gap) else None


def _counterpart(ctx: SentenceRead, subject: str, attributes: tuple[str, ...]) -> str | None:
    """The other side of a score line that names one side ("The Nuggets won 118-111"):
    the one other subject with facts of the score's attribute (a game's two teams), or,
    among several, the one a string fact of ``subject`` names (its opponent)."""
    for attribute in attributes:
        others = [s for s in ctx.facts.subjects_of(attribute) if s != subject]
        if len(others) == 1:
            return others[0]
        named = ctx.facts.strings_of(subject)
        found = [s for s in others if s in named]
        if len(found) == 1:
            return found[0]
    return None


_PERIOD_LINKS = LINKING | {",", "alone", "during", "over"}
"""Words between a score and the period it is of: "34 - 21, in the fourth quarter"."""


def _scored(
    ctx: SentenceRead, subjects: list[str], cue: Cue | None, names: tuple[str, ...] = ()
) -> tuple[str, ...]:
    """The attributes both subjects have, of a cue right after the pair ("34 - 21, in the
    fourth quarter": the period named decides the column) or of the pair phrase."""
    if cue is not None:  # a column of numbers: "at home" after a score is no column
        names = tuple(
            a for a in cue.names if all(ctx.facts.numeric_value(s, a) is not None for s in subjects)
        )
    return tuple(a for a in names if all(ctx.facts.knows(s, a) for s in subjects))


def pair_phrase_in(ctx: SentenceRead, pair: Pair, start: int, end: int) -> bool:
    number = str(ctx.pairs.index(pair))
    return any(p.start >= start and p.end <= end and number in p.names for p in ctx.pair_phrases)


def distribute(
    ctx: SentenceRead, quantities: Sequence[Quantity], forced: dict[int, Forced]
) -> None:
    """Pair runs of values with runs of subjects, as a reader does with "Berlin and
    Munich are 21 °C and 17.8 °C" or "... 63% and 70% respectively" (into ``forced``)."""
    text = ctx.text
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
                or VALUE_JOIN.fullmatch(text, last.end, nxt.start) is None
            ):
                break
            stop += 1
        if stop - index < 2:
            index = stop
            continue
        run = quantities[index:stop]
        index = stop
        if any(q.start in forced for q in run):
            continue
        sentence = ctx.structure.sentence(run[0].start)
        subjects = coordinated(ctx, sentence[0], run[0].start, len(run))
        if subjects is None and RESPECTIVELY.match(text, run[-1].end):
            subjects = last_distinct(ctx, sentence[0], run[0].start, len(run))
        if subjects is not None:
            for quantity, subject in zip(run, subjects, strict=True):
                forced[quantity.start] = Forced((), (subject,))


def coordinated(ctx: SentenceRead, start: int, end: int, count: int) -> list[str] | None:
    low = bisect_left(ctx.mention_starts, start)
    high = bisect_left(ctx.mention_starts, end)
    mentions = [m for m in ctx.mentions[low:high] if m.kind == _NAMED]
    if len(mentions) < count:
        return None
    group = mentions[-count:]
    for a, b in itertools.pairwise(group):
        if not SUBJECT_JOIN.fullmatch(ctx.text, a.end, b.start):
            return None
    return [m.names[0] for m in group]


def last_distinct(ctx: SentenceRead, start: int, end: int, count: int) -> list[str] | None:
    low = bisect_left(ctx.mention_starts, start)
    high = bisect_left(ctx.mention_starts, end)
    order: list[str] = []
    for mention in ctx.mentions[low:high]:
        if mention.kind == _NAMED and mention.names[0] not in order:
            order.append(mention.names[0])
    return order[-count:] if len(order) >= count else None
