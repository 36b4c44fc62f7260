"""TemplatePhraser: deterministic sentences, units, silences in plain words."""

from __future__ import annotations

import asyncio
from decimal import Decimal

import pytest

from vouched import Fact, Prompt, TemplatePhraser, build_prompt
from vouched._answer._phrasers import as_phraser, phraser_name


def _fact(subject: str, attribute: str, value: object, unit: str | None = None) -> Fact:
    return Fact(
        subject=subject,
        attribute=attribute,
        value=value,
        unit=unit,
        source="open-meteo",
        observed_at="2026-11-29T12:00:00Z",
    )


def _say(grounded: list[Fact], silences: list[Fact] | None = None) -> str:
    return TemplatePhraser().render(build_prompt("?", grounded, silences or []))


def test_temperature_is_written_with_its_unit() -> None:
    assert _say([_fact("Berlin", "temperature", Decimal("21.4"), "degC")]) == (
        "The temperature in Berlin is 21.4 °C."
    )


def test_percent_is_written_without_a_space() -> None:
    assert _say([_fact("Berlin", "relative_humidity", 63, "%")]) == (
        "The relative humidity in Berlin is 63%."
    )


def test_decimal_keeps_trailing_zeros_as_given() -> None:
    assert _say([_fact("EUR/USD", "rate", Decimal("1.0840"))]) == (
        "The EUR/USD exchange rate is 1.0840."
    )


def test_unknown_attribute_uses_the_default_template_in_words() -> None:
    assert _say([_fact("Route A", "step_free_access", True)]) == (
        "The step free access of Route A is yes."
    )


def test_silence_is_said_unavailable_with_the_reason_in_plain_words() -> None:
    silence = Fact.silence("Berlin", "wind_speed", "circuit_open")
    assert _say([], [silence]) == (
        "The wind speed in Berlin is unavailable right now (the source is not responding)."
    )


def test_caller_defined_reason_code_is_never_shown() -> None:
    text = _say([], [Fact.silence("Berlin", "uv_index", "vendor_quota_exceeded")])
    assert "vendor_quota_exceeded" not in text
    assert "unavailable right now" in text


def test_each_subject_attribute_is_stated_once() -> None:
    text = _say(
        [
            _fact("Berlin", "temperature", Decimal("21.4"), "degC"),
            _fact("Berlin", "temperature", Decimal("21.6"), "degC"),
        ],
        [Fact.silence("Berlin", "temperature", "timeout")],
    )
    assert text == "The temperature in Berlin is 21.4 °C."


def test_custom_templates_and_units_override_the_defaults() -> None:
    phraser = TemplatePhraser({"price": "{subject} costs {value}."}, units={"EUR": " euros"})
    text = phraser.render(build_prompt("?", [_fact("Workshop W1", "price", 120, "EUR")], []))
    assert text == "Workshop W1 costs 120 euros."


def test_no_facts_at_all_says_nothing_can_be_said() -> None:
    assert _say([]).startswith("Nothing can be said about this right now")


def test_same_prompt_gives_the_same_text() -> None:
    prompt = build_prompt("?", [_fact("Berlin", "temperature", Decimal("21.4"), "degC")], [])
    phraser = TemplatePhraser()
    assert asyncio.run(phraser.phrase(prompt)) == asyncio.run(phraser.phrase(prompt))


def test_plain_sync_and_async_callables_are_phrasers() -> None:
    prompt = build_prompt("?", [], [])

    def sync(p: Prompt) -> str:
        return "sync"

    async def coroutine(p: Prompt) -> str:
        return "async"

    assert asyncio.run(as_phraser(sync).phrase(prompt)) == "sync"
    assert asyncio.run(as_phraser(coroutine).phrase(prompt)) == "async"
    assert phraser_name(as_phraser(sync)) == "sync"
    assert phraser_name(TemplatePhraser()) == "template"


def test_a_catch_all_silence_names_the_subject_not_an_attribute() -> None:
    silence = Fact.silence("Berlin", "*", "timeout", source="open-meteo")
    assert _say([], [silence]) == (
        "Nothing about Berlin is available right now (the source did not answer in time)."
    )


def test_a_catch_all_silence_never_names_the_source_id() -> None:
    silence = Fact.silence("open-meteo", "*", "source_error", source="open-meteo")
    assert "open-meteo" not in _say([], [silence])


@pytest.mark.parametrize(
    ("attribute", "sentence"),
    [
        ("wind_gusts", "The wind gusts of Berlin are 31.7 km/h."),
        ("aqi_readings", "The AQI readings of Berlin are 31.7 km/h."),
        ("status", "The status of Berlin is 31.7 km/h."),
    ],
)
def test_the_default_sentence_agrees_with_a_plural_attribute(attribute: str, sentence: str) -> None:
    fact = Fact(subject="Berlin", attribute=attribute, value=Decimal("31.7"), unit="km/h")
    assert TemplatePhraser().sentence(fact) == sentence


def test_a_plural_silence_agrees_too() -> None:
    silence = Fact.silence("Berlin", "wind_gusts", "timeout")
    assert TemplatePhraser().silence(silence).startswith("The wind gusts of Berlin are unavailable")
