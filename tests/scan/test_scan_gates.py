"""Exact gates: a sentence is skipped only on keys every match of the pattern holds.

The derived-value reader searches its three patterns only in sentences that hold one
of their keys (habit 28: a gate on "the" or "its" lets every sentence through). A
gate that missed a match would change a report, so each gate is held here: whatever
the text, every match of the pattern holds a match of its keys.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from vouched._scan._vocabulary import (
    DIFFERENCE_AFTER,
    DIFFERENCE_AFTER_KEYS,
    DIFFERENCE_BEFORE,
    DIFFERENCE_BEFORE_KEYS,
    SUM_KEYS,
    SUM_WORDS,
)

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
    }
    - {"s", "d", "w", "W"}
)
TEXTS = st.lists(
    st.tuples(st.sampled_from(PIECES), st.sampled_from(["", " ", "  ", "-"])), max_size=8
).map(lambda parts: "".join(p + gap for p, gap in parts))


PAIRS = [f"{a}{gap}{b}" for a in PIECES for b in PIECES for gap in (" ", "")]


def _keyed(keys: re.Pattern[str], found: re.Match[str] | None) -> bool:
    return found is None or keys.search(found.group()) is not None


def test_every_two_words_of_the_patterns_hold_their_keys() -> None:
    for text in PAIRS:
        for at in range(len(text) + 1):
            assert _keyed(DIFFERENCE_AFTER_KEYS, DIFFERENCE_AFTER.match(text, at)), text
            assert _keyed(DIFFERENCE_BEFORE_KEYS, DIFFERENCE_BEFORE.search(text, 0, at)), text
            assert _keyed(SUM_KEYS, SUM_WORDS.search(text, 0, at)), text


@settings(max_examples=400, derandomize=True)
@given(TEXTS)
def test_every_difference_after_match_holds_a_key(text: str) -> None:
    assert all(
        _keyed(DIFFERENCE_AFTER_KEYS, DIFFERENCE_AFTER.match(text, at))
        for at in range(len(text) + 1)
    )


@settings(max_examples=400, derandomize=True)
@given(TEXTS)
def test_every_difference_before_match_holds_a_key(text: str) -> None:
    assert all(
        _keyed(DIFFERENCE_BEFORE_KEYS, DIFFERENCE_BEFORE.search(text[:end]))
        for end in range(len(text) + 1)
    )


@settings(max_examples=400, derandomize=True)
@given(TEXTS)
def test_every_sum_match_holds_a_key_even_cut_short(text: str) -> None:
    assert all(_keyed(SUM_KEYS, SUM_WORDS.search(text, 0, end)) for end in range(len(text) + 1))


def test_a_sentence_without_keys_reads_no_difference() -> None:
    text = "In Berlin the temperature is 21 °C and its humidity stands at 63%."
    assert DIFFERENCE_AFTER_KEYS.search(text) is None
    assert DIFFERENCE_BEFORE_KEYS.search(text) is None
    assert SUM_KEYS.search(text) is None
