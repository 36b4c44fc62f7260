"""An Evidence built for a test: a world and one sentence in, what the rules read out.

The same read stage the scanner runs (:func:`~vouched._scan._read._evidence.read_evidence`
over the compiled world), so a rule can be driven alone: its test says which rule broke,
while the TOML case suite stays the judge of the whole.
"""

from __future__ import annotations

from dataclasses import dataclass

from vouched._scan._compiled import Compiled
from vouched._scan._lex._numbers import read_numbers
from vouched._scan._lex._numwords import word_tokens
from vouched._scan._lex._quotes import find_quotes
from vouched._scan._read._binding import evidence
from vouched._scan._read._derived import computed_words
from vouched._scan._read._evidence import read_evidence
from vouched._scan._read._sentence import find_all
from vouched._scan._read._times import SentenceTime, read_times
from vouched._scan._read._values import Evidence
from vouched._scan._rules import Carry, QuoteView, SentenceContext, Stated, TextView
from vouched._scan._rules._occasions import OccasionView
from vouched._scan._rules._rule import PASSED
from vouched._scan._rules._said import Said, WordContext

from .._cases import world  # noqa: TID252 - the scanner tests' own loader


@dataclass(frozen=True)
class Built:
    """One sentence read in a compiled world, and the views each family's rules take."""

    text: str
    compiled: Compiled
    evidence: Evidence

    def context(self) -> SentenceContext:
        """What the quantity rules read (a fresh carry: no earlier sentence)."""
        sentence = self.evidence.sentence
        words = self.compiled.words
        return SentenceContext(
            sentence,
            self.evidence.structures,
            sentence.facts,
            Carry(),
            self.evidence.denied,
            occasions=words.occasions,
        )

    def stated(self, ctx: SentenceContext | None = None) -> list[Stated]:
        """Each claim with its evidence read (what the quantity rules judge), not yet judged
        (outcome ``PASSED``); earlier claims count as vouched for."""
        ctx = ctx or self.context()
        sentence, structures = self.evidence.sentence, self.evidence.structures
        gates = computed_words(sentence.text)
        items = []
        for quantity, bound in self.evidence.claims:
            binding = evidence(sentence, structures, quantity, bound, ctx.passed, gates)
            items.append(Stated(quantity, binding, PASSED))
        return items

    def words(self, stated: list[Stated] | None = None) -> WordContext:
        """What the word rules read."""
        ev = self.evidence
        return WordContext(
            ev.sentence,
            self.compiled.words,
            self.compiled.lexicon,
            stated or [],
            list(ev.words),
            readings=ev.readings,
        )

    def said(self, phrase: str) -> Said:
        """The word that states a fact at ``phrase`` (its first place in the sentence)."""
        start = self.text.index(phrase)
        cue = next(w for w in self.evidence.words if w.start == start)
        return Said(cue.start, cue.end, self.text[cue.start : cue.end], cue.names)

    def timing(self) -> SentenceTime:
        """The time expressions of the sentence, on the world's calendar (facts with
        periods only)."""
        views = self.compiled.periods
        assert views is not None, "a world whose facts have periods"
        return read_times(self.text.lower(), views.calendar)

    def occasion(self) -> OccasionView:
        return OccasionView(self.evidence.sentence, self.compiled.words, self.evidence.denied)

    def text_view(self) -> TextView:
        lowered = self.text.lower()
        return TextView(self.text, lowered, word_tokens(lowered), self.compiled.terms)

    def quote_view(self) -> QuoteView:
        return QuoteView(find_quotes(self.text), self.compiled.corpus)


def build(world_name: str, text: str, *, lexicon: bool = True) -> Built:
    """``text`` (one sentence) read in the test world ``world_name``."""
    w = world(world_name)
    compiled = Compiled(w.gated, w.lexicon if lexicon else None, w.sources, policy=w.policy)
    lowered = text.lower()
    tokens = word_tokens(lowered)
    found = find_all(
        compiled.matchers, text, lowered, tokens, read_numbers(text, compiled.capitals, tokens)
    )
    read = read_evidence(text, found, [], compiled.index, compiled.lexicon, [], compiled.asked)
    return Built(text, compiled, read)
