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

What a real catalog writes is read as written: a decimal comma (``19,90``),
thousands separators only together with the decimal separator
(``1,234.50``, ``1.234,50``; a lone ``1,000`` is refused as ambiguous),
times as ``9:30 am`` or ``09:30:00``, dates as ``5 December 2026`` or
``December 5, 2026`` (after a weekday, which must be the date's own),
booleans as ``1``/``0`` too. Money with a currency (``€19.90``, ``19,90 €``,
``EUR 19.90``, ``$12.00``) needs a contract that names its currency,
``money:EUR``: amounts without a marker are then in that currency, and an
amount in another one compares unequal (a ``value_mismatch``, never equal
and never converted). Plain ``money`` refuses a currency marker rather than
guess which one the contract meant.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from vouched._calendar import MONTHS as _MONTHS

__all__ = [
    "NORMALIZERS",
    "Money",
    "Normalizer",
    "money_in",
    "normalize_bool",
    "normalize_date",
    "normalize_decimal",
    "normalize_integer",
    "normalize_money",
    "normalize_text",
    "normalize_time",
    "normalizer_for",
]

Normalizer = Callable[[object], Any]
"""Returns the comparable form of a value or raises ValueError."""

_CENT: Final = Decimal("0.01")
_DECIMAL_TEXT: Final = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_INTEGER_TEXT: Final = re.compile(r"[+-]?\d+")
_TIME_TEXT: Final = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?m\.?)?", re.I)
_HOUR_TEXT: Final = re.compile(r"(\d{1,2})\s*([ap])\.?m\.?", re.I)  # "9 am"
_DATE_TEXT: Final = re.compile(r"\d{4}-\d{2}-\d{2}")
_DAY_MONTH_YEAR: Final = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?,?\s+(\d{4})", re.I)
_MONTH_DAY_YEAR: Final = re.compile(r"([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", re.I)
# An amount as a catalog writes it: one decimal separator (point or comma), or
# thousands separators together with the other decimal separator.
_AMOUNT: Final = re.compile(
    r"(?P<sign>[+-]?)(?:"
    r"(?P<en>\d{1,3}(?:,\d{3})+\.\d+)"
    r"|(?P<de>\d{1,3}(?:\.\d{3})+,\d+)"
    r"|(?P<plain>\d+(?:[.,]\d+)?|[.,]\d+)"
    r")"
)
_SYMBOLS: Final = MappingProxyType({"€": "EUR", "$": "USD", "£": "GBP"})
_CURRENCY: Final = r"(?:[€$£]|[A-Z]{3})"
_MONEY_TEXT: Final = re.compile(
    rf"(?P<before>{_CURRENCY})?\s*(?P<amount>[+-]?[\d.,]+)\s*(?P<after>{_CURRENCY})?"
)
_BOOL_WORDS: Final = MappingProxyType(
    {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
)
_BOOL_EXPECTED: Final = "expected a boolean: true/false, yes/no or 1/0"
_TIME_EXPECTED: Final = (
    "expected a time: HH:MM (09:30, 9:30), HH:MM:00 or the 12-hour clock (9:30 am, 9 pm)"
)
_DATE_EXPECTED: Final = (
    "expected a date: ISO YYYY-MM-DD, 5 December 2026 or December 5, 2026, "
    "optionally after its weekday (Saturday, 5 December 2026)"
)
_WEEKDAYS: Final = MappingProxyType(
    {
        name: number
        for number, full in enumerate(
            ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
        )
        for name in (full, full[:3])
    }
)
_WEEKDAY_PREFIX: Final = re.compile(r"([a-z]+)\.?,?\s+(?=\S)", re.I)


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


def _amount(text: str, expected: str) -> Decimal:
    """A decimal from catalog text: ``19,90`` and ``1.234,50`` read as written."""
    match = _AMOUNT.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"expected {expected}")
    sign = match["sign"]
    if match["en"]:
        digits = match["en"].replace(",", "")
    elif match["de"]:
        digits = match["de"].replace(".", "").replace(",", ".")
    else:
        plain = match["plain"]
        if plain.count(",") and len(plain.rsplit(",", 1)[1]) == 3:
            # "1,000": a thousand, or one with a decimal comma? Not ours to guess.
            raise ValueError(f"expected {expected}, got {text.strip()!r} (ambiguous separator)")
        digits = plain.replace(",", ".")
    return Decimal(sign + digits)


