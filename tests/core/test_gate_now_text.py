"""``partition`` takes ``now`` as ISO 8601 text, as ``scan(now=...)`` does."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from vouched import Fact, InputError, Policy, partition

FACT = Fact(
    subject="Berlin",
    attribute="temperature",
    value=4.3,
    unit="degC",
    source="open-meteo",
    observed_at="2026-12-06T07:00:00Z",
    ttl=900,
)


def test_partition_at_iso_text_equals_partition_at_the_datetime() -> None:
    at_text = partition([FACT], Policy(), "2026-12-06T07:30:00Z")
    at_datetime = partition([FACT], Policy(), datetime(2026, 12, 6, 7, 30, tzinfo=UTC))
    assert at_text.verdicts == at_datetime.verdicts
    assert at_text.at == at_datetime.at


def test_partition_text_with_an_offset_is_read_in_utc() -> None:
    assert partition([FACT], Policy(), "2026-12-06T08:30:00+01:00").at == datetime(
        2026, 12, 6, 7, 30, tzinfo=UTC
    )


def test_partition_text_without_a_timezone_is_an_input_error_naming_now() -> None:
    with pytest.raises(InputError, match="now"):
        partition([FACT], Policy(), "2026-12-06T07:30:00")
