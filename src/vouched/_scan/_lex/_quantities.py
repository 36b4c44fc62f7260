"""Quantities read from a text, the digit strings they are written in, and the times and
dates among them."""

from __future__ import annotations

import enum
import re
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from vouched._scan._lex._numwords import MONTHS, ORDINAL_WORDS

__all__ = [
    "EXPONENT_LIMIT",
    "ONE",
    "Quantity",
    "QuantityKind",
    "date_value",
    "iso_time",
    "parse_digits",
    "read_time_or_date",
    "twelve_hour",
]


class QuantityKind(enum.StrEnum):
    """What a quantity measures; only quantities of one kind are compared."""

    NUMBER = "number"
    TIME = "time"  # minutes after midnight
    DATE = "date"  # (year or 0, month, day) packed as year*10000 + month*100 + day


class Quantity(NamedTuple):
    """One quantity read from a text.

    ``value`` is the main reading; ``alternatives`` holds other readings of an
    ambiguous form (``1.234`` may be 1.234 or 1234, ``2:05`` may be 14:05).
    ``quantum`` is the step of the last digit shown (0.1 for ``21.4``): a fact
    rounded to it reads the same. ``soft`` quantities (small number words,
    digit ordinals) are claims only when bound to an attribute or carrying a unit.
    """

    start: int
    end: int
    text: str
    kind: QuantityKind
    value: Decimal
    quantum: Decimal
    unit: str | None = None
    alternatives: tuple[Decimal, ...] = ()
    soft: bool = False
    in_range: bool = False

    @property
    def values(self) -> tuple[Decimal, ...]:
        return (self.value, *self.alternatives)


ONE = Decimal(1)


# Capital-letter codes followed by a number that are not identifiers.
def date_value(year: int, month: int, day: int) -> Decimal | None:
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return Decimal(year * 10000 + month * 100 + day)


def iso_time(text: str, match: re.Match[str]) -> Quantity:
    """The time part of an ISO date-time, as its own quantity."""
    hour, minute = int(match["ih"]), int(match["imin"])
    start, end = match.start("ih"), match.end("imin")
    return Quantity(
        start, end, text[start:end], QuantityKind.TIME, Decimal(hour * 60 + minute), ONE
    )


def read_time_or_date(match: re.Match[str], group: str | None) -> Quantity | None:
    start, end, raw = match.start(), match.end(), match.group()
    if group == "time":
        hour, minute = int(match["th"]), int(match["tm"])
        alternatives: tuple[Decimal, ...] = ()
        if match["tap"]:
            hour = twelve_hour(hour, match["tap"])
        elif hour < 12:
            alternatives = (Decimal((hour + 12) * 60 + minute),)
        value = Decimal(hour * 60 + minute)
        return Quantity(start, end, raw, QuantityKind.TIME, value, ONE, None, alternatives)
    if group == "hourap":
        hour = twelve_hour(int(match["hh"]), match["hap"])
        raw = raw.rstrip()
        return Quantity(start, start + len(raw), raw, QuantityKind.TIME, Decimal(hour * 60), ONE)
    if group == "isodate":
        date = date_value(int(match["iy"]), int(match["im"]), int(match["id"]))
        if date is None:
            return None
        # A date-time is checked as its date; read_numbers adds its time separately.
        return Quantity(start, end, raw, QuantityKind.DATE, date, ONE)
    if group == "slashdate":
        a, b, year = int(match["sa"]), int(match["sb"]), int(match["sy"])
        if year < 100:
            year += 2000
        readings = [v for v in (date_value(year, b, a), date_value(year, a, b)) if v is not None]
        if not readings:
            return None
        return Quantity(
            start, end, raw, QuantityKind.DATE, readings[0], ONE, None, tuple(readings[1:])
        )
    if group in {"dmy", "mdy", "orddate"}:
        if group == "dmy":
            day, month_name, year_text = int(match["dd"]), match["dm"], match["dyr"]
        elif group == "mdy":
            day, month_name, year_text = int(match["md"]), match["mm"], match["myr"]
        else:
            day, month_name, year_text = (
                ORDINAL_WORDS[match["ow"].lower()],
                match["om"],
                match["oyr"],
            )
        month = MONTHS.get(month_name.rstrip(".").lower())
        if month is None:
            return None
        date = date_value(int(year_text) if year_text else 0, month, day)
        if date is None:
            return None
        return Quantity(start, end, raw, QuantityKind.DATE, date, ONE)
    return None