def normalize_decimal(value: object) -> Decimal:
    """A finite Decimal (``27.5 == 27.50``); text must be a plain decimal number."""
    return _to_decimal(value, "a decimal number")


class Money(NamedTuple):
    """An amount of money in a currency (ISO 4217 code), as ``money:EUR`` compares it."""

    amount: Decimal
    currency: str

    def __str__(self) -> str:
        return f"{self.currency} {self.amount}"


def _split_currency(text: str) -> tuple[str, str | None]:
    """The amount text and the currency code a money text names (or None)."""
    match = _MONEY_TEXT.fullmatch(text.strip())
    if match is None or (match["before"] and match["after"]):
        raise ValueError("expected an amount of money")
    marker = match["before"] or match["after"]
    return match["amount"], None if marker is None else _SYMBOLS.get(marker, marker)


def normalize_money(value: object) -> Decimal:
    """A Decimal with exactly two places; more significant places are refused.

    Text may use a decimal comma (``19,90``); a currency marker is refused
    (name the contract's currency: ``money:EUR``, see :func:`money_in`).
    """
    if isinstance(value, str):
        amount, currency = _split_currency(value)
        if currency is not None:
            raise ValueError(
                f"expected an amount of money without a currency, got {currency} "
                f"(for amounts with one, the contract says money:{currency})"
            )
        value = _amount(amount, "an amount of money")
    return _cents(_to_decimal(value, "an amount of money"))


def money_in(currency: str) -> Normalizer:
    """The normalizer ``money:<currency>``: :class:`Money` in ``currency``.

    ``€19.90``, ``19,90 €``, ``EUR 19.90`` and ``19.90`` are all EUR 19.90 for
    ``money_in("EUR")``; ``$19.90`` is USD 19.90, which compares unequal.
    """
    code = currency.strip().upper()
    if not re.fullmatch(r"[A-Z]{3}", code):
        raise ValueError(f"expected a three-letter currency code, got {currency!r}")

    def normalize(value: object) -> Money:
        if isinstance(value, Money):
            return Money(_cents(value.amount), value.currency)
        if isinstance(value, str):
            amount, given = _split_currency(value)
            number = _amount(amount, "an amount of money")
            return Money(_cents(number), given or code)
        return Money(_cents(_to_decimal(value, "an amount of money")), code)

    normalize.__name__ = f"money:{code}"
    return normalize


