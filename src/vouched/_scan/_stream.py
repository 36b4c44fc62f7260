"""Scanning text as it arrives: findings reported as each sentence closes.

A :class:`StreamScanner` is fed chunks of a model's answer (tokens, lines,
anything). When a sentence closes (``.``, ``!`` or ``?`` followed by
whitespace, closing quotes or brackets allowed between; or a newline), it
scans the text up to the end of that sentence with the public :func:`scan`
and reports the findings whose spans start inside that sentence, with spans
into the whole text. :meth:`StreamScanner.close` scans the finished text and
returns exactly what ``scan(whole_text, ...)`` returns.

What is reported for a sentence depends only on the text, never on how it
was cut into chunks: sentence ``k`` is judged by ``scan(text[:end_k])``. A
chunk that closes no sentence costs an append and a short regex search; each
closed sentence costs one scan of the prefix it ends (so the total work
grows with the number of sentences, not of chunks; ``bench/stream.py``
measures it against one scan).

The state between chunks is explicit and small: the text so far, where the
last closed sentence ends, and the scan's settings. No clock, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from vouched._fact import Fact
from vouched._gate import GateResult
from vouched._policy import DEFAULT_POLICY, Policy
from vouched._scan._lexicon import Lexicon
from vouched._scan._scanner import Finding, ScanReport, scan

__all__ = ["ScannedSentence", "StreamScanner"]

_CLOSERS = "\"')]\u201d\u2019"
_TERMINATORS = ".!?\u2026"
# Where a sentence may end: a terminator and its closers, when whitespace
# follows; or the position of a newline. _closes() rules out the rest.
_BOUNDARY = re.compile(rf"[{re.escape(_TERMINATORS)}][{re.escape(_CLOSERS)}]*(?=\s)|(?=\n)")


# "1." or "b)" opening a list item: a marker, not a sentence.
_LIST_MARKER = re.compile(r"\s*(?:\d{1,3}|[A-Za-z])[.)]")


def _closes(segment: str) -> bool:
    """Whether a boundary at the end of ``segment`` really ends a sentence: not
    an ellipsis ("around 16:00 CET ... for"), not inside an open quote, not a
    list marker ("1. Berlin"). Each would cut a clause the scanner reads whole."""
    body = segment.rstrip(_CLOSERS)
    if body.endswith(("..", "\u2026")):
        return False
    if segment.count('"') % 2 or segment.count("\u201c") > segment.count("\u201d"):
        return False
    return _LIST_MARKER.fullmatch(segment) is None


@dataclass(frozen=True, slots=True)
class ScannedSentence:
    """One closed sentence: ``text == whole[start:end]`` (with the whitespace
    before it, so the sentences in order rebuild the text exactly) and the
    findings whose spans start in it."""

    start: int
    end: int
    text: str
    findings: tuple[Finding, ...]

    @property
    def passed(self) -> bool:
        return not self.findings


class StreamScanner:
    """Feed chunks with :meth:`feed`; get the sentences each chunk closed.

    Takes the arguments of :func:`vouched.scan` after the text. After
    :meth:`close`, :attr:`report` is ``scan(text, ...)`` of the whole text.
    """

    __slots__ = ("_closed", "_facts", "_lexicon", "_policy", "_question", "_sources", "_text")

    def __init__(
        self,
        facts: GateResult | Iterable[Fact],
        lexicon: Lexicon | None = None,
        sources: Iterable[str] = (),
        question: str | None = None,
        policy: Policy = DEFAULT_POLICY,
    ) -> None:
        self._facts: GateResult | tuple[Fact, ...] = (
            facts if isinstance(facts, GateResult) else tuple(facts)
        )
        self._lexicon = lexicon
        self._sources = tuple(sources)
        self._question = question
        self._policy = policy
        self._text = ""
        self._closed = 0  # the end of the last closed sentence

    @property
    def text(self) -> str:
        """Everything fed so far."""
        return self._text

    @property
    def closed(self) -> int:
        """Where the last closed sentence ends (0 before the first)."""
        return self._closed

    def _scan(self, text: str) -> ScanReport:
        return scan(
            text,
            self._facts,
            self._lexicon,
            sources=self._sources,
            question=self._question,
            policy=self._policy,
        )

    def feed(self, chunk: str) -> tuple[ScannedSentence, ...]:
        """Add ``chunk``; return the sentences it closed, each with its findings."""
        if not chunk:
            return ()
        before = len(self._text)
        self._text += chunk
        # A boundary may begin in the old text: a terminator (and its closers)
        # that was waiting for the whitespace this chunk brings.
        start = before
        while start > self._closed and self._text[start - 1] in _CLOSERS:
            start -= 1
        if start > self._closed and self._text[start - 1] in _TERMINATORS:
            start -= 1
        closed: list[ScannedSentence] = []
        for match in _BOUNDARY.finditer(self._text, start):
            end = match.end()
            if end <= self._closed:
                continue
            segment = self._text[self._closed : end]
            if not segment.strip():
                continue  # whitespace only: it opens the next sentence, never dropped
            if _closes(segment):
                closed.append(self._sentence(self._closed, end))
                self._closed = end
        return tuple(closed)

    def _sentence(self, start: int, end: int) -> ScannedSentence:
        report = self._scan(self._text[:end])
        inside = tuple(f for f in report.findings if start <= f.start < end)
        return ScannedSentence(start, end, self._text[start:end], inside)

    def tail(self) -> str:
        """The text after the last closed sentence (not yet judged)."""
        return self._text[self._closed :]

    def close(self) -> ScanReport:
        """Scan the whole text: exactly ``scan(text, ...)``."""
        return self._scan(self._text)

    def __repr__(self) -> str:
        return f"StreamScanner(fed={len(self._text)}, closed={self._closed})"