def twelve_hour(hour: int, marker: str) -> int:
    pm = marker.lower() == "p"
    if hour == 12:
        return 12 if pm else 0
    return hour + 12 if pm else hour


_QUANTA = tuple(Decimal(1).scaleb(-places) for places in range(12))


def _quantum_of(digits: str) -> Decimal:
    """The step of the last shown digit of a plain decimal string."""
    if "." in digits:
        return Decimal(1).scaleb(-len(digits.split(".", 1)[1]))
    return ONE


EXPONENT_LIMIT = 1000
"""The largest power of ten a number in scientific notation keeps ("1e999999999" reads as
1e1000: a number no fact is, without arithmetic on a billion-digit value)."""


def _parse_scientific(raw: str) -> tuple[Decimal, Decimal, tuple[Decimal, ...]]:
    """Value and quantum of ``9.9e1``, ``2.14E+01`` (the last digit shown: 21.4's 0.1), its
    exponent held within :data:`EXPONENT_LIMIT`."""
    mantissa, _, exponent = raw.lower().partition("e")
    power = int(exponent[:8]) if len(exponent.lstrip("+-")) <= 6 else None
    if power is None or abs(power) > EXPONENT_LIMIT:
        power = EXPONENT_LIMIT if not exponent.startswith("-") else -EXPONENT_LIMIT
    base = Decimal(mantissa)
    return base.scaleb(power), _quantum_of(mantissa).scaleb(power), ()


def parse_digits(raw: str) -> tuple[Decimal, Decimal, tuple[Decimal, ...]] | None:
    """Value, quantum and alternative readings of a digit string as written."""
    if "e" in raw or "E" in raw:
        return _parse_scientific(raw)
    if raw.isascii():
        if raw.isdigit():
            return Decimal(raw), ONE, ()  # the common case: plain digits
        whole, dot, frac = raw.partition(".")
        if dot and whole.isdigit() and frac.isdigit() and len(frac) < len(_QUANTA):
            if len(frac) == 3 and len(whole) <= 3 and whole != "0":
                # 1.234 may be German 1234
                return Decimal(raw), _QUANTA[3], (Decimal(whole + frac),)
            return Decimal(raw), _QUANTA[len(frac)], ()
    text = raw.replace("\u00a0", "").replace("\u202f", "").replace("\u2009", "").replace("'", "")
    main, alternatives = _grouped(text)
    try:
        value = Decimal(main)
        alts = tuple(Decimal(a) for a in alternatives)
    except InvalidOperation:
        return None
    return value, _quantum_of(main), alts


def _grouped(text: str) -> tuple[str, list[str]]:
    """A digit string with group separators (commas, dots) as a decimal string, and the
    other readings its separators allow ("1,234": 1234, or 1.234 read the other way)."""
    alternatives: list[str] = []
    if "," in text and "." in text:
        main = text.replace(",", "") if text.rfind(".") > text.rfind(",") else None
        if main is None:
            main = text.replace(".", "").replace(",", ".")
    elif "," in text:
        parts = text.split(",")
        if len(parts) > 2 or (len(parts[1]) == 3 and len(parts[0]) <= 3):
            main = text.replace(",", "")  # 1,234 (English thousands)
            if len(parts) == 2:
                alternatives.append(text.replace(",", "."))
        else:
            main = text.replace(",", ".")  # 21,4 (decimal comma)
    elif text.count(".") > 1:
        main = text.replace(".", "")  # 1.234.567
    elif "." in text:
        whole, frac = text.split(".")
        main = text
        if len(frac) == 3 and len(whole) <= 3 and whole != "0":
            alternatives.append(whole + frac)  # 1.234 may be German 1234
    else:
        main = text
    return main, alternatives
