"""The common quantities (``_scan/_facts/_commonquantities.py``) are validated data, and a lexicon's
own phrases win over them."""

from __future__ import annotations

import re

from vouched import Fact, scan
from vouched._scan._facts._commonquantities import COMMON_QUANTITIES

_PHRASE = re.compile(r"[a-z0-9/-]+(?: [a-z0-9/-]+)*")


def _fact(attribute: str, value: float, unit: str | None = None) -> Fact:
    return Fact(subject="Oslo", attribute=attribute, value=value, unit=unit, source="s",
                observed_at="2026-12-06T12:00:00Z")  # fmt: skip


def test_every_phrase_is_lower_case_words() -> None:
    bad = [p for q in COMMON_QUANTITIES.values() for p in q.phrases if not _PHRASE.fullmatch(p)]
    assert bad == []


def test_no_phrase_names_two_quantities() -> None:
    phrases = [p for q in COMMON_QUANTITIES.values() for p in q.phrases]
    assert len(phrases) == len(set(phrases))


def test_every_quantity_has_a_phrase_and_an_attribute_name() -> None:
    assert all(q.phrases and q.attributes for q in COMMON_QUANTITIES.values())


def test_a_common_quantity_no_fact_states_is_ungrounded() -> None:
    report = scan("Oslo is at 4 °C and the UV index is 4.", [_fact("temperature", 4, "°C")])
    assert [(f.kind, f.text) for f in report.findings] == [("ungrounded_number", "4")]


def test_a_common_quantity_reads_the_fact_attribute_that_has_its_name() -> None:
    facts = [_fact("temperature", 4, "°C"), _fact("uv_index", 1)]
    assert scan("Oslo is at 4 °C and the UV index is 1.", facts).passed


def test_a_lexicon_phrase_wins_over_the_common_quantity() -> None:
    facts = [_fact("temperature", 4, "°C"), _fact("uvi", 4)]
    lexicon = {"attributes": {"uvi": ["UV index"]}}
    assert scan("Oslo is at 4 °C and the UV index is 4.", facts, lexicon).passed
