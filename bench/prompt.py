"""Benchmark: what one forecast question costs on the way in (issue 39).

"What's the high in Vienna tomorrow?" over a five-day Open-Meteo forecast (the
shape of ``tests/fixtures/open_meteo_forecast.json``: four hourly variables,
four daily ones, 120 hours, built here with fixed values), answered by a
Grounder with a scripted phraser and a snapshot store: the characters of the
messages the model gets, and the facts the snapshot stores.

Run it under two checkouts to compare (``PYTHONPATH=<tree>/src:<tree>/adapters/src``);
it prints the issue's figures for the checkout before the change beside it.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from vouched import Fact, Grounder
from vouched.testing import FakeClock, MemorySnapshotStore, ScriptedPhraser
from vouched_adapters import OpenMeteoForecastSource

NOW = datetime(2026, 12, 6, 11, 0, tzinfo=UTC)  # Sunday, 12:00 in Vienna
QUESTION = "What's the high in Vienna tomorrow?"
ISSUE_BEFORE = "52,004 characters, 530 facts (the issue's figure, before)"


def five_day_body() -> dict[str, Any]:
    """A five-day Open-Meteo body (hourly and daily), values from simple formulas."""
    first = datetime(2026, 12, 6)
    hours = [first + timedelta(hours=h) for h in range(120)]
    days = [first + timedelta(days=d) for d in range(5)]
    temps = [round(2 + 4 * ((h % 24) - 6) / 18 + (h // 24) * 0.7, 1) for h in range(120)]
    return {
        "latitude": 48.21,
        "longitude": 16.37,
        "utc_offset_seconds": 3600,
        "timezone": "Europe/Vienna",
        "hourly_units": {
            "time": "iso8601",
            "temperature_2m": "°C",
            "precipitation": "mm",
            "weather_code": "wmo code",
            "wind_speed_10m": "km/h",
        },
        "hourly": {
            "time": [h.isoformat(timespec="minutes") for h in hours],
            "temperature_2m": temps,
            "precipitation": [round(0.1 * (h % 5 == 0), 1) for h in range(120)],
            "weather_code": [(3, 61, 0, 2)[h % 4] for h in range(120)],
            "wind_speed_10m": [round(8 + (h % 7) * 1.3, 1) for h in range(120)],
        },
        "daily_units": {
            "time": "iso8601",
            "temperature_2m_max": "°C",
            "temperature_2m_min": "°C",
            "precipitation_sum": "mm",
            "weather_code": "wmo code",
        },
        "daily": {
            "time": [d.date().isoformat() for d in days],
            "temperature_2m_max": [max(temps[24 * d : 24 * d + 24]) for d in range(5)],
            "temperature_2m_min": [min(temps[24 * d : 24 * d + 24]) for d in range(5)],
            "precipitation_sum": [0.5, 0.5, 0.4, 0.5, 0.5],
            "weather_code": [63, 0, 3, 61, 2],
        },
    }


class _Recorded:
    name = "open-meteo-forecast"

    def __init__(self, facts: Sequence[Fact]) -> None:
        self.facts = facts

    async def fetch(self, query: Any) -> Sequence[Fact]:
        return self.facts


def measure() -> tuple[int, int, int]:
    """(characters sent, facts stored, facts the forecast holds)."""
    body = json.loads(json.dumps(five_day_body()), parse_float=Decimal)
    facts = OpenMeteoForecastSource().parse(body, "Vienna", observed_at=NOW)
    phraser = ScriptedPhraser(["Tomorrow, Monday 7 December, the high in Vienna is 3.6 °C."])
    store = MemorySnapshotStore()
    grounder = Grounder([_Recorded(facts)], phraser=phraser, clock=FakeClock(NOW), store=store)

    async def main() -> None:
        await grounder.answer(QUESTION, {"subject": "Vienna"})
        await grounder.settle()

    asyncio.run(main())
    sent = sum(len(m["content"]) for m in phraser.prompts[0].messages())
    stored = len(next(store.iter()).facts)
    return sent, stored, len(facts)


def main() -> int:
    sent, stored, held = measure()
    print(f"{QUESTION!r} over a five-day Open-Meteo forecast ({held} facts)")
    print(f"characters sent {sent:,}, facts stored {stored}   [{ISSUE_BEFORE}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
