"""ECB euro reference rates through the Frankfurter API (``/latest?from=EUR&to=USD,GBP``).

One fact per currency pair ("EUR/USD", attribute ``exchange_rate``, unit
"USD per EUR"). The ECB publishes once per TARGET business day at about
16:00 Frankfurt time, so ``observed_at`` is the rate's date at 16:00
Europe/Berlin (CET in winter, CEST in summer) and the TTL runs until the next
publication: over weekends and TARGET closing days (1 January, Good Friday,
Easter Monday, 1 May, 25 and 26 December).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import httpx

from vouched import Fact, MalformedPayloadError, Query, QueryError, SilenceReason
from vouched_adapters._http import SubjectNotFoundError, get_json
from vouched_adapters._queries import check_mapping, check_text

__all__ = [
    "ATTRIBUTE",
    "FrankfurterRates",
    "check_rates_query",
    "is_publication_day",
    "next_publication",
    "publication_time",
]

ATTRIBUTE = "exchange_rate"
FRANKFURT = ZoneInfo("Europe/Berlin")
PUBLISHED_AT = time(16, 0)


def _easter(year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    leap = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * leap) // 451
    month, day = divmod(h + leap - 7 * m + 114, 31)
    return date(year, month, day + 1)


def is_publication_day(day: date) -> bool:
    """True on TARGET business days: not a weekend, not a TARGET closing day."""
    if day.weekday() >= 5:
        return False
    easter = _easter(day.year)
    closed = {
        date(day.year, 1, 1),
        easter - timedelta(days=2),
        easter + timedelta(days=1),
        date(day.year, 5, 1),
        date(day.year, 12, 25),
        date(day.year, 12, 26),
    }
    return day not in closed


def publication_time(day: date) -> datetime:
    """When the ECB publishes the rates of ``day``: 16:00 in Frankfurt, as UTC."""
    return datetime.combine(day, PUBLISHED_AT, tzinfo=FRANKFURT).astimezone(UTC)


def next_publication(day: date) -> datetime:
    """The first publication after the one of ``day`` (UTC)."""
    following = day + timedelta(days=1)
    while not is_publication_day(following):
        following += timedelta(days=1)
    return publication_time(following)


_CURRENCY = re.compile("[A-Za-z]{3}")
_MAX_SYMBOLS = 50


def check_rates_query(query: Query) -> None:
    """Raise :class:`vouched.QueryError` unless ``query`` is one Frankfurter can be
    asked: ``base`` a three-letter currency code, ``symbols`` one (or a list, or
    a comma-separated text, of at most 50) when given."""
    check_text(
        check_mapping(query), "base", pattern=_CURRENCY, accepted="a three-letter currency code"
    )
    if "symbols" not in query:
        return
    symbols = query["symbols"]
    if isinstance(symbols, str):
        symbols = symbols.split(",")
    if not isinstance(symbols, list | tuple) or not 0 < len(symbols) <= _MAX_SYMBOLS:
        raise QueryError("symbols", "a list of 1 to 50 currency codes", got=query["symbols"])
    for symbol in symbols:
        if not isinstance(symbol, str) or _CURRENCY.fullmatch(symbol.strip()) is None:
            raise QueryError("symbols", "three-letter currency codes", got=symbol)


class FrankfurterRates:
    """Reference rates for ``base`` against ``symbols`` (the query may override both:
    ``{"base": "EUR", "symbols": ["USD", "GBP"]}``)."""

    def __init__(
        self,
        *,
        base_url: str = "https://api.frankfurter.app",
        client: httpx.AsyncClient | None = None,
        base: str = "EUR",
        symbols: Iterable[str] = ("USD", "GBP"),
        name: str = "frankfurter",
        confidence: float | None = 1.0,
    ) -> None:
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.client = client
        self.base = base.upper()
        self.symbols = tuple(s.upper() for s in symbols)
        self.confidence = confidence

    def _pairs(self, query: Query) -> tuple[str, tuple[str, ...]]:
        base = str(query.get("base", self.base)).upper()
        symbols = query.get("symbols", self.symbols)
        if isinstance(symbols, str):
            symbols = symbols.split(",")
        return base, tuple(str(s).strip().upper() for s in symbols)

    def expects(self, query: Query) -> list[tuple[str, str]]:
        base, symbols = self._pairs(query)
        return [(f"{base}/{symbol}", ATTRIBUTE) for symbol in symbols]

    def check_query(self, query: Query) -> None:
        """See :func:`check_rates_query`."""
        check_rates_query(query)

    async def fetch(self, query: Query) -> Sequence[Fact]:
        check_rates_query(query)
        base, symbols = self._pairs(query)
        try:
            response = await get_json(
                self.client, f"{self.base_url}/latest", {"from": base, "to": ",".join(symbols)}
            )
        except SubjectNotFoundError:
            return []  # the source is up and has no such currency: no_data
        return self.parse(response.body, base, symbols)

    def parse(self, body: Any, base: str, symbols: Sequence[str]) -> list[Fact]:
        """Facts from a Frankfurter ``/latest`` body (public so recorded bodies can be read)."""
        if not isinstance(body, Mapping):
            raise MalformedPayloadError("response is not a JSON object")
        rates, day_text = body.get("rates"), body.get("date")
        if not isinstance(rates, Mapping) or not isinstance(day_text, str):
            raise MalformedPayloadError("response lacks 'rates' or 'date'")
        if body.get("base") != base:
            raise MalformedPayloadError("response is for another base currency")
        if body.get("amount", 1) != 1:
            raise MalformedPayloadError("response is not for an amount of 1")
        try:
            day = date.fromisoformat(day_text)
        except ValueError:
            raise MalformedPayloadError("'date' is not an ISO date") from None
        if not rates:
            return []
        observed_at = publication_time(day)
        ttl = next_publication(day) - observed_at
        facts: list[Fact] = []
        for symbol in symbols:
            subject = f"{base}/{symbol}"
            rate = rates.get(symbol)
            if rate is None:
                facts.append(
                    Fact.silence(
                        subject,
                        ATTRIBUTE,
                        SilenceReason.NO_DATA,
                        source=self.name,
                        observed_at=observed_at,
                    )
                )
            elif not isinstance(rate, Decimal | int) or isinstance(rate, bool) or rate <= 0:
                facts.append(
                    Fact.silence(
                        subject,
                        ATTRIBUTE,
                        SilenceReason.MALFORMED,
                        source=self.name,
                        observed_at=observed_at,
                    )
                )
            else:
                facts.append(
                    Fact(
                        subject=subject,
                        attribute=ATTRIBUTE,
                        value=rate,
                        unit=f"{symbol} per {base}",
                        source=self.name,
                        observed_at=observed_at,
                        ttl=ttl,
                        confidence=self.confidence,
                        citation=f"ecb/{day.isoformat()}/{base}{symbol}",
                    )
                )
        return facts
