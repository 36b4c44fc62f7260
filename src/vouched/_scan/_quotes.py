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
    "unsupported_in",
    "unsupported_quotes",
]

MIN_QUOTE_LENGTH = 12
"""Quoted spans shorter than this are names and scare quotes, not quotations."""

_PAIRS = re.compile(
    r"“(?P<c>[^”\n]*)”"  # curly double
    r"|„(?P<g>[^“”\n]*)[“”]"  # German low-high
    r"|«\s?(?P<f>[^»\n]*?)\s?»"  # guillemets
    r"|(?<![\w\u2019])\u2018(?P<s>(?:[^\u2019\n]|\u2019(?=\w))*)\u2019(?!\w)"  # curly single
    r"|(?<![\w'])'(?P<a>(?:[^'\n]|(?<=\w)'(?=\w))*)'(?![\w])"  # straight single
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
    for match in _PAIRS.finditer(text):
        group = match.lastgroup
        if group is None:
            continue
        start, end = match.span(group)
        spans.append(QuoteSpan(start, end, text[start:end]))
    # Straight double quotes pair up in order within a paragraph.
    for paragraph in _paragraphs(text):
        offset, body = paragraph
        marks = [m.start() for m in _STRAIGHT_DOUBLE.finditer(body)]
        for opening, closing in zip(marks[::2], marks[1::2], strict=False):
            start, end = offset + opening + 1, offset + closing
            spans.append(QuoteSpan(start, end, text[start:end]))
    spans.sort()
    return [s for s in spans if len(s.text.strip()) >= min_length]


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
    corpus = [normalise(source) for source in sources]
    return [quote for quote in quotes if not _supported(quote.text, corpus)]


def unsupported_quotes(answer: str, sources: Iterable[str]) -> list[str]:
    """The quoted spans (>= 12 characters) of ``answer`` found in no source text.

    >>> unsupported_quotes('It says "no prepayment charge applies".',
    ...                    ["No  prepayment charge applies to individuals."])
    []
    """
    return [quote.text for quote in unsupported_spans(answer, sources)]
