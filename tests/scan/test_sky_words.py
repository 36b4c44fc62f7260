"""Plain sky words against OpenWeather's cloud codes (issue 39, item 8): the shipped
weather lexicon's table (docs/guides/forecast-answers.md, "Sky words"). OpenWeather's
own labels copied from the data are held to their code; plain words are
approximations of neighbouring codes ("mostly cloudy" of broken clouds and overcast)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from vouched import Fact, FindingKind, InputError, Lexicon, scan

ZONE = timezone(timedelta(hours=1))
NOW = datetime(2026, 12, 6, 23, tzinfo=UTC)  # Monday 00:00 local
LEXICON = Lexicon.load("weather")
# Monday overcast all day, Tuesday clear then a few clouds, Wednesday scattered and broken
SKIES = {7: ("overcast clouds", "overcast clouds", "overcast clouds", "overcast clouds"),
         8: ("clear sky", "clear sky", "few clouds", "few clouds"),
         9: ("scattered clouds", "broken clouds", "broken clouds", "scattered clouds")}  # fmt: skip


def _facts() -> list[Fact]:
    out = []
    for day, skies in SKIES.items():
        for i, sky in enumerate(skies):
            start = datetime(2026, 12, day, 6 * i, tzinfo=ZONE)
            end = start + timedelta(hours=6)
            out.append(Fact(subject="Linz", attribute="condition", value=sky, source="ow",
                            observed_at=NOW, ttl=86400 * 10, valid_from=start,
                            valid_until=end))  # fmt: skip
    return out


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(f.kind.value, f.text) for f in scan(text, _facts(), LEXICON, now=NOW).findings]


@pytest.mark.parametrize(
    "text",
    [
        "Monday will be mostly cloudy in Linz.",
        "Expect grey skies on Monday.",
        "Tuesday will be sunny.",
        "Tuesday looks mostly clear.",
        "Wednesday will be partly cloudy.",
        "Wednesday will be mostly cloudy.",
        "On Tuesday, a few clouds in the evening.",
        "Wednesday will be mostly sunny.",
        "Grey skies on Wednesday.",
        "Tuesday will be partly cloudy.",
    ],
)
def test_a_plain_sky_word_passes_on_the_codes_it_approximates(text: str) -> None:
    assert _kinds(text) == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Monday will be sunny.", "sunny"),
        ("Monday will be mostly clear.", "mostly clear"),
        ("Tuesday will be mostly cloudy.", "mostly cloudy"),
        ("Tuesday brings grey skies.", "grey skies"),
    ],
)
def test_a_plain_sky_word_far_from_the_codes_is_a_mismatch(text: str, words: str) -> None:
    assert _kinds(text) == [(FindingKind.VALUE_MISMATCH.value, words)]


def test_an_openweather_label_copied_for_another_code_is_a_mismatch() -> None:
    """'broken clouds' is OpenWeather's code for 51-84 % cover; Monday's is overcast."""
    assert _kinds("On Monday there will be broken clouds.") == [
        (FindingKind.VALUE_MISMATCH.value, "broken clouds")
    ]


def test_a_denied_plain_word_is_judged_on_its_own_codes_only() -> None:
    """'not sunny' on Wednesday (scattered and broken clouds, no clear sky): true."""
    assert _kinds("Wednesday will not be sunny.") == []


def test_also_must_name_a_family_of_the_section() -> None:
    with pytest.raises(InputError, match="no family of this section"):
        Lexicon.from_json(
            {"conditions": {"mostly cloudy": {"phrases": ["mostly cloudy"], "also": ["nimbus"]}}}
        )
