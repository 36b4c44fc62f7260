"""Units as the number reader and the scanner understand them.

``canonical_unit`` maps every spelling we know to one code ("°C", "degC",
"celsius" -> ``degC``; "€", "euros" -> ``EUR``); ``units_compatible`` says
whether a stated unit can describe a fact's unit (unknown units are never
judged, a bare "$" fits any dollar, "degrees" fits both scales).
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

__all__ = [
    "CURRENCY_CODES",
    "CURRENCY_UNITS",
    "KNOWN_UNITS",
    "canonical_unit",
    "convertible",
    "from_base_unit",
    "has_conversion",
    "in_base_unit",
    "money_code",
    "same_dimension",
    "unit_of",
    "units_compatible",
    "vouches_in_unit",
]

CURRENCY_CODES = [
    "EUR",
    "USD",
    "GBP",
    "JPY",
    "CHF",
    "CAD",
    "AUD",
    "NZD",
    "SEK",
    "NOK",
    "DKK",
    "PLN",
    "CZK",
    "HUF",
    "CNY",
    "HKD",
    "SGD",
    "INR",
    "BRL",
    "MXN",
    "ZAR",
    "TRY",
    "KRW",
    "RUB",
    "ILS",
    "THB",
    "IDR",
    "MYR",
    "PHP",
    "RON",
    "BGN",
    "ISK",
]
_DOLLARS = frozenset({"USD", "CAD", "AUD", "NZD", "HKD", "SGD", "MXN"})

# Canonical unit for every spelling we understand (lower-cased keys).
_UNIT_ALIASES: dict[str, str] = {
    "%": "%",
    "percent": "%",
    "per cent": "%",
    "pct": "%",
    "percentage": "%",
    "degc": "degC",
    "°c": "degC",
    "ºc": "degC",
    "c": "degC",
    "celsius": "degC",
    "degrees celsius": "degC",
    "centigrade": "degC",
    "degf": "degF",
    "°f": "degF",
    "ºf": "degF",
    "f": "degF",
    "fahrenheit": "degF",
    "degrees fahrenheit": "degF",
    "deg": "deg",
    "°": "deg",
    "degree": "deg",
    "degrees": "deg",
    "km/h": "km/h",
    "kmh": "km/h",
    "kph": "km/h",
    "km/hr": "km/h",
    "kilometres per hour": "km/h",
    "kilometers per hour": "km/h",
    "mph": "mph",
    "miles per hour": "mph",
    "m/s": "m/s",
    "metres per second": "m/s",
    "meters per second": "m/s",
    "knots": "kn",
    "knot": "kn",
    "kn": "kn",
    "kt": "kn",
    "€": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "$": "$",
    "us$": "USD",
    "dollar": "$",
    "dollars": "$",
    "£": "GBP",
    "pound": "GBP",
    "pounds": "GBP",
    "sterling": "GBP",
    "¥": "¥",
    "yen": "JPY",
    "₹": "INR",
    "rupees": "INR",
    "franc": "CHF",
    "francs": "CHF",
    "swiss francs": "CHF",
    # the names a reader uses for other reference-rate currencies (issue 37); "krone",
    # "kroner" name both NOK and DKK, so neither is read
    "krona": "SEK",
    "kronor": "SEK",
    "swedish krona": "SEK",
    "swedish kronor": "SEK",
    "zloty": "PLN",
    "zlotys": "PLN",
    "zlotych": "PLN",
    "koruna": "CZK",
    "korunas": "CZK",
    "forint": "HUF",
    "forints": "HUF",
    "yuan": "CNY",
    "km": "km",
    "kilometres": "km",
    "kilometers": "km",
    "m": "m",
    "metres": "m",
    "meters": "m",
    "mi": "mi",
    "miles": "mi",
    "mm": "mm",
    "millimetres": "mm",
    "millimeters": "mm",
    "cm": "cm",
    "hpa": "hPa",
    "mbar": "hPa",
    "min": "min",
    "mins": "min",
    "minute": "min",
    "minutes": "min",
    "'": "min",  # a match minute: "61'", "(90'+2)"
    "\u2019": "min",
    "\u2032": "min",
    "h": "h",
    "hr": "h",
    "hrs": "h",
    "hour": "h",
    "hours": "h",
    "s": "s",
    "sec": "s",
    "seconds": "s",
    "day": "d",
    "days": "d",
    "ms": "ms",
    "gb": "GB",
    "mb": "MB",
    "kg": "kg",
    "kilogram": "kg",
    "kilograms": "kg",
    "g": "g",
    "gram": "g",
    "grams": "g",
    "mg": "mg",
    "lb": "lb",
    "lbs": "lb",
    "oz": "oz",
    "ounce": "oz",
    "ounces": "oz",
    "inch": "in",
    "inches": "in",
    "ft": "ft",
    "foot": "ft",
    "feet": "ft",
    "l": "l",
    "litre": "l",
    "liter": "l",
    "litres": "l",
    "liters": "l",
    "ml": "ml",
    "gal": "gal",
    "gallon": "gal",
    "gallons": "gal",
    "inhg": "inHg",
    "year": "yr",
    "years": "yr",
    "yr": "yr",
    "yrs": "yr",
}
for _code in CURRENCY_CODES:
    _UNIT_ALIASES[_code.lower()] = _code

# Units whose difference from another known unit is a unit mismatch.
KNOWN_UNITS = frozenset(_UNIT_ALIASES.values())
CURRENCY_UNITS = frozenset({*CURRENCY_CODES, "$", "¥"})
"""Canonical units that are currencies."""

_DIMENSIONS: dict[str, str] = {
    **dict.fromkeys(("deg", "degC", "degF"), "temperature"),
    **dict.fromkeys(("km/h", "mph", "m/s", "kn"), "speed"),
    **dict.fromkeys(("km", "m", "cm", "mm", "mi", "in", "ft"), "length"),
    **dict.fromkeys(("h", "min", "s", "ms", "d"), "duration"),
    **dict.fromkeys(("GB", "MB"), "data"),
    **dict.fromkeys(CURRENCY_UNITS, "money"),
    "%": "share",
    **dict.fromkeys(("hPa", "inHg"), "pressure"),
    **dict.fromkeys(("kg", "g", "mg", "lb", "oz"), "mass"),
    **dict.fromkeys(("l", "ml", "gal"), "volume"),
}


def same_dimension(stated: str | None, fact: str | None) -> bool:
    """Do two known units measure the same thing (°C and °F; km/h and mph; EUR and USD)?
    A value in another dimension ("15 minutes" against 15 km/h) is no statement of it."""
    if stated is None or fact is None:
        return False
    a, b = _dimension(stated), _dimension(fact)
    return a is not None and a == b


def _dimension(unit: str) -> str | None:
    """A unit's dimension; a rate "GBP per EUR" (pounds for one euro) is its numerator's:
    "0.83 pounds" states it."""
    found = _DIMENSIONS.get(unit)
    if found is None and " per " in unit:
        numerator = canonical_unit(unit.split(" per ", 1)[0])
        if numerator in CURRENCY_UNITS:
            return _DIMENSIONS.get(numerator)
    return found


@lru_cache(maxsize=1024)
def canonical_unit(unit: str | None) -> str | None:
    """The canonical spelling of a unit (``"°C"`` -> ``"degC"``); unknown units
    come back stripped and unchanged, ``None`` stays ``None``."""
    if unit is None:
        return None
    text = " ".join(unit.split())
    if not text:
        return None
    return _UNIT_ALIASES.get(text.lower(), text)


def money_code(unit: str | None) -> str | None:
    """The currency a unit names ("EUR", "euros" read as "EUR"; "$" as "USD"), else None."""
    code = canonical_unit(unit)
    if code == "$":
        return "USD"
    return code if code in CURRENCY_UNITS else None


def units_compatible(stated: str | None, fact: str | None) -> bool:
    """False only when both units are known and say different things."""
    if stated is None or fact is None or stated == fact:
        return True
    if stated not in KNOWN_UNITS or fact not in KNOWN_UNITS:
        return True
    pair = {stated, fact}
    if "deg" in pair:
        return pair <= {"deg", "degC", "degF"}
    if "$" in pair:
        return bool(pair - {"$"} <= _DOLLARS)
    if "¥" in pair:
        return pair <= {"¥", "JPY", "CNY"}
    return False


def vouches_in_unit(stated: str | None, fact: str | None) -> bool:
    """May a fact in unit ``fact`` vouch for a number stated in unit ``stated``, by value
    alone? A bare number may be any fact's; a number in a unit that measures something
    (°F, mph, km, €) only a fact whose unit measures the same thing: a unitless UV index
    of 3 vouches for no "3 °F". A percentage and a bare degree sign (an angle as often as
    a temperature) may be a unitless fact's: shares and bearings are often stored bare."""
    if stated is None or stated in _PLAIN or stated not in _DIMENSIONS:
        return units_compatible(stated, fact)
    return same_dimension(stated, fact) and units_compatible(stated, fact)


