"""Forecasts as facts valid for a period: Open-Meteo (hourly and daily) and
OpenWeather's 5-day / 3-hour forecast.

Every slot becomes one fact per quantity whose ``valid_from`` / ``valid_until``
is the slot (in the place's UTC offset; a slot lasts the body's own step, the
smallest gap between slot starts); every local day becomes its ``date`` and its
extremes and totals (``temperature_max``, ``rain_total``, ...: the source's daily
values where it gives them, else computed from the day's slots, valid for the
hours those slots cover when they cover less than the day). Values read as floats
(a body from plain ``json.load``) are taken exactly, as ``Decimal(str(x))``.
Both adapters and the current-conditions one write one vocabulary
(``docs/guides/forecast-answers.md``), the names the shipped ``weather`` lexicon knows.
Conditions (WMO or OpenWeather codes) are ``condition`` facts in words ("light
rain", "overcast") a lexicon can name. ``observed_at`` is when the forecast was
fetched (neither API says when it was issued), from the injected clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import httpx

from vouched import Clock, Fact, MalformedPayloadError, Query, SystemClock
from vouched_adapters._http import SubjectNotFoundError, get_json
from vouched_adapters._periods import (
    Issue,
    Slot,
    daily_facts,
    slot_end,
    slot_facts,
    slot_step,
)
from vouched_adapters._queries import (
    check_coordinates,
    check_mapping,
    check_text,
    check_whole_number,
)
from vouched_adapters._values import exact_number
from vouched_adapters.weather import WMO_CONDITIONS

__all__ = [
    "OPENWEATHER_FIELDS",
    "OPEN_METEO_DAILY",
    "OPEN_METEO_HOURLY",
    "OpenMeteoForecastSource",
    "OpenWeatherForecastSource",
    "check_forecast_query",
]

OPEN_METEO_HOURLY: Mapping[str, str] = {
    "temperature_2m": "temperature",
    "apparent_temperature": "feels_like",
    "relative_humidity_2m": "humidity",
    "precipitation": "precipitation",
    "rain": "rain",
    "snowfall": "snow",
    "cloud_cover": "cloud_cover",
    "pressure_msl": "pressure",
    "wind_speed_10m": "wind_speed",
    "wind_gusts_10m": "wind_gust",
    "weather_code": "condition",
}
"""Open-Meteo hourly variable -> the attribute of its slot facts."""

OPEN_METEO_DAILY: Mapping[str, str] = {
    "temperature_2m_max": "temperature_max",
    "temperature_2m_min": "temperature_min",
    "apparent_temperature_max": "feels_like_max",
    "apparent_temperature_min": "feels_like_min",
    "precipitation_sum": "precipitation_total",
    "rain_sum": "rain_total",
    "snowfall_sum": "snow_total",
    "wind_speed_10m_max": "wind_speed_max",
    "wind_gusts_10m_max": "wind_gust_max",
    "weather_code": "condition",
}
"""Open-Meteo daily variable -> the attribute of the day's fact."""

OPENWEATHER_FIELDS: Mapping[tuple[str, str], str] = {
    ("main", "temp"): "temperature",
    ("main", "feels_like"): "feels_like",
    ("main", "temp_min"): "temperature_low",
    ("main", "temp_max"): "temperature_high",
    ("main", "pressure"): "pressure",
    ("main", "humidity"): "humidity",
    ("clouds", "all"): "cloud_cover",
    ("wind", "speed"): "wind_speed",
    ("wind", "gust"): "wind_gust",
    ("wind", "deg"): "wind_direction",
    ("rain", "3h"): "rain",
    ("snow", "3h"): "snow",
}
"""OpenWeather slot field -> attribute. ``temp_min`` / ``temp_max`` are the slot's
spread: they widen the day's extremes and are not slot facts of their own."""

_OPENWEATHER_UNITS = {  # the API's units=metric, for a body that does not state them
    "temperature": "°C",
    "feels_like": "°C",
    "temperature_low": "°C",
    "temperature_high": "°C",
    "pressure": "hPa",
    "humidity": "%",
    "cloud_cover": "%",
    "wind_speed": "m/s",
    "wind_gust": "m/s",
    "wind_direction": "deg",
    "rain": "mm",
    "snow": "mm",
}
_STATED_UNITS = {
    "temp": ("temperature", "feels_like", "temperature_low", "temperature_high"),
    "wind": ("wind_speed", "wind_gust"),
    "pressure": ("pressure",),
    "rain": ("rain",),
    "snow": ("snow",),
}
_THREE_HOURS = timedelta(hours=3)
"""OpenWeather's documented step: the length of a lone slot (a body of more shows its own)."""
_HOUR = timedelta(hours=1)
"""Open-Meteo's hourly step: the length of a lone hourly row."""
_DAY = timedelta(days=1)


