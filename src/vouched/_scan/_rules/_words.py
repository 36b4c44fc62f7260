"""The word rules: facts stated without a digit, one named function each, in one table.

A word that states a fact (found by :mod:`vouched._scan._facts._wordmatch`: a weekday,
a value word, a string fact's value, a relation phrase) goes down
:data:`WORD_RULES` in order; the first rule with an opinion decides it:
:data:`~vouched._scan._rules._rule.PASSED` or a :class:`Finding` on the word itself.
``None`` means "not mine". A denied or hedged word ("did not beat", "one of the
coldest") is never checked (:func:`~vouched._scan._read._wordreading.denied`).

Each rule's docstring is the rule a careful reader would state. Pure: a rule
reads the sentence, the facts and the lexicon, and returns a value.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable

from vouched._scan._facts._conditions import Conditions
from vouched._scan._facts._conditions import Said as ConditionSaid
from vouched._scan._facts._lexicon import Word
from vouched._scan._facts._wordmatch import CONDITION, DAY, STRING, VALUE, decode_value
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._english import ENGLISH
from vouched._scan._read._values import Evidence
from vouched._scan._rules._context import Judged
from vouched._scan._rules._ranks import Ranked, stated_count, stated_rank, stated_threshold
from vouched._scan._rules._relation import stated_comparison
from vouched._scan._rules._rule import PASSED, Outcome, Rule, decided
from vouched._scan._rules._said import (
    Said,
    WordContext,
    elsewhen,
    same_word,
    word_finding,
)

__all__ = ["WORD_RULES", "Said", "WordCheck", "WordContext", "WordRule", "judge_words", "run"]

_K = FindingKind
_DAYS = tuple(day.capitalize() for day in ENGLISH["weekdays"])


def _unbacked(said: Said, ctx: WordContext, detail: str) -> Finding | None:
    """``ungrounded_claim`` on a word about a later occasion, unless the policy leaves
    other occasions alone."""
    if ctx.facts.occasions != "flag":
        return None
    return word_finding(said, _K.UNGROUNDED_CLAIM, detail)


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
    if elsewhen(said, ctx):
        return _unbacked(said, ctx, "no fact gives the date of a later occasion")
    day = int(days[0])
    facts = ctx.facts
    read = ctx.read(said)
    subjects = list(read.before)
    after = read.after
    if after is not None:
        subjects.append(after)
    dated = next((s for s in subjects if s in facts.dates or s in facts.silent_dates), None)
    if dated is not None and dated not in facts.dates:
        return word_finding(said, _K.SILENT_SPOKEN, f"{dated}'s date is silent", dated)
    if dated is not None:
        dates = set(facts.dates[dated])
    elif facts.one_date is not None:
        dates = {facts.one_date}
    else:
        return None
    if any(d.weekday() == day for d in dates):
        return PASSED
    said_days = ", ".join(sorted(f"{d.isoformat()} ({_DAYS[d.weekday()]})" for d in dates))
    return word_finding(said, _K.VALUE_MISMATCH, f"the date is {said_days}", dated, "date")


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
        if same_word(fact_value, value):
            return PASSED
        known.append((attribute, fact_value))
    if known:
        attribute, fact_value = known[0]
        return word_finding(
            said,
            _K.VALUE_MISMATCH,
            f"{ctx.index.names.named(subject, attribute)} is {fact_value!r}, not {said.text!r}",
            subject,
            attribute,
        )
    if silent is not None:
        return word_finding(
            said,
            _K.SILENT_SPOKEN,
            f"{ctx.index.names.named(subject, silent)} is silent",
            subject,
            silent,
        )
    return None


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
    if elsewhen(said, ctx):
        return _unbacked(said, ctx, "no fact speaks of a later occasion")
    attributes = [decode_value(f"{VALUE}\x00{t}")[1:] for t in tags]
    read = ctx.read(said)
    if read.manner:
        return None  # "book the class online": how to book, not the class
    after = read.linked
    candidates = [after] if after is not None else []
    candidates.extend(read.before)
    for subject in candidates:
        if any(ctx.index.knows(subject, a) for a, _ in attributes):
            return _value_outcome(said, ctx, subject, attributes)
        group = (
            _group_knowing(ctx, subject, attributes) if _opens_clause(said, ctx, subject) else None
        )
        if group is not None:  # "but Lindqvist won it": his team won
            return _value_outcome(said, ctx, group, attributes)
    return None


def _opens_clause(said: Said, ctx: WordContext, subject: str) -> bool:
    """Is ``subject`` the first name of the phrase's clause (its grammatical subject, as in
    "but Lindqvist's penalty won it"), not a name inside a phrase before it ("a change
    for Z. Herivaux and ended up winning")?"""
    sentence = ctx.sentence
    clause = sentence.structure.clause(said.start)
    i = bisect_left(sentence.mention_starts, clause[0])
    if i >= len(sentence.mentions) or sentence.mentions[i].start >= said.start:
        return False
    return subject in sentence.mentions[i].names


def _group_knowing(
    ctx: WordContext, subject: str, attributes: list[tuple[str, Word]]
) -> str | None:
    """The one group ``subject`` belongs to (a player's team) that has a fact of one of
    ``attributes``: a result word said of a player speaks of his side."""
    index = ctx.index
    groups = [
        g
        for g in sorted(index.strings_of(subject))
        if index.belongs_to(subject, g) and any(index.knows(g, a) for a, _ in attributes)
    ]
    return groups[0] if len(groups) == 1 else None


def stated_word(said: Said, ctx: WordContext) -> Outcome | None:
    """A string fact's own value ("in person", "Kings") tied by linking words alone to a
    subject that has a fact of that attribute ("the Rust course is held in person",
    "Cousins of the Hawks") states that subject's value: another value is
    ``value_mismatch`` on the word."""
    values = said.family(STRING)
    if not values or elsewhen(said, ctx) or ctx.read(said).manner:
        return None
    subject = ctx.read(said).linked
    if subject is None:
        return None
    attributes = sorted(ctx.facts.word_attributes.get(values[0], ()))
    return _value_outcome(said, ctx, subject, [(a, values[0]) for a in attributes])


def current_condition(said: Said, ctx: WordContext) -> Outcome | None:
    """A weather word stated for a place with current conditions ("It's sunny in
    Vienna", "Zurich is foggy") says what the place's condition fact says: a word of a
    family its condition does not belong to (nor a family it names under ``also``), or a
    denial or opposite ("no rain", "dry") of one it belongs to, is ``value_mismatch`` on
    the word. Left alone: a hedged word ("a chance of showers"), the noun of a stated
    quantity ("0.2 mm of rain"), and a place whose condition belongs to no family of the
    lexicon (the facts cannot speak of it in those words)."""
    phrases = said.family(CONDITION)
    conditions = ctx.facts.conditions
    if not phrases or conditions is None:
        return None
    if any(s.binding.cue is not None and _within(said, s.binding.cue) for s in ctx.stated):
        return None  # "1.1 mm of rain": the quantity's noun, not a condition stated
    place = ctx.read(said).place
    if not place:
        return None
    values = sorted(v for v in ctx.index.strings_of(place) if conditions.of_values((v,)))
    present = conditions.of_values(values)
    if not present:
        return None
    stated = _stated_now(conditions, ctx.sentence.text.lower(), said)
    if not stated:
        return None  # hedged: "a chance of showers" (later) is not the condition now
    wrong = any(
        any(c.name in present for c in s.families)
        if s.denied
        else not any(c.name in present or not present.isdisjoint(c.also) for c in s.families)
        for s in stated
    )
    if not wrong:
        return PASSED
    attribute = min(ctx.facts.word_attributes.get(values[0].casefold(), {None}) or {None}, key=str)
    return word_finding(
        said,
        _K.VALUE_MISMATCH,
        f"{place}'s condition is {' / '.join(values)!r}, not {said.text!r}",
        place,
        attribute,
    )


def _stated_now(conditions: Conditions, lowered: str, said: Said) -> list[ConditionSaid]:
    """What the sentence states as the case at ``said``'s words: a possibility ("a chance
    of snow") is a claim about a period, never about the conditions now."""
    return [
        s
        for s in conditions.statements(lowered)
        if (s.start, s.end) == (said.start, said.end) and not s.possible
    ]


def _within(said: Said, span: tuple[int, int]) -> bool:
    return span[0] <= said.start and said.end <= span[1]


WordCheck = Callable[[Said, WordContext], Ranked | None]
"""A word rule: ``PASSED``, a finding on the word (one per claim when a phrase holds
two: "led the bench"), or None ("not mine")."""
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
    Rule("current_condition", current_condition, (_K.VALUE_MISMATCH,)),
    Rule(
        "stated_comparison",
        stated_comparison,
        (_K.RELATION_MISMATCH, _K.UNGROUNDED_CLAIM, _K.SILENT_SPOKEN, _K.SUBJECT_MISMATCH),
    ),
    Rule(
        "stated_rank",
        stated_rank,
        (_K.RELATION_MISMATCH, _K.UNGROUNDED_CLAIM, _K.SILENT_SPOKEN, _K.VALUE_MISMATCH),
    ),
    Rule("stated_count", stated_count, (_K.RELATION_MISMATCH, _K.VALUE_MISMATCH)),
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
        if ctx.read(said).denied:  # a negation or hedge: never judged
            continue
        for rule in WORD_RULES:
            outcome = rule.check(said, ctx)
            if outcome is not None:
                checked += 1
                found = outcome if isinstance(outcome, tuple) else (outcome,)
                for finding in found:
                    if isinstance(finding, Finding):
                        decided(rule, finding)
                        findings.append(finding)
                break
    return findings, checked


def run(evidence: Evidence, so_far: Judged) -> list[Finding]:
    """The words family over the sentence's words that state facts (each checked word
    counts as a claim checked), reading the statements the number families decided."""
    if not evidence.words:
        return []
    sentence = evidence.sentence
    ctx = WordContext(
        sentence,
        so_far.facts,
        sentence.lexicon,
        so_far.stated,
        list(evidence.words),
        so_far.named,
        evidence.readings,
    )
    found, checked = judge_words(ctx)
    so_far.checked += checked
    return found
