"""The sentence explained: the fewest changed words that make it true.

Annotators of model output mark the fewest words whose change makes a sentence
true; a scanner that judges each number alone marks every number of a line stated
for the wrong name, and misses the name. This module chooses, per subject named in
a sentence, the explanation with the fewest changed tokens.

The cost model (what a change costs, what a coincidence is worth):

- A statement is a number, or a pair of whole counts written as one phrase
  ("9-for-12", "( 20 - 14 )"): one record or one shooting line is one thing said, and
  one change. The two ends of a range of prices are two statements.
- Keeping the text's reading costs one change per statement no plausible reading of
  its subject vouches for.
- Changing the name to another subject ``T`` costs one for the name, plus one per
  statement that ``T``'s facts of the same attributes do not vouch for.
- The cheapest explanation wins; on a tie the text's own reading wins, so a new name
  must save at least one change: two statements wrong for the name and right for ``T``.
- A new name may leave at most :data:`MAX_STILL_WRONG` statement wrong: a line wrong
  in several places under either name is a line of wrong numbers.
- A coincidence is worth nothing: when two or more subjects reach the same lowest
  cost, the numbers point at no one (small counts fit many rows of a box score) and
  the text's reading is kept; so too when every statement the new subject explains
  fits more than :data:`MAX_SHARED` subjects ("one steal and one block").

Under the chosen explanation the name is one ``subject_mismatch`` (on the name), each
number still wrong for the new subject a ``value_mismatch``, and every other number
passes. A subject compared with itself ("the Hawks defeated the Hawks", "Lyon is
colder than Lyon") is a changed name whatever the values: the second mention, the
word a reader corrects (:func:`self_compared`).

The search is bounded per sentence: at most :data:`MAX_NUMBERS` numbers per name and
:data:`MAX_SUBJECTS` other subjects tried, so one name costs at most
``MAX_NUMBERS x MAX_SUBJECTS`` fits, and a sentence at most that times its names
(its numbers bound the names that have any): linear in the text.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable

from vouched._scan._facts._factindex import FactIndex, describe, quantity_matches
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._numbers import Quantity
from vouched._scan._lex._units import units_compatible
from vouched._scan._lex._vocabulary import words_between
from vouched._scan._read._mentions import Mention, MentionKind
from vouched._scan._read._sentence import SentenceRead
from vouched._scan._read._values import Evidence
from vouched._scan._rules._context import Judged, SentenceContext, Stated, any_fits, sharpened
from vouched._scan._rules._occasions import span_numbers
from vouched._scan._rules._rule import PASSED, Rule

__all__ = [
    "EXPLANATION_RULES",
    "MAX_NUMBERS",
    "MAX_SUBJECTS",
    "ExplanationCheck",
    "ExplanationRule",
    "explained_names",
    "run",
    "self_compared",
]

_K = FindingKind
ExplanationCheck = Callable[[list[Stated], SentenceContext], list[Stated]]
"""An explanation rule: the sentence's statements, some outcomes replaced."""
ExplanationRule = Rule[ExplanationCheck]
MAX_NUMBERS = 16
"""The most numbers stated for one name that the search weighs (the first ones)."""
MAX_SUBJECTS = 64
"""The most other subjects tried as the name's replacement (sorted by name)."""
MAX_STILL_WRONG = 0
"""The most statements a new name may leave wrong. Measured on the Rotowire training
texts, every line a new name explained but for one number was a line of wrong numbers
to the annotators (three of three): a new name must explain the whole line."""
_WEIGHED = (_K.VALUE_MISMATCH,)


def _fits(index: FactIndex, item: Stated, subject: str) -> bool:
    quantity = item.quantity
    attribute = item.binding.readings[0].attribute
    return any(
        quantity_matches(quantity, r) and units_compatible(quantity.unit, r.unit)
        for r in index.pair_readings(subject, attribute)
    )