def check_forecast_query(query: Query) -> None:
    """Raise :class:`vouched.QueryError` unless ``query`` is one a forecast source
    can ask: ``latitude`` and ``longitude`` numbers in range, ``subject`` and
    ``timezone`` text and ``forecast_days`` a whole number from 1 to 16 when given."""
    check_coordinates(query)
    check_text(check_mapping(query), "subject")
    check_text(query, "timezone")
    check_whole_number(query, "forecast_days", 1, 16)


class OpenWeatherForecastSource:
    """OpenWeather's 5-day / 3-hour forecast (``/data/2.5/forecast``), metric units.

    Query: ``{"subject": "Berlin", "latitude": 52.52, "longitude": 13.41}``.
    """

    def __init__(
        self,
        *,
        api_key: str = "",
        base_url: str = "https://api.openweathermap.org",
        client: httpx.AsyncClient | None = None,
        clock: Clock | None = None,
        name: str = "openweather-forecast",
        confidence: float | None = 0.9,
        ttl: timedelta = _THREE_HOURS,
    ) -> None:
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.client = client
        self.clock = clock or SystemClock()
        self.confidence = confidence
        self.ttl = ttl
        self._api_key = api_key

    def check_query(self, query: Query) -> None:
        """See :func:`check_forecast_query`."""
        check_forecast_query(query)

    async def fetch(self, query: Query) -> Sequence[Fact]:
        check_forecast_query(query)
        latitude, longitude = query["latitude"], query["longitude"]
        params = {"lat": latitude, "lon": longitude, "units": "metric", "appid": self._api_key}
        observed = self.clock.now()
        try:
            response = await get_json(self.client, f"{self.base_url}/data/2.5/forecast", params)
        except SubjectNotFoundError:
            return []
        return self.parse(response.body, observed_at=observed, subject=query.get("subject"))

    def parse(
        self,
        body: Any,
        *,
        observed_at: datetime,
        subject: str | None = None,
        utc_offset: timedelta | None = None,
    ) -> list[Fact]:
        """Facts from a forecast body (public so recorded bodies can be read).

        The API's body gives ``city.timezone`` (the offset in seconds) and
        ``dt`` (Unix time) or ``dt_txt`` in UTC. A body without ``city.timezone``
        (a copy with local ``dt_txt``, as the Quintd data holds) needs
        ``utc_offset``: then ``dt_txt`` is read as local time.
        """
        if not isinstance(body, Mapping) or not isinstance(body.get("list"), list):
            raise MalformedPayloadError("forecast body lacks 'list'")
        stated = body.get("city")
        city: Mapping[str, Any] = stated if isinstance(stated, Mapping) else {}
        name = subject or str(city.get("name") or "")
        if not name:
            raise MalformedPayloadError("forecast body names no city and no subject was given")
        zone_seconds = city.get("timezone")
        local_text = zone_seconds is None
        if local_text:
            if utc_offset is None:
                raise MalformedPayloadError("forecast body has no city.timezone; pass utc_offset")
            offset = utc_offset
        elif isinstance(zone_seconds, int) and not isinstance(zone_seconds, bool):
            offset = timedelta(seconds=zone_seconds)
        else:
            raise MalformedPayloadError("city.timezone is not whole seconds")
        units = _stated_units(body.get("units"))
        issue = Issue(
            subject=name,
            source=self.name,
            observed_at=observed_at,
            ttl=self.ttl,
            confidence=self.confidence,
            citation=f"{self.name}/{city.get('id', name)}",
        )
        read = [_openweather_slot(item, offset, local_text, units) for item in body["list"]]
        step = slot_step([start for start, _ in read], _THREE_HOURS)
        slots = [Slot(start, slot_end(start, step), values) for start, values in read]
        facts = slot_facts(issue, slots)
        facts.extend(daily_facts(issue, slots))
        return facts


def _stated_units(units: object) -> dict[str, str]:
    out = dict(_OPENWEATHER_UNITS)
    if isinstance(units, Mapping):
        for key, attributes in _STATED_UNITS.items():
            stated = units.get(key)
            if isinstance(stated, str) and stated.strip():
                out.update(dict.fromkeys(attributes, stated))
    return out


def _openweather_slot(
    item: object, offset: timedelta, local_text: bool, units: Mapping[str, str]
) -> tuple[datetime, dict[str, tuple[int | Decimal | str, str | None]]]:
    if not isinstance(item, Mapping):
        raise MalformedPayloadError("a forecast slot is not a JSON object")
    zone = timezone(offset)
    when = item.get("dt")
    if not local_text and isinstance(when, int) and not isinstance(when, bool):
        start = datetime.fromtimestamp(when, zone)
    else:
        text = item.get("dt_txt")
        if not isinstance(text, str):
            raise MalformedPayloadError("a forecast slot has no dt_txt")
        try:
            naive = datetime.fromisoformat(text)
        except ValueError:
            raise MalformedPayloadError(f"dt_txt is not a date-time: {text[:40]!r}") from None
        start = (
            naive.replace(tzinfo=zone) if local_text else naive.replace(tzinfo=UTC).astimezone(zone)
        )
    values: dict[str, tuple[int | Decimal | str, str | None]] = {}
    for (group, key), attribute in OPENWEATHER_FIELDS.items():
        part = item.get(group)
        value = part.get(key) if isinstance(part, Mapping) else None
        number = exact_number(value, f"{group}.{key}")
        if number is not None:
            values[attribute] = (number, units.get(attribute))
    weather = item.get("weather")
    if isinstance(weather, list) and weather and isinstance(weather[0], Mapping):
        words = weather[0].get("description")
        if isinstance(words, str) and words.strip():
            values["condition"] = (words.strip().lower(), None)
    return start, values


