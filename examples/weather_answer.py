"""Answer a weather question: only vouched facts reach the phraser.

Runs as it stands, offline: a recorded Open-Meteo response (the real shape,
local time plus its UTC offset) is served on 127.0.0.1 and read by the
Open-Meteo adapter from `vouched-adapters` (installed by `make`), guarded by a
circuit breaker, gated, phrased by the offline TemplatePhraser and scanned.
The recorded wind reading is missing, so the answer says so instead of
inventing one.

    python examples/weather_answer.py
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from vouched import Grounder, GuardedSource
from vouched.testing import RecordedServer
from vouched_adapters import OpenMeteoSource, make_client

VARIABLES = {
    "temperature_2m": "temperature",
    "relative_humidity_2m": "relative_humidity",
    "wind_speed_10m": "wind_speed",
}


def recorded_response() -> dict[str, Any]:
    """Open-Meteo's answer for Berlin, stamped with the current quarter hour in
    Berlin's winter offset (UTC+1), so the facts are fresh whenever this runs."""
    offset = timedelta(hours=1)
    local = datetime.now(UTC) + offset
    stamp = local.replace(minute=local.minute - local.minute % 15, second=0, microsecond=0)
    return {
        "latitude": 52.52,
        "longitude": 13.419998,
        "utc_offset_seconds": 3600,
        "timezone": "Europe/Berlin",
        "current_units": {
            "time": "iso8601",
            "interval": "seconds",
            "temperature_2m": "°C",
            "relative_humidity_2m": "%",
            "wind_speed_10m": "km/h",
        },
        "current": {
            "time": stamp.strftime("%Y-%m-%dT%H:%M"),
            "interval": 900,
            "temperature_2m": 21.4,
            "relative_humidity_2m": 63,
            "wind_speed_10m": None,
        },
    }


async def main() -> None:
    with RecordedServer({"/v1/forecast": recorded_response()}) as server:
        async with make_client() as client:  # one pooled client, timeouts set
            adapter = OpenMeteoSource(base_url=server.url, client=client, variables=VARIABLES)
            grounder = Grounder([GuardedSource(adapter, deadline=2.0)])
            answer = await grounder.answer(
                "How is the weather in Berlin right now?",
                {"subject": "Berlin", "latitude": 52.52, "longitude": 13.41},
            )
    print(answer.text)
    print(f"status: {answer.status}, attempts: {answer.attempts}, ", end="")
    print(f"grounded: {len(answer.grounded)}, silent: {len(answer.silences)}")


if __name__ == "__main__":
    asyncio.run(main())
