"""A finding's detail names what a reader can act on: the subject, the attribute by the
lexicon's words (never its code when the lexicon phrases it), the period, and the value
it was checked against (issue 37, item 7)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from vouched import Fact, FindingKind, Lexicon, scan

NOW = datetime(2026, 12, 6, 12, tzinfo=UTC)  # Sunday
VIENNA = timezone(timedelta(hours=1))
SEEN = "2026-12-06T11:00:00Z"


def _fact(subject: str, attribute: str, value: object, unit: str | None = None) -> Fact:
    return Fact(subject=subject, attribute=attribute, value=value, unit=unit, source="box",
                observed_at=SEEN, ttl=86400)  # fmt: skip


def _day(attribute: str, value: float, day: int) -> Fact:
    start = datetime(2026, 12, day, tzinfo=VIENNA)
    return Fact(subject="Vienna", attribute=attribute, value=value, unit="°C", source="om",
                observed_at=SEEN, ttl=86400, valid_from=start,
                valid_until=start + timedelta(days=1))  # fmt: skip


BOX = [_fact("Michael Porter Jr.", "REB", 8), _fact("Michael Porter Jr.", "PTS", 18),
       _fact("Nuggets", "TEAM-REB", 46), _fact("Nuggets", "TEAM-PTS", 118)]  # fmt: skip
BOX_WORDS = Lexicon.from_json(
    {
        "attributes": {
            "REB": ["rebounds", "boards"],
            "PTS": ["points"],
            "TEAM-REB": ["rebounds"],
            "TEAM-PTS": ["points"],
        }
    }
)


def _only(text: str, facts: list[Fact], lexicon: Lexicon | None) -> str:
    (finding,) = scan(text, facts, lexicon, now=NOW).findings
    assert finding.kind is FindingKind.VALUE_MISMATCH
    return finding.detail


def test_a_wrong_value_names_the_attribute_by_the_lexicons_first_phrase() -> None:
    detail = _only("Michael Porter Jr. had 18 points and 11 boards.", BOX, BOX_WORDS)
    assert "Michael Porter Jr. rebounds = 8" in detail
    assert "REB" not in detail


def test_a_team_attribute_is_named_by_its_phrase_not_its_column_code() -> None:
    detail = _only("The Nuggets scored 118 points and grabbed 44 rebounds.", BOX, BOX_WORDS)
    assert "Nuggets rebounds = 46" in detail
    assert "TEAM-REB" not in detail


def test_a_days_high_and_low_sharing_a_first_phrase_are_named_by_their_own() -> None:
    facts = [_day("temperature_max", 5.2, 7), _day("temperature_min", 1.8, 7)]
    words = Lexicon.from_json(
        {
            "attributes": {
                "temperature_max": ["temperature", "high"],
                "temperature_min": ["temperature", "low"],
            }
        }
    )
    detail = _only("Tomorrow in Vienna: a high of 5.2 °C and a low of 0.8 °C.", facts, words)
    assert "Vienna low = 1.8 °C for Mon 2026-12-07" in detail


def test_a_bare_wrong_value_is_reported_against_the_plain_attribute_of_its_unit() -> None:
    facts = [
        _fact("Munich", "temperature", -1.6, "°C"),
        _fact("Munich", "apparent_temperature", -5.4, "°C"),
        _fact("Berlin", "temperature", 4.3, "°C"),
    ]
    detail = _only("Berlin is 4.3 °C right now and Munich 5.9 °C.", facts, None)
    assert detail.startswith("'5.9 °C' read as Munich temperature does not match")
    assert "Munich temperature = -1.6 °C" in detail
    assert "also weighed: Munich apparent_temperature" in detail


def test_an_attribute_word_decides_the_reported_reading() -> None:
    facts = [
        _fact("Munich", "temperature", -1.6, "°C"),
        _fact("Munich", "apparent_temperature", -5.4, "°C"),
    ]
    words = Lexicon.from_json({"attributes": {"apparent_temperature": ["feels like"]}})
    detail = _only("In Munich it feels like -1.6 °C.", facts, words)
    assert "Munich feels like = -5.4 °C" in detail


def test_a_periods_sum_is_named_by_its_period_phrase() -> None:
    quarters = [
        _fact("Nuggets", "TEAM-PTS_QTR1", 30),
        _fact("Nuggets", "TEAM-PTS_QTR2", 28),
        _fact("Suns", "TEAM-PTS_QTR1", 27),
        _fact("Suns", "TEAM-PTS_QTR2", 26),
    ]
    detail = _only("At the break, the Nuggets led 55-53.", quarters, Lexicon.shipped("basketball"))
    assert "Nuggets in the first half = 58" in detail
    assert "QTR" not in detail
