"""The demo's small world: recorded weather and currency responses, and two
minimal HTTP sources that read them. Built only on vouched's public API (the
full adapters live in ``adapters/``); shared by ``vouched demo`` and the
benchmarks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from decimal import Decimal
from typing import Any

import httpx

from vouched import Fact, MalformedPayloadError, Query, SourceError
from vouched._jsonio import loads

__all__ = [
    "BERLIN",
    "FORECAST",
    "HAMBURG",
    "RATES",
    "DemoForecast",
    "DemoRates",
    "DemoWeather",
    "recorded_routes",
    "weather_path",
]

BERLIN: Mapping[str, Any] = {"subject": "Berlin", "latitude": 52.52, "longitude": 13.41}
HAMBURG: Mapping[str, Any] = {"subject": "Hamburg", "latitude": 53.55, "longitude": 9.99}
RATES: Mapping[str, Any] = {"base": "EUR", "symbols": ("GBP", "USD")}
FORECAST: Mapping[str, Any] = {"subject": "Berlin", "forecast": True}

_FORECAST_DAYS = (  # Berlin, the two days after the demo's Sunday (UTC+01:00)
    ("2026-11-30", Decimal(6), Decimal(1), "light rain"),
    ("2026-12-01", Decimal(9), Decimal(3), "overcast clouds"),
)


class DemoForecast:
    """Berlin's forecast for Monday and Tuesday: each day's high, low and sky, facts
    valid for that day (embedded: no network)."""

    name = "demo-forecast"

    def __init__(self, issued_at: str) -> None:
        self.issued_at = issued_at

    async def fetch(self, query: Query) -> Sequence[Fact]:
        subject = str(query["subject"])
        facts = []
        for day, high, low, sky in _FORECAST_DAYS:
            start = f"{day}T00:00:00+01:00"
            until = _next_midnight(day)
            for attribute, value, unit in (
                ("temperature_max", high, "°C"),
                ("temperature_min", low, "°C"),
                ("condition", sky, None),
            ):
                facts.append(
                    Fact(
                        subject=subject,
                        attribute=attribute,
                        value=value,
                        unit=unit,
                        source=self.name,
                        observed_at=self.issued_at,
                        ttl=timedelta(hours=6),
                        confidence=0.9,
                        valid_from=start,
                        valid_until=until,
                    )
                )
        return facts


def _next_midnight(day: str) -> str:
    from datetime import date  # noqa: PLC0415 - kept beside its one use

    return f"{date.fromisoformat(day) + timedelta(days=1)}T00:00:00+01:00"


_CURRENT = "temperature_2m,relative_humidity_2m,wind_speed_10m"
_ATTRIBUTES = {
    "temperature_2m": "temperature",
    "relative_humidity_2m": "relative_humidity",
    "wind_speed_10m": "wind_speed",
}
_UNITS = {"°C": "degC", "%": "%", "km/h": "km/h"}


def weather_path(query: Query) -> str:
    """The request path (with its exact query string) for a weather query."""
    return (
        f"/v1/forecast?latitude={query['latitude']}&longitude={query['longitude']}"
        f"&current={_CURRENT}"
    )


def _open_meteo(time: str, temperature: str, humidity: int, wind: str) -> dict[str, Any]:
    return {
        "utc_offset_seconds": 0,
        "current_units": {
            "time": "iso8601",
            "interval": "seconds",
            "temperature_2m": "°C",
            "relative_humidity_2m": "%",
            "wind_speed_10m": "km/h",
        },
        "current": {
            "time": time,
            "interval": 900,
            "temperature_2m": Decimal(temperature),
            "relative_humidity_2m": humidity,
            "wind_speed_10m": Decimal(wind),
        },
    }


def recorded_routes(observed: str = "2026-11-29T12:00") -> dict[str, object]:
    """Recorded Open-Meteo and Frankfurter (ECB) responses, observed at ``observed`` (UTC)."""
    return {
        weather_path(BERLIN): _open_meteo(observed, "21.4", 63, "11.2"),
        weather_path(HAMBURG): _open_meteo(observed, "9.1", 81, "23.5"),
        "/latest?base=EUR&symbols=GBP,USD": {
            "amount": Decimal("1.0"),
            "base": "EUR",
            "date": "2026-11-27",
            "rates": {"GBP": Decimal("0.8571"), "USD": Decimal("1.0842")},
        },
    }


async def _get_json(client: httpx.AsyncClient | None, url: str, timeout: float) -> Any:
    try:
        if client is not None:
            response = await client.get(url)
        else:
            async with httpx.AsyncClient(timeout=timeout) as own:
                response = await own.get(url)
    except httpx.TimeoutException:
        raise TimeoutError("no answer in time") from None
    except httpx.HTTPError as error:
        raise SourceError(type(error).__name__) from None
    if response.status_code >= 400:
        raise SourceError(f"HTTP {response.status_code}")
    try:
        return loads(response.content)
    except ValueError:
        raise MalformedPayloadError("not JSON") from None


class DemoWeather:
    """Current weather from an Open-Meteo-shaped JSON API (query: subject, latitude, longitude)."""

    name = "open-meteo"

    def __init__(
        self, base_url: str, *, client: httpx.AsyncClient | None = None, timeout: float = 2.0
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._client = client
        self._timeout = timeout

    def expects(self, query: Query) -> Sequence[tuple[str, str]]:
        return [(str(query["subject"]), attribute) for attribute in _ATTRIBUTES.values()]

    async def fetch(self, query: Query) -> Sequence[Fact]:
        document = await _get_json(self._client, self.base_url + weather_path(query), self._timeout)
        try:
            current = document["current"]
            units = document["current_units"]
            offset = int(document["utc_offset_seconds"])
            observed = f"{current['time']}:00+00:00"
            ttl = int(current["interval"])
            facts = []
            for field, attribute in _ATTRIBUTES.items():
                facts.append(
                    Fact(
                        subject=str(query["subject"]),
                        attribute=attribute,
                        value=current[field],
                        unit=_UNITS.get(units[field], units[field]),
                        source=self.name,
                        observed_at=observed,
                        confidence=0.95,
                        ttl=ttl,
                        citation=f"open-meteo/{query['latitude']},{query['longitude']}/{current['time']}",
                    )
                )
        except (KeyError, TypeError, ValueError) as error:
            raise MalformedPayloadError(f"unexpected shape: {type(error).__name__}") from None
        if offset:
            raise MalformedPayloadError("expected UTC times (utc_offset_seconds 0)")
        return facts


class DemoRates:
    """ECB reference rates from a Frankfurter-shaped JSON API (query: base, symbols)."""

    name = "frankfurter"

    def __init__(
        self, base_url: str, *, client: httpx.AsyncClient | None = None, timeout: float = 2.0
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._client = client
        self._timeout = timeout

    def expects(self, query: Query) -> Sequence[tuple[str, str]]:
        return [(f"{query['base']}/{symbol}", "rate") for symbol in query["symbols"]]

    async def fetch(self, query: Query) -> Sequence[Fact]:
        symbols = ",".join(sorted(query["symbols"]))
        url = f"{self.base_url}/latest?base={query['base']}&symbols={symbols}"
        document = await _get_json(self._client, url, self._timeout)
        try:
            date = str(document["date"])
            rates = document["rates"]
            return [
                Fact(
                    subject=f"{document['base']}/{symbol}",
                    attribute="rate",
                    value=rates[symbol],
                    source=self.name,
                    # ECB reference rates are set around 16:00 CET; valid until the next set.
                    observed_at=f"{date}T15:00:00Z",
                    confidence=1.0,
                    ttl=timedelta(days=3, hours=1),
                    citation=f"ecb/{date}",
                )
                for symbol in sorted(query["symbols"])
            ]
        except (KeyError, TypeError, ValueError) as error:
            raise MalformedPayloadError(f"unexpected shape: {type(error).__name__}") from None