class OpenMeteoForecastSource:
    """Open-Meteo's forecast: hourly slots and daily extremes and sums.

    Query: ``{"subject": "Berlin", "latitude": 52.52, "longitude": 13.41}``
    (optionally ``"forecast_days"``, default 5).
    """

    def __init__(
        self,
        *,
        base_url: str = "https://api.open-meteo.com",
        client: httpx.AsyncClient | None = None,
        clock: Clock | None = None,
        hourly: Mapping[str, str] = OPEN_METEO_HOURLY,
        daily: Mapping[str, str] = OPEN_METEO_DAILY,
        name: str = "open-meteo-forecast",
        confidence: float | None = 0.9,
        ttl: timedelta = _HOUR,
    ) -> None:
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.client = client
        self.clock = clock or SystemClock()
        self.hourly = dict(hourly)
        self.daily = dict(daily)
        self.confidence = confidence
        self.ttl = ttl

    def check_query(self, query: Query) -> None:
        """See :func:`check_forecast_query`."""
        check_forecast_query(query)

    async def fetch(self, query: Query) -> Sequence[Fact]:
        check_forecast_query(query)
        latitude, longitude = query["latitude"], query["longitude"]
        params = {
            "latitude": latitude,
            "longitude": longitude,
            "hourly": ",".join(self.hourly),
            "daily": ",".join(self.daily),
            "forecast_days": query.get("forecast_days", 5),
            "timezone": query.get("timezone", "auto"),
        }
        observed = self.clock.now()
        try:
            response = await get_json(self.client, f"{self.base_url}/v1/forecast", params)
        except SubjectNotFoundError:
            return []
        subject = str(query.get("subject") or f"{latitude},{longitude}")
        return self.parse(response.body, subject, observed_at=observed)

    def parse(self, body: Any, subject: str, *, observed_at: datetime) -> list[Fact]:
        """Facts from an Open-Meteo forecast body (public so recorded bodies can be read)."""
        if not isinstance(body, Mapping):
            raise MalformedPayloadError("response is not a JSON object")
        seconds = body.get("utc_offset_seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, int):
            raise MalformedPayloadError("utc_offset_seconds is missing or not whole seconds")
        zone = timezone(timedelta(seconds=seconds))
        issue = Issue(
            subject=subject,
            source=self.name,
            observed_at=observed_at,
            ttl=self.ttl,
            confidence=self.confidence,
            citation=f"{self.name}/{body.get('latitude')},{body.get('longitude')}",
        )
        slots = _columns(body, "hourly", self.hourly, zone, _HOUR)
        given: dict[date, dict[str, tuple[int | Decimal | str, str | None]]] = {
            slot.start.date(): dict(slot.values)
            for slot in _columns(body, "daily", self.daily, zone, _DAY)
        }
        return slot_facts(issue, slots) + daily_facts(issue, slots, given)


def _columns(
    body: Mapping[str, Any],
    key: str,
    variables: Mapping[str, str],
    zone: timezone,
    lone: timedelta,
) -> list[Slot]:
    """Open-Meteo's column arrays (``time`` and one list per variable) as slots,
    each as long as the column's step (``lone`` for a single row)."""
    table, units = body.get(key), body.get(f"{key}_units")
    if table is None:
        return []
    if not isinstance(table, Mapping) or not isinstance(table.get("time"), list):
        raise MalformedPayloadError(f"{key} lacks its 'time' column")
    units = units if isinstance(units, Mapping) else {}
    starts: list[datetime] = []
    for row, text in enumerate(table["time"]):
        try:
            starts.append(datetime.fromisoformat(str(text)).replace(tzinfo=zone))
        except ValueError:
            raise MalformedPayloadError(f"{key}.time[{row}] is not ISO 8601") from None
    step = lone if key == "daily" else slot_step(starts, lone)
    slots: list[Slot] = []
    for row, start in enumerate(starts):
        values: dict[str, tuple[int | Decimal | str, str | None]] = {}
        for variable, attribute in variables.items():
            column = table.get(variable)
            value = column[row] if isinstance(column, list) and row < len(column) else None
            if variable == "weather_code":
                words = WMO_CONDITIONS.get(value) if isinstance(value, int) else None
                if words is not None:
                    values[attribute] = (words, None)
            elif (number := exact_number(value, f"{key}.{variable}[{row}]")) is not None:
                unit = units.get(variable)
                values[attribute] = (number, unit if isinstance(unit, str) else None)
        end = start + step if key == "daily" else slot_end(start, step)
        slots.append(Slot(start, end, values))
    return slots
