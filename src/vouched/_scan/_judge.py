"""The conductor: a text read sentence by sentence with what was compiled once
(:class:`~vouched._scan._compiled.Compiled`), the rule families in the registry's order.

A batch of sentences is read once (:func:`~vouched._scan._read._evidence.read_batch`)
and its text checks run; then each sentence's quotes, its time (facts valid for
periods), its frozen :class:`~vouched._scan._read._values.Evidence` and the families of
:mod:`vouched._scan._rules`, which read those values and never call back. A sentence
leaves the next only :class:`~vouched._scan._read._evidence.Handed` and the carry of
restatements, so its findings never change when more text arrives, a text streamed
reads as the whole, and the cost is linear in the text.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from vouched._scan._compiled import Compiled
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
from vouched._scan._lex._quotes import find_quotes
from vouched._scan._read._evidence import Handed, Reader, read_batch
from vouched._scan._rules import Judging, TextView, judge_read, judge_text

if TYPE_CHECKING:  # types only
    from vouched._scan._read._sentence import Found

__all__ = ["TextReading"]


class TextReading:
    """One text read a closed sentence at a time (:meth:`sentence`), in order.

    ``keep=False``: the findings are only returned, not kept for :meth:`report` (a
    caller that writes them out as they come needs only :meth:`tally`)."""

    __slots__ = (
        "_claims",
        "_compiled",
        "_computes",
        "_counted",
        "_findings",
        "_handed",
        "_judging",
        "_reader",
    )

    def __init__(self, compiled: Compiled, *, keep: bool = True) -> None:
        self._compiled = compiled
        self._reader = Reader(compiled.index, compiled.lexicon, compiled.asked, compiled.periods)
        self._handed = Handed()  # the subjects named last, every one named, the time
        comparisons = compiled.lexicon.comparisons
        self._judging = Judging(
            compiled.words, compiled.periods, compiled.corpus, comparisons, self._handed.named
        )
        self._claims = 0
        self._findings: list[Finding] | None = [] if keep else None
        self._counted = [0, 0]  # findings read, the distinct spans they stand on
        self._computes = True  # may the batch being read state a computed value?

    def sentence(self, text: str, start: int, end: int, offset: int = 0) -> tuple[Finding, ...]:
        """Read ``text[start:end]`` (the next sentence); its findings, with spans into
        ``text`` moved by ``offset`` (where ``text`` starts in the whole answer)."""
        return self.sentences(text, [end], start, offset)[0]

    def sentences(
        self, text: str, ends: list[int], start: int = 0, offset: int = 0
    ) -> list[tuple[Finding, ...]]:
        """Read the next sentences, ``text[start:ends[0]]``, ``text[ends[0]:ends[1]]``,
        ...; each one's findings, spans into ``text`` moved by ``offset``."""
        compiled = self._compiled
        part = text[start : ends[-1]] if ends else ""
        batch = read_batch(part, compiled.matchers, compiled.capitals) if ends else None
        if batch is None:  # none, or lower() moves positions: read one by one
            return [self._alone(text, a, b, offset) for a, b in pairwise([start, *ends])]
        self._computes = batch.may_compute
        checks = Placed(judge_text(TextView(part, batch.lowered, batch.tokens, compiled.terms)))
        results: list[tuple[Finding, ...]] = []
        for low, high in pairwise([0, *(end - start for end in ends)]):
            own = checks.within(low, high)
            read = self._read(part[low:high], batch.found.within(low, high), own, low)
            moved = tuple(in_order(shifted(f, start + low + offset) for f in read))
            if moved:
                if self._findings is not None:
                    self._findings.extend(moved)
                self._counted[0] += len(moved)
                self._counted[1] += len({(f.start, f.end) for f in moved})
            results.append(moved)
        return results

    def _alone(self, text: str, start: int, end: int, offset: int) -> tuple[Finding, ...]:
        if len(text[start:end].lower()) != end - start:
            return ()  # a sentence whose case folding moves positions
        return self.sentences(text, [end], start, offset)[0]

    def report(self) -> ScanReport:
        """The report of every sentence read so far."""
        return report_of(self._findings or [], self._claims)

    def tally(self) -> Tally:
        """The report of every sentence read so far, but for its findings (a sentence's
        spans lie inside it, so its distinct spans add up)."""
        found, spans = self._counted
        return Tally(not found, score_of(spans, self._claims), found)

    def _read(self, part: str, found: Found, checks: list[Finding], low: int) -> list[Finding]:
        """One sentence ``part`` (findings of the text checks at ``low`` in the batch)."""
        if not part.strip():
            return []
        findings = [shifted(f, -low) for f in checks]
        quotes = find_quotes(part)
        spans = [(f.start, f.end) for f in findings if f.kind is FindingKind.PLACEHOLDER]
        spans += [(q.start, q.end) for q in quotes]
        read = self._reader.read(part, found, spans, self._handed, self._computes)
        before, said, words, checked = judge_read(
            part, quotes, found.quantities, read, self._judging
        )
        findings.extend(before)
        self._claims += checked + len(findings)
        self._handed.hand_on(read.sentence)
        return once_per_span([*findings, *said], finding_key, yielding=words)
