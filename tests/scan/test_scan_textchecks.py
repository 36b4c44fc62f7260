"""Placeholders, internal words, canned fallbacks and quotes: hits and honest misses."""

from __future__ import annotations

import pytest

from vouched import unsupported_quotes
from vouched._scan._lex._numwords import word_tokens
from vouched._scan._lex._quotes import find_quotes
from vouched._scan._lex._textchecks import (
    find_fallbacks,
    find_internal,
    find_placeholders,
    internal_terms,
)


def _fallbacks(text: str) -> list[str]:
    return [text[s.start : s.end] for s in find_fallbacks(text, word_tokens(text.lower()))]


@pytest.mark.parametrize(
    "text",
    [
        "As an AI language model, I can't say.",
        "As an AI model I cannot check.",
        "as a large language model, I do not know",
        "I do not have real-time data for Berlin.",
        "I don't have access to live weather information.",
        "I\u2019m unable to provide real-time updates.",
        "I am not able to provide current prices.",
        "My knowledge cutoff is 2023.",
        "As of my last training update, rates were lower.",
        "I can't browse the internet.",
        "I'm sorry, but I cannot help with that.",
        "I would recommend checking a reliable weather service.",
        "Please consult the official website.",
        "I'm just an AI.",
        "Hypothetically, let's say the rate is 1.10.",
    ],
)
def test_canned_fallbacks_are_found_in_their_variants(text: str) -> None:
    assert _fallbacks(text)


@pytest.mark.parametrize(
    "text",
    [
        "As a reminder, the ECB publishes rates at 16:00 CET.",
        "I have the latest reading: 21 °C.",
        "Please note that platform changes are announced on the board.",
        "You may want to bring an umbrella.",
        "For example, Munich is cooler than Berlin.",
        "The training workshop starts at 10:00.",
        "As an example, take ICE 1537.",
    ],
)
def test_honest_phrasing_is_not_a_fallback(text: str) -> None:
    assert _fallbacks(text) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Temperature: None", "None"),
        ("wind is null", "null"),
        ("value undefined here", "undefined"),
        ("humidity NaN", "NaN"),
        ("see {city}", "{city}"),
        ("see {{ city }}", "{{ city }}"),
        ("see ${CITY}", "${CITY}"),
        ("it is <missing>", "<missing>"),
        ("rate: N/A", "N/A"),
        ("TODO fill in", "TODO"),
        ("got [object Object]", "[object Object]"),
        ("price %d EUR", "%d"),
        ("lorem ipsum dolor", "lorem ipsum"),
    ],
)
def test_placeholders_are_found(text: str, found: str) -> None:
    assert [text[s.start : s.end] for s in find_placeholders(text)] == [found]


@pytest.mark.parametrize(
    "text",
    [
        "None of the trains are late.",
        "There are none left.",
        "Nullarbor Plain and undefinedness and Nancy",
        "Use <b>bold</b> and <br> for layout.",
        "The discount is 50% off.",
        "TODOs are tracked elsewhere? No: todo lists are English.",
        "Platform #7 is closed.",
    ],
)
def test_honest_text_has_no_placeholder(text: str) -> None:
    assert find_placeholders(text) == []


def test_internal_terms_are_whole_identifier_words() -> None:
    terms = internal_terms(("wx_payload",), ("open-meteo", "wind_speed"))
    text = "observed_at, wind_speed and open-meteo; not observed at noon, windspeed or Open-Meteo"
    found = [text[s.start : s.end] for s in find_internal(text, terms)]
    assert found == ["observed_at", "wind_speed", "open-meteo"]


def test_verdict_names_count_only_in_capitals() -> None:
    terms = internal_terms()
    text = "GROUNDED facts; the grounded answer stays silent on wind."
    assert [text[s.start : s.end] for s in find_internal(text, terms)] == ["GROUNDED"]


def test_quotes_straight_curly_and_guillemets() -> None:
    text = (
        'A "straight quote here" and \u201ca curly quote here\u201d'
        " and \u00ab a guillemet one \u00bb."
    )
    assert [q.text for q in find_quotes(text)] == [
        "straight quote here",
        "a curly quote here",
        "a guillemet one",
    ]


def test_apostrophes_are_not_quote_marks() -> None:
    text = "Berlin's rate isn't what Munich's was; it's the '90s again, don't worry."
    assert find_quotes(text) == []


def test_single_quotes_keep_inner_apostrophes() -> None:
    text = "They said 'it's the binding daily rate' yesterday."
    assert [q.text for q in find_quotes(text)] == ["it's the binding daily rate"]


def test_short_quotes_are_ignored() -> None:
    assert find_quotes('The "ICE" is "on time".') == []


def test_quote_matching_ignores_case_spacing_and_edge_punctuation() -> None:
    sources = ["Reference rates are   for information\npurposes only."]
    assert unsupported_quotes('"REFERENCE rates are for information purposes only,"', sources) == []


def test_curly_apostrophe_in_quote_matches_straight_source() -> None:
    sources = ["The bank's reference rate is indicative."]
    assert unsupported_quotes("\u201cthe bank\u2019s reference rate\u201d", sources) == []


def test_ellipsis_pieces_must_each_occur() -> None:
    sources = ["Rates are published daily. They are for information only."]
    assert unsupported_quotes('"Rates are published ... for information only"', sources) == []
    assert unsupported_quotes('"Rates are published ... for trading only"', sources) == [
        "Rates are published ... for trading only"
    ]


def test_no_sources_means_every_long_quote_is_unsupported() -> None:
    assert unsupported_quotes('He said "this is a long enough quote".', []) == [
        "this is a long enough quote"
    ]