def _cents(number: Decimal) -> Decimal:
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
    """True or False from a boolean, from true/false, yes/no or 1/0 in any case,
    or from the integers 1 and 0 (as spreadsheets and SQL write them)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return value == 1
    if isinstance(value, str):
        word = _BOOL_WORDS.get(value.strip().casefold())
        if word is not None:
            return word
    raise ValueError(_BOOL_EXPECTED)


def normalize_time(value: object) -> str:
    """A 24-hour time as zero-padded ``HH:MM`` (``9:30`` becomes ``09:30``).

    Also ``09:30:00`` (seconds must be zero: ``HH:MM`` cannot hold more) and
    the 12-hour clock, ``9:30 am``, ``9 pm``, ``12:15 a.m.`` (00:15).
    """
    if isinstance(value, time):
        if value.second or value.microsecond or value.tzinfo is not None:
            raise ValueError(f"{_TIME_EXPECTED}, got seconds or a time zone")
        return f"{value.hour:02d}:{value.minute:02d}"
    if not isinstance(value, str):
        raise ValueError(_TIME_EXPECTED)
    text = value.strip()
    match = _TIME_TEXT.fullmatch(text)
    if match is not None:
        hour, minute, second, half = int(match[1]), int(match[2]), match[3], match[4]
    elif (only_hour := _HOUR_TEXT.fullmatch(text)) is not None:
        hour, minute, second, half = int(only_hour[1]), 0, None, only_hour[2]
    else:
        raise ValueError(_TIME_EXPECTED)
    if second is not None and int(second) != 0:
        raise ValueError(f"{_TIME_EXPECTED}, got seconds that are not zero")
    if half is not None:
        if not 1 <= hour <= 12 or minute > 59:
            raise ValueError("expected a 12-hour time, 12:00 am to 11:59 pm")
        hour = hour % 12 + (12 if half.casefold() == "p" else 0)
    if hour > 23 or minute > 59:
        raise ValueError(f"{_TIME_EXPECTED}, from 00:00 to 23:59")
    return f"{hour:02d}:{minute:02d}"


def normalize_date(value: object) -> date:
    """A calendar date from ISO ``YYYY-MM-DD`` text, a written date (``5 December
    2026``, ``December 5, 2026``, with an optional weekday in front that must be
    the date's own: ``Saturday, 5 December 2026``), or a date (not a datetime)."""
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
                raise ValueError(f"{_DATE_EXPECTED}, got no such day") from None
        return _written_date(text)
    raise ValueError(_DATE_EXPECTED)


def _written_date(text: str) -> date:
    """``5 December 2026``, ``5 Dec 2026``, ``December 5, 2026`` (English months),
    optionally after a weekday (``Saturday,``, ``Sat``) that must match the date."""
    weekday = None
    prefix = _WEEKDAY_PREFIX.match(text)
    if prefix is not None and prefix[1].casefold() in _WEEKDAYS:
        weekday = prefix[1]
        text = text[prefix.end() :]
    if _DATE_TEXT.fullmatch(text):
        try:
            found = date.fromisoformat(text)
        except ValueError:
            raise ValueError(f"{_DATE_EXPECTED}, got no such day") from None
        return _same_weekday(found, weekday)
    if (match := _DAY_MONTH_YEAR.fullmatch(text)) is not None:
        day, month_name, year = match[1], match[2], match[3]
    elif (match := _MONTH_DAY_YEAR.fullmatch(text)) is not None:
        month_name, day, year = match[1], match[2], match[3]
    else:
        raise ValueError(_DATE_EXPECTED)
    month = _MONTHS.get(month_name.casefold())
    if month is None:
        raise ValueError(f"{_DATE_EXPECTED}, got an unknown month {month_name!r}")
    try:
        found = date(int(year), month, int(day))
    except ValueError:
        raise ValueError(f"{_DATE_EXPECTED}, got no such day") from None
    return _same_weekday(found, weekday)


def _same_weekday(found: date, weekday: str | None) -> date:
    """``found``, when the weekday written before it (if any) is its own."""
    if weekday is not None and _WEEKDAYS[weekday.casefold()] != found.weekday():
        raise ValueError(
            f"expected a date whose weekday is its own, got {weekday!r} "
            f"for {found.isoformat()}, a {found:%A}"
        )
    return found


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
"""The normalizers a contract can name, by name (and ``money:XXX``, see
:func:`normalizer_for`)."""


def normalizer_for(spec: str) -> Normalizer | None:
    """The normalizer a contract names: a key of :data:`NORMALIZERS`, or
    ``money:<ISO 4217 code>``; None when there is no such normalizer."""
    found = NORMALIZERS.get(spec)
    if found is not None:
        return found
    kind, _, currency = spec.partition(":")
    if kind == "money" and re.fullmatch(r"[A-Z]{3}", currency):
        return money_in(currency)
    return None
