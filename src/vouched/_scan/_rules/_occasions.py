"""Claims about occasions the facts do not cover: ``ungrounded_claim`` on their words.

Facts speak of occasions: a game's box score of one game, a forecast of its slots. A
sentence may speak of another one, and then those facts neither vouch for it nor
deny it:

- **A later occasion** ("they host the Suns on Friday", "the next game is at home"),
  when every date the facts give lies before ``now``: the subject it names that no
  fact is about (the invented opponent, the city it is played in) is an
  ``ungrounded_claim`` on the name. (Weekdays and value words of such a sentence are
  judged by the word rules, the same way.) A later occasion against a team of this one
  is no schedule a writer had: ``ungrounded_claim`` on the name, or ``subject_mismatch``
  when the team is said to meet itself.
- **A span of occasions** ("their third straight win", "averaging 21 points on the
  season", "a season-high 30", "four of their last five games", "seven road wins in 17
  games", "their eighth home win of the season"), where the facts speak of one: the
  numbers of the clause are ``ungrounded_claim`` (one game's line cannot back a season's
  average), and so is the count or the word that states the span ("three straight",
  "season-high"), and a place in the season's standings ("third place in the division",
  "the seventh seed").

``Policy.other_occasions`` decides: ``"flag"`` (the default: an unvouched schedule or
season figure is an invention, as any other number no fact backs) or ``"leave"`` (the
text may speak of other occasions that other data covers; these words are not
checked at all). Denied and hedged words ("not their third straight win", "about 20
points a game") are never flagged.

The words are data (:data:`SPAN_WORDS`), English, written once here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from vouched._scan._facts._factindex import Reading
from vouched._scan._facts._wordmatch import WordFacts
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._units import units_compatible
from vouched._scan._lex._vocabulary import (
    LATER_OCCASION,
    LATER_OPPONENT,
    STANDING,
    STANDING_KEYS,
    folded,
    holds_key,
)
from vouched._scan._read._mentions import MentionKind
from vouched._scan._read._sentence import SentenceRead
from vouched._scan._read._values import Denied, Evidence
from vouched._scan._rules._context import Judged, SentenceContext, Stated, finding_on
from vouched._scan._rules._rule import PASSED, Outcome, Rule, decided

__all__ = [
    "FLAG",
    "LEAVE",
    "OCCASION_RULES",
    "SPAN_KEYS",
    "SPAN_WORDS",
    "OccasionCheck",
    "OccasionRule",
    "OccasionView",
    "later_names",
    "later_own_subjects",
    "may_span",
    "run",
    "span_numbers",
    "span_words",
    "standings",
]

_K = FindingKind
FLAG = "flag"
LEAVE = "leave"


class OccasionView(NamedTuple):
    """What the occasion rules of one sentence read: the sentence, the facts as words
    read them (is every date past, does the policy flag), the findings made so far."""

    sentence: SentenceRead
    facts: WordFacts
    denied: Denied  # is the word at a span denied or hedged (the Evidence's)?
    judged: Sequence[Finding] = ()


OccasionCheck = Callable[[OccasionView], list[Finding]]
"""An occasion rule: the findings on a sentence's words about other occasions."""
OccasionRule = Rule[OccasionCheck]

SPAN_WORDS = re.compile(
    r"\b(?:straight|in\s+a\s+row|consecutive|streak|averag(?:e|es|ed|ing)|per\s+game|"
    r"a\s+game\s+(?:this|on\s+the)\s+season|on\s+the\s+(?:season|year)|this\s+season|"
    r"so\s+far\s+this|of\s+(?:their|his|its)\s+(?:last|previous)|(?:season|career)\s*-?\s*(?:high|low|best)|"
    r"(?:wins|losses|victories|defeats)\s+in\s+(?:\d+|their|his|its)|"
    r"(?:win|loss|victory|defeat)\s+of\s+the\s+(?:season|year))\b",
    re.IGNORECASE,
)
"""Words that make a clause speak of a span of occasions (a streak, a season, a
career), where facts about one occasion cannot back it."""

