"""The names a reader uses for reference-rate currencies are read as their units
("kronor" is SEK, "zlotys" PLN), so an asked amount converted into them is checked
(issue 37: "50 euros is about 574 kronor" was an ungrounded number)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from vouched import Fact, FindingKind, Lexicon, scan

NOW = datetime(2026, 12, 6, 13, tzinfo=UTC)


def _rate(pair: str, value: str, unit: str) -> Fact:
    seen = "2026-12-04T15:00:00Z"
    return Fact(subject=pair, attribute="exchange_rate", value=value, unit=unit,
                source="frankfurter", observed_at=seen, ttl=86400 * 4)  # fmt: skip


FACTS = [_rate("EUR/SEK", "11.482", "SEK per EUR"), _rate("EUR/PLN", "4.2873", "PLN per EUR")]


@pytest.mark.parametrize(
    ("question", "text"),
    [
        ("How many kronor is 50 euros?", "At 11.482 SEK per euro, 50 euros is about 574 kronor."),
        ("What is 100 euros in zlotys?", "100 euros comes to roughly 428.73 zlotys today."),
    ],
)
def test_an_asked_amount_in_a_currency_named_in_words_passes(question: str, text: str) -> None:
    report = scan(text, FACTS, Lexicon.shipped("prices"), question=question, now=NOW)
    assert report.findings == ()


def test_a_wrong_amount_in_kronor_is_a_wrong_conversion() -> None:
    text = "At 11.482 SEK per euro, 50 euros is about 594 kronor."
    report = scan(
        text, FACTS, Lexicon.shipped("prices"), question="How many kronor is 50 euros?", now=NOW
    )
    (finding,) = report.findings
    assert (finding.kind, finding.text) == (FindingKind.VALUE_MISMATCH, "594 kronor")