def _groups(stated: list[Stated]) -> dict[int, list[Stated]]:
    """The numbers stated for each named mention whose attribute is clear."""
    groups: dict[int, list[Stated]] = {}
    for item in stated:
        binding = item.binding
        if binding.mention >= 0 and binding.readings and binding.clear:
            groups.setdefault(binding.mention, []).append(item)
    return groups


def _weighable(group: list[Stated]) -> bool:
    """Every outcome is a pass or a wrong value (an ungrounded or silent number, a unit,
    is another question), and the group names one subject."""
    named = group[0].binding.readings[0].subject
    return all(
        (item.outcome is PASSED or getattr(item.outcome, "kind", None) in _WEIGHED)
        and item.binding.readings[0].subject == named
        for item in group
    )


def _statements(group: list[Stated], ctx: SentenceContext) -> list[list[int]]:
    """The group's statements, as positions in it: each number one, the two halves of a
    pair of whole counts written as one phrase ("9-for-12", "( 20 - 14 )") one together;
    the ends of a range of prices ("$63.02 to $64.90") stay two."""
    statements: list[list[int]] = []
    open_pair = False
    for position, item in enumerate(group):
        if ctx.structures.in_pair(item.quantity) and _whole(item.quantity):
            if open_pair:
                statements[-1].append(position)
                open_pair = False
                continue
            open_pair = True
        else:
            open_pair = False
        statements.append([position])
    return statements


def _whole(quantity: Quantity) -> bool:
    return quantity.value == quantity.value.to_integral_value()


def _best_other(
    group: list[Stated], named: str, ctx: SentenceContext
) -> tuple[str, list[bool]] | None:
    """The one subject whose reading costs least and less than the text's, with which
    numbers it vouches for; None when the text's reading is as cheap, or a tie."""
    index = ctx.index
    statements = _statements(group, ctx)
    wrong = [any(group[i].outcome is not PASSED for i in s) for s in statements]
    kept = wrong.count(True)
    if kept < 2:  # a new name costs one: it must save at least one more
        return None
    candidates: set[str] = set()
    for attribute in {item.binding.readings[0].attribute for item in group}:
        candidates.update(index.subjects_of(attribute))
    candidates.discard(named)
    # the wrong statements first: most subjects miss one of them, and leave the search
    order = sorted(range(len(statements)), key=lambda k: not wrong[k])
    table: dict[str, list[bool]] = {}
    best: list[str] = []
    lowest = kept  # the text's reading: a tie keeps it
    for subject in sorted(candidates)[:MAX_SUBJECTS]:
        cost = 1
        for k in order:
            if not all(_fits(index, group[i], subject) for i in statements[k]):
                cost += 1
                if cost > 1 + MAX_STILL_WRONG:
                    break  # a line wrong for the new name too: its numbers are wrong
        if cost > 1 + MAX_STILL_WRONG:
            continue
        table[subject] = [_fits(index, item, subject) for item in group]
        if cost < lowest:
            lowest, best = cost, [subject]
        elif cost == lowest:
            best.append(subject)
    if len(best) != 1:
        return None  # no cheaper reading, or a coincidence shared by several subjects
    if not _distinctive(group, statements, best[0], ctx):
        return None  # "one steal and one block": counts half the roster shares
    return best[0], table[best[0]]


MAX_SHARED = 2
"""The most subjects a value may fit and still say whose line it is: a small count (one
steal, two blocks) fits many rows of a box score and names no one."""


def _distinctive(
    group: list[Stated], statements: list[list[int]], subject: str, ctx: SentenceContext
) -> bool:
    """Does some statement the new subject's facts vouch for fit few subjects (at most
    :data:`MAX_SHARED`)? A swap that rests only on values many subjects share is a
    coincidence, not a name."""
    index = ctx.index
    for statement in statements:
        if not all(_fits(index, group[i], subject) for i in statement):
            continue
        attribute = group[statement[0]].binding.readings[0].attribute
        shared = 0
        for other in index.subjects_of(attribute)[:MAX_SUBJECTS]:
            if all(_fits(index, group[i], other) for i in statement):
                shared += 1
                if shared > MAX_SHARED:
                    break
        if shared <= MAX_SHARED:
            return True
    return False


