"""Builders for the snapshot, store and replay tests."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from vouched import Fact, Snapshot

T0 = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)  # a Tuesday

SnapshotFactory = Callable[..., Snapshot]


def weather_facts(at: datetime, *, age: timedelta = timedelta(minutes=5)) -> list[Fact]:
    """Three facts as a weather source returns them: two values, one silence."""
    observed = at - age
    return [
        Fact(
            subject="Berlin",
            attribute="temperature",
            value=Decimal("21.4"),
            unit="degC",
            source="open-meteo",
            observed_at=observed,
            confidence=0.95,
        ),
        Fact(
            subject="Berlin",
            attribute="humidity",
            value=63,
            unit="%",
            source="open-meteo",
            observed_at=observed,
            ttl=3600,
        ),
        Fact.silence("Berlin", "wind_speed", "circuit_open", source="wind-api"),
    ]
