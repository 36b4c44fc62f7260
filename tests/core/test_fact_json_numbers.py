"""``Fact.model_dump(mode="json")`` writes numbers as JSON numbers (issue 22)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from vouched import Fact


def fact(value: object, ttl: object = 900) -> Fact:
    return Fact(
        subject="Berlin",
        attribute="temperature",
        value=value,
        unit="degC",
        source="open-meteo",
        observed_at="2026-11-29T12:00:00Z",
        confidence=0.95,
        ttl=ttl,
    )


@pytest.mark.parametrize(
    ("value", "dumped"),
    [(21.4, 21.4), (Decimal("21.40"), 21.4), (443, 443), (8443, 8443), (Decimal("1E+3"), 1000)],
)
def test_model_dump_json_mode_writes_numbers_as_numbers(value: object, dumped: object) -> None:
    data = fact(value).model_dump(mode="json")
    assert data["value"] == dumped
    assert type(data["value"]) is type(dumped)
    assert json.loads(json.dumps(data))["value"] == dumped


def test_a_fractional_ttl_is_a_number_too() -> None:
    assert fact(1, ttl=Decimal("1.5")).model_dump(mode="json")["ttl"] == 1.5
    assert fact(1, ttl="PT15M").model_dump(mode="json")["ttl"] == 900


def test_strings_and_booleans_stay_what_they_are() -> None:
    assert fact("sunny").model_dump(mode="json")["value"] == "sunny"
    assert fact(True).model_dump(mode="json")["value"] is True


def test_a_number_a_float_cannot_hold_keeps_every_digit_as_text() -> None:
    precise = Decimal("0.1000000000000000000000001")
    assert fact(precise).model_dump(mode="json")["value"] == "0.1000000000000000000000001"


def test_python_mode_and_json_text_keep_the_precision_as_given() -> None:
    assert fact(Decimal("21.40")).model_dump()["value"] == Decimal("21.40")
    assert '"value": 21.40' in fact(Decimal("21.40")).model_dump_json()