SPAN_KEYS = (
    "straight", "row", "consecutive", "streak", "averag", "game", "season", "year", "far",
    "last", "previous", "career", "win", "loss", "victor", "defeat",
)  # fmt: skip
"""An exact gate of :data:`SPAN_WORDS` (and of ``_COUNTED``, whose phrases are some of
its own): every match holds one of these, so a sentence that holds none (folded as
IGNORECASE folds it) holds no match. A search costs ~10x the gate on a sentence that
speaks of no span, most of them (tests/scan/test_scan_gates.py holds the claim)."""

_COUNTED = re.compile(
    r"\b(?:straight|in\s+a\s+row|consecutive|streak|(?:season|career)\s*-?\s*(?:high|low|best)|"
    r"of\s+(?:their|his|its)\s+(?:last|previous)|(?:wins|losses|victories|defeats)\s+in\s+"
    r"(?:\d+|their|his|its)|(?:win|loss|victory|defeat)\s+of\s+the\s+(?:season|year))\b",
    re.IGNORECASE,
)
"""The span words that state a count or a record of their own ("three straight", "a
season-high"): the word itself is the claim."""

_COUNT_BEFORE = re.compile(
    r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))"
    r"(?:\s*-\s*|\s+)(?:\w+\s+){0,2}$",
    re.IGNORECASE,
)
"""A count or an ordinal up to two words before a span word ("three straight",
"second game in a row", "five - straight"): the count is the word that is wrong."""
_COUNT_REACH = 32  # characters before a span word where its count is read


def may_span(text: str) -> bool:
    """May ``text`` hold a match of :data:`SPAN_WORDS`? (No means none: :data:`SPAN_KEYS`.)"""
    return holds_key(folded(text), SPAN_KEYS)


def _clause_span(sentence: SentenceRead, position: int) -> tuple[int, int]:
    return sentence.structure.clause(position)


def span_numbers(stated: list[Stated], ctx: SentenceContext) -> list[Stated]:
    """A number in a clause that speaks of a span of occasions ("averaging 21 points on
    the season") is no claim about the facts' occasion: ``ungrounded_claim`` when the
    policy flags other occasions, else it passes unchecked."""
    sentence = ctx.sentence
    if not stated or not may_span(sentence.text) or not SPAN_WORDS.search(sentence.text):
        return stated
    flag = ctx.occasions == FLAG
    out: list[Stated] = []
    for item in stated:
        quantity = item.quantity
        start, end = _clause_span(sentence, quantity.start)
        span = SPAN_WORDS.search(sentence.text, start, end)
        if span is None:
            out.append(item)
            continue
        if ctx.denied(quantity.start, quantity.end):
            out.append(item._replace(outcome=PASSED))  # "has not averaged 20": not said
            continue
        averaged = span.group().lower().startswith("averag")
        over = _over_periods(item, ctx) if averaged else None
        if over is not None:
            out.append(item._replace(outcome=over))
            continue
        outcome = (
            Finding(
                _K.UNGROUNDED_CLAIM,
                quantity.start,
                quantity.end,
                quantity.text,
                f"{quantity.text!r} speaks of several occasions; the facts of one",
                None,
                item.binding.attribute,
            )
            if flag
            else PASSED
        )
        out.append(item._replace(outcome=outcome))
    return out


