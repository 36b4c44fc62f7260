"""Exact gates: a sentence is skipped only when no match of the pattern can be in it.

The derived-value reader searches its three patterns (a difference after the number,
one before it, a sum) only in sentences its gate lets through (habit 28: a gate on
"the" or "its" lets every sentence through and costs a regex call anyway). A gate
that refused a sentence holding a match would change a report, so each gate is held
here: whatever the text, if the pattern matches anywhere in it, as the reader
searches it, the gate lets the text through.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from vouched._scan._lex._english import ENGLISH
from vouched._scan._lex._vocabulary import (
    DIFFERENCE_AFTER,
    DIFFERENCE_BEFORE,
    EXTREME_BEFORE,
    STANDING,
    STANDING_KEYS,
    SUM_WORDS,
    computes,
    extreme_before,
    folded,
    holds_key,
    may_compute,
)
from vouched._scan._rules._occasions import _COUNTED, SPAN_WORDS, may_span

PIECES = sorted(
    {
        *re.findall(r"[a-z]+", DIFFERENCE_AFTER.pattern + DIFFERENCE_BEFORE.pattern),
        *re.findall(r"[a-z]+", SUM_WORDS.pattern),
        "12",
        "-",
        "\u2013",
        ".",
        "Won",
        "TOGETHER",
        "point",
        "degrees",
        "winds",
        "\u017fum",  # IGNORECASE reads the long s as an s
        "W\u0131n",
        "\u212aEY",
    }
    - {"s", "d", "w", "W"}
)
GAPS = (" ", "", "-", "\n")
TEXTS = st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(GAPS)), max_size=8).map(
    lambda parts: "".join(p + gap for p, gap in parts)
)
PAIRS = [f"{a}{gap}{b}" for a in PIECES for b in PIECES for gap in (" ", "")]


def _held(text: str) -> None:
    """Each pattern searched as the reader searches it (after a number, in a window
    before one, up to 20 characters after one); a match means the gate says yes."""
    after, before, total = computes(text)
    for at in range(len(text) + 1):
        assert after or DIFFERENCE_AFTER.match(text, at) is None, text
        for start in range(at + 1):  # the window may start inside a word
            assert before or DIFFERENCE_BEFORE.search(text[start:at]) is None, text
        assert total or SUM_WORDS.search(text, 0, at) is None, text


def test_every_two_words_of_the_patterns_pass_their_gates() -> None:
    for text in PAIRS:
        _held(text)


@settings(max_examples=300, derandomize=True)
@given(TEXTS)
def test_any_text_with_a_match_passes_its_gate(text: str) -> None:
    _held(text)


@settings(max_examples=300, derandomize=True)
@given(TEXTS, st.integers(0, 60), st.integers(0, 60))
def test_a_batch_without_keys_has_no_sentence_that_passes_a_gate(
    text: str, start: int, end: int
) -> None:
    if not may_compute(text):
        assert computes(text[start:end]) == (False, False, False)


def test_a_sentence_without_keys_reads_no_difference() -> None:
    text = "In Berlin the temperature is 21 °C, winds of 12 km/h, and its humidity is 63%."
    assert computes(text) == (False, False, False)


def test_a_key_inside_a_longer_word_is_no_match() -> None:
    # "winds" holds "win", but no pattern reads it: the gate says so
    assert computes("Winds 12 km/h.") == (False, False, False)
    assert computes("a 12-point win.")[0]


_FOLDED_BY_HAND = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


@settings(max_examples=300, derandomize=True)
@given(st.text(alphabet=st.sampled_from("aZ \u00b0\u0130\u0131\u017f\u212aK\u00c9s.")))
def test_folding_skips_translate_only_where_it_changes_nothing(text: str) -> None:
    assert folded(text) == text.translate(_FOLDED_BY_HAND).lower()


# The occasion rules' gate: SPAN_WORDS (and _COUNTED, its phrases with a count of their
# own) is searched only in sentences that hold one of SPAN_KEYS.
SPAN_PIECES = sorted(
    {
        *re.findall(r"[a-z]+", SPAN_WORDS.pattern + _COUNTED.pattern),
        "12",
        "-",
        "STREAK",
        "Averaging",
        "\u017ftraight",  # IGNORECASE reads the long s as an s
        "\u212aareer",
        "W\u0131ns",
    }
    - {"s", "d", "w", "W"}
)
SPAN_TEXTS = st.lists(
    st.tuples(st.sampled_from(SPAN_PIECES), st.sampled_from(GAPS)), max_size=8
).map(lambda parts: "".join(p + gap for p, gap in parts))


def _span_held(text: str) -> None:
    """Both patterns searched as the rules search them (the sentence, a clause of it):
    a match anywhere means the gate says yes."""
    if may_span(text):
        return
    assert _COUNTED.search(text) is None, text
    for start in range(len(text) + 1):
        for end in range(start, len(text) + 1):
            assert SPAN_WORDS.search(text, start, end) is None, text


def test_every_two_span_words_pass_the_gate() -> None:
    for text in (f"{a}{gap}{b}" for a in SPAN_PIECES for b in SPAN_PIECES for gap in (" ", "")):
        _span_held(text)


@settings(max_examples=300, derandomize=True)
@given(SPAN_TEXTS)
def test_any_text_with_a_span_word_passes_the_gate(text: str) -> None:
    _span_held(text)


@settings(max_examples=500, derandomize=True)
@given(st.from_regex(SPAN_WORDS) | st.from_regex(_COUNTED))
def test_every_match_the_patterns_can_make_passes_the_gate(text: str) -> None:
    assert may_span(text), text


def test_a_sentence_of_one_occasion_is_refused_by_the_gate() -> None:
    assert not may_span("In Berlin the temperature is 21 °C and the humidity is 63%.")
    assert may_span("Their third \u017ftraight win.")


# The extreme words' gate: the last word of every phrase, then the word before it.
EXTREME_PIECES = sorted(
    {
        *(w for f in ("highest_before", "lowest_before") for p in ENGLISH[f] for w in p.split()),
        "UP",
        "(up",
        "gusts",
        "12",
        "Peaking",
    }
)


def _ungated(before: str) -> str | None:
    return next((suffix for suffix, pattern in EXTREME_BEFORE if pattern.search(before)), None)


@settings(max_examples=500, derandomize=True)
@given(
    st.lists(
        st.tuples(st.sampled_from(EXTREME_PIECES), st.sampled_from((" ", "  ", "\n", ""))),
        max_size=5,
    ).map(lambda parts: "".join(p + gap for p, gap in parts))
)
def test_extreme_words_read_as_their_patterns_read_them(before: str) -> None:
    assert extreme_before(before) == _ungated(before), before


def test_every_extreme_phrase_passes_its_gates() -> None:
    for family, suffix in (("highest_before", "_max"), ("lowest_before", "_min")):
        for phrase in ENGLISH[family]:
            assert extreme_before(f"gusts of {phrase} ") == suffix, phrase


# The standings rule's gate: STANDING is searched only in sentences holding a STANDING_KEY.
STANDING_PIECES = sorted(
    {*re.findall(r"[a-z]+", STANDING.pattern), "8th", "SEED", "Pl\u0430ce", "\u017feed", "-"}
    - {"s", "d"}
)


@given(
    st.lists(st.tuples(st.sampled_from(STANDING_PIECES), st.sampled_from(GAPS)), max_size=6).map(
        lambda parts: "".join(p + gap for p, gap in parts)
    )
)
def test_a_sentence_without_a_standing_key_holds_no_standing(text: str) -> None:
    if not holds_key(folded(text), STANDING_KEYS):
        assert STANDING.search(text) is None, text
