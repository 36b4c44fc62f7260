"""The echo family driven alone: a caller string's findings moved to where it is repeated."""

from __future__ import annotations

from vouched import Finding, FindingKind
from vouched._scan._rules._echo import Echo, echoed

_K = FindingKind


def test_each_repetition_of_a_caller_string_carries_its_findings() -> None:
    finding = Finding(_K.UNGROUNDED_NUMBER, 3, 8, "31 °C", "no fact")
    text = "At 31 °C? yes, at 31 °C."
    moved = echoed(text, [Echo("at 31 °C", (finding,))])
    assert [(f.start, text[f.start : f.end]) for f in moved] == [(text.find("at 31") + 3, "31 °C")]


def test_a_caller_string_the_text_does_not_repeat_moves_nothing() -> None:
    finding = Finding(_K.UNGROUNDED_NUMBER, 0, 5, "31 °C", "no fact")
    assert echoed("Nothing here.", [Echo("31 °C", (finding,))]) == []
