"""Answer a weather question: only vouched facts reach the phraser.

Runs as it stands, offline: a recorded Open-Meteo response is served on
127.0.0.1, read by a small `Source` written on vouched's public API, guarded
by a circuit breaker, gated, phrased by the offline TemplatePhraser and
scanned. The recorded wind reading is missing, so the answer says so
instead of inventing one.

    python examples/weather_answer.py
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import httpx

from vouched import Fact, Grounder, GuardedSource, Query, SilenceReason, SourceError
from vouched.testing import RecordedServer

FIELDS = {
    "temperature_2m": ("temperature", "degC"),
    "relative_humidity_2m": ("relative_humidity", "%"),
    "wind_speed_10m": ("wind_speed", "km/h"),
}


class OpenMeteoCurrent:
    """Current weather for {"subject", "latitude", "longitude"} from an Open-Meteo-style API."""

    name = "open-meteo"

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    async def fetch(self, query: Query) -> Sequence[Fact]:
        params = {
            "latitude": query["latitude"],
            "longitude": query["longitude"],
            "current": ",".join(FIELDS),
        }
        async with httpx.AsyncClient(timeout=2.0) as client:
            response = await client.get(f"{self.base_url}/v1/forecast", params=params)
        if response.status_code != 200:
            raise SourceError(f"HTTP {response.status_code}")
        current = response.json(parse_float=Decimal)["current"]
        observed = datetime.fromisoformat(current["time"]).replace(tzinfo=UTC)
        facts = []
        for field, (attribute, unit) in FIELDS.items():
            if current.get(field) is None:  # the station did not report it: say so
                facts.append(
                    Fact.silence(
                        query["subject"], attribute, SilenceReason.NO_DATA, source=self.name
                    )
                )
                continue
            facts.append(
                Fact(
                    subject=query["subject"],
                    attribute=attribute,
                    value=current[field],
                    unit=unit,
                    source=self.name,
                    observed_at=observed,
                    confidence=0.95,
                    ttl=current["interval"],
                )
            )
        return facts


def recorded_response() -> dict[str, Any]:
    # Stamped with the current quarter hour, so the facts are fresh when run.
    now = datetime.now(UTC)
    stamp = now.replace(minute=now.minute - now.minute % 15, second=0, microsecond=0)
    return {
        "current": {
            "time": stamp.strftime("%Y-%m-%dT%H:%M"),
            "interval": 900,
            "temperature_2m": 21.4,
            "relative_humidity_2m": 63,
            "wind_speed_10m": None,
        }
    }


async def main() -> None:
    with RecordedServer({"/v1/forecast": recorded_response()}) as server:
        weather = GuardedSource(OpenMeteoCurrent(server.url), deadline=2.0)
        grounder = Grounder([weather])
        answer = await grounder.answer(
            "How is the weather in Berlin right now?",
            {"subject": "Berlin", "latitude": 52.52, "longitude": 13.41},
        )
    print(answer.text)
    print(f"status: {answer.status}, attempts: {answer.attempts}, ", end="")
    print(f"grounded: {len(answer.grounded)}, silent: {len(answer.silences)}")


if __name__ == "__main__":
    asyncio.run(main())
