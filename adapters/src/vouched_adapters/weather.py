"""Current weather from Open-Meteo (``/v1/forecast?latitude=..&longitude=..&current=..``).

One fact per variable, named in the weather vocabulary every weather adapter
writes (``docs/guides/forecast-answers.md``: ``temperature``, ``feels_like``, ``humidity``,
``wind_speed``, ``wind_gust``, ``condition``, ...). Units come from the
response's ``current_units`` (never assumed: a variable without a unit is a
``malformed`` silence). ``observed_at`` is ``current.time`` read in the
response's own UTC offset (``utc_offset_seconds``), the TTL is
``current.interval``, and the WMO ``weather_code`` becomes a ``condition`` in
words ("overcast"). A value read as a float (a body from plain ``json.load``) is
taken exactly, as ``Decimal(str(x))``. The citation names the coordinates asked
for and the observation time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import httpx

from vouched import Fact, MalformedPayloadError, Query, SilenceReason
from vouched_adapters._http import SubjectNotFoundError, get_json
from vouched_adapters._queries import check_coordinates, check_mapping, check_text
from vouched_adapters._values import exact_number

__all__ = ["DEFAULT_VARIABLES", "WMO_CONDITIONS", "OpenMeteoSource", "check_weather_query"]

CONDITION = "condition"

DEFAULT_VARIABLES: Mapping[str, str] = {
    "temperature_2m": "temperature",
    "relative_humidity_2m": "humidity",
    "apparent_temperature": "feels_like",
    "precipitation": "precipitation",
    "weather_code": CONDITION,
    "wind_speed_10m": "wind_speed",
    "wind_gusts_10m": "wind_gust",
}
"""Open-Meteo variable -> the attribute its fact carries (the forecast adapters'
names: one lexicon serves current conditions and forecasts). ``weather_code``
mapped to ``condition`` is the code in words only; mapped to any other name, that
fact holds the number and ``condition`` the words beside it."""

WMO_CONDITIONS: Mapping[int, str] = {
    0: "clear sky",
    1: "mainly clear",
    2: "partly cloudy",
    3: "overcast",
    45: "fog",
    48: "depositing rime fog",
    51: "light drizzle",
    53: "moderate drizzle",
    55: "dense drizzle",
    56: "light freezing drizzle",
    57: "dense freezing drizzle",
    61: "slight rain",
    63: "moderate rain",
    65: "heavy rain",
    66: "light freezing rain",
    67: "heavy freezing rain",
    71: "slight snow fall",
    73: "moderate snow fall",
    75: "heavy snow fall",
    77: "snow grains",
    80: "slight rain showers",
    81: "moderate rain showers",
    82: "violent rain showers",
    85: "slight snow showers",
    86: "heavy snow showers",
    95: "thunderstorm",
    96: "thunderstorm with slight hail",
    99: "thunderstorm with heavy hail",
}
"""WMO weather interpretation codes (as Open-Meteo documents them)."""


def check_weather_query(query: Query) -> None:
    """Raise :class:`vouched.QueryError` unless ``query`` is one Open-Meteo can be
    asked: ``latitude`` and ``longitude`` numbers in range, ``subject`` and
    ``timezone`` text when given."""
    check_coordinates(query)
    check_text(check_mapping(query), "subject")
    check_text(query, "timezone")


class OpenMeteoSource:
    """Current conditions at a coordinate.

    Query: ``{"subject": "Berlin", "latitude": 52.52, "longitude": 13.41}``
    (optionally ``"timezone"``, default ``"auto"``: the response is read in the
    offset it states, whatever it is).
    """

    def __init__(
        self,
        *,
        base_url: str = "https://api.open-meteo.com",
        client: httpx.AsyncClient | None = None,
        variables: Mapping[str, str] = DEFAULT_VARIABLES,
        name: str = "open-meteo",
        confidence: float | None = 0.9,
    ) -> None:
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.client = client
        self.variables = dict(variables)
        self.confidence = confidence

    def expects(self, query: Query) -> list[tuple[str, str]]:
        subject = _subject(query)
        keys = []
        for variable, attribute in self.variables.items():
            keys.append((subject, attribute))
            if variable == "weather_code" and attribute != CONDITION:
                keys.append((subject, CONDITION))
        return keys

    def check_query(self, query: Query) -> None:
        """See :func:`check_weather_query`."""
        check_weather_query(query)

    async def fetch(self, query: Query) -> Sequence[Fact]:
        check_weather_query(query)
        subject = _subject(query)
        latitude, longitude = query["latitude"], query["longitude"]
        params = {
            "latitude": latitude,
            "longitude": longitude,
            "current": ",".join(self.variables),
            "timezone": query.get("timezone", "auto"),
        }
        try:
            response = await get_json(self.client, f"{self.base_url}/v1/forecast", params)
        except SubjectNotFoundError:
            return []  # the source is up and has no such place: no_data
        return self.parse(response.body, subject, latitude, longitude)

    def parse(self, body: Any, subject: str, latitude: object, longitude: object) -> list[Fact]:
        """Facts from an Open-Meteo response body (public so recorded bodies can be read)."""
        if not isinstance(body, Mapping):
            raise MalformedPayloadError("response is not a JSON object")
        current, units = body.get("current"), body.get("current_units")
        if not isinstance(current, Mapping) or not isinstance(units, Mapping):
            raise MalformedPayloadError("response lacks 'current' or 'current_units'")
        observed_at = _observed_at(current.get("time"), body.get("utc_offset_seconds"))
        interval = current.get("interval")
        if isinstance(interval, bool) or not isinstance(interval, int) or interval <= 0:
            raise MalformedPayloadError("current.interval is not a positive number of seconds")
        if not any(variable in current for variable in self.variables):
            return []  # an empty result: the source had nothing for this place
        citation = f"{self.name}/{latitude},{longitude}/{current['time']}"

        def fact(attribute: str, value: int | Decimal | str, unit: str | None) -> Fact:
            return Fact(
                subject=subject,
                attribute=attribute,
                value=value,
                unit=unit,
                source=self.name,
                observed_at=observed_at,
                ttl=timedelta(seconds=interval),
                confidence=self.confidence,
                citation=citation,
            )

        def silence(attribute: str, reason: SilenceReason) -> Fact:
            return Fact.silence(
                subject, attribute, reason, source=self.name, observed_at=observed_at
            )

        facts: list[Fact] = []
        for variable, attribute in self.variables.items():
            value, unit = current.get(variable), units.get(variable)
            number = exact_number(value, f"current.{variable}")
            words_only = variable == "weather_code" and attribute == CONDITION
            if words_only:  # the code in words, below
                pass
            elif value is None:
                facts.append(silence(attribute, SilenceReason.NO_DATA))
            elif isinstance(unit, str) and unit.strip() and number is not None:
                facts.append(fact(attribute, number, unit))
            else:
                facts.append(silence(attribute, SilenceReason.MALFORMED))
            if variable == "weather_code":
                condition = WMO_CONDITIONS.get(value) if isinstance(value, int) else None
                if value is None:
                    facts.append(silence(CONDITION, SilenceReason.NO_DATA))
                elif condition is None:
                    facts.append(silence(CONDITION, SilenceReason.MALFORMED))
                else:
                    facts.append(fact(CONDITION, condition, None))
        return facts


def _subject(query: Query) -> str:
    subject = query.get("subject")
    if subject:
        return str(subject)
    return f"{query.get('latitude')},{query.get('longitude')}"


def _observed_at(time: object, offset: object) -> datetime:
    """``current.time`` ("2026-11-29T13:00", local) in the response's offset, as UTC."""
    if isinstance(offset, bool) or not isinstance(offset, int):
        raise MalformedPayloadError("utc_offset_seconds is missing or not whole seconds")
    if isinstance(time, int) and not isinstance(time, bool):  # timeformat=unixtime
        return datetime.fromtimestamp(time, UTC)
    if not isinstance(time, str):
        raise MalformedPayloadError("current.time is missing")
    try:
        local = datetime.fromisoformat(time)
    except ValueError:
        raise MalformedPayloadError("current.time is not ISO 8601") from None
    if local.tzinfo is None:
        local = local.replace(tzinfo=timezone(timedelta(seconds=offset)))
    return local.astimezone(UTC)
