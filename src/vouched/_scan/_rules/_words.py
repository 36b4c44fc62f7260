"""The word rules: facts stated without a digit, one named function each, in one table.

A word that states a fact (found by :mod:`vouched._scan._wordmatch`: a weekday,
a value word, a string fact's value, a relation phrase) goes down
:data:`WORD_RULES` in order; the first rule with an opinion decides it:
:data:`~vouched._scan._rules._rule.PASSED` or a :class:`Finding` on the word itself.
``None`` means "not mine". A denied or hedged word ("did not beat", "one of the
coldest") is never checked (:func:`~vouched._scan._words.denied`).

Each rule's docstring is the rule a careful reader would state. Pure: a rule
reads the sentence, the facts and the lexicon, and returns a value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple, TypeVar

from vouched._scan._factindex import FactIndex, rounds_to
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lexicon import Lexicon, Word
from vouched._scan._reader._numbers import Quantity, QuantityKind
from vouched._scan._reader._units import canonical_unit, in_base_unit
from vouched._scan._relations import Comparison, Superlative, Threshold
from vouched._scan._rules._context import Stated
from vouched._scan._rules._rule import PASSED, Outcome, Rule, decided
from vouched._scan._sentence import Cue, SentenceRead, words_between
from vouched._scan._vocabulary import ORDINAL_BEFORE
from vouched._scan._wordmatch import DAY, RELATION, STRING, VALUE, WordFacts, decode_value
from vouched._scan._words import (
    NOBODY,
    denied,
    later_occasion,
    linked_subject,
    manner_of,
    subject_after,
    subject_of,
    subjects_before,
)

__all__ = ["WORD_RULES", "Said", "WordCheck", "WordContext", "WordRule", "judge_words"]

_K = FindingKind
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(slots=True)
class WordContext:
    """What the word rules of one sentence read."""

    sentence: SentenceRead
    facts: WordFacts
    lexicon: Lexicon
    stated: list[Stated]  # the sentence's checked quantities, in order
    words: list[Cue]  # the sentence's words that state facts

    @property
    def index(self) -> FactIndex:
        return self.facts.index


class Said(NamedTuple):
    """One word that states a fact: its span, its text and its matcher tags."""

    start: int
    end: int
    text: str
    tags: tuple[str, ...]

    def family(self, family: str) -> list[str]:
        """The tags of one family, without their family mark."""
        return [t[2:] for t in self.tags if t[0] == family]


def _finding(
    said: Said,
    kind: FindingKind,
    detail: str,
    subject: str | None = None,
    attribute: str | None = None,
) -> Finding:
    return Finding(kind, said.start, said.end, said.text, detail, subject, attribute)


def _elsewhen(said: Said, ctx: WordContext) -> bool:
    """Is the word about a later occasion than the facts' (all past: a game's box score)?
    Then the facts neither vouch for it nor deny it."""
    return ctx.facts.past and later_occasion(ctx.sentence, said.end)


# -- the rules, in order ---------------------------------------------------------


def stated_weekday(said: Said, ctx: WordContext) -> Outcome | None:
    """A weekday stated for a subject (the nearest named before it that has a date, else
    the one named right after it) is the weekday of one of its dates; when no subject of
    the sentence has a date but the facts speak of one day only, of that day. A
    weekday no date speaks for is left alone (relative days are out of scope). One in a
    sentence about a later occasion, when every date the facts give lies before ``now``
    ("their next game is on Friday", after a game's box score), is ``ungrounded_claim``:
    no fact speaks of that occasion."""
    days = said.family(DAY)
    if not days:
        return None
    if _elsewhen(said, ctx):
        return _finding(said, _K.UNGROUNDED_CLAIM, "no fact gives the date of a later occasion")
    day = int(days[0])
    facts = ctx.facts
    subjects = subjects_before(ctx.sentence, said.start, topic=False) or []
    after = subject_after(ctx.sentence, said.end)
    if after is not None:
        subjects.append(after)
    dated = next((s for s in subjects if s in facts.dates or s in facts.silent_dates), None)
    if dated is not None and dated not in facts.dates:
        return _finding(said, _K.SILENT_SPOKEN, f"{dated}'s date is silent", dated)
    if dated is not None:
        dates = set(facts.dates[dated])
    elif facts.one_date is not None:
        dates = {facts.one_date}
    else:
        return None
    if any(d.weekday() == day for d in dates):
        return PASSED
    said_days = ", ".join(sorted(f"{d.isoformat()} ({_DAYS[d.weekday()]})" for d in dates))
    return _finding(said, _K.VALUE_MISMATCH, f"the date is {said_days}", dated, "date")


def _value_outcome(
    said: Said, ctx: WordContext, subject: str, attributes: list[tuple[str, Word]]
) -> Outcome | None:
    """Check ``subject``'s facts of the attributes a word may state."""
    silent: str | None = None
    known: list[tuple[str, Word]] = []
    for attribute, value in attributes:
        is_known, fact_value = ctx.facts.word_value(subject, attribute)
        if not is_known:
            continue
        if fact_value is None:
            silent = attribute
            continue
        if _same_word(fact_value, value):
            return PASSED
        known.append((attribute, fact_value))
    if known:
        attribute, fact_value = known[0]
        return _finding(
            said,
            _K.VALUE_MISMATCH,
            f"{subject}'s {attribute} is {fact_value!r}, not {said.text!r}",
            subject,
            attribute,
        )
    if silent is not None:
        return _finding(said, _K.SILENT_SPOKEN, f"{subject}'s {silent} is silent", subject, silent)
    return None


def _same(fact: Word | None, stated: Word) -> bool:
    return fact is not None and _same_word(fact, stated)


def _same_word(fact: Word, stated: Word) -> bool:
    if isinstance(fact, bool) or isinstance(stated, bool):
        return fact is stated
    return " ".join(fact.casefold().split()) == " ".join(stated.casefold().split())


def stated_value(said: Said, ctx: WordContext) -> Outcome | None:
    """A value phrase the lexicon declares ("online", "off the bench" = false) states its
    attribute's value for the subject it qualifies: the name right after it ("the host
    Magic"), else the nearest subject before it in its sentence (a pronoun's). Another
    value there is ``value_mismatch`` on the phrase; a silent one ``silent_spoken``. A
    value phrase with no subject in its sentence, or that describes the manner of a verb
    ("book the class online"), is left alone; one about a later occasion after past
    facts is ``ungrounded_claim``."""
    tags = said.family(VALUE)
    if not tags:
        return None
    if _elsewhen(said, ctx):
        return _finding(said, _K.UNGROUNDED_CLAIM, "no fact speaks of a later occasion")
    attributes = [decode_value(f"{VALUE}\x00{t}")[1:] for t in tags]
    sentence = ctx.sentence
    if manner_of(sentence, said.start):
        return None  # "book the class online": how to book, not the class
    after = linked_subject(sentence, said.start, said.end)
    candidates = [after] if after is not None else []
    candidates.extend(subjects_before(sentence, said.start, topic=False) or [])
    for subject in candidates:
        if any(ctx.index.knows(subject, a) for a, _ in attributes):
            return _value_outcome(said, ctx, subject, attributes)
    return None


def stated_word(said: Said, ctx: WordContext) -> Outcome | None:
    """A string fact's own value ("in person", "Kings") tied by linking words alone to a
    subject that has a fact of that attribute ("the Rust course is held in person",
    "Cousins of the Hawks") states that subject's value: another value is
    ``value_mismatch`` on the word."""
    values = said.family(STRING)
    if not values or _elsewhen(said, ctx) or manner_of(ctx.sentence, said.start):
        return None
    subject = linked_subject(ctx.sentence, said.start, said.end)
    if subject is None:
        return None
    attributes = sorted(ctx.facts.word_attributes.get(values[0], ()))
    return _value_outcome(said, ctx, subject, [(a, values[0]) for a in attributes])


class Operand(NamedTuple):
    """A subject's value of an attribute as a relation compares it: in its dimension's
    base unit (a time as minutes of the day, a date as a day number)."""

    value: Decimal
    unit: str | None
    kind: QuantityKind


def _operand(ctx: WordContext, subject: str, attribute: str) -> Operand | str:
    """A subject's one value of an attribute, or why there is none: "silent" (the pair is
    silent), "none" (no grounded value) or "many" (several values: not comparable)."""
    readings = ctx.index.pair_readings(subject, attribute)
    if not readings:
        return "silent" if (subject, attribute) in ctx.index.silent_pairs else "none"
    found = {(r.kind, r.value, r.unit) for r in readings}
    if len(found) != 1:
        return "many"
    kind, value, unit = found.pop()
    based, base = in_base_unit(value, unit)
    return Operand(based, base, kind)


def _comparable(a: Operand, b: Operand) -> bool:
    return a.kind is b.kind and a.unit == b.unit


def quantity_matches_value(quantity: Quantity, value: Decimal) -> bool:
    """Does a stated number say ``value`` (as written or rounded to the precision shown)?"""
    return rounds_to(value, quantity.value, quantity.quantum)


def _holds(left: Decimal, op: str, right: Decimal) -> bool:
    return {
        "<": left < right,
        "<=": left <= right,
        ">": left > right,
        ">=": left >= right,
        "=": left == right,
    }[op]


def _subject_with(
    ctx: WordContext, said: Said, attributes: tuple[str, ...], *, after: bool = True
) -> str | Finding | None:
    """The subject of a relation phrase (:func:`subject_of`), checked by :func:`_checked`."""
    subject = subject_of(ctx.sentence, said.start, said.end, after=after)
    return _checked(ctx, said, subject, attributes)


def _checked(
    ctx: WordContext, said: Said, subject: str | None, attributes: tuple[str, ...]
) -> str | Finding | None:
    """``subject`` when some fact of ``attributes`` speaks of it. A subject no fact is
    about, or one of the same kind as those that have the attributes but without them (a
    currency with no spread fact), is an ``ungrounded_claim``; another kind of subject
    leaves the phrase alone ("the Bucks led for most of the game" is no player's scoring
    rank)."""
    if subject is None:
        return None
    if subject != NOBODY and any(ctx.index.knows(subject, a) for a in attributes):
        return subject
    if subject == NOBODY or ctx.facts.same_kind(subject, attributes):
        name = subject or "a subject no fact is about"
        return _finding(
            said, _K.UNGROUNDED_CLAIM, f"no grounded {attributes[0]} for {name}", subject or None
        )
    return None


def _shown(ctx: WordContext, subject: str, attribute: str) -> str:
    facts = ctx.index.facts_of(subject, attribute)
    if not facts:
        return "unknown"
    fact = facts[0]
    return f"{fact.value} {fact.unit}" if fact.unit else str(fact.value)


def _not_grounded(said: Said, subject: str, attribute: str, why: str) -> Finding | None:
    if why == "many":
        return None  # several values: not one to compare
    if why == "silent":
        return _finding(
            said, _K.SILENT_SPOKEN, f"{subject}'s {attribute} is silent", subject, attribute
        )
    return _finding(
        said, _K.UNGROUNDED_CLAIM, f"no grounded {attribute} for {subject}", subject, attribute
    )


def stated_comparison(said: Said, ctx: WordContext) -> Outcome | None:
    """ "X <phrase> Y" states attribute(X) <op> attribute(Y): X the nearest subject before
    the phrase that has the attribute, Y the subject named right after it. One that does
    not hold is ``relation_mismatch`` on the phrase; an operand with no grounded value
    ``ungrounded_claim`` (``silent_spoken`` when it is silent)."""
    relation = _relation(said, ctx, Comparison)
    if relation is None:
        return None
    attribute = relation.attribute
    left = _subject_with(ctx, said, (attribute,), after=False)
    if not isinstance(left, str):
        return left
    right = _checked(ctx, said, subject_after(ctx.sentence, said.end), (attribute,))
    if not isinstance(right, str):
        return right
    if left == right:
        return None
    a, b = _operand(ctx, left, attribute), _operand(ctx, right, attribute)
    if not isinstance(a, Operand):
        return _not_grounded(said, left, attribute, a)
    if not isinstance(b, Operand):
        return _not_grounded(said, right, attribute, b)
    if not _comparable(a, b):
        return None  # values in other currencies or kinds: nothing to compare
    if _holds(a.value, relation.holds, b.value):
        return PASSED
    return _finding(
        said,
        _K.RELATION_MISMATCH,
        f"{left}'s {attribute} is {_shown(ctx, left, attribute)}, {right}'s is "
        f"{_shown(ctx, right, attribute)}: {relation.holds} does not hold",
        left,
        attribute,
    )


def stated_rank(said: Said, ctx: WordContext) -> Outcome | None:
    """ "X ... <superlative>" states that X has the largest (or smallest) value of an
    attribute among the subjects that have one (that share X's ``within`` values, such as
    a player's team); ties hold. The attribute and X are those of the number the phrase
    qualifies when one follows in its clause ("a game-high 30 points", "led the way with
    20 points"; the reading that vouches for it), else the phrase's own attribute and the
    subject before it (after it for "led by X"). Otherwise ``relation_mismatch``."""
    relation = _relation(said, ctx, Superlative)
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
            _checked(ctx, said, subject_after(ctx.sentence, said.end), (attribute,))
            if said.text.lower().endswith(" by")
            else _subject_with(ctx, said, (attribute,))
        )
        if not isinstance(found, str):
            return found
        subject = found
    group = _named_group(said, ctx, subject, relation.within)
    if group is not None:
        return group
    for name, value in relation.among:
        known, own_value = ctx.facts.word_value(subject, name)
        if known and own_value is not None and not _same_word(own_value, value):
            return _finding(
                said,
                _K.RELATION_MISMATCH,
                f"{subject}'s {name} is {own_value!r}: not among {name} = {value!r}",
                subject,
                name,
            )
    own = _operand(ctx, subject, attribute)
    if not isinstance(own, Operand):
        return _not_grounded(said, subject, attribute, own)
    peers = _peers(ctx, subject, attribute, relation, own)
    if peers is None:
        return None
    best = max(peers) if relation.rank == "max" else min(peers)
    if own.value == best:
        return PASSED
    where = f" among {subject}'s {'/'.join(relation.within)} peers" if relation.within else ""
    return _finding(
        said,
        _K.RELATION_MISMATCH,
        f"{subject}'s {attribute} is {_shown(ctx, subject, attribute)}; another's is "
        f"{'higher' if relation.rank == 'max' else 'lower'}{where}",
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
            if known and own is not None and not _same_word(own, value):
                group = Said(start, end, text[start:end], ())
                return _finding(
                    group,
                    _K.VALUE_MISMATCH,
                    f"{subject}'s {attribute} is {own!r}, not {group.text!r}",
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
            if all(_same(facts.word_value(other, name)[1], group) for name, group in groups)
            and isinstance(value := _operand(ctx, other, attribute), Operand)
            and _comparable(value, own)
        ]
    return cached or None


def stated_threshold(said: Said, ctx: WordContext) -> Outcome | None:
    """ "X ... <threshold>" ("a triple-double", "below freezing") states that at least
    ``count`` of X's listed attributes reach the bound; otherwise ``relation_mismatch`` on
    the phrase. X is the nearest subject before it with any of those attributes."""
    relation = _relation(said, ctx, Threshold)
    if relation is None:
        return None
    subject = _subject_with(ctx, said, relation.attributes)
    if not isinstance(subject, str):
        return subject
    low, high = relation.at_least, relation.at_most
    unit = canonical_unit(relation.unit)
    if unit is not None:  # the bound in its dimension's base unit, as the operands are
        low = None if low is None else in_base_unit(low, unit)[0]
        high = None if high is None else in_base_unit(high, unit)[0]
        unit = in_base_unit(Decimal(0), unit)[1]
    values: list[Decimal | None] = []
    for attribute in relation.attributes:
        operand = _operand(ctx, subject, attribute)
        if not isinstance(operand, Operand) or (unit is not None and operand.unit != unit):
            values.append(None)
        elif unit is None:
            values.append(ctx.index.numeric_value(subject, attribute))
        else:
            values.append(operand.value)
    known = [v for v in values if v is not None]
    if not known:
        silent = any((subject, a) in ctx.index.silent_pairs for a in relation.attributes)
        return _not_grounded(said, subject, relation.attributes[0], "silent" if silent else "none")
    reached = sum(
        1 for v in known if (low is not None and v >= low) or (high is not None and v <= high)
    )
    if reached >= relation.count:
        return PASSED
    if len(known) < len(values) and reached + len(values) - len(known) >= relation.count:
        return None  # the missing values could make it hold
    bound = f">= {low}" if low is not None else f"<= {high}"
    return _finding(
        _with_ordinal(said, ctx.sentence.text),
        _K.RELATION_MISMATCH,
        f"{subject} has {reached} of {', '.join(relation.attributes)} {bound}, "
        f"not {relation.count}",
        subject,
        relation.attributes[0],
    )


def _with_ordinal(said: Said, text: str) -> Said:
    """The phrase with the ordinal that counts it ("his second double-double"): the
    count is part of what is stated, and wrong with it."""
    found = ORDINAL_BEFORE.search(text, max(0, said.start - 12), said.start)
    if found is None:
        return said
    return said._replace(start=found.start(), text=text[found.start() : said.end])


_R = TypeVar("_R", Comparison, Superlative, Threshold)


def _relation(said: Said, ctx: WordContext, kind: type[_R]) -> _R | None:
    for phrase in said.family(RELATION):
        relation = ctx.lexicon.relations.get(phrase)
        if isinstance(relation, kind):
            return relation
    return None


WordCheck = Callable[[Said, WordContext], Outcome | None]
"""A word rule: ``PASSED``, a finding on the word, or None ("not mine")."""
WordRule = Rule[WordCheck]

WORD_RULES: tuple[WordRule, ...] = (
    Rule(
        "stated_weekday",
        stated_weekday,
        (_K.VALUE_MISMATCH, _K.SILENT_SPOKEN, _K.UNGROUNDED_CLAIM),
    ),
    Rule(
        "stated_value",
        stated_value,
        (_K.VALUE_MISMATCH, _K.SILENT_SPOKEN, _K.UNGROUNDED_CLAIM),
    ),
    Rule("stated_word", stated_word, (_K.VALUE_MISMATCH, _K.SILENT_SPOKEN)),
    Rule(
        "stated_comparison",
        stated_comparison,
        (_K.RELATION_MISMATCH, _K.UNGROUNDED_CLAIM, _K.SILENT_SPOKEN),
    ),
    Rule(
        "stated_rank",
        stated_rank,
        (_K.RELATION_MISMATCH, _K.UNGROUNDED_CLAIM, _K.SILENT_SPOKEN, _K.VALUE_MISMATCH),
    ),
    Rule(
        "stated_threshold",
        stated_threshold,
        (_K.RELATION_MISMATCH, _K.UNGROUNDED_CLAIM, _K.SILENT_SPOKEN),
    ),
)
"""Applied in order to each word that states a fact; the first with an opinion decides."""


def judge_words(ctx: WordContext) -> tuple[list[Finding], int]:
    """The findings of a sentence's words that state facts, and how many were checked."""
    findings: list[Finding] = []
    checked = 0
    text = ctx.sentence.text
    for cue in ctx.words:
        said = Said(cue.start, cue.end, text[cue.start : cue.end], cue.names)
        if denied(ctx.sentence, said.start, said.end):
            continue
        for rule in WORD_RULES:
            outcome = rule.check(said, ctx)
            if outcome is not None:
                checked += 1
                if isinstance(outcome, Finding):
                    decided(rule, outcome)
                    findings.append(outcome)
                break
    return findings, checked
