"""The template phraser says the time a forecast fact describes, and its answer passes
its own scan."""

from __future__ import annotations

from datetime import UTC, datetime

from vouched import Fact, Lexicon, Prompt, TemplatePhraser, build_prompt, scan

NOW = datetime(2026, 12, 3, 10, tzinfo=UTC)  # Thursday


def _fact(attribute: str, value: int | str, start: str, until: str) -> Fact:
    return Fact(
        subject="Berlin",
        attribute=attribute,
        value=value,
        unit="°C" if isinstance(value, int) else None,
        source="open-meteo-forecast",
        observed_at=NOW,
        ttl=3600,
        valid_from=start,
        valid_until=until,
    )


FRIDAY_HIGH = _fact("temperature_max", 12, "2026-12-04T00:00+01:00", "2026-12-05T00:00+01:00")
SATURDAY_HIGH = _fact("temperature_max", 9, "2026-12-05T00:00+01:00", "2026-12-06T00:00+01:00")
FRIDAY_AFTERNOON = _fact("temperature", 9, "2026-12-04T12:00+01:00", "2026-12-04T15:00+01:00")


def _prompt(*facts: Fact) -> Prompt:
    return build_prompt("How will the weather be?", facts, [])


def test_a_days_fact_says_its_day() -> None:
    assert TemplatePhraser().sentence(FRIDAY_HIGH) == (
        "On Friday 4 December the high in Berlin is 12 °C."
    )


def test_a_slot_says_its_part_of_the_day() -> None:
    assert TemplatePhraser().sentence(FRIDAY_AFTERNOON) == (
        "On Friday 4 December in the afternoon the temperature in Berlin is 9 °C."
    )


def test_one_attribute_is_said_once_per_period() -> None:
    text = TemplatePhraser().render(_prompt(FRIDAY_HIGH, SATURDAY_HIGH))
    assert "12 °C" in text
    assert "9 °C" in text


def test_a_fact_without_a_period_is_phrased_as_before() -> None:
    current = Fact(subject="Berlin", attribute="temperature_max", value=12, unit="°C")
    assert TemplatePhraser().sentence(current) == "The high in Berlin is 12 °C."


def test_the_phrased_forecast_passes_its_own_scan() -> None:
    facts = [FRIDAY_HIGH, SATURDAY_HIGH, FRIDAY_AFTERNOON]
    text = TemplatePhraser().render(_prompt(*facts))
    lexicon = Lexicon.from_json({"attributes": {"temperature_max": ["high"]}})
    assert scan(text, facts, lexicon, now=NOW).passed
