"""Abbreviations are validated data (``_scan/_lex/_abbreviations.py``), and the one sentence
splitter reads them: a title never ends a sentence, a suffix or an initial only before a
capitalised word, and a streamed text waits for that word."""

from __future__ import annotations

import re

from vouched._scan._lex._abbreviations import SUFFIXES, TITLES
from vouched._scan._lex._splitter import SentenceSplitter, sentence_spans

_ABBREVIATION = re.compile(r"(?:[a-z]+\.)+")


def _sentences(text: str) -> list[str]:
    return [text[a:b].strip() for a, b in sentence_spans(text)]


def test_every_abbreviation_is_lower_case_letters_ending_in_a_period() -> None:
    assert [w for w in TITLES | SUFFIXES if not _ABBREVIATION.fullmatch(w)] == []


def test_no_abbreviation_is_both_a_title_and_a_suffix() -> None:
    assert not TITLES & SUFFIXES


def test_a_name_suffix_before_a_verb_ends_nothing() -> None:
    text = "Michael Porter Jr. scored 18 points. Aaron Gordon added 14."
    assert _sentences(text) == ["Michael Porter Jr. scored 18 points.", "Aaron Gordon added 14."]


def test_a_suffix_before_a_capitalised_word_ends_its_sentence() -> None:
    assert _sentences("We left at 9 a.m. The train was late.") == [
        "We left at 9 a.m.",
        "The train was late.",
    ]


def test_times_dates_and_titles_with_periods_stay_in_their_sentence() -> None:
    for text in (
        "At 9 a.m. on Friday it was 3 degrees.",
        "As of Dec. 4, EUR/USD was 1.05.",
        "Dr. Weber measured it in St. Gallen, e.g. 4 degrees.",
        "The H30 is cheaper (€149 vs. €279) than the monitor.",
        "The U.S. rate is 1.05 today.",
    ):
        assert _sentences(text) == [text]


def test_initials_before_a_surname_end_nothing() -> None:
    assert _sentences("J. R. Smith scored 9. C.J. McCollum had 20.") == [
        "J. R. Smith scored 9.",
        "C.J. McCollum had 20.",
    ]


def test_a_capital_letter_after_a_number_or_a_lower_case_word_is_no_initial() -> None:
    assert _sentences("It was 21 C. Tomorrow it rains.") == ["It was 21 C.", "Tomorrow it rains."]


def test_a_streamed_suffix_waits_for_the_next_word() -> None:
    splitter = SentenceSplitter()
    assert splitter.ends("Michael Porter Jr.") == []
    assert splitter.ends("Michael Porter Jr. scored 18 points. ") == [36]


def test_an_initial_after_a_lower_case_word_before_a_name_ends_nothing() -> None:
    assert _sentences("The opener came through J. Okafor. The reply was late.") == [
        "The opener came through J. Okafor.",
        "The reply was late.",
    ]


def test_a_capital_letter_after_a_lower_case_word_before_a_sentence_opener_ends_it() -> None:
    assert _sentences("They switched to plan B. The rest held.") == [
        "They switched to plan B.",
        "The rest held.",
    ]


def test_a_streamed_initial_after_a_lower_case_word_waits_for_the_whole_next_word() -> None:
    splitter = SentenceSplitter()
    assert splitter.ends("A goal by J. Oka") == []
    assert splitter.ends("A goal by J. Okafor won it. ") == [27]