def _name_mention(ctx: SentenceContext, start: int, named: str) -> tuple[int, int] | None:
    """The span of the mention at ``start``; for a pronoun, its antecedent's name when the
    sentence names it before (the word to change is the name, not the pronoun)."""
    mentions = ctx.sentence.mentions
    mention = next((m for m in mentions if m.start == start), None)
    if mention is None:
        return None
    if mention.kind == MentionKind.PRONOUN:
        for earlier in reversed(mentions):
            if (
                0 <= earlier.start < start
                and earlier.kind == MentionKind.NAMED
                and named in earlier.names[:1]
            ):
                return earlier.start, earlier.end
    return mention.start, mention.end


def explained_names(stated: list[Stated], ctx: SentenceContext) -> list[Stated]:
    """A name whose numbers another subject explains with fewer changes (see the module's
    cost model) is one ``subject_mismatch`` on the name; the numbers that subject's facts
    vouch for pass, the others stay wrong. Not when the sentence names that subject apart
    (its own numbers are said there): then the numbers are wrong, each its own finding."""
    if sum(1 for item in stated if item.outcome is not PASSED) < 2:
        return stated  # a new name must make two wrong statements right
    sentence = ctx.sentence
    replaced: dict[int, list[Stated]] = {}
    for start, named_group in _groups(stated).items():
        group = named_group[:MAX_NUMBERS]
        if not _weighable(group):
            continue
        named = group[0].binding.readings[0].subject
        found = _best_other(group, named, ctx)
        span = _name_mention(ctx, start, named)
        if found is None or span is None:
            continue
        other, fits = found
        if _named_apart(sentence, other, span):
            continue  # "X went 42 percent ..., while Y went 42 percent": Y's own are said
        text = sentence.text[span[0] : span[1]]
        swap = Finding(
            _K.SUBJECT_MISMATCH,
            span[0],
            span[1],
            text,
            f"the values stated for {named} are {other}'s"
            + (f" ({fits.count(False)} still wrong)" if not all(fits) else ""),
            named,
            None,
        )
        for position, (item, fit) in enumerate(zip(group, fits, strict=True)):
            # the name's finding rides on the first number; a wrong one stays beside it
            named_here = [item._replace(outcome=swap)] if position == 0 else []
            if fit:
                replaced[id(item)] = named_here or [item._replace(outcome=PASSED)]
            elif item.outcome is PASSED:
                wrong = item._replace(outcome=_wrong_for(item, other, ctx))
                replaced[id(item)] = [*named_here, wrong]
            else:
                replaced[id(item)] = [*named_here, item]
    if not replaced:
        return stated
    return [new for item in stated for new in replaced.get(id(item), [item])]


def _named_apart(sentence: SentenceRead, other: str, span: tuple[int, int]) -> bool:
    """Does the sentence name ``other`` itself, by a mention of its own away from the name
    at ``span``? Then its numbers are said for it there ("the Warriors went 42 percent,
    while the Clippers went 42 percent"), and a name changed into it would say them
    twice: the numbers of the first clause are wrong, not its name."""
    return any(
        m.kind == MentionKind.NAMED
        and m.start >= 0
        and m.names[:1] == (other,)
        and not (m.start < span[1] and span[0] < m.end)
        for m in sentence.mentions
    )


