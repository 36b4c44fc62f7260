"""Quote checking: every quoted span of 12+ characters must occur in a source.

Cheap and deterministic: a quote only proves the words exist in a source, not
that the sentence around it is supported. Straight ("...", '...') and curly
(U+201C/U+201D, U+2018/U+2019, low-high, guillemets) quotes are read; apostrophes (don't, Berlin's,
the '90s) are not taken for quotes. Comparison ignores case, runs of
whitespace, curly-versus-straight apostrophes and punctuation at the quote's
edges ("...charge," matches "...charge."); an ellipsis inside a quote splits
it into pieces that must each occur.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

__all__ = [
    "MIN_QUOTE_LENGTH",
    "QuoteSpan",
    "find_quotes",
    "normalise",
    "unsupported_among",
    "unsupported_in",
    "unsupported_quotes",
]

MIN_QUOTE_LENGTH = 12
"""Quoted spans shorter than this are names and scare quotes, not quotations."""

# Straight single quotes: an opener after no word character, apostrophes inside words
# ("don't") kept in, a closer before none. Each attempt stops at the next quote mark,
# so the regex is linear; curly marks are paired by _Marks (a regex with an unmatched
# opener would rescan the rest of its line for every opener: quadratic).
_SINGLE = re.compile(
    r"(?<![\w'])'(?!(?:s|re|ll|ve|d|m|t)\b)"  # not " 's" ("he 's", tokenized text)
    r"(?P<a>(?:[^'\n]|(?<=\w)'(?=\w))*)(?<=\S)'(?![\w])"  # nor a closer after a space
)
_CURLY = (
    ("\u201c", "\u201d", False),  # curly double
    ("\u201e", "\u201c\u201d", False),  # German low-high
    ("\u00ab", "\u00bb", True),  # guillemets (a space inside each mark is not quoted)
)
_STRAIGHT_DOUBLE = re.compile(r'"')
_OPENERS = ("\u201c", "\u201e", "\u00ab", "\u2018")
_STRAIGHTEN = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
_SPACES = re.compile(r"\s+")
_EDGE = re.compile(r"^[\s.,;:!?…]+|[\s.,;:!?…]+$")
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…|\[\.\.\.\]|\[…\])\s*")


class QuoteSpan(NamedTuple):
    """A quoted span: ``[start, end)`` of the quoted text (marks excluded)."""

    start: int
    end: int
    text: str


def normalise(text: str) -> str:
    """Case-folded, single-spaced, straight apostrophes and quotes."""
    text = text.translate(_STRAIGHTEN)
    return _SPACES.sub(" ", text).strip().casefold()


def _may_quote(text: str) -> bool:
    """A cheap pre-check: any double or curly quote, or a straight single quote
    that opens (not an apostrophe inside a word)."""
    if '"' in text or any(mark in text for mark in _OPENERS):
        return True
    position = text.find("'")
    while position != -1:
        if position == 0 or not (text[position - 1].isalnum() or text[position - 1] == "'"):
            return True
        position = text.find("'", position + 1)
    return False


def find_quotes(text: str, min_length: int = MIN_QUOTE_LENGTH) -> list[QuoteSpan]:
    """Every quoted span at least ``min_length`` characters long, in order."""
    spans: list[QuoteSpan] = []
    if not _may_quote(text):
        return spans
    marks = _Marks(text)
    for opener, closers, trim in _CURLY:
        for first, last in marks.pairs(opener, closers):
            start = first + (trim and text.startswith(" ", first))
            end = last - (trim and last > start and text[last - 1] == " ")
            spans.append(QuoteSpan(start, end, text[start:end]))
    for start, end in marks.curly_singles():
        spans.append(QuoteSpan(start, end, text[start:end]))
    if "'" in text:
        for match in _SINGLE.finditer(text):
            start, end = match.span("a")
            spans.append(QuoteSpan(start, end, text[start:end]))
    # Straight double quotes pair up in order within a paragraph.
    for paragraph in _paragraphs(text):
        offset, body = paragraph
        doubles = [m.start() for m in _STRAIGHT_DOUBLE.finditer(body)]
        for opening, closing in zip(doubles[::2], doubles[1::2], strict=False):
            start, end = offset + opening + 1, offset + closing
            spans.append(QuoteSpan(start, end, text[start:end]))
    spans.sort()
    return [s for s in spans if len(s.text.strip()) >= min_length]


class _Marks:
    """Finds the next quote mark or line break after a position, remembering each
    search so that pairing every opener of a text stays linear."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._next: dict[str, int] = {}  # mark -> the last position found (-1: none left)

    def find(self, mark: str, position: int) -> int:
        known = self._next.get(mark)
        if known is not None and (known == -1 or known >= position):
            return known
        found = self.text.find(mark, position)
        self._next[mark] = found
        return found

    def closer(self, closers: str, position: int) -> int:
        found = [j for c in closers if (j := self.find(c, position)) != -1]
        return min(found) if found else -1

    def pairs(self, opener: str, closers: str) -> list[tuple[int, int]]:
        """(start, end) inside each opener ... closer on one line."""
        text = self.text
        pairs: list[tuple[int, int]] = []
        i = text.find(opener)
        while i != -1:
            j = self.closer(closers, i + 1)
            if j == -1:
                break
            line = self.find("\n", i + 1)
            if line != -1 and line < j:
                i = text.find(opener, line + 1)
                continue
            pairs.append((i + 1, j))
            i = text.find(opener, j + 1)
        return pairs

    def curly_singles(self) -> list[tuple[int, int]]:
        """\u2018...\u2019 with \u2019 inside words ("don\u2019t") kept in the quote."""
        text = self.text
        pairs: list[tuple[int, int]] = []
        i = text.find("\u2018")
        while i != -1:
            if i and (text[i - 1].isalnum() or text[i - 1] in "_\u2019"):
                i = text.find("\u2018", i + 1)
                continue
            j = text.find("\u2019", i + 1)
            while j != -1 and j + 1 < len(text) and (text[j + 1].isalnum() or text[j + 1] == "_"):
                j = text.find("\u2019", j + 1)
            if j == -1:
                break
            line = self.find("\n", i + 1)
            if line != -1 and line < j:
                i = text.find("\u2018", line + 1)
                continue
            pairs.append((i + 1, j))
            i = text.find("\u2018", j + 1)
        return pairs


