"""The template phraser's grammar (issue 22): acronyms in capitals, places with "in"."""

from __future__ import annotations

from decimal import Decimal

import pytest

from vouched import Fact, Grounder, Lexicon, TemplatePhraser
from vouched._answer._phrasers import attribute_words
from vouched.testing import FakeClock


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


def test_a_column_code_in_capitals_is_written_in_lower_case() -> None:
    assert attribute_words("TEAM") == "team"


def test_the_phraser_says_an_attribute_with_the_words_it_is_given() -> None:
    fact = Fact(subject="Nikola Jokic", attribute="PTS", value=31, source="boxscore")
    phraser = TemplatePhraser(words={"PTS": "points"})
    assert phraser.sentence(fact) == "The points of Nikola Jokic are 31."
    assert TemplatePhraser().sentence(fact) == "The pts of Nikola Jokic are 31."


def test_a_grounder_with_a_lexicon_phrases_offline_in_its_words_and_passes_its_own_scan() -> None:
    # with the shipped basketball lexicon the offline phraser wrote "The PTS of ...", and
    # the scan then cut "TEAM-PTS" sentences as internal vocabulary: a partial answer
    # although every fact was grounded
    facts = [
        Fact(subject="Nikola Jokic", attribute="PTS", value=31, source="boxscore",
             observed_at="2026-03-14T00:00:00Z", ttl=86400),
        Fact(subject="Nuggets", attribute="TEAM-PTS", value=118, source="boxscore",
             observed_at="2026-03-14T00:00:00Z", ttl=86400),
    ]  # fmt: skip
    grounder = Grounder(
        [], lexicon=Lexicon.shipped("basketball"), clock=FakeClock("2026-03-14T01:00:00Z")
    )
    answer = grounder.answer_sync("How did Denver do?", facts=facts)
    assert (answer.status, answer.text) == (
        "ok",
        "The points of Nikola Jokic are 31. The points of Nuggets are 118.",
    )
