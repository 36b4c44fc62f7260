"""Text rules: what is wrong in the words themselves, whatever they state.

Two families, each in order: :data:`TEXT_RULES` read the whole text at once
(template holes and null values, internal vocabulary, canned fallbacks) and
:data:`QUOTE_RULES` read one sentence's quoted spans (those found in no source).
A text rule sees the findings of the rules before it: an internal word inside a
placeholder is the placeholder's, not a second finding.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._quotes import QuoteSpan, unsupported_among
from vouched._scan._lex._spans import Spans
from vouched._scan._lex._textchecks import find_fallbacks, find_internal, find_placeholders
from vouched._scan._rules._rule import Rule

__all__ = [
    "QUOTE_RULES",
    "TEXT_RULES",
    "QuoteCheck",
    "QuoteRule",
    "QuoteView",
    "TextCheck",
    "TextRule",
    "TextView",
]

_K = FindingKind


class TextView(NamedTuple):
    """What the text rules read: the text, lower-cased, its word tokens, the internal
    terms (compiled once per scanner)."""

    text: str
    lowered: str
    tokens: set[str]
    terms: tuple[tuple[str, bool], ...]


class QuoteView(NamedTuple):
    """What the quote rules read: one sentence's quoted spans and the normalised sources."""

    quotes: list[QuoteSpan]
    corpus: list[str]


TextCheck = Callable[[TextView, Sequence[Finding]], list[Finding]]
"""A text rule: the findings it makes, given the view and the findings made before it."""
TextRule = Rule[TextCheck]
QuoteCheck = Callable[[QuoteView], list[Finding]]
QuoteRule = Rule[QuoteCheck]


def placeholder(view: TextView, earlier: Sequence[Finding]) -> list[Finding]:
    """A template hole or a null value that leaked into the text ("{temp}", "None",
    "N/A", "[insert value]") is a ``placeholder``."""
    del earlier  # the first text rule
    text = view.text
    return [
        Finding(_K.PLACEHOLDER, s.start, s.end, text[s.start : s.end], s.detail)
        for s in find_placeholders(text, view.tokens)
    ]


def internal_vocabulary(view: TextView, earlier: Sequence[Finding]) -> list[Finding]:
    """A field name, status code, source id or caller term of the pipeline
    ("observed_at", "GROUNDED") is ``internal_vocabulary``, unless it is inside a
    placeholder already found."""
    text = view.text
    holes = Spans([(f.start, f.end) for f in earlier if f.kind is _K.PLACEHOLDER])
    return [
        Finding(_K.INTERNAL_VOCABULARY, s.start, s.end, text[s.start : s.end], s.detail)
        for s in find_internal(text, view.terms, view.lowered)
        if not holes.covers(s.start, s.end)
    ]


def template_fallback(view: TextView, earlier: Sequence[Finding]) -> list[Finding]:
    """A canned fallback ("As an AI language model", "I don't have real-time data") is
    ``template_fallback``."""
    del earlier  # fallbacks are phrases; nothing before them changes that
    text = view.text
    return [
        Finding(_K.TEMPLATE_FALLBACK, s.start, s.end, text[s.start : s.end], s.detail)
        for s in find_fallbacks(text, view.tokens)
    ]


def unsupported_quote(view: QuoteView) -> list[Finding]:
    """A quoted span of at least 12 characters that no source text holds (after
    whitespace and case normalisation) is ``unsupported_quote``."""
    return [
        Finding(_K.UNSUPPORTED_QUOTE, q.start, q.end, q.text, "quoted text found in no source")
        for q in unsupported_among(view.quotes, view.corpus)
    ]


TEXT_RULES: tuple[TextRule, ...] = (
    Rule("placeholder", placeholder, (_K.PLACEHOLDER,)),
    Rule("internal_vocabulary", internal_vocabulary, (_K.INTERNAL_VOCABULARY,)),
    Rule("template_fallback", template_fallback, (_K.TEMPLATE_FALLBACK,)),
)
"""Over the whole text, in order; each sees the findings of those before it."""

QUOTE_RULES: tuple[QuoteRule, ...] = (
    Rule("unsupported_quote", unsupported_quote, (_K.UNSUPPORTED_QUOTE,)),
)
"""Per sentence, over its quoted spans."""
