"""The scanner's rules: every decision that makes a finding, in one ordered registry.

:data:`REGISTRY` lists the families in the order the scanner runs them (a test traces
the runs over the case suite and holds them to this order), each a module of this
folder holding its rules in priority order. One sentence is judged by one call,
:func:`judge_read`: its quotes, then the families of one sentence read on one view of
the facts (duration .. occasion) in one loop, :func:`judge_sentence`, on the Evidence of
each period it speaks of (one Evidence without periods), then the time family over the
whole sentence. Each family of that loop exports ``run(evidence, so_far)``, which reads
the sentence's frozen :class:`~vouched._scan._read._values.Evidence` and its judgement so
far (:class:`~vouched._scan._rules._context.Judged`) and returns the findings it adds.
The text family runs over a whole batch of text (:func:`judge_text`), the echo family
in the answer stage.

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
- ``_context``: what the rules of stated quantities read (``SentenceContext``), and one
  sentence's judgement so far (``Judged``).
- ``_said``: what the word rules read (``WordContext``, ``Said``).
- ``_relation``, ``_ranks``: the relation rules of the words family.
- ``_margins``: margins and periods of a comparison, arithmetic over the facts.
- ``_ranges``: a range stated for a period, against the period's facts.
- ``_timefindings``: how findings read when time binds (uncovered periods, ranges).
- ``_rows``: another row's value stated for a named row (of the quantity family).

A rule is a :class:`~vouched._scan._rules._rule.Rule`: a name, a ``check`` typed by
its family, and the finding kinds it may return; the runners below report any other
kind to :func:`~vouched._scan._rules._rule.audited`, and a test runs every corpus
under it. Which finding wins a span is one policy,
:func:`~vouched._scan._findings.once_per_span`, used by the scanner, replay and
answers alike (the word rules yield to the rules of numbers and of the text).

Adding a rule: write the function in its family's module (its docstring the rule a
careful reader would state), add ``Rule("name", function, (kinds...))`` to the
family's tuple at its priority. Adding a family of a sentence: a module here with its
check type (``XCheck = Callable[...]``, ``XRule = Rule[XCheck]``), its tuple and its
``run(evidence, so_far)`` (which calls :func:`~vouched._scan._rules._rule.decided` on
each finding a rule returns), a :class:`~vouched._scan._rules._rule.Family` member at
its place in the order, and an :class:`Entry` in :data:`REGISTRY`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from vouched._scan._facts._periodviews import PeriodViews
from vouched._scan._facts._wordmatch import WordFacts
from vouched._scan._findings import Finding
from vouched._scan._lex._numbers import Quantity
from vouched._scan._lex._quotes import QuoteSpan
from vouched._scan._read._values import Binding, Evidence, Read
from vouched._scan._rules import _clause, _explanation, _occasions, _quantity, _words
from vouched._scan._rules._clause import CLAUSE_RULES
from vouched._scan._rules._context import Carry, Judged, SentenceContext, Stated
from vouched._scan._rules._echo import ECHO_RULES
from vouched._scan._rules._explanation import EXPLANATION_RULES
from vouched._scan._rules._occasions import OCCASION_RULES
from vouched._scan._rules._quantity import DURATION_RULES, QUANTITY_RULES, first_opinion
from vouched._scan._rules._revision import REVISIONS, revise
from vouched._scan._rules._rule import PASSED, Family, Outcome, Rule, decided, ran
from vouched._scan._rules._text import QUOTE_RULES, TEXT_RULES, QuoteView, TextView
from vouched._scan._rules._time import TIME_RULES, InView, run_periods, run_time_rule
from vouched._scan._rules._words import WORD_RULES

__all__ = [
    "PASSED",
    "REGISTRY",
    "Carry",
    "Entry",
    "InView",
    "Judged",
    "Judging",
    "QuoteView",
    "SentenceContext",
    "Stated",
    "TextView",
    "judge",
    "judge_quotes",
    "judge_read",
    "judge_sentence",
    "judge_text",
    "run_periods",
    "run_time",
]

Run = Callable[[Evidence, Judged], list[Finding]]
"""A family's runner over one sentence: its rules in order on the sentence's
:class:`~vouched._scan._read._evidence.Evidence` and its judgement so far; the
findings it adds that no later family revises."""


class Entry(NamedTuple):
    """One family of the registry, its rules in priority order, and its runner over one
    sentence (``None``: run elsewhere, as the entry says)."""

    family: Family
    rules: tuple[Rule[Any], ...]
    run: Run | None = None
    yields: bool = False  # its findings yield a span to the findings of numbers


REGISTRY: tuple[Entry, ...] = (
    Entry(Family.TEXT, TEXT_RULES),  # over a whole batch of text: judge_text
    Entry(Family.QUOTE, QUOTE_RULES),  # a sentence's quoted spans, read first: judge_quotes
    Entry(Family.DURATION, DURATION_RULES, _quantity.run_durations),
    Entry(Family.QUANTITY, QUANTITY_RULES, _quantity.run),
    Entry(Family.REVISION, REVISIONS),  # per stated item, inside the quantity family's run
    Entry(Family.CLAUSE, CLAUSE_RULES, _clause.run),
    Entry(Family.EXPLANATION, EXPLANATION_RULES, _explanation.run),
    Entry(Family.WORDS, WORD_RULES, _words.run, yields=True),
    Entry(Family.OCCASION, OCCASION_RULES, _occasions.run, yields=True),
    Entry(Family.TIME, TIME_RULES),  # over the periods a sentence speaks of: run_time
    Entry(Family.ECHO, ECHO_RULES),  # the answer stage's: Scanner.echoes
)
"""Every rule of the scanner, by family, in the order they run (a test traces the
runners over the case suite and holds them to it)."""

_SENTENCE = tuple((e.family, e.run, e.yields) for e in REGISTRY if e.run is not None)


def judge_sentence(
    evidence: Evidence, carry: Carry, facts: WordFacts, named: AbstractSet[str], occasions: str
) -> Judged:
    """The families of one sentence read on one view of the facts (duration ..
    occasion), in the registry's order, each reading what the ones before decided
    (``carry``: what earlier sentences left to the restatements; ``facts``: the view's
    facts as words read them; ``named``: the subjects earlier sentences named;
    ``occasions``: the policy on other occasions)."""
    sentence = evidence.sentence
    ctx = SentenceContext(
        sentence, evidence.structures, sentence.facts, carry, evidence.denied, occasions=occasions
    )
    so_far = Judged(ctx, facts, named)
    for family, run, yields in _SENTENCE:
        ran(family)
        found = run(evidence, so_far)
        (so_far.words if yields else so_far.found).extend(found)
    return so_far


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


def judge(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome:
    """One stated quantity alone (tests): the first quantity rule with an opinion, then
    the revisions."""
    ran(Family.QUANTITY)
    return revise(Stated(quantity, binding, first_opinion(quantity, binding, ctx)), ctx)


def run_time(name: str, *args: Any) -> list[Finding]:
    """The time rule ``name`` (:func:`~vouched._scan._rules._time.run_time_rule`)."""
    ran(Family.TIME)
    return run_time_rule(name, *args)


@dataclass(slots=True)
class Judging:
    """What the sentences of one text are judged with, and what they leave each other:
    the facts as words read them (``words``; by period in ``views`` when some fact has
    one), the sources' quoted text (``corpus``), the lexicon's comparisons, the subjects
    the text named so far (``named``, the read stage's, kept up to date there), and the
    carry of restatements per view of the facts."""

    words: WordFacts
    views: PeriodViews | None
    corpus: list[str]
    comparisons: Mapping[str, Any]
    named: AbstractSet[str]
    carries: dict[int, Carry] = field(default_factory=dict)


def judge_read(
    part: str,
    quotes: list[QuoteSpan],
    quantities: Sequence[Quantity],
    read: Read,
    judging: Judging,
) -> tuple[list[Finding], list[Finding], list[Finding], int]:
    """One sentence judged by the families of the registry, in order: its ``quotes``,
    then duration .. occasion on the Evidence of each period it speaks of, then the
    time family over the whole (``quantities``: every one the sentence states). The
    findings of the sentence as a whole (quotes, weekdays), of numbers, of words (which
    yield a span to the others), and how many claims were checked."""
    before = judge_quotes(QuoteView(quotes, judging.corpus))
    views, occasions = judging.views, judging.words.occasions
    judged: list[InView] = []
    checked = 0
    for periods, evidence in read.views:
        facts = judging.words if views is None else views.view(periods)[1]
        carry = judging.carries.setdefault(id(evidence.sentence.facts), Carry())
        so_far = judge_sentence(evidence, carry, facts, judging.named, occasions)
        judged.append((periods, so_far.numbers(), so_far.words))
        checked += so_far.checked
    if read.timed is None or views is None:
        _, said, words = judged[0]
        return before, said, words, checked
    weekdays, said, words = run_periods(
        part, quantities, read.timed, views, judging.comparisons, judged
    )
    return [*before, *weekdays], said, words, checked