def unbacked_names(stated: list[Stated], ctx: SentenceContext) -> list[Stated]:
    """A number stated after a name that opens its clause (the nearest named before it
    in its sentence) whose facts have none of its attribute, though they share others
    with the subject the number was read for, or with a subject that has the stat when
    it was read for no one (a player with a team and a role but no points: he did not
    play), is about that name: no fact backs it, and the name is the word that is wrong.
    One finding on the name: ``subject_mismatch`` naming whose line it is when one other
    subject's facts vouch for every number (two at least), else ``ungrounded_claim``;
    its numbers make no finding of their own."""
    sentence = ctx.sentence
    named = [m for m in sentence.mentions if m.start >= 0 and m.kind == MentionKind.NAMED]
    if not named or not stated:
        return stated
    starts = [m.start for m in named]
    groups: dict[int, list[Stated]] = {}
    for item in stated:
        binding = item.binding
        if not binding.clear or _attribute(item) is None:
            continue
        i = bisect_left(starts, item.quantity.start) - 1
        if i >= 0 and _unbacked(named[i], item, ctx):
            groups.setdefault(named[i].start, []).append(item)
    if not groups:
        return stated
    replaced: dict[int, list[Stated]] = {}
    for start, group in groups.items():
        if len(group) < 2 and _vouched_by_nothing(group[0]):
            continue  # one number no fact has is its own finding; two are a line
        finding = _unbacked_finding(named[starts.index(start)], group, ctx)
        for position, item in enumerate(group):
            outcome = finding if position == 0 else PASSED
            replaced[id(item)] = [item._replace(outcome=outcome)]
    return [new for item in stated for new in replaced.get(id(item), [item])]


def _vouched_by_nothing(item: Stated) -> bool:
    """Read for no one and ``ungrounded_number``: no fact of any subject has it."""
    outcome = item.outcome
    return isinstance(outcome, Finding) and outcome.kind is _K.UNGROUNDED_NUMBER


def _unbacked_finding(mention: Mention, group: list[Stated], ctx: SentenceContext) -> Finding:
    """One finding on the name: ``subject_mismatch`` when one other subject's facts vouch
    for the whole line (whose line it is), else ``ungrounded_claim``."""
    name = mention.names[0]
    attributes = sorted({a for item in group if (a := _attribute(item)) is not None})
    other = _only_fit(group, name, ctx)
    return Finding(
        _K.UNGROUNDED_CLAIM if other is None else _K.SUBJECT_MISMATCH,
        mention.start,
        mention.end,
        ctx.sentence.text[mention.start : mention.end],
        f"no fact of {', '.join(ctx.index.names.of(None, a) for a in attributes[:3])} "
        f"for {name}: the numbers stated for "
        + (f"{name} are no fact's" if other is None else f"{name} are {other}'s"),
        name,
        attributes[0] if other is None else None,
    )


def _attribute(item: Stated) -> str | None:
    """The attribute a number states: its best reading's, else the one its cue names
    (a stat no subject of its clause has, "Korver had 12 points" for a player who did
    not play)."""
    readings = item.binding.readings
    return readings[0].attribute if readings else item.binding.attribute


def _unbacked(mention: Mention, item: Stated, ctx: SentenceContext) -> bool:
    """Is ``item`` (read for another subject, or for none) about the name ``mention``
    that opens its clause, a subject of the same kind with no fact of its attribute?"""
    sentence, index = ctx.sentence, ctx.index
    name, attribute = mention.names[0], _attribute(item)
    if attribute is None:
        return False
    readings = item.binding.readings
    if readings:
        other = readings[0].subject
    else:  # read for no one: the name's kind is that of any subject with the stat
        others = index.subjects_of(attribute)
        if not others or not (item.outcome is PASSED or _vouched_by_nothing(item)):
            return False  # vouched by membership, or by nothing at all
        other = others[0]
    return not (
        name == other
        or index.knows(name, attribute)
        or sentence.structure.sentence(mention.start)
        != sentence.structure.sentence(item.quantity.start)
        or not _leads(sentence, mention.start)
        or not _same_kind(index, name, other)
    )


