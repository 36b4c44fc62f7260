"""The scanner's rules: every decision that makes a finding, in one ordered registry.

:data:`REGISTRY` lists the families in the order the scanner runs them (each runner
reports its family to :func:`~vouched._scan._rules._rule.traced`, and a test holds the
case suite to this order; with facts valid for periods, duration .. occasion run once
per period view a sentence speaks of, then the time family over the whole), each a
module of this folder holding its rules in priority order:

=============  ===============  ===================================================
family         module           reads, and decides
=============  ===============  ===================================================
text           ``_text``        the whole text: placeholders, internal words, fallbacks
quote          ``_text``        one sentence's quoted spans: those in no source
duration       ``_quantity``    a duration no cue binds: a claim only in another unit
quantity       ``_quantity``    one stated quantity: the first rule with an opinion
revision       ``_revision``    one quantity's outcome, made sharper (pairs, restated)
clause         ``_clause``      a clause's quantities together (wrong name, column)
explanation    ``_explanation`` a sentence's numbers as a whole: the fewest changed words
words          ``_words``       facts stated in words (weekdays, value words, relations)
occasion       ``_occasions``   words about occasions the facts do not cover (later, spans)
time           ``_time``        the period a sentence speaks of (facts with periods)
echo           ``_echo``        the caller's own strings an answer repeats (``Scanner.echoes``)
=============  ===============  ===================================================

Beside the family modules, what the rules share:

- ``_rule``: what a rule is (``Rule``, ``Family``, ``audited``, ``decided``).
- ``_context``: what the rules of stated quantities read (``SentenceContext``).
- ``_said``: what the word rules read (``WordContext``, ``Said``).
- ``_relation``, ``_ranks``: the relation rules of the words family.
- ``_margins``: margins and periods of a comparison, arithmetic over the facts.
- ``_ranges``: a range stated for a period, against the period's facts.
- ``_timefindings``: how findings read when time binds (uncovered periods, ranges).

A rule is a :class:`~vouched._scan._rules._rule.Rule`: a name, a ``check`` typed by
its family, and the finding kinds it may return; the runners below report any other
kind to :func:`~vouched._scan._rules._rule.audited`, and a test runs every corpus
under it. Which finding wins a span is one policy,
:func:`~vouched._scan._findings.once_per_span`, used by the scanner, replay and
answers alike (the word rules yield to the rules of numbers and of the text).

Adding a rule: write the function in its family's module (its docstring the rule a
careful reader would state), add ``Rule("name", function, (kinds...))`` to the
family's tuple at its priority. Adding a family: a module here with its check type
(``XCheck = Callable[...]``, ``XRule = Rule[XCheck]``) and its tuple, a
:class:`~vouched._scan._rules._rule.Family` member at its place in the order, an
:class:`Entry` in :data:`REGISTRY`, and a runner that calls
:func:`~vouched._scan._rules._rule.decided` on each finding a rule returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from vouched._scan._findings import Finding
from vouched._scan._lex._numbers import Quantity
from vouched._scan._read._values import Binding
from vouched._scan._rules._clause import CLAUSE_RULES
from vouched._scan._rules._context import Carry, SentenceContext, Stated
from vouched._scan._rules._echo import ECHO_RULES
from vouched._scan._rules._explanation import EXPLANATION_RULES
from vouched._scan._rules._occasions import OCCASION_RULES, OccasionView
from vouched._scan._rules._quantity import DURATION_RULES, QUANTITY_RULES
from vouched._scan._rules._revision import REVISIONS
from vouched._scan._rules._rule import PASSED, Family, Outcome, Rule, decided, ran
from vouched._scan._rules._text import QUOTE_RULES, TEXT_RULES, QuoteView, TextView
from vouched._scan._rules._time import TIME_RULES, run_time_rule
from vouched._scan._rules._words import WORD_RULES, WordContext, judge_words

__all__ = [
    "PASSED",
    "REGISTRY",
    "Carry",
    "Entry",
    "OccasionView",
    "QuoteView",
    "SentenceContext",
    "Stated",
    "TextView",
    "WordContext",
    "judge",
    "judge_clauses",
    "judge_duration",
    "judge_occasions",
    "judge_quotes",
    "judge_text",
    "run_time",
    "run_words",
]


class Entry(NamedTuple):
    """One family of the registry and its rules, in priority order."""

    family: Family
    rules: tuple[Rule[Any], ...]


REGISTRY: tuple[Entry, ...] = (
    Entry(Family.TEXT, TEXT_RULES),
    Entry(Family.QUOTE, QUOTE_RULES),
    Entry(Family.DURATION, DURATION_RULES),
    Entry(Family.QUANTITY, QUANTITY_RULES),
    Entry(Family.REVISION, REVISIONS),
    Entry(Family.CLAUSE, CLAUSE_RULES),
    Entry(Family.EXPLANATION, EXPLANATION_RULES),
    Entry(Family.WORDS, WORD_RULES),
    Entry(Family.OCCASION, OCCASION_RULES),
    Entry(Family.TIME, TIME_RULES),
    Entry(Family.ECHO, ECHO_RULES),
)
"""Every rule of the scanner, by family, in the order they run (a test traces the
runners over the case suite and holds them to it)."""


def judge_text(view: TextView) -> list[Finding]:
    """The text rules over a whole text, in order; each sees the findings before it."""
    ran(Family.TEXT)
    findings: list[Finding] = []
    for rule in TEXT_RULES:
        for finding in rule.check(view, findings):
            decided(rule, finding)
            findings.append(finding)
    return findings


def judge_quotes(view: QuoteView) -> list[Finding]:
    """The quote rules over one sentence's quoted spans."""
    findings: list[Finding] = []
    if not view.quotes:
        return findings
    ran(Family.QUOTE)
    for rule in QUOTE_RULES:
        for finding in rule.check(view):
            decided(rule, finding)
            findings.append(finding)
    return findings


