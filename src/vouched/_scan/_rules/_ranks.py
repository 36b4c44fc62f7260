"""Rank, threshold and count rules of the words family: a subject measured against its
group or a bound, stated in words.

"X ... team-high" must rank X first among its group; "X ... triple-double" must reach
the threshold; "X was the only other starter in double figures" must count X's group
right. Each rule is in :data:`~vouched._scan._rules._words.WORD_RULES` at its priority;
what they share with comparisons (operands, subjects) is in :mod:`._relation`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

from vouched._scan._facts._counts import MAX_MEMBERS, Count, unmet
from vouched._scan._facts._gameparts import period_parts
from vouched._scan._facts._lexicon import Word
from vouched._scan._facts._lexrelations import Superlative, Threshold
from vouched._scan._facts._wordmatch import RELATION, STRING
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._numwords import word_number
from vouched._scan._lex._units import canonical_unit, in_base_unit
from vouched._scan._lex._vocabulary import GROUP_OPENS, ORDINAL_BEFORE, words_between
from vouched._scan._rules._relation import (
    Operand,
    checked,
    comparable,
    not_grounded,
    operand_of,
    quantity_matches_value,
    relation_of,
    shown,
    subject_with,
)
from vouched._scan._rules._rule import PASSED, Outcome
from vouched._scan._rules._said import Said, WordContext, same_value, same_word, word_finding

__all__ = ["Ranked", "stated_count", "stated_rank", "stated_threshold"]

_K = FindingKind


Ranked = Outcome | tuple[Finding, ...]
"""A rank rule's outcome: one phrase may hold two claims ("led the bench": X is of the
bench, and X leads it), each its own finding."""


def stated_rank(said: Said, ctx: WordContext) -> Ranked | None:
    """ "X ... <superlative>" states that X has the largest (or smallest) value of an
    attribute among the subjects that have one (that share X's ``within`` values, such as
    a player's team); ties hold. The attribute and X are those of the number the phrase
    qualifies when one follows in its clause ("a game-high 30 points", "led the way with
    20 points"; the reading that vouches for it), else the phrase's own attribute and the
    subject before it (after it for "led by X"). Otherwise ``relation_mismatch``."""
    relation = relation_of(said, ctx, Superlative)
    if relation is None:
        return None
    qualified = _qualified(said, ctx)
    if qualified is not None:
        subject, attribute = qualified
    elif relation.attribute is None:
        return None
    else:
        attribute = relation.attribute
        found = (
            checked(ctx, said, ctx.read(said).after, (attribute,))
            if said.text.lower().endswith(" by")
            else subject_with(ctx, said, (attribute,))
        )
        if not isinstance(found, str):
            return found
        subject = found
    if _renamed(ctx, subject):
        return None  # the line is another player's: the name is the word that is wrong
    group = _named_group(said, ctx, subject, relation.within)
    if group is not None:
        return group
    for name, value in relation.among:
        known, own_value = ctx.facts.word_value(subject, name)
        if known and own_value is not None and not same_word(own_value, value):
            return _outside(said, subject, name, own_value, value)
    own = operand_of(ctx, subject, attribute)
    if not isinstance(own, Operand):
        return not_grounded(said, subject, attribute, own, ctx.index.names)
    peers = _peers(ctx, subject, attribute, relation, own)
    if peers is None:
        return None
    where = f" among {subject}'s {'/'.join(relation.within)} peers" if relation.within else ""
    if relation.place != 1:
        return _placed(
            said,
            ctx,
            relation,
            subject=subject,
            attribute=attribute,
            own=own,
            peers=peers,
            where=where,
        )
    best = max(peers) if relation.rank == "max" else min(peers)
    if own.value == best or _shared_lead(
        ctx, said, relation, subject=subject, attribute=attribute, peers=peers
    ):
        return PASSED
    return word_finding(
        _part(said, group=False),
        _K.RELATION_MISMATCH,
        f"{ctx.index.names.named(subject, attribute)} is {shown(ctx, subject, attribute)}; "
        "another's is "
        f"{'higher' if relation.rank == 'max' else 'lower'}{where}",
        subject,
        attribute,
    )


def _shared_lead(
    ctx: WordContext,
    said: Said,
    relation: Superlative,
    *,
    subject: str,
    attribute: str,
    peers: list[Decimal],
) -> bool:
    """ "were led by the duo of X and Y", "X and Y led the way": names joined by "and" at
    the subject's place share the rank; it holds when each of them ranks among the first
    as many as they are (no one outside them ranks before the last of them)."""
    names = _conjoined(ctx, said, subject)
    if len(names) < 2:  # a shared lead needs two names
        return False
    values = []
    for name in names:
        value = operand_of(ctx, name, attribute)
        if not isinstance(value, Operand):
            return False
        values.append(value.value)
    ranked = sorted(peers, reverse=relation.rank == "max")
    cut = ranked[min(len(names), len(ranked)) - 1]
    return all((v >= cut if relation.rank == "max" else v <= cut) for v in values)


def _conjoined(ctx: WordContext, said: Said, subject: str) -> list[str]:
    """The subject and the names joined to it by "and" in the phrase's sentence ("the
    duo of X and Y"): the mention of ``subject`` nearest the phrase, and its neighbours
    with only "and" between."""
    text = ctx.sentence.text
    named = [m for m in ctx.sentence.named if m.start >= 0 and m.names]
    near = [i for i, m in enumerate(named) if m.names[0] == subject]
    if not near:
        return [subject]
    i = min(near, key=lambda k: abs(named[k].start - said.start))
    found = [subject]
    for j in (i - 1, i + 1):
        if 0 <= j < len(named):
            left, right = (named[j], named[i]) if j < i else (named[i], named[j])
            if words_between(text, left.end, right.start) == ["and"]:
                found.append(named[j].names[0])
    return found


def _renamed(ctx: WordContext, subject: str) -> bool:
    """Did the sentence's numbers already say ``subject`` is the wrong name (a
    ``subject_mismatch`` on it: the line is another's)? Then its rank phrase and the
    group it names are that other's, and judging them for ``subject`` says it twice."""
    return any(
        isinstance(item.outcome, Finding)
        and item.outcome.kind is _K.SUBJECT_MISMATCH
        and item.outcome.subject == subject
        for item in ctx.stated
    )


def _outside(said: Said, subject: str, name: str, own: Word, value: Word) -> Ranked:
    """ "X led the bench" when X started: two claims are wrong, that X is of the group
    (on "the bench") and that X led it (on "led": no one leads a group he is not in);
    one finding on the phrase when it does not split ("bench-leading")."""
    detail = f"{subject}'s {name} is {own!r}: not among {name} = {value!r}"
    group = word_finding(_part(said, group=True), _K.RELATION_MISMATCH, detail, subject, name)
    verb = _part(said, group=False)
    if verb is said:
        return group
    led = word_finding(verb, _K.RELATION_MISMATCH, f"{detail}, so not its leader", subject, name)
    return (led, group)


def _part(said: Said, *, group: bool) -> Said:
    """The words of a rank phrase a reader marks: the group it names ("the second unit"
    of "led the second unit") when the subject is not of that group, the verb ("led")
    when the subject does not rank first in it; the whole phrase when it does not split
    ("team-high", "were led by")."""
    split = GROUP_OPENS.search(said.text)
    if split is None:
        return said
    if group:
        start, end = said.start + split.end(), said.end
    else:
        start, end = said.start, said.start + split.start()
    return Said(start, end, said.text[start - said.start : end - said.start], said.tags)


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _placed(
    said: Said,
    ctx: WordContext,
    relation: Superlative,
    *,
    subject: str,
    attribute: str,
    own: Operand,
    peers: list[Decimal],
    where: str,
) -> Outcome:
    """ "X was second on the team": X's place is one more than the number of the group
    who rank strictly before X (ties share a place: two tied at the top are both first,
    and the next is third)."""
    before = sum(1 for v in peers if (v > own.value if relation.rank == "max" else v < own.value))
    if before + 1 == relation.place:
        return PASSED
    place = before + 1
    said_place = _ORDINALS[relation.place - 1] if relation.place <= len(_ORDINALS) else ""
    # on the ordinal, the word a reader corrects ("second" of "was second on the team")
    word = re.search(rf"\b{said_place}\b", said.text, re.IGNORECASE) if said_place else None
    if word is not None:
        said = Said(said.start + word.start(), said.start + word.end(), word.group(), said.tags)
    return word_finding(
        said,
        _K.VALUE_MISMATCH,
        f"{ctx.index.names.named(subject, attribute)} is {shown(ctx, subject, attribute)}: "
        f"{_ORDINALS[place - 1] if place <= len(_ORDINALS) else f'{place}th'}{where}, "
        f"not {said_place or relation.place}",
        subject,
        attribute,
    )


_GROUP_GAP = frozenset({"for", "the", "of", "were", "was", "are", "is", "(", ")", "-", ","})
_GROUP_REACH = 6  # words between a rank phrase and the group it names


def _named_group(
    said: Said, ctx: WordContext, subject: str, within: tuple[str, ...]
) -> Finding | None:
    """A rank phrase names the group it ranks in ("led the way for the Grizzlies", "the
    Jazz were led by X"): that group word must be the subject's value of the ``within``
    attribute; another is ``value_mismatch`` on the group word."""
    if not within:
        return None
    text = ctx.sentence.text
    for start, end, value in _group_words(ctx):
        if end <= said.start:
            gap = words_between(text, end, said.start)
        elif start >= said.end:
            gap = words_between(text, said.end, start)
        else:
            continue
        if len(gap) > _GROUP_REACH or not all(w in _GROUP_GAP or w.isdigit() for w in gap):
            continue
        attributes = ctx.facts.word_attributes.get(value, set())
        for attribute in within:
            if attribute not in attributes:
                continue
            known, own = ctx.facts.word_value(subject, attribute)
            if known and own is not None and not same_word(own, value):
                group = Said(start, end, text[start:end], ())
                return word_finding(
                    group,
                    _K.VALUE_MISMATCH,
                    f"{ctx.index.names.named(subject, attribute)} is {own!r}, not {group.text!r}",
                    subject,
                    attribute,
                )
    return None


def _group_words(ctx: WordContext) -> list[tuple[int, int, str]]:
    """(start, end, value) of every word in the sentence that names a group: a string
    fact's value ("the Grizzlies"), or a mention of a subject whose name is one
    ("Minnesota" for the Timberwolves)."""
    found = [(cue.start, cue.end, t[2:]) for cue in ctx.words for t in cue.names if t[0] == STRING]
    values = ctx.facts.word_attributes
    for mention in ctx.sentence.named:
        name = " ".join(mention.names[0].casefold().split())
        if name in values and not any(s <= mention.start < e for s, e, _ in found):
            found.append((mention.start, mention.end, name))
    return found


def _qualified(said: Said, ctx: WordContext) -> tuple[str, str] | None:
    """(subject, attribute) of the first number after the phrase in its clause whose
    attribute is clear, by the reading that vouches for it."""
    clause_end = ctx.sentence.structure.clause(said.end - 1)[1]  # "game - high": its last word
    for item in ctx.stated:
        quantity = item.quantity
        if quantity.start < said.end:
            continue
        if quantity.start >= clause_end:
            return None
        binding = item.binding
        if not binding.clear or not binding.readings:
            continue
        for reading in binding.readings:
            value = ctx.index.numeric_value(reading.subject, reading.attribute)
            if value is not None and quantity_matches_value(quantity, value):
                return reading.subject, reading.attribute
        return None
    return None


def _peers(
    ctx: WordContext, subject: str, attribute: str, relation: Superlative, own: Operand
) -> list[Decimal] | None:
    """The values (in ``own``'s unit) of every subject with a comparable value of the
    attribute in ``subject``'s group (its ``within`` values, the ``among`` ones)."""
    facts = ctx.facts
    groups: list[tuple[str, Word]] = list(relation.among)
    for name in relation.within:
        known, group = facts.word_value(subject, name)
        if not known or group is None:
            return None
        groups.append((name, group))
    key = (attribute, own.kind, own.unit, tuple(groups))
    cached = facts.peers.get(key)
    if cached is None:
        cached = facts.peers[key] = [
            value.value
            for other in ctx.index.subjects_of(attribute)
            if all(same_value(facts.word_value(other, name)[1], group) for name, group in groups)
            and isinstance(value := operand_of(ctx, other, attribute), Operand)
            and comparable(value, own)
        ]
    return cached or None


def stated_threshold(said: Said, ctx: WordContext) -> Outcome | None:
    """ "X ... <threshold>" ("a triple-double", "below freezing") states that at least
    ``count`` of X's listed attributes reach the bound (exactly ``count`` for a phrase
    declared ``exactly``: "a double-double" for a line with three is wrong); otherwise
    ``relation_mismatch`` on the phrase. X is the nearest subject before it with any of
    those attributes."""
    relation = _in_period(said, ctx, relation_of(said, ctx, Threshold))
    if relation is None:
        return None
    subject = _threshold_subject(said, ctx, relation)
    if not isinstance(subject, str):
        return subject
    low, high, unit = _bounds_in_base_unit(relation)
    values = _threshold_values(ctx, subject, relation, unit)
    known = [v for v in values if v is not None]
    if not known:
        if relation.in_period:
            return None  # a player's goals in a half: the facts count only the teams'
        silent = any((subject, a) in ctx.index.silent_pairs for a in relation.attributes)
        why = "silent" if silent else "none"
        return not_grounded(said, subject, relation.attributes[0], why, ctx.index.names)
    reached = sum(1 for v in known if _within_bound(v, low, high))
    held = _held(relation, reached, len(values) - len(known))
    if held is not False:
        return PASSED if held else None  # None: the missing values could make it hold
    return word_finding(
        _with_ordinal(said, ctx.sentence.text),
        _K.RELATION_MISMATCH,
        _threshold_detail(ctx, subject, relation, known, (low, high)),
        subject,
        relation.attributes[0],
    )


def _threshold_detail(
    ctx: WordContext,
    subject: str,
    relation: Threshold,
    known: list[Decimal],
    bounds: tuple[Decimal | None, Decimal | None],
) -> str:
    """ "Harbour Town goals is 3, not 2" for one attribute in its own unit; else how many
    of the attributes are within the bound ("has 1 of points, rebounds >= 10, not 2")."""
    low, high = bounds
    names = ctx.index.names
    if len(relation.attributes) == 1 and relation.unit is None and len(known) == 1:
        wanted = _bound_words(low, high)
        return f"{names.named(subject, relation.attributes[0])} is {known[0]}, not {wanted}"
    reached = sum(1 for v in known if _within_bound(v, low, high))
    listed = ", ".join(names.of(subject, a) for a in relation.attributes)
    exactly = "exactly " if relation.exactly else ""
    bound = _bound_text(low, high)
    return f"{subject} has {reached} of {listed} {bound}, not {exactly}{relation.count}"


def _bound_words(low: Decimal | None, high: Decimal | None) -> str:
    if low is not None and high is not None:
        return f"{low}" if low == high else f"from {low} to {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def _threshold_subject(said: Said, ctx: WordContext, relation: Threshold) -> str | Finding | None:
    """The threshold's subject (:func:`subject_with`), else the nearest subject named
    before it with one of its attributes ("X led the Rockets with a double-double": the
    line is X's, the team only what X led)."""
    subject = subject_with(ctx, said, relation.attributes)
    if subject is not None:
        return subject
    names = relation.attributes
    return next(
        (s for s in ctx.read(said).before if any(ctx.index.knows(s, a) for a in names)), None
    )


def _in_period(said: Said, ctx: WordContext, relation: Threshold | None) -> Threshold | None:
    """The threshold on the period its sentence names ("scored twice in the second half":
    the second half's goals, a one-part period of the lexicon); None (not judged) when the
    period is a sum of parts, which the threshold's attributes cannot stand for."""
    if relation is None or not ctx.lexicon.periods:
        return relation
    start, end = ctx.sentence.structure.sentence(said.start)
    text = ctx.sentence.text
    named = [period_parts(ctx.lexicon.periods, a, text, start, end) for a in relation.attributes]
    if not any(named):
        return relation
    if any(parts is not None and len(parts) > 1 for parts in named):
        return None
    attributes = tuple(
        parts[0] if parts else attribute
        for attribute, parts in zip(relation.attributes, named, strict=True)
    )
    return replace(relation, attributes=attributes, in_period=True)


def _held(relation: Threshold, reached: int, missing: int) -> bool | None:
    """True when ``reached`` attributes at the bound make the threshold hold, None when
    the ``missing`` values could make it hold, False when it does not."""
    if reached == relation.count or (reached > relation.count and not relation.exactly):
        return True
    if reached < relation.count and missing and reached + missing >= relation.count:
        return None
    return False


def _bounds_in_base_unit(relation: Threshold) -> tuple[Decimal | None, Decimal | None, str | None]:
    """The threshold's bounds and unit in its dimension's base unit, as the operands are
    (unchanged for a unitless threshold)."""
    low, high = relation.at_least, relation.at_most
    unit = canonical_unit(relation.unit)
    if unit is None:
        return low, high, None
    low = None if low is None else in_base_unit(low, unit)[0]
    high = None if high is None else in_base_unit(high, unit)[0]
    return low, high, in_base_unit(Decimal(0), unit)[1]


def _threshold_values(
    ctx: WordContext, subject: str, relation: Threshold, unit: str | None
) -> list[Decimal | None]:
    """The subject's value of each attribute the threshold lists (None where it has none
    in the bound's unit)."""
    values: list[Decimal | None] = []
    for attribute in relation.attributes:
        operand = operand_of(ctx, subject, attribute)
        if not isinstance(operand, Operand) or (unit is not None and operand.unit != unit):
            values.append(None)
        elif unit is None:
            values.append(ctx.index.numeric_value(subject, attribute))
        else:
            values.append(operand.value)
    return values


def _bound_text(low: Decimal | None, high: Decimal | None) -> str:
    if low is not None and high is not None:
        return f"= {low}" if low == high else f"from {low} to {high}"
    return f">= {low}" if low is not None else f"<= {high}"


def _within_bound(value: Decimal, low: Decimal | None, high: Decimal | None) -> bool:
    """Within a threshold's bounds (one or both given: "scored twice" is 2 to 2)."""
    return (low is None or value >= low) and (high is None or value <= high)


def _with_ordinal(said: Said, text: str) -> Said:
    """The phrase with the ordinal that counts it ("his second double-double"): the
    count is part of what is stated, and wrong with it."""
    found = ORDINAL_BEFORE.search(text, max(0, said.start - 12), said.start)
    if found is None:
        return said
    return said._replace(start=found.start(), text=text[found.start() : said.end])


def stated_count(said: Said, ctx: WordContext) -> Outcome | None:
    """ "X was the only other starter in double figures", "all five starters ...": the
    members of X's group (those sharing X's ``within`` and the ``among`` values) that
    meet the threshold named after the phrase in its clause must be as many as the
    phrase says (:mod:`vouched._scan._facts._counts`); otherwise ``relation_mismatch`` on the
    phrase. X is the subject before the phrase (after it for "the only other X to ...")."""
    count = relation_of(said, ctx, Count)
    if count is None:
        return None
    threshold = _threshold_after(said, ctx)
    if threshold is None:
        return None
    if count.counted:
        return _counted(said, ctx, count, threshold)
    subject = subject_with(ctx, said, threshold.attributes)
    if not isinstance(subject, str):
        return None  # the threshold's own rule judges a subject no fact is about
    group: list[tuple[str, Word]] = list(count.among)
    for name in count.within:
        known, value = ctx.facts.word_value(subject, name)
        if not known or value is None:
            return None
        group.append((name, value))
    members = [
        other
        for other in ctx.index.subjects_of(threshold.attributes[0])[:MAX_MEMBERS]
        if all(same_value(ctx.facts.word_value(other, name)[1], value) for name, value in group)
    ]
    if subject not in members:
        return _not_of_group(said, ctx, subject, count)
    meeting = [m for m in members if _meets(ctx, m, threshold)]
    if subject not in meeting:
        return None  # X itself misses it: the threshold's finding says so
    before = {*ctx.earlier, *ctx.read(said).before}
    why = unmet(count, subject, meeting, len(members), before)
    if why is None:
        return PASSED
    return word_finding(said, _K.RELATION_MISMATCH, why, subject, threshold.attributes[0])


def _not_of_group(said: Said, ctx: WordContext, subject: str, count: Count) -> Outcome | None:
    """ "X was the only other starter in double figures" when X came off the bench: the
    word naming the group ("starter", a value phrase of the lexicon for the group's
    fixed value) is wrong for X, ``value_mismatch`` on it; the count is not judged. None
    when X is outside the group by its team (another word, the name, is wrong)."""
    for name, value in count.among:
        known, own = ctx.facts.word_value(subject, name)
        if not known or own is None or same_word(own, value):
            continue
        phrases = [p for p, v in ctx.lexicon.words.get(name, {}).items() if same_word(v, value)]
        for phrase in sorted(phrases, key=len, reverse=True):
            found = re.search(rf"\b{re.escape(phrase)}s?\b", said.text, re.IGNORECASE)
            if found is not None:
                start, end = said.start + found.start(), said.start + found.end()
                return word_finding(
                    Said(start, end, found.group(), said.tags),
                    _K.VALUE_MISMATCH,
                    f"{subject}'s {name} is {own!r}, not {found.group()!r}",
                    subject,
                    name,
                )
    return None


def _counted(said: Said, ctx: WordContext, count: Count, threshold: Threshold) -> Outcome | None:
    """ "The Jazz had six players in double figures": the number right before the phrase
    counts the members of the group the sentence's named team is (players whose ``within``
    value is that team) that meet the threshold; another count is ``value_mismatch`` on
    the number. None when no number or no team is read."""
    text = ctx.sentence.text
    words = text[max(0, said.start - _COUNT_REACH) : said.start].lower().split()
    if not words:
        return None
    read = word_number(words[-1:]) if not words[-1].isdigit() else (int(words[-1]), 1)
    if read is None:
        return None
    stated = read[0]
    word_start = text.lower().rfind(words[-1], 0, said.start)
    team = next(
        (
            m.names[0]
            for m in ctx.sentence.named
            if m.start >= 0
            and m.names
            and " ".join(m.names[0].casefold().split()) in ctx.facts.word_attributes
        ),
        None,
    )
    if team is None or len(count.within) != 1:
        return None
    members = [
        other
        for other in ctx.index.subjects_of(threshold.attributes[0])[:MAX_MEMBERS]
        if same_value(ctx.facts.word_value(other, count.within[0])[1], team)
        and all(same_value(ctx.facts.word_value(other, n)[1], v) for n, v in count.among)
    ]
    if not members:
        return None
    meeting = sum(1 for m in members if _meets(ctx, m, threshold))
    if meeting == stated:
        return PASSED
    number = Said(
        word_start,
        word_start + len(words[-1]),
        text[word_start : word_start + len(words[-1])],
        said.tags,
    )
    return word_finding(
        number,
        _K.VALUE_MISMATCH,
        f"{meeting} of {team}'s {count.within[0]} group meet it, not {stated}",
        team,
        threshold.attributes[0],
    )


_COUNT_REACH = 24  # characters before a counted phrase where its number is read


def _threshold_after(said: Said, ctx: WordContext) -> Threshold | None:
    """The threshold phrase that follows the count phrase in its clause."""
    clause_end = ctx.sentence.structure.clause(said.start)[1]
    for cue in ctx.words:
        if said.end <= cue.start < clause_end:
            for tag in cue.names:
                relation = ctx.lexicon.relations.get(tag[2:]) if tag[0] == RELATION else None
                if isinstance(relation, Threshold):
                    return relation
    return None


def _meets(ctx: WordContext, subject: str, threshold: Threshold) -> bool:
    reached = 0
    for attribute in threshold.attributes:
        value = ctx.index.numeric_value(subject, attribute)
        if value is None:
            continue
        if _within_bound(value, threshold.at_least, threshold.at_most):
            reached += 1
    return reached >= threshold.count
