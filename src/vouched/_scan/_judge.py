"""The conductor: one text read sentence by sentence with what was compiled once
(:class:`~vouched._scan._compiled.Compiled`), the rule families run in the registry's
order.

:class:`TextReading` reads a text one closed sentence at a time, in order.
Each sentence is read once, in one direction: tokens, quotes, text checks and
quantities (over the batch), then its frozen reading
(:func:`~vouched._scan._read._sentence.read_sentence`: mentions, clauses), its frozen
structures (:func:`~vouched._scan._read._structures.read_structures`: runs, pairs,
lists), each quantity's binding and evidence (:mod:`vouched._scan._read._binding`), then
the rule registry (:mod:`vouched._scan._rules`), which reads those values and never
calls back; its overlap policy says which finding wins a span.
What a sentence leaves to the next is small and explicit: the subjects named
last (the topic, the antecedents of pronouns) and the first unvouched statement
of each pair (restatements).
So a sentence's findings never change when more text arrives, a whole text
and the same text streamed in pieces read the same, and the cost is linear
in the text.
"""

from __future__ import annotations

from collections.abc import Iterable

from vouched._scan._compiled import Compiled
from vouched._scan._facts._factindex import FactIndex
from vouched._scan._facts._wordmatch import WordFacts
from vouched._scan._findings import (
    Finding,
    FindingKind,
    Placed,
    ScanReport,
    Tally,
    finding_key,
    in_order,
    once_per_span,
    report_of,
    score_of,
    shifted,
)
from vouched._scan._lex._numbers import QuantityKind, read_numbers
from vouched._scan._lex._numwords import word_tokens
from vouched._scan._lex._quotes import find_quotes
from vouched._scan._lex._splitter import SentenceSplitter
from vouched._scan._lex._vocabulary import may_compute
from vouched._scan._read._evidence import read_evidence
from vouched._scan._read._mentions import Mention, MentionKind
from vouched._scan._read._sentence import Found, SentenceRead, find_all
from vouched._scan._read._times import Period, Segment, SentenceTime, governing, read_times
from vouched._scan._rules import (
    Carry,
    Judged,
    QuoteView,
    SentenceContext,
    TextView,
    judge_quotes,
    judge_sentence,
    judge_text,
    run_time,
)
from vouched._scan._rules._echo import Echo

__all__ = ["TextReading", "compile_echoes", "read_text"]

_K = FindingKind
CARRIED = 6
"""How many subject mentions a sentence hands on to the next (the topic, pronouns)."""


def compile_echoes(compiled: Compiled, caller: Iterable[str]) -> tuple[Echo, ...]:
    """Each caller string read once against the facts that vouch for ``compiled`` (no
    source, no question: the caller's text vouches for nothing), kept when it has
    findings (the echo family's input)."""
    strings = tuple(dict.fromkeys(caller))
    if not strings:
        return ()
    own = Compiled(compiled.grounded, compiled.lexicon, policy=compiled.policy, now=compiled.now)
    echoes = (Echo(text, read_text(own, text).findings) for text in strings)
    return tuple(echo for echo in echoes if echo.findings)


def read_text(compiled: Compiled, text: str) -> ScanReport:
    """One whole text read with ``compiled``, each sentence once, in order."""
    reading = TextReading(compiled)
    reading.sentences(text, SentenceSplitter().ends(text, final=True))
    return reading.report()


