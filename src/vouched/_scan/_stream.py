"""Scanning text as it arrives: each sentence read once, when it closes.

A :class:`StreamScanner` is fed chunks of a model's answer (tokens, lines,
anything). The one sentence splitter (:mod:`vouched._scan._lex._splitter`) says
when a sentence closes; that sentence is then read once, with what earlier
sentences left it (the subjects named last, the first statement of each
pair), and its findings are final: more text never changes them. A chunk
that closes no sentence costs an append and a look at its new characters, so
the total work of a stream is about one scan of the whole text, however it
is cut.

:meth:`StreamScanner.close` reads the last, unfinished sentence and returns
the report of the whole text: ``scan(text, ...)``. The one case where a
stream and the whole text read differently: a chunk that ends on a
terminator right after a word ("... 4.3 °C.") closes its sentence at once,
so a model that pauses there does not hold it back; if the next chunk then
continues that word without a space ("example." + "com"), the stream has one
sentence end more than the whole text.

The state between chunks is explicit and small: the text so far, the
splitter's position, the reading's carry. No clock, no I/O.

:func:`scan_into` reads a whole text the same way, :data:`READ_AT_ONCE`
characters of whole sentences at a time, and hands each sentence's findings
on as it is read instead of keeping them: ``vouched scan --json`` writes a
report of any length in the memory of one such batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from vouched._fact import Fact
from vouched._gate import GateResult
from vouched._policy import DEFAULT_POLICY, Policy
from vouched._scan._compiled import Compiled
from vouched._scan._facts._lexicon import Lexicon
from vouched._scan._findings import Finding, ScanReport, Tally
from vouched._scan._judge import TextReading
from vouched._scan._lex._splitter import SentenceSplitter

__all__ = ["READ_AT_ONCE", "ScannedSentence", "StreamScanner", "scan_into"]

READ_AT_ONCE = 65_536
"""How many characters of whole sentences :func:`scan_into` reads at a time (more when
one sentence is longer; the splitter bounds those at twice
:data:`~vouched._scan._lex._splitter.LONG_SENTENCE`, a number and its unit kept whole)."""


@dataclass(frozen=True, slots=True)
class ScannedSentence:
    """One closed sentence: ``text == whole[start:end]`` (with the whitespace
    before it, so the sentences in order rebuild the text exactly) and its
    findings (spans into the whole text)."""

    start: int
    end: int
    text: str
    findings: tuple[Finding, ...]

    @property
    def passed(self) -> bool:
        return not self.findings


class StreamScanner:
    """Feed chunks with :meth:`feed`; get the sentences each chunk closed.

    Takes the arguments of :func:`vouched.scan` after the text (or use
    ``Scanner(...).stream()`` to share what was compiled). After :meth:`close`,
    :attr:`report` is the report of the whole text.
    """

    __slots__ = ("_done", "_offset", "_reading", "_splitter", "_tail", "report")

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
        self._start(Compiled(facts, lexicon, sources, question, policy, now=now))

    @classmethod
    def compiled(cls, compiled: Compiled) -> StreamScanner:
        """A stream over what a :class:`~vouched.Scanner` compiled."""
        stream = cls.__new__(cls)
        stream._start(compiled)
        return stream

    def _start(self, compiled: Compiled) -> None:
        self._reading = TextReading(compiled)
        self._splitter = SentenceSplitter()
        self._done: list[str] = []  # the closed sentences' text
        self._offset = 0  # its length: where the open sentence starts
        self._tail = ""  # the open sentence (bounded: a long one closes on its length)
        self.report: ScanReport | None = None

    @property
    def text(self) -> str:
        """Everything fed so far."""
        if len(self._done) > 1:
            self._done = ["".join(self._done)]
        return (self._done[0] if self._done else "") + self._tail

    @property
    def closed(self) -> int:
        """Where the last closed sentence ends (0 before the first)."""
        return self._offset

    def feed(self, chunk: str) -> tuple[ScannedSentence, ...]:
        """Add ``chunk``; return the sentences it closed, each with its findings."""
        if not chunk:
            return ()
        self._tail += chunk
        return self._sentences(final=False)

    def _sentences(self, *, final: bool) -> tuple[ScannedSentence, ...]:
        tail = self._tail
        ends = self._splitter.ends(tail, final=final)
        if not ends:
            return ()
        closed: list[ScannedSentence] = []
        start = 0
        for end, found in zip(
            ends, self._reading.sentences(tail, ends, 0, self._offset), strict=True
        ):
            closed.append(
                ScannedSentence(self._offset + start, self._offset + end, tail[start:end], found)
            )
            start = end
        self._done.append(tail[:start])
        self._tail = tail[start:]
        self._offset += start
        self._splitter.rebase(start)
        return tuple(closed)

    def tail(self) -> str:
        """The text after the last closed sentence (not yet judged)."""
        return self._tail

    def close(self) -> ScanReport:
        """Read the last sentence; the report of the whole text (``scan(text, ...)``)."""
        if self.report is None:
            self._sentences(final=True)
            self.report = self._reading.report()
        return self.report

    def __repr__(self) -> str:
        return f"StreamScanner(fed={self._offset + len(self._tail)}, closed={self._offset})"


def scan_into(
    compiled: Compiled,
    text: str,
    write: Callable[[tuple[Finding, ...]], object],
    at_once: int = READ_AT_ONCE,
) -> Tally:
    """Read ``text`` as :meth:`Scanner.scan <vouched.Scanner.scan>` does, handing each
    sentence's findings (in the report's order) to ``write`` and keeping none; the
    report's ``passed`` and ``score``.

    The text is read ``at_once`` characters of whole sentences at a time, as a stream
    reads the sentences each chunk closes, so what is held besides the text is one
    batch's readings whatever the text's length."""
    reading = TextReading(compiled, keep=False)
    ends = SentenceSplitter().ends(text, final=True)
    start = 0
    first = 0  # the batch is ends[first:i + 1]
    for i, end in enumerate(ends):
        if end - start >= at_once or i == len(ends) - 1:
            for found in reading.sentences(text, ends[first : i + 1], start):
                if found:
                    write(found)
            start, first = end, i + 1
    return reading.tally()