_PLAIN = frozenset({"%", "deg"})
"""Stated units a unitless fact may still vouch for (see :func:`vouches_in_unit`)."""


@lru_cache(maxsize=512)
def unit_of(unit_text: str) -> str | None:
    """The canonical unit of a unit as written after a number (" °C", " degrees Celsius")."""
    spelled = " ".join(unit_text.strip(" -").split()).replace("º", "°").replace("˚", "°")
    spelled = spelled.replace("° ", "°")
    lowered = spelled.lower()
    if lowered.startswith("deg") and " " in lowered:
        return canonical_unit(lowered.split(" ", 1)[1])
    return canonical_unit(spelled)


_TO_BASE: dict[str, tuple[str, Decimal, Decimal]] = {
    # unit: (base unit, factor, offset): base = value * factor + offset
    "degC": ("degC", Decimal(1), Decimal(0)),
    "deg": ("degC", Decimal(1), Decimal(0)),
    "degF": ("degC", Decimal(5) / Decimal(9), Decimal(-160) / Decimal(9)),
    "m/s": ("m/s", Decimal(1), Decimal(0)),
    "km/h": ("m/s", Decimal(1) / Decimal("3.6"), Decimal(0)),
    "mph": ("m/s", Decimal("0.44704"), Decimal(0)),
    "kn": ("m/s", Decimal(1852) / Decimal(3600), Decimal(0)),
    "m": ("m", Decimal(1), Decimal(0)),
    "km": ("m", Decimal(1000), Decimal(0)),
    "cm": ("m", Decimal("0.01"), Decimal(0)),
    "mm": ("m", Decimal("0.001"), Decimal(0)),
    "mi": ("m", Decimal("1609.344"), Decimal(0)),
    "s": ("s", Decimal(1), Decimal(0)),
    "ms": ("s", Decimal("0.001"), Decimal(0)),
    "min": ("s", Decimal(60), Decimal(0)),
    "h": ("s", Decimal(3600), Decimal(0)),
    "d": ("s", Decimal(86400), Decimal(0)),
    "in": ("m", Decimal("0.0254"), Decimal(0)),
    "ft": ("m", Decimal("0.3048"), Decimal(0)),
    "MB": ("MB", Decimal(1), Decimal(0)),
    "GB": ("MB", Decimal(1000), Decimal(0)),
    "kg": ("kg", Decimal(1), Decimal(0)),
    "g": ("kg", Decimal("0.001"), Decimal(0)),
    "mg": ("kg", Decimal("0.000001"), Decimal(0)),
    "lb": ("kg", Decimal("0.45359237"), Decimal(0)),
    "oz": ("kg", Decimal("0.028349523125"), Decimal(0)),
    "l": ("l", Decimal(1), Decimal(0)),
    "ml": ("l", Decimal("0.001"), Decimal(0)),
    "gal": ("l", Decimal("3.785411784"), Decimal(0)),
    "hPa": ("hPa", Decimal(1), Decimal(0)),
    "inHg": ("hPa", Decimal("33.8639"), Decimal(0)),
}


