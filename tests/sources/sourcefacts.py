"""Facts the source tests script (a module name no other test directory uses)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from vouched import Fact

START = "2026-11-29T12:00:00Z"


def weather_fact(value: str = "4.3", attribute: str = "temperature", ttl: float = 900) -> Fact:
    return Fact(
        subject="Berlin",
        attribute=attribute,
        value=Decimal(value),
        unit="°C",
        source="weather",
        observed_at=START,
        ttl=timedelta(seconds=ttl),
        confidence=0.95,
    )