class TextReading:
    """One text read a closed sentence at a time (:meth:`sentence`), in order.

    ``keep=False``: the findings are only returned, not kept for :meth:`report` (a
    caller that writes them out as they come needs only :meth:`tally`)."""

    __slots__ = (
        "_carried",
        "_carries",
        "_carry",
        "_claims",
        "_compiled",
        "_counted",
        "_findings",
        "_keep",
        "_may_compute",
        "_named",
        "_time",
    )

    def __init__(self, compiled: Compiled, *, keep: bool = True) -> None:
        self._compiled = compiled
        self._carried: list[Mention] = []
        self._carry = Carry()
        self._claims = 0
        self._findings: list[Finding] = []
        self._keep = keep
        self._counted = [0, 0]  # findings read, the distinct spans they stand on
        self._named: set[str] = set()
        self._time: tuple[Period, ...] | None = None  # the time carried (None: every fact)
        self._carries: dict[int, Carry] = {}  # by the period's view
        self._may_compute = True  # may the batch being read state a computed value?

    def sentence(self, text: str, start: int, end: int, offset: int = 0) -> tuple[Finding, ...]:
        """Read ``text[start:end]`` (the next sentence); its findings, with spans into
        ``text`` moved by ``offset`` (where ``text`` starts in the whole answer)."""
        return self.sentences(text, [end], start, offset)[0]

    def sentences(
        self, text: str, ends: list[int], start: int = 0, offset: int = 0
    ) -> list[tuple[Finding, ...]]:
        """Read the next sentences, ``text[start:ends[0]]``, ``text[ends[0]:ends[1]]``,
        ...; each one's findings, spans into ``text`` moved by ``offset``.

        The passes that do not depend on what a sentence leaves to the next (tokens,
        text checks, the number reader, the phrase matchers) run once over all of
        them; what lies wholly inside each sentence is then read as that sentence.
        """
        if not ends:
            return []
        compiled = self._compiled
        part = text[start : ends[-1]]
        lowered = part.lower()
        if len(lowered) != len(part):  # rare: lower() changed the length; read one by one
            return self._one_by_one(text, ends, start, offset)
        tokens = word_tokens(lowered)
        # no key of a computed value anywhere in the batch: none in any of its sentences
        self._may_compute = may_compute(part)
        checks = Placed(judge_text(TextView(part, lowered, tokens, compiled.terms)))
        found = find_all(
            compiled.matchers, part, lowered, tokens, read_numbers(part, compiled.capitals, tokens)
        )
        results: list[tuple[Finding, ...]] = []
        low = 0
        for end in ends:
            high = end - start
            sentence = part[low:high]
            if sentence.strip():
                own = checks.within(low, high)  # placeholders: numbers in them are no claims
                own_holes = [(f.start - low, f.end - low) for f in own if f.kind is _K.PLACEHOLDER]
                read = self._read(sentence, found.within(low, high), own, own_holes, low)
                # a sentence's findings in the report's order: words come after numbers
                moved = tuple(in_order(shifted(f, start + low + offset) for f in read))
            else:
                moved = ()
            if moved:
                if self._keep:
                    self._findings.extend(moved)
                self._counted[0] += len(moved)
                self._counted[1] += len({(f.start, f.end) for f in moved})
            results.append(moved)
            low = high
        return results

    def _one_by_one(
        self, text: str, ends: list[int], start: int, offset: int
    ) -> list[tuple[Finding, ...]]:
        results: list[tuple[Finding, ...]] = []
        for end in ends:
            if len(text[start:end].lower()) == end - start:
                results.extend(self.sentences(text, [end], start, offset))
            else:
                results.append(())  # a sentence whose case folding moves positions
            start = end
        return results

    def report(self) -> ScanReport:
        """The report of every sentence read so far."""
        return report_of(self._findings, self._claims)

    def tally(self) -> Tally:
        """The report of every sentence read so far, but for its findings (a sentence's
        spans lie inside it, so its distinct spans add up)."""
        found, spans = self._counted
        return Tally(not found, score_of(spans, self._claims), found)

    def _read(
        self,
        part: str,
        found: Found,
        checks: list[Finding],
        holes: list[tuple[int, int]],
        low: int,
    ) -> list[Finding]:
        """One sentence ``part`` (findings of the text checks at ``low`` in the batch)."""
        compiled = self._compiled
        findings = [shifted(f, -low) for f in checks]
        quotes = find_quotes(part)
        findings.extend(judge_quotes(QuoteView(quotes, compiled.corpus)))
        spans = [*holes, *((q.start, q.end) for q in quotes)]
        if compiled.periods is None:
            said, words, checked, sentence = self._judge(
                part, found, spans, compiled.index, compiled.words
            )
        else:  # time binds: each stretch is judged on the facts of the period it speaks of
            said, words, checked, sentence = self._judge_in_time(part, found, spans, findings)
        self._claims += checked + len(findings)
        self._hand_on(sentence)
        return once_per_span([*findings, *said], finding_key, yielding=words)

    def _judge(
        self,
        part: str,
        found: Found,
        spans: list[tuple[int, int]],
        index: FactIndex,
        words_facts: WordFacts,
    ) -> tuple[list[Finding], list[Finding], int, SentenceRead]:
        """The numbers and words of one sentence judged on ``index`` (``spans``:
        placeholders and quotes, where nothing is a statement): the number findings,
        the word findings, how many claims were checked, the sentence's reading."""
        compiled = self._compiled
        read = read_evidence(
            part,
            found,
            spans,
            index,
            compiled.lexicon,
            self._carried,
            compiled.asked,
            may_compute=self._may_compute,
        )
        carry = self._carry
        if index is not compiled.index:  # restatements compare within one period
            carry = self._carries.setdefault(id(index), Carry())
        ctx = SentenceContext(
            read.sentence,
            read.structures,
            index,
            carry,
            read.denied,
            occasions=compiled.words.occasions,
        )
        judged = judge_sentence(read, Judged(ctx, words_facts, self._named))
        return judged.numbers(), judged.words, judged.checked, read.sentence

    def _judge_in_time(
        self,
        part: str,
        found: Found,
        spans: list[tuple[int, int]],
        findings: list[Finding],
    ) -> tuple[list[Finding], list[Finding], int, SentenceRead]:
        """The sentence judged once per period its stretches speak of; each finding
        kept from the judgement of the period that governs where it stands; then the
        time family over the whole (a weekday that contradicts the date beside it goes
        to ``findings``, with the text's)."""
        views = self._compiled.periods
        assert views is not None  # noqa: S101 - called only with periods
        lowered = part.lower()
        timing = read_times(lowered, views.calendar)
        segments, self._time = governing(lowered, timing, self._time)
        # the digits of a time expression ("the 4th", "January 9") are its period's, not values
        spans = [*spans, *((m.start, m.end) for m in timing.mentions)]
        spans += [  # "at 14:00": a slot's own start names the slot
            (q.start, q.end)
            for q in found.quantities
            if q.kind is QuantityKind.TIME and any(int(v) in views.slot_starts for v in q.values)
        ]
        judged: list[tuple[tuple[Period, ...] | None, list[Finding], list[Finding]]] = []
        checked = 0
        sentence: SentenceRead | None = None
        for periods in dict.fromkeys(s[2] for s in segments):
            index, words_facts = views.view(periods)
            said, words, count, sentence = self._judge(part, found, spans, index, words_facts)
            judged.append((periods, said, words))
            checked = max(checked, count)
        assert sentence is not None  # noqa: S101 - a sentence has at least one stretch
        findings.extend(run_time("weekday_beside_date", part, timing))
        kept, kept_words = self._in_periods(part, lowered, timing, segments, judged)
        return self._time_whole(part, found, timing, segments, kept), kept_words, checked, sentence

    def _in_periods(
        self,
        part: str,
        lowered: str,
        timing: SentenceTime,
        segments: list[Segment],
        judged: list[tuple[tuple[Period, ...] | None, list[Finding], list[Finding]]],
    ) -> tuple[list[Finding], list[Finding]]:
        """Each period's findings where that period governs, with the conditions stated
        for it; a period no fact covers makes its stretch's findings one."""
        views = self._compiled.periods
        assert views is not None  # noqa: S101 - called only with periods
        conditions = views.conditions.statements(lowered)
        kept: list[Finding] = []
        kept_words: list[Finding] = []
        for periods, all_said, all_words in judged:
            mine = [(a, b) for a, b, p in segments if p == periods]
            said = [f for f in all_said if any(a <= f.start < b for a, b in mine)]
            words = [f for f in all_words if any(a <= f.start < b for a, b in mine)]
            if conditions:  # conditions stated for the period ("light rain on Saturday")
                present = views.present(periods)
                said += run_time("stated_condition", part, conditions, present, mine)
            if (said or words) and periods and not views.covered(periods):
                said = run_time("uncovered_period", part, timing, periods, [*said, *words])
                words = []
            kept.extend(said)
            kept_words.extend(words)
        return kept, kept_words

    def _time_whole(
        self,
        part: str,
        found: Found,
        timing: SentenceTime,
        segments: list[Segment],
        kept: list[Finding],
    ) -> list[Finding]:
        """The time rules over the whole sentence: extremes, periods compared, ranges,
        and findings that belong together."""
        views = self._compiled.periods
        assert views is not None  # noqa: S101 - called only with periods
        stretches = [(a, b, views.view(p)[0].grounded) for a, b, p in segments]
        every = views.whole[0].grounded
        if views.extremes:  # "the coldest day will be Monday"
            kept += run_time("stated_extreme", part, views.extremes, every, segments)
        comparisons = self._compiled.lexicon.comparisons
        if comparisons:  # "Sunday will be colder than Saturday"
            days = [(m.start, m.end, m.periods[0]) for m in timing.mentions if len(m.periods) == 1]
            kept += run_time("compared_periods", part, comparisons, every, days)
        kept += run_time("stated_range", part, found.quantities, stretches, kept)
        bounds = [(a, b) for a, b, _ in segments]
        return run_time("together", part, kept, bounds)

    def _hand_on(self, sentence: SentenceRead) -> None:
        """Keep the last subjects named, renumbered before the next sentence's start, and
        every subject the text named (for counts: "the only other")."""
        said = sentence.subject_mentions()
        self._named.update(m.names[0] for m in said if m.kind == MentionKind.NAMED and m.names)
        named = [*self._carried, *said][-CARRIED:]
        count = len(named)
        self._carried = [
            Mention(-2 * (count - i), -2 * (count - i) + 1, m.names, m.kind)
            for i, m in enumerate(named)
        ]
