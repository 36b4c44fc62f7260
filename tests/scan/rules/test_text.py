"""The text and quote families, each rule driven alone."""

from __future__ import annotations

from vouched import FindingKind
from vouched._scan._rules._text import (
    internal_vocabulary,
    placeholder,
    template_fallback,
    unsupported_quote,
)

from ._build import build

_K = FindingKind


def test_a_template_slot_left_in_the_text_is_a_placeholder() -> None:
    view = build("weather", "Berlin is at {temp} today.").text_view()
    assert [(f.kind, f.text) for f in placeholder(view, [])] == [(_K.PLACEHOLDER, "{temp}")]


def test_a_lexicon_internal_term_is_internal_vocabulary() -> None:
    view = build("weather", "The wx_payload says it is mild.").text_view()
    found = internal_vocabulary(view, [])
    assert [(f.kind, f.text) for f in found] == [(_K.INTERNAL_VOCABULARY, "wx_payload")]


def test_a_canned_refusal_is_a_template_fallback() -> None:
    view = build("weather", "As an AI language model, I cannot see the sky.").text_view()
    assert [f.kind for f in template_fallback(view, [])] == [_K.TEMPLATE_FALLBACK]


def test_a_long_quote_no_source_holds_is_unsupported() -> None:
    view = build("weather", 'They said "the storm will flatten every roof in town".').quote_view()
    assert [f.kind for f in unsupported_quote(view)] == [_K.UNSUPPORTED_QUOTE]
