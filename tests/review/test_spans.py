"""Findings placed on the words they name, or listed without a highlight."""

from __future__ import annotations

from vouched._review._spans import place, segments


def test_a_finding_sits_on_its_span() -> None:
    text = "humidity is 70% now"
    [placed] = place(text, [{"kind": "value_mismatch", "start": 12, "end": 15, "text": "70%"}])
    assert (text[placed.start : placed.end], placed.placed, placed.moved) == ("70%", True, False)


def test_a_span_that_redaction_moved_is_found_by_its_words() -> None:
    text = "[redacted:ab12] has 70%"
    [placed] = place(text, [{"kind": "value_mismatch", "start": 9, "end": 12, "text": "70%"}])
    assert (text[placed.start : placed.end], placed.moved) == ("70%", True)


def test_a_finding_whose_words_are_gone_is_not_drawn_on_other_words() -> None:
    [placed] = place("nothing here", [{"kind": "k", "start": 0, "end": 4, "text": "Alice"}])
    assert not placed.placed


def test_segments_keep_every_character_once_and_name_overlaps() -> None:
    text = "abcdefgh"
    placed = place(text, [{"kind": "a", "start": 1, "end": 5}, {"kind": "b", "start": 3, "end": 7}])
    pieces = segments(text, placed)
    assert "".join(p.text for p in pieces) == text
    assert [(p.text, p.findings) for p in pieces] == [
        ("a", ()),
        ("bc", (1,)),
        ("de", (1, 2)),
        ("fg", (2,)),
        ("h", ()),
    ]