def judge_duration(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Finding | None:
    """A duration no cue binds: the first duration rule's finding, if any."""
    ran(Family.DURATION)
    for rule in DURATION_RULES:
        outcome = rule.check(quantity, binding, ctx)
        if isinstance(outcome, Finding):
            decided(rule, outcome)
            return outcome
    return None


def judge(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome:
    """The first quantity rule with an opinion decides; the revisions follow."""
    ran(Family.QUANTITY)
    outcome: Outcome = PASSED
    for rule in QUANTITY_RULES:
        found = rule.check(quantity, binding, ctx)
        if found is not None:
            outcome = found
            if isinstance(found, Finding):
                decided(rule, found)
            break
    ran(Family.REVISION)
    for revision in REVISIONS:
        revised = revision.check(Stated(quantity, binding, outcome), ctx)
        if revised is not outcome and isinstance(revised, Finding):
            decided(revision, revised)
        outcome = revised
    return outcome


def judge_occasions(view: OccasionView) -> list[Finding]:
    """The occasion rules over one sentence's words, in order."""
    ran(Family.OCCASION)
    findings: list[Finding] = []
    for rule in OCCASION_RULES:
        for finding in rule.check(view._replace(judged=[*view.judged, *findings])):
            decided(rule, finding)
            findings.append(finding)
    return findings


def judge_clauses(stated: list[Stated], ctx: SentenceContext) -> list[Stated]:
    """The clause rules, then the explanation rules, over a sentence's statements."""
    for family, rules in ((Family.CLAUSE, CLAUSE_RULES), (Family.EXPLANATION, EXPLANATION_RULES)):
        ran(family)
        for rule in rules:
            before = {id(s.outcome) for s in stated}
            stated = rule.check(stated, ctx)
            _decided_new(rule, stated, before)
    return stated


def run_words(context: WordContext) -> tuple[list[Finding], int]:
    """The words family over one sentence's words that state facts (its findings, and
    how many words it checked)."""
    ran(Family.WORDS)
    return judge_words(context)


def run_time(name: str, *args: Any) -> list[Finding]:
    """The time rule ``name`` (:func:`~vouched._scan._rules._time.run_time_rule`)."""
    ran(Family.TIME)
    return run_time_rule(name, *args)


def _decided_new(rule: Rule[Any], stated: Sequence[Stated], before: set[int]) -> None:
    for item in stated:
        if isinstance(item.outcome, Finding) and id(item.outcome) not in before:
            decided(rule, item.outcome)