def _paragraphs(text: str) -> list[tuple[int, str]]:
    parts: list[tuple[int, str]] = []
    position = 0
    for match in re.finditer(r"\n\s*\n", text):
        parts.append((position, text[position : match.start()]))
        position = match.end()
    parts.append((position, text[position:]))
    return parts


def _pieces(quote: str) -> list[str]:
    pieces = [_EDGE.sub("", normalise(p)) for p in _ELLIPSIS.split(quote)]
    return [p for p in pieces if p]


def _supported(quote: str, corpus: list[str]) -> bool:
    pieces = _pieces(quote)
    if not pieces:
        return True
    return any(all(piece in source for piece in pieces) for source in corpus)


def unsupported_spans(
    text: str, sources: Iterable[str], min_length: int = MIN_QUOTE_LENGTH
) -> list[QuoteSpan]:
    """The quoted spans of ``text`` that occur in no source."""
    return unsupported_in(find_quotes(text, min_length), sources)


def unsupported_in(quotes: list[QuoteSpan], sources: Iterable[str]) -> list[QuoteSpan]:
    """The ``quotes`` (found by :func:`find_quotes`) that occur in no source."""
    if not quotes:
        return []
    return unsupported_among(quotes, [normalise(source) for source in sources])


def unsupported_among(quotes: list[QuoteSpan], corpus: list[str]) -> list[QuoteSpan]:
    """Like :func:`unsupported_in`, with the sources already normalised (a compiled scanner
    normalises them once)."""
    return [quote for quote in quotes if not _supported(quote.text, corpus)]


def unsupported_quotes(answer: str, sources: Iterable[str]) -> list[str]:
    """The quoted spans (>= 12 characters) of ``answer`` found in no source text.

    >>> unsupported_quotes('It says "no prepayment charge applies".',
    ...                    ["No  prepayment charge applies to individuals."])
    []
    """
    return [quote.text for quote in unsupported_spans(answer, sources)]
