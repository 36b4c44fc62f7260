"""The template phraser's grammar (issue 22): acronyms in capitals, places with "in"."""

from __future__ import annotations

from decimal import Decimal

import pytest

from vouched import Fact, TemplatePhraser
from vouched._answer._phrasers import attribute_words


def test_the_uv_index_of_a_place_reads_as_english() -> None:
    fact = Fact(subject="Berlin", attribute="uv_index", value=2, source="open-meteo")
    assert TemplatePhraser().sentence(fact) == "The UV index in Berlin is 2."


def test_a_silent_uv_index_reads_as_english_too() -> None:
    silence = Fact.silence("Berlin", "uv_index", "timeout")
    assert TemplatePhraser().silence(silence).startswith("The UV index in Berlin is unavailable")


@pytest.mark.parametrize(
    ("attribute", "words"),
    [
        ("uv_index", "UV index"),
        ("aqi", "AQI"),
        ("pm2.5_level", "PM2.5 level"),
        ("co2_ppm", "CO2 ppm"),
        ("wind_speed", "wind speed"),
        ("fluid_volume", "fluid volume"),
    ],
)
def test_attribute_words_write_acronyms_in_capitals(attribute: str, words: str) -> None:
    assert attribute_words(attribute) == words


def test_an_acronym_in_the_default_sentence_keeps_the_verb_agreement() -> None:
    fact = Fact(subject="Berlin", attribute="aqi", value=Decimal("31"), source="s")
    assert TemplatePhraser().sentence(fact) == "The AQI of Berlin is 31."
