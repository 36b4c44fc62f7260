"""What a scanner compiles once from its inputs, before it reads any text.

:class:`Compiled` holds everything that depends only on the scanner's inputs: the
fact index, the fact views by period, the facts stated in words, the lexicon's phrase
matchers, the capital names the number reader keeps whole, the internal terms, the
normalised quote sources and the question's numbers. Built once per
:class:`~vouched.Scanner` (and kept for equal inputs by a one-shot ``scan``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from vouched._fact import Fact
from vouched._gate import GateResult
from vouched._policy import DEFAULT_POLICY, Policy
from vouched._scan._facts._attributenames import AttributeNames
from vouched._scan._facts._conditions import current_conditions
from vouched._scan._facts._factindex import FactIndex
from vouched._scan._facts._gameparts import period_sums, sum_attribute
from vouched._scan._facts._lexicon import Lexicon
from vouched._scan._facts._periodviews import PeriodViews
from vouched._scan._facts._wordmatch import WordFacts
from vouched._scan._inputs import as_instant, as_lexicon
from vouched._scan._lex._numbers import QuantityKind, read_numbers
from vouched._scan._lex._quotes import normalise
from vouched._scan._lex._textchecks import internal_terms
from vouched._scan._read._binding import Matchers, compile_matchers

__all__ = ["Compiled"]

_EMPTY = Lexicon()


def _split_facts(
    facts: GateResult | Iterable[Fact],
) -> tuple[list[Fact], list[Fact], list[Fact]]:
    if isinstance(facts, GateResult):
        rejected = [v.fact for v in facts.violations]
        return list(facts.grounded), list(facts.silent), rejected
    grounded: list[Fact] = []
    silent: list[Fact] = []
    for fact in facts:
        (silent if fact.is_silent else grounded).append(fact)
    return grounded, silent, []


def _capital_names(index: FactIndex, lexicon: Lexicon) -> frozenset[str]:
    """Subject names and aliases that are one all-capital word ("ACME"), for the reader."""
    names = set(index.subjects)
    for aliases in lexicon.subjects.values():
        names.update(aliases)
    return frozenset(name for name in names if name.isupper() and name.isalpha())


def _question_values(question: str | None) -> frozenset[tuple[QuantityKind, Any]]:
    if not question:
        return frozenset()
    values: set[tuple[QuantityKind, Any]] = set()
    for quantity in read_numbers(question):
        for value in quantity.values:
            values.add((quantity.kind, value))
            values.add((quantity.kind, abs(value)))
    return frozenset(values)


def _phrases(lexicon: Lexicon) -> dict[str, tuple[str, ...]]:
    """Each attribute's lexicon phrases, a period's sum named by its period phrase ("at
    halftime" for the first two quarters' sum): the words a finding's detail uses."""
    found: dict[str, tuple[str, ...]] = {}
    for phrase, entry in lexicon.periods.items():
        for parts in entry.values():
            if len(parts) > 1:
                found.setdefault(sum_attribute(parts), (phrase,))
    return {**found, **lexicon.attributes}


class Compiled:
    """What depends only on the scanner's inputs, built once."""

    __slots__ = (
        "asked",
        "capitals",
        "corpus",
        "grounded",
        "index",
        "lexicon",
        "matchers",
        "now",
        "periods",
        "policy",
        "terms",
        "words",
    )

    def __init__(
        self,
        facts: GateResult | Iterable[Fact],
        lexicon: Lexicon | Mapping[str, Any] | None = None,
        sources: Iterable[str] = (),
        question: str | None = None,
        policy: Policy = DEFAULT_POLICY,
        *,
        now: datetime | str | None = None,
    ) -> None:
        grounded, silent, rejected = _split_facts(facts)
        lexicon = as_lexicon(lexicon) or _EMPTY
        # a half as the sum of its quarters, read like any fact ("58-57 at halftime")
        summed = [*grounded, *period_sums(grounded, lexicon.periods)]
        names = AttributeNames(_phrases(lexicon), (*grounded, *silent, *rejected))
        index = FactIndex.build(summed, silent, policy.exact, rejected, names)
        now = as_instant(now)
        self.index = index
        self.lexicon = lexicon
        if now is None and isinstance(facts, GateResult):
            now = facts.at
        current = current_conditions(lexicon.conditions, grounded)
        self.words = WordFacts(index, now, policy.other_occasions, current)
        self.periods = PeriodViews.build(
            grounded,
            silent,
            rejected,
            policy.exact,
            now,
            (index, self.words),
            lexicon.conditions,
            lexicon.extremes,
        )
        self.matchers: Matchers = compile_matchers(lexicon, index, self.words)
        self.capitals = _capital_names(index, lexicon)
        self.terms = internal_terms(lexicon.internal, index.identifiers)
        self.corpus = [
            normalise(source) for source in (*sources, *index.string_values, *index.subjects)
        ]
        self.asked = _question_values(question)
        self.grounded = grounded  # what vouches, as given (a caller's strings are read on it)
        self.policy = policy
        self.now = now