def _over_periods(item: Stated, ctx: SentenceContext) -> Outcome | None:
    """An average over facts valid for several periods ("winds averaging 3 m/s over the
    five days", "an average of 1011 hPa") speaks of those periods, not of other
    occasions: it lies between their lowest and highest value, within the precision
    shown (how the writer averaged, by slot or by day, is not said), else
    ``value_mismatch``. ``None`` when no attribute of its unit has several periods."""
    quantity, binding = item.quantity, item.binding
    attributes = [binding.attribute] if binding.attribute else sorted(ctx.index.attributes)
    groups: dict[tuple[str, str], list[Reading]] = {}
    for attribute in attributes:
        for reading in ctx.index.attribute_readings(attribute):
            if reading.fact.period is None or reading.kind is not quantity.kind:
                continue
            if quantity.unit is not None and not units_compatible(quantity.unit, reading.unit):
                continue
            groups.setdefault((reading.fact.subject, attribute), []).append(reading)
    spans = [g for g in groups.values() if len({r.fact.period for r in g}) > 1]
    if not spans:
        return None
    half = quantity.quantum / 2
    for group in spans:
        values = [r.value for r in group]
        if any(min(values) - half <= v <= max(values) + half for v in quantity.values):
            return PASSED
    values = [r.value for r in spans[0]]
    return finding_on(
        quantity,
        _K.VALUE_MISMATCH,
        f"{quantity.text!r} is stated as an average over several periods, which lies "
        f"between their lowest and highest value ({min(values)} to {max(values)})",
        spans[0][0].fact,
    )


def span_words(view: OccasionView) -> list[Finding]:
    """The count or record word of a span of occasions ("three straight", "a
    season-high"): ``ungrounded_claim`` on the count when one is written, else on a
    record word ("season-high"). A span word right after a finding of its clause ("his second
    double-double in a row", the ordinal already judged with its phrase) adds nothing."""
    sentence, judged = view.sentence, view.judged
    if view.facts.occasions != FLAG:
        return []
    text = sentence.text
    findings: list[Finding] = []
    if not may_span(text):
        return findings
    for match in _COUNTED.finditer(text):
        start, end = match.span()
        if view.denied(start, end) or _after_finding(sentence, start, judged):
            continue
        count = _COUNT_BEFORE.search(text, max(0, start - _COUNT_REACH), start)
        if count is not None and not count.group().lstrip()[:1].isdigit():
            word = re.match(r"\w+", count.group())
            if word is not None:
                start, end = count.start(), count.start() + word.end()
        elif count is not None:
            continue  # a digit count is a number: read and judged as one
        elif not match.group().lower().startswith(("season", "career")):
            continue  # "a double-double in a row": the phrase before it is the claim
        findings.append(
            Finding(
                _K.UNGROUNDED_CLAIM,
                start,
                end,
                text[start:end],
                "a streak or a season's record: the facts speak of one occasion",
            )
        )
    return findings


def standings(view: OccasionView) -> list[Finding]:
    """A place in a season's table ("they remain in third place in the division", "the
    seventh seed in the conference") speaks of the season's standings, which the facts
    of one occasion neither hold nor imply: ``ungrounded_claim`` on the rank and its
    noun, when the policy flags other occasions (never when denied or hedged)."""
    text = view.sentence.text
    if view.facts.occasions != FLAG or not holds_key(folded(text), STANDING_KEYS):
        return []
    findings: list[Finding] = []
    for match in STANDING.finditer(text):
        start, end = match.span()
        if view.denied(start, end) or any(f.start < end and start < f.end for f in view.judged):
            continue
        findings.append(
            Finding(
                _K.UNGROUNDED_CLAIM,
                start,
                end,
                match.group(),
                "a place in the season's standings: the facts speak of one occasion",
            )
        )
    return findings


def _after_finding(sentence: SentenceRead, start: int, judged: Sequence[Finding]) -> bool:
    low = max(sentence.structure.clause(start)[0], start - _COUNT_REACH)
    return any(low <= f.end <= start for f in judged)