def _only_fit(group: list[Stated], name: str, ctx: SentenceContext) -> str | None:
    """The one subject (not ``name``) whose facts vouch for every number of the group,
    at least two numbers: whose line it is. None when no one's, or several subjects'
    (small counts fit many rows: a coincidence points at no one)."""
    if len(group) < 2:  # one number is a coincidence, two a line
        return None
    index = ctx.index
    found: list[str] = []
    first = _attribute(group[0])
    for subject in index.subjects_of(first) if first is not None else ():
        if subject == name:
            continue
        if all(
            (a := _attribute(item)) is not None
            and any_fits(item.quantity, index.pair_readings(subject, a))
            for item in group
        ):
            found.append(subject)
            if len(found) > 1:
                return None
    return found[0] if found else None


_LEADING = frozenset({"while", "and", "but", "with", "as", "meanwhile", "also", "the"})


def _leads(sentence: SentenceRead, start: int) -> bool:
    """Is the name at ``start`` the subject its clause opens with ("X chipped in with 13
    points", "while X added 9")? Not a name further on ("wetter than Munich, with")."""
    clause = sentence.structure.clause(start)
    before = words_between(sentence.text, clause[0], start)
    return all(word in _LEADING for word in before) and len(before) <= 2


def _same_kind(index: FactIndex, subject: str, other: str) -> bool:
    """Do two subjects share an attribute (a player and a player; not a team)?"""
    return any(index.knows(subject, a) and index.knows(other, a) for a in index.attributes)


def _wrong_for(item: Stated, subject: str, ctx: SentenceContext) -> Finding:
    quantity = item.quantity
    attribute = item.binding.readings[0].attribute
    facts = ctx.index.pair_readings(subject, attribute)
    shown = f" {describe(facts[0], ctx.index.names)}" if facts else ""
    period = facts[0].fact.period if facts else None
    return Finding(
        _K.VALUE_MISMATCH,
        quantity.start,
        quantity.end,
        quantity.text,
        f"{quantity.text!r} read as {ctx.index.names.named(subject, attribute)} "
        f"does not match{shown}",
        subject,
        attribute,
        period,
        facts[0].fact.value if period is not None else None,
    )


def self_compared(
    sentence: SentenceRead, start: int, end: int, subject: str, *, first: bool = False
) -> Finding | None:
    """ "the Hawks defeated the Hawks": a relation phrase at ``[start, end)`` between two
    names of the same subject. One of them is another subject: the first when ``first``
    (the relation holds with another subject in its place, and not in the second's),
    else the second, the word a reader corrects: ``subject_mismatch`` on it. None when
    the left side is a pronoun or the topic (not named twice)."""
    mentions = sentence.mentions
    i = bisect_left(sentence.mention_starts, start) - 1
    if i < 0 or mentions[i].kind != MentionKind.NAMED or mentions[i].names[:1] != (subject,):
        return None
    j = bisect_left(sentence.mention_starts, end)
    if j >= len(mentions) or mentions[j].kind != MentionKind.NAMED:
        return None
    changed = mentions[i] if first else mentions[j]
    return Finding(
        _K.SUBJECT_MISMATCH,
        changed.start,
        changed.end,
        sentence.text[changed.start : changed.end],
        f"{subject} is compared with itself: one of the two names is another subject",
        subject,
        None,
    )


EXPLANATION_RULES: tuple[ExplanationRule, ...] = (
    Rule("span_numbers", span_numbers, (_K.UNGROUNDED_CLAIM, _K.VALUE_MISMATCH)),
    Rule("unbacked_names", unbacked_names, (_K.UNGROUNDED_CLAIM, _K.SUBJECT_MISMATCH)),
    Rule("explained_names", explained_names, (_K.SUBJECT_MISMATCH, _K.VALUE_MISMATCH)),
)
"""In order, after the clause rules: numbers about other occasions first (they are no
statement about the facts' occasion, so no name is weighed by them), then the names."""


def run(evidence: Evidence, so_far: Judged) -> list[Finding]:
    """The explanation family over the sentence's statements, after the clause family:
    their outcomes sharpened in ``so_far.stated``, none returned."""
    so_far.stated = sharpened(EXPLANATION_RULES, so_far.stated, so_far.ctx)
    return []