def convertible(stated: str | None, fact: str | None) -> bool:
    """Do two different units convert by a fixed rule (°C and °F, km/h and m/s, kg and g,
    mm and inches)? Currencies never do: that takes a rate fact."""
    if stated is None or fact is None or stated == fact:
        return False
    a, b = _TO_BASE.get(stated), _TO_BASE.get(fact)
    return a is not None and b is not None and a[0] == b[0] and {stated, fact} != {"deg", "degC"}


def has_conversion(unit: str) -> bool:
    """Does ``unit`` convert by a fixed rule to another unit of its dimension?"""
    return unit in _TO_BASE and unit != "deg"


def from_base_unit(value: Decimal, unit: str) -> Decimal:
    """A value in its dimension's base unit, written in ``unit`` (the inverse of
    :func:`in_base_unit`; ``unit`` must be one it converts)."""
    _, factor, offset = _TO_BASE[unit]
    return (value - offset) / factor


def in_base_unit(value: Decimal, unit: str | None) -> tuple[Decimal, str | None]:
    """A value in its dimension's base unit, to compare values stated in different units
    (48.2 °F is 9 °C; 12 km/h is 3.3 m/s). A unit without a fixed conversion (a
    currency, an unknown unit) comes back unchanged: only equal units compare then."""
    known = _TO_BASE.get(unit) if unit is not None else None
    if known is None:
        return value, unit
    base, factor, offset = known
    return value * factor + offset, base
