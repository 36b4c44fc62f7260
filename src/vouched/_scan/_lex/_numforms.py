"""Number forms the digit reader does not read on its own, read so none passes as silence.

A reader takes each of these for a number; so does the redaction reader
(:func:`vouched._replay._folding.read_amounts`), and ``tests/scan/test_scan_numforms.py``
holds the two to the same values:

- a decimal without its leading zero, signed or not (``.99``, ``-.5``);
- hexadecimal, octal and binary literals (``0x63``, ``0o143``, ``0b1100011``);
- circled digits (``⑨``) and vulgar fractions (``½``, ``2½``);
- a decimal comma before an exponent (``9,9e1`` is 99);
- where a unit follows (a number position): superscript digits (``⁹⁹ °C``), a roman
  numeral (``XCIX °C``) and a fraction of two whole numbers (``198/2 °C``); elsewhere
  "m²", "Louis XIV" and "24/7" are exponents, names and dates, not amounts (a run of
  superscripts split by separators, "⁸⁵'⁰⁰⁰", stays the redaction reader's whole).

:func:`read_forms` returns them as :class:`Quantity` values; :func:`with_forms` puts
them in place of what the digit reader made of the same characters. The cost is one
pass of a few patterns: linear in the text.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation

from vouched._scan._lex._patterns import UNIT_AFTER
from vouched._scan._lex._quantities import Quantity, QuantityKind
from vouched._scan._lex._units import unit_of

__all__ = ["read_forms", "roman_value", "with_forms"]

_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_CIRCLED = "".join(chr(c) for c in range(0x2460, 0x2474))  # ① .. ⑳
_VULGAR = "½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞"
_FORMS = re.compile(
    rf"""(?<![\w.,/])(?:
        (?P<based>0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+))(?![\w.])
      | (?P<comma>\d+,\d+[eE][-+]?\d{{1,3}})(?![\w])
      | (?P<dot>[-+\u2212]?\.\d+)(?![\w.])
      | (?P<sup>[{_SUPERSCRIPTS}]+)(?=\s?[°º%]|\s(?:km/h|mph|m/s|degrees?|percent)\b)
      | (?P<circled>[{_CIRCLED}])
      | (?P<vulgar>\d*[{_VULGAR}])
      | (?P<roman>[MDCLXVI]+)(?=\s?[°º%]|\s(?:km/h|mph|m/s|degrees?|percent)\b)
      | (?P<fraction>\d+/\d+)(?=\s?[°º%]|\s(?:km/h|mph|m/s|degrees?|percent)\b)
    )""",
    re.VERBOSE,
)
_ROMAN = re.compile(r"M{0,4}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_ONE = Decimal(1)
_SOFT = frozenset({"based", "sup", "circled"})


def roman_value(text: str) -> int | None:
    """The value of a well-formed roman numeral (upper case), else None."""
    if not text or _ROMAN.fullmatch(text) is None:
        return None
    values = [_ROMAN_VALUES[c] for c in text]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def _value(match: re.Match[str]) -> tuple[Decimal, Decimal] | None:
    """(value, quantum) of one form; None when it is no number after all."""
    kind = match.lastgroup
    raw = match.group()
    if kind == "based":
        base = {"x": 16, "o": 8, "b": 2}[raw[1].lower()]
        return Decimal(int(raw[2:], base)), _ONE
    if kind == "comma":
        mantissa, exponent = re.split("[eE]", raw)
        try:
            value = Decimal(mantissa.replace(",", ".")).scaleb(int(exponent))
        except InvalidOperation:
            return None
        return value, _ONE.scaleb(int(exponent) - len(mantissa.split(",")[1]))
    if kind == "dot":
        digits = raw.lstrip("-+\u2212")
        sign = -1 if raw[0] in "-\u2212" else 1
        return sign * Decimal("0" + digits), _ONE.scaleb(1 - len(digits))
    if kind == "sup":
        return Decimal("".join(str(unicodedata.digit(c, 0)) for c in raw)), _ONE
    if kind == "circled":
        return Decimal(int(unicodedata.numeric(raw))), _ONE
    if kind == "vulgar":
        whole = Decimal(raw[:-1] or 0)
        part = Decimal(str(unicodedata.numeric(raw[-1])))
        return whole + part.quantize(Decimal("0.001")), Decimal("0.001")
    if kind == "roman":
        number = roman_value(raw)
        return (Decimal(number), _ONE) if number is not None else None
    top, bottom = raw.split("/")
    if int(bottom) == 0:
        return None
    exact = Decimal(top) / Decimal(bottom)
    return exact.quantize(Decimal("0.001")).normalize(), Decimal("0.001")


def read_forms(text: str) -> list[Quantity]:
    """The quantities of the forms above in ``text``, with the unit after each."""
    found: list[Quantity] = []
    for match in _FORMS.finditer(text):
        read = _value(match)
        if read is None:
            continue
        value, quantum = read
        end = match.end()
        unit = None
        after = UNIT_AFTER.match(text, end)
        if after is not None and after["unit"] and not after["mag"]:
            unit = unit_of(after["unit"])
            end = after.end()
        # a code or a marker with no unit ("0x63", "①") is a claim only when bound
        soft = unit is None and match.lastgroup in _SOFT
        found.append(
            Quantity(
                match.start(),
                end,
                text[match.start() : end],
                QuantityKind.NUMBER,
                value,
                quantum,
                unit,
                soft=soft,
            )
        )
    return found


def with_forms(text: str, found: list[Quantity]) -> list[Quantity]:
    """``found`` with every form of :func:`read_forms` in place of the digit reader's
    quantities that overlap it (``.99`` read as ``99``, ``0x63`` as ``0``)."""
    forms = read_forms(text)
    if not forms:
        return found
    kept = [q for q in found if not any(q.start < f.end and f.start < q.end for f in forms)]
    return sorted([*kept, *forms], key=lambda q: q.start)
