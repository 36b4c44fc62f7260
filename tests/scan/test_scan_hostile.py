"""Hostile text (issue 27): the readers that were quadratic on one shape of text read
it in one pass, with the same results. Speed itself is measured in ``bench/hostile.py``;
these tests pin what made it linear and that nothing read differently."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vouched import Finding, FindingKind, Scanner, scan
from vouched._scan._findings import Placed, Tally
from vouched._scan._lex import _numbers, _splitter
from vouched._scan._lex._numbers import read_numbers
from vouched._scan._lex._splitter import LONG_SENTENCE, SentenceSplitter
from vouched._scan._lex._textchecks import find_placeholders
from vouched._scan._stream import scan_into

from ._cases import load_cases, world


class _Counting:
    """A compiled pattern that counts its searches."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.searches = 0

    def search(self, text: str, position: int = 0) -> re.Match[str] | None:
        self.searches += 1
        return self.pattern.search(text, position)


@pytest.mark.parametrize("piece", ['"x ', "\u201cx ", "Berlin 21 \u00b0C, "])
def test_a_text_with_no_terminator_is_searched_for_one_once(
    piece: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each over-long sentence cut from a text with no terminator used to search the rest
    of the text for one again: n / LONG_SENTENCE searches of n characters."""
    counting = _Counting(_splitter._CANDIDATE)
    monkeypatch.setattr(_splitter, "_CANDIDATE", counting)
    text = piece * (40 * LONG_SENTENCE // len(piece))
    ends = SentenceSplitter().ends(text, final=True)
    assert len(ends) > 20  # cut on its length many times
    assert counting.searches == 1


def test_the_cuts_of_a_long_text_are_those_of_its_pieces_read_in_turn() -> None:
    """The remembered candidate changes no end: a text read whole and fed in pieces
    (each call searching afresh) is cut at the same places."""
    text = ("winds 12 km/h, rain 0.4 mm " * 300) + "and then it ends. Another one.\n" * 3
    whole = SentenceSplitter().ends(text, final=True)
    splitter = SentenceSplitter()
    fed: list[int] = []
    for stop in range(97, len(text) + 97, 97):
        fed.extend(splitter.ends(text[:stop], final=stop >= len(text)))
    assert fed == whole
    assert len(whole) > 6  # cut on its length, then at each terminator


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=" \t\n\u00a01%°a.-", max_size=30), data=st.data())
def test_the_character_before_a_sign_is_read_as_before(text: str, data: st.DataObject) -> None:
    end = data.draw(st.integers(0, len(text)))
    assert _numbers._last_visible(text, end) == text[:end].rstrip()[-1:]


@pytest.mark.parametrize(
    ("text", "negative"),
    [("from 10 -12 \u00b0C", False), ("10 %\n  -12 \u00b0C", False), ("it is -12 \u00b0C", True)],
)
def test_a_dash_after_a_number_is_a_range_and_after_a_word_a_minus(
    text: str, negative: bool
) -> None:
    values = [v for q in read_numbers(text) for v in q.values]
    assert any(v < 0 for v in values) is negative


def test_none_after_a_sentence_and_a_run_of_space_is_english() -> None:
    text = "The trains run." + " " * 5000 + "\n None of them are late."
    assert find_placeholders(text) == []
    glued = "x" * 50 + " None"  # mid-sentence: a template's empty value
    assert [glued[s.start : s.end] for s in find_placeholders(glued)] == ["None"]


@pytest.mark.parametrize("at_once", [1, 300])
def test_a_text_read_in_batches_reports_what_it_reports_read_whole(at_once: int) -> None:
    """scan_into (what `vouched scan --json` reads with) hands on, sentence by sentence,
    exactly the findings of scan(), and the same passed and score: here over every case
    of the suite and a long number-dense line."""
    line = "Berlin is 21.4 \u00b0C and 63% humid, winds 12 km/h, 0.4 mm of rain, " * 200
    texts = [(c.world, c.lexicon, c.question, c.text) for c in load_cases()]
    texts.append(("weather", True, None, line))
    for name, lexicon, question, text in texts:
        w = world(name)
        scanner = Scanner(w.gated, w.lexicon if lexicon else None, w.sources, question, w.policy)
        report = scanner.scan(text)
        handed: list[Finding] = []
        tally = scan_into(scanner._compiled, text, handed.extend, at_once)
        assert tuple(handed) == report.findings
        assert tally == Tally(report.passed, report.score, len(report.findings))


def test_findings_of_a_batch_are_found_per_sentence_in_their_order() -> None:
    """Placed (the text checks' findings of a batch, looked up per sentence) gives what
    the filter of all of them gave, in their order: duplicates and empty spans too."""
    spans = [(30, 34), (2, 5), (10, 12), (2, 5), (12, 12), (11, 40), (0, 1)]
    findings = [
        Finding(FindingKind.PLACEHOLDER, a, b, "x" * (b - a), str(n))
        for n, (a, b) in enumerate(spans)
    ]
    placed = Placed(findings)
    for low, high in [(0, 12), (2, 5), (12, 40), (0, 100), (5, 10), (13, 29)]:
        expected = [f for f in findings if low <= f.start and f.end <= high]
        assert placed.within(low, high) == expected
    assert Placed([]).within(0, 10) == []


def test_a_text_of_placeholders_reports_each_once() -> None:
    report = scan("The value is {x}. " * 500, [])
    assert [f.start for f in report.findings] == [13 + 18 * n for n in range(500)]
