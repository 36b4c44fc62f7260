"""Time values, the fake clock, and JSON that keeps numbers exact."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from vouched import Clock, SystemClock
from vouched._jsonio import dumps, loads
from vouched._time import format_instant, parse_duration, parse_instant
from vouched.testing import FakeClock


def test_fake_clock_moves_wall_and_monotonic_time_together() -> None:
    clock = FakeClock("2026-11-29T12:00:00Z")
    before = clock.monotonic()
    clock.advance(seconds=90)
    assert clock.now() == datetime(2026, 11, 29, 12, 1, 30, tzinfo=UTC)
    assert clock.monotonic() - before == 90


def test_fake_clock_refuses_to_go_backwards() -> None:
    with pytest.raises(ValueError, match="backwards"):
        FakeClock().advance(-1)


def test_fake_and_system_clocks_satisfy_the_clock_protocol() -> None:
    assert isinstance(FakeClock(), Clock)
    assert isinstance(SystemClock(), Clock)
    assert SystemClock().now().tzinfo is UTC


def test_instants_are_parsed_with_z_or_offsets_and_formatted_as_utc_z() -> None:
    assert parse_instant("2026-11-29T13:00:00+01:00") == parse_instant("2026-11-29T12:00:00Z")
    assert format_instant(parse_instant("2026-11-29T13:00:00+01:00")) == "2026-11-29T12:00:00Z"


@pytest.mark.parametrize("text", ["2026-11-29T12:00:00", "yesterday", ""])
def test_instants_without_timezone_or_unreadable_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"timezone|ISO 8601"):
        parse_instant(text)


@pytest.mark.parametrize("text", ["P", "PT", "P1Y", "P1M", "PT-5M", "15 minutes"])
def test_unreadable_or_calendar_durations_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="duration"):
        parse_duration(text)


def test_durations_read_decimal_fractions_with_comma_or_point() -> None:
    assert parse_duration("PT1,5M") == parse_duration("PT1.5M") == timedelta(seconds=90)


def test_json_keeps_decimal_text_and_refuses_nan() -> None:
    data = loads('{"fee": 27.50, "port": 8443, "rate": 1.0842}')
    assert data == {"fee": Decimal("27.50"), "port": 8443, "rate": Decimal("1.0842")}
    assert dumps(data) == '{"fee": 27.50, "port": 8443, "rate": 1.0842}'
    with pytest.raises(ValueError, match="NaN"):
        loads('{"x": NaN}')


def test_canonical_json_sorts_keys_and_drops_spaces() -> None:
    assert dumps({"b": 1, "a": [True, None]}, canonical=True) == '{"a":[true,null],"b":1}'


def test_json_writes_instants_and_durations_in_contract_form() -> None:
    document = {"at": datetime(2026, 11, 29, 12, tzinfo=UTC), "ttl": timedelta(minutes=15)}
    assert dumps(document) == '{"at": "2026-11-29T12:00:00Z", "ttl": 900}'
