"""Normalizers: one comparable form for each kind of catalog value.

A normalizer is any ``Callable[[object], T]`` that returns the comparable form
of a value or raises :class:`ValueError` saying what it expected. The same
normalizer runs on the claim's value and on the catalog's value, so a harmless
difference in writing (``27.5`` and ``"27.50"``, ``"in_person"`` and
``"In person"``, ``"9:30"`` and ``"09:30"``) compares equal while a real
difference stays a difference.

Normalizers are narrow on purpose and never invent a value: ``"free"`` is not
a fee of 0.00, ``"25:00"`` is not a time, ``27.505`` is not an amount of money
(rounding it to cents would hide a difference). Each is idempotent:
``n(n(x)) == n(x)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import Any, Final

__all__ = [
    "NORMALIZERS",
    "Normalizer",
    "normalize_bool",
    "normalize_date",
    "normalize_decimal",
    "normalize_integer",
    "normalize_money",
    "normalize_text",
    "normalize_time",
]

Normalizer = Callable[[object], Any]
"""Returns the comparable form of a value or raises ValueError."""

_CENT: Final = Decimal("0.01")
_DECIMAL_TEXT: Final = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_INTEGER_TEXT: Final = re.compile(r"[+-]?\d+")
_TIME_TEXT: Final = re.compile(r"(\d{1,2}):(\d{2})")
_DATE_TEXT: Final = re.compile(r"\d{4}-\d{2}-\d{2}")
_BOOL_WORDS: Final = MappingProxyType({"true": True, "yes": True, "false": False, "no": False})


def normalize_text(value: object) -> str:
    """Casefolded text with ``_`` as a space and runs of whitespace collapsed."""
    if not isinstance(value, str):
        raise ValueError("expected text")
    folded = " ".join(value.casefold().replace("_", " ").split())
    if not folded:
        raise ValueError("expected non-empty text")
    if not folded.isascii():
        # casefold is not idempotent for a few characters; fold until it settles.
        while (again := " ".join(folded.casefold().replace("_", " ").split())) != folded:
            folded = again
    return folded


def _to_decimal(value: object, expected: str) -> Decimal:
    if isinstance(value, bool):
        raise ValueError(f"expected {expected}, got a boolean")
    if isinstance(value, Decimal):
        number = value
    elif isinstance(value, int):
        number = Decimal(value)
    elif isinstance(value, float):
        number = Decimal(str(value))  # the float as written, not its binary expansion
    elif isinstance(value, str):
        text = value.strip()
        if not _DECIMAL_TEXT.fullmatch(text):
            raise ValueError(f"expected {expected}")
        number = Decimal(text)
    else:
        raise ValueError(f"expected {expected}")
    if not number.is_finite():
        raise ValueError(f"expected {expected}, got {number}")
    return number


def normalize_decimal(value: object) -> Decimal:
    """A finite Decimal (``27.5 == 27.50``); text must be a plain decimal number."""
    return _to_decimal(value, "a decimal number")


def normalize_money(value: object) -> Decimal:
    """A Decimal with exactly two places; more significant places are refused."""
    number = _to_decimal(value, "an amount of money")
    try:
        cents = number.quantize(_CENT)
    except InvalidOperation:
        raise ValueError("expected an amount of money, got a number too large") from None
    if cents != number:
        raise ValueError("expected an amount of money with at most two decimal places")
    return cents


def normalize_integer(value: object) -> int:
    """An int; a decimal with a fractional part is refused, never rounded."""
    if isinstance(value, bool):
        raise ValueError("expected an integer, got a boolean")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if not _INTEGER_TEXT.fullmatch(text):
            raise ValueError("expected an integer")
        return int(text)
    if isinstance(value, Decimal | float):
        number = _to_decimal(value, "an integer")
        if number != number.to_integral_value():
            raise ValueError("expected an integer, got a fraction")
        return int(number)
    raise ValueError("expected an integer")


def normalize_bool(value: object) -> bool:
    """True or False from a boolean or from true/false/yes/no in any case."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = _BOOL_WORDS.get(value.strip().casefold())
        if word is not None:
            return word
    raise ValueError("expected true/false or yes/no")


def normalize_time(value: object) -> str:
    """A 24-hour time as zero-padded ``HH:MM`` (``9:30`` becomes ``09:30``)."""
    if isinstance(value, time):
        if value.second or value.microsecond or value.tzinfo is not None:
            raise ValueError("expected a time in HH:MM form")
        return f"{value.hour:02d}:{value.minute:02d}"
    if not isinstance(value, str):
        raise ValueError("expected a time in HH:MM form")
    match = _TIME_TEXT.fullmatch(value.strip())
    if match is None:
        raise ValueError("expected a time in HH:MM form")
    hour, minute = int(match[1]), int(match[2])
    if hour > 23 or minute > 59:
        raise ValueError("expected a time in HH:MM form, 00:00 to 23:59")
    return f"{hour:02d}:{minute:02d}"


def normalize_date(value: object) -> date:
    """A calendar date from ISO ``YYYY-MM-DD`` text (or a date, not a datetime)."""
    if isinstance(value, datetime):
        raise ValueError("expected a date, got a date and time")
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        text = value.strip()
        if _DATE_TEXT.fullmatch(text):
            try:
                return date.fromisoformat(text)
            except ValueError:
                raise ValueError("expected an ISO date YYYY-MM-DD, got no such day") from None
    raise ValueError("expected an ISO date YYYY-MM-DD")


NORMALIZERS: Final[Mapping[str, Normalizer]] = MappingProxyType(
    {
        "bool": normalize_bool,
        "date": normalize_date,
        "decimal": normalize_decimal,
        "integer": normalize_integer,
        "money": normalize_money,
        "text": normalize_text,
        "time": normalize_time,
    }
)
"""The normalizers a contract can name, by name."""