def later_names(view: OccasionView) -> list[Finding]:
    """A name no fact is about, after the words that move the sentence to a later
    occasion ("they host the Suns on Friday"), when every date the facts give has
    passed: ``ungrounded_claim`` on the name (the facts cover no later occasion)."""
    sentence = view.sentence
    if not view.facts.past or view.facts.occasions != FLAG:
        return []
    text = sentence.text
    findings: list[Finding] = []
    for mention in sentence.mentions:
        if mention.kind != MentionKind.UNKNOWN or mention.start < 0:
            continue
        if mention.end - mention.start == 1:
            continue  # a lone capital: an initial the sentence was cut after ("through J.")
        low = sentence.structure.sentence(mention.start)[0]
        if not LATER_OCCASION.search(text, low, mention.start):
            continue
        if view.denied(mention.start, mention.end):
            continue
        findings.append(
            Finding(
                _K.UNGROUNDED_CLAIM,
                mention.start,
                mention.end,
                text[mention.start : mention.end],
                "no fact speaks of a later occasion, nor of this name",
            )
        )
    return findings


def later_own_subjects(view: OccasionView) -> list[Finding]:
    """A later occasion ("they host the Suns on Friday") against a subject of this one
    (a team the facts name as a player's team or an opponent), when every date the facts
    give has passed: the facts are that game's, and its teams' next games are against
    others (a schedule does not pair the same two teams back to back). A team said to
    meet itself ("the Suns host the Phoenix Suns") is ``subject_mismatch`` on the second
    name; this game's opponent met again is ``ungrounded_claim`` on the name."""
    sentence, facts = view.sentence, view.facts
    if not facts.past or facts.occasions != FLAG:
        return []
    text = sentence.text
    findings: list[Finding] = []
    for mention in sentence.mentions:
        if mention.kind != MentionKind.NAMED or mention.start < 0 or not mention.names:
            continue
        name = mention.names[0]
        if " ".join(name.casefold().split()) not in facts.word_attributes:
            continue  # not a team of the game (a player, a place)
        low = sentence.structure.sentence(mention.start)[0]
        later = LATER_OCCASION.search(text, low, mention.start)
        if later is None or LATER_OPPONENT.search(text, later.end(), mention.start) is None:
            continue
        if view.denied(mention.start, mention.end):
            continue
        itself = any(
            m.kind == MentionKind.NAMED
            and low <= m.start < mention.start
            and m.names[:1] == (name,)
            and LATER_OPPONENT.search(text, low, m.start) is None  # the side, not a venue
            for m in sentence.mentions
        )
        findings.append(
            Finding(
                _K.SUBJECT_MISMATCH if itself else _K.UNGROUNDED_CLAIM,
                mention.start,
                mention.end,
                text[mention.start : mention.end],
                f"{name} is said to meet itself at a later occasion: one name is another team's"
                if itself
                else f"a later occasion against {name}, a team of the game the facts speak of",
                name,
                None,
            )
        )
    return findings


OCCASION_RULES: tuple[OccasionRule, ...] = (
    Rule("later_names", later_names, (_K.UNGROUNDED_CLAIM,)),
    Rule("later_own_subjects", later_own_subjects, (_K.UNGROUNDED_CLAIM, _K.SUBJECT_MISMATCH)),
    Rule("span_words", span_words, (_K.UNGROUNDED_CLAIM,)),
    Rule("standings", standings, (_K.UNGROUNDED_CLAIM,)),
)
"""Over each sentence's words, after the word rules; the numbers of a span of occasions
are the explanation family's (:func:`span_numbers`, :data:`EXPLANATION_RULES
<vouched._scan._rules._explanation.EXPLANATION_RULES>`)."""


def run(evidence: Evidence, so_far: Judged) -> list[Finding]:
    """The occasion family over the sentence's words, each rule seeing every finding of
    the sentence made before it (numbers, words, the occasion rules before it); each
    finding counts as a claim checked."""
    judged = [*so_far.numbers(), *so_far.words]
    view = OccasionView(evidence.sentence, so_far.facts, evidence.denied, judged)
    found: list[Finding] = []
    for rule in OCCASION_RULES:
        seen = view._replace(judged=[*judged, *found]) if found else view
        for finding in rule.check(seen):
            decided(rule, finding)
            found.append(finding)
    so_far.checked += len(found)
    return found
