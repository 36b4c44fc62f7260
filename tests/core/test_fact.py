"""Fact: the JSON contract, and the inputs it refuses with a clear message."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest
from pydantic import ValidationError

from factories import make_fact
from vouched import Fact, SilenceReason
from vouched._jsonio import dumps, loads


def test_naive_observed_at_is_rejected_with_a_message_about_the_timezone() -> None:
    with pytest.raises(ValidationError, match="no timezone"):
        make_fact(observed_at=datetime(2026, 11, 29, 12, 0))


def test_naive_observed_at_string_is_rejected() -> None:
    with pytest.raises(ValidationError, match="no timezone"):
        make_fact(observed_at="2026-11-29T12:00:00")


def test_observed_at_with_offset_is_normalised_to_utc() -> None:
    fact = make_fact(observed_at="2026-11-29T13:00:00+01:00")
    assert fact.observed_at == datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    assert fact.observed_at is not None
    assert fact.observed_at.tzinfo is UTC


def test_observed_at_datetime_in_another_zone_is_normalised_to_utc() -> None:
    cet = timezone(timedelta(hours=1))
    fact = make_fact(observed_at=datetime(2026, 11, 29, 17, 0, tzinfo=cet))
    assert fact.observed_at == datetime(2026, 11, 29, 16, 0, tzinfo=UTC)


@pytest.mark.parametrize("confidence", [1.5, -0.01, float("nan"), float("inf"), True, "high"])
def test_confidence_outside_unit_interval_or_not_a_number_is_rejected(confidence: Any) -> None:
    with pytest.raises(ValidationError, match="confidence"):
        make_fact(confidence=confidence)


@pytest.mark.parametrize("confidence", [0, 0.0, 0.7, 1, 1.0])
def test_confidence_bounds_are_inclusive(confidence: float) -> None:
    assert make_fact(confidence=confidence).confidence == float(confidence)


@pytest.mark.parametrize("ttl", [-1, "-PT1M", "P1M", "soon", float("nan")])
def test_negative_or_unreadable_ttl_is_rejected(ttl: Any) -> None:
    with pytest.raises(ValidationError, match="ttl"):
        make_fact(ttl=ttl)


@pytest.mark.parametrize(
    ("ttl", "expected"),
    [
        (900, timedelta(minutes=15)),
        ("PT15M", timedelta(minutes=15)),
        ("P1DT2H", timedelta(days=1, hours=2)),
        ("P1W", timedelta(weeks=1)),
        ("PT0.5S", timedelta(milliseconds=500)),
        (Decimal("1.5"), timedelta(seconds=1.5)),
    ],
)
def test_ttl_accepts_seconds_and_iso_8601_durations(ttl: Any, expected: timedelta) -> None:
    assert make_fact(ttl=ttl).ttl == expected


def test_a_value_together_with_a_silent_reason_is_rejected() -> None:
    with pytest.raises(ValidationError, match="carries no value"):
        make_fact(silent_reason="timeout")


def test_known_silent_reasons_become_the_enum_and_custom_strings_are_kept() -> None:
    assert make_fact(value=None, silent_reason="timeout").silent_reason is SilenceReason.TIMEOUT
    custom = make_fact(value=None, silent_reason="vendor_quota_exhausted")
    assert custom.silent_reason == "vendor_quota_exhausted"
    assert not isinstance(custom.silent_reason, SilenceReason)


def test_float_values_keep_the_digits_they_were_written_with() -> None:
    assert make_fact(value=21.4).value == Decimal("21.4")
    assert str(make_fact(value=1.0842).value) == "1.0842"


def test_decimal_values_from_json_keep_trailing_zeros() -> None:
    data = loads('{"subject": "WS101", "attribute": "fee_eur", "value": 27.50}')
    fact = Fact.model_validate(data)
    assert str(fact.value) == "27.50"


def test_booleans_stay_booleans_and_integers_stay_integers() -> None:
    assert make_fact(value=True).value is True
    value = make_fact(value=8443).value
    assert value == 8443
    assert type(value) is int


@pytest.mark.parametrize("value", [float("nan"), float("inf"), Decimal("NaN"), [1, 2], {"a": 1}])
def test_non_finite_or_structured_values_are_rejected(value: Any) -> None:
    with pytest.raises(ValidationError, match="value"):
        make_fact(value=value)


@pytest.mark.parametrize("field", ["subject", "attribute"])
def test_empty_subject_or_attribute_is_rejected(field: str) -> None:
    with pytest.raises(ValidationError, match=field):
        make_fact(**{field: "  "})


def test_unknown_fields_are_rejected() -> None:
    with pytest.raises(ValidationError, match="temprature"):
        Fact.model_validate({"subject": "x", "attribute": "y", "temprature": 3})


def test_facts_are_frozen() -> None:
    fact = make_fact()
    with pytest.raises(ValidationError):
        fact.value = 3  # type: ignore[misc]


def test_to_json_matches_the_contract_and_round_trips() -> None:
    fact = make_fact(ttl="PT15M", citation="open-meteo/52.52,13.41/2026-11-29T12:00")
    document = fact.to_json()
    assert list(document) == [
        "subject",
        "attribute",
        "value",
        "unit",
        "source",
        "observed_at",
        "confidence",
        "ttl",
        "citation",
        "source_version",
        "silent_reason",
    ]
    text = dumps(document)
    assert '"observed_at": "2026-11-29T12:00:00Z"' in text
    assert '"ttl": 900' in text
    assert '"value": 21.4' in text
    assert Fact.model_validate(loads(text)) == fact


def test_silence_constructor_builds_a_typed_absence() -> None:
    fact = Fact.silence("Berlin", "wind_speed", SilenceReason.CIRCUIT_OPEN, source="open-meteo")
    assert fact.is_silent
    assert fact.value is None
    assert fact.silent_reason is SilenceReason.CIRCUIT_OPEN
