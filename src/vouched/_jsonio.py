"""JSON in and out without losing a number's precision.

``loads`` reads decimals as :class:`~decimal.Decimal` (27.50 stays 27.50, never
a binary float), refuses NaN/Infinity and refuses an object with a repeated
key (:class:`DuplicateKeyError`): "the last one wins" would let
``{"value": 99, "value": 27.5}`` be read as either. ``dumps`` writes Decimals back as
JSON numbers exactly as they were written, and datetimes as UTC ``...Z``.
Output is canonical when ``canonical=True``: sorted keys, no spaces, UTF-8.
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Mapping
from datetime import datetime, timedelta
from decimal import Decimal
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any, Final

from vouched._exceptions import shown
from vouched._time import format_instant

__all__ = [
    "DECODER",
    "MAX_EXPONENT",
    "MAX_NUMBER_DIGITS",
    "DuplicateKeyError",
    "NumberBoundsError",
    "bounded_decimal",
    "bounded_int",
    "dumps",
    "loads",
    "object_without_repeats",
    "seconds_number",
]


class DuplicateKeyError(ValueError):
    """A JSON object names the same key twice (``key`` is the key)."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(f"repeated key {shown(key)} in an object")


def object_without_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for :mod:`json`: a dict, or DuplicateKeyError."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(key)
            seen.add(key)
    return out


MAX_NUMBER_DIGITS: Final = 100
"""The most significant digits a number may have, wherever vouched reads one."""
MAX_EXPONENT: Final = 1000
"""The largest power of ten a number may reach (either way): ``1e999999999`` is
refused where it is read, in microseconds, instead of costing a billion digits
wherever it is later written out or rounded."""


class NumberBoundsError(ValueError):
    """A number with more digits or a larger exponent than vouched reads."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"{what} is out of bounds (at most {MAX_NUMBER_DIGITS} digits, "
            f"exponent within +-{MAX_EXPONENT})"
        )


def bounded_decimal(value: Decimal, text: str | None = None) -> Decimal:
    """``value``, or :class:`NumberBoundsError` when it passes the bounds."""
    if value.is_finite() and (
        len(value.as_tuple().digits) > MAX_NUMBER_DIGITS or abs(value.adjusted()) > MAX_EXPONENT
    ):
        raise NumberBoundsError(f"number {shown(text if text is not None else str(value), 24)}")
    return value


_INT_LIMIT: Final = 10**MAX_NUMBER_DIGITS


def bounded_int(value: int) -> int:
    """``value``, or :class:`NumberBoundsError` past :data:`MAX_NUMBER_DIGITS` digits
    (judged without writing the int in decimal, which costs its length squared)."""
    if value.bit_length() > _INT_LIMIT.bit_length() or abs(value) >= _INT_LIMIT:
        raise NumberBoundsError(f"an integer of about {int(value.bit_length() * 0.30103)} digits")
    return value


def _parse_float(text: str) -> Decimal:
    # A JSON number token is short unless it is hostile; the length check keeps
    # Decimal() from reading a megabyte of digits before the bound is seen.
    if len(text) > MAX_NUMBER_DIGITS + 16:
        raise NumberBoundsError(f"number {shown(text, 24)}")
    return bounded_decimal(Decimal(text), text)


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise NumberBoundsError(f"number {shown(text, 24)}")
    return int(text)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


DECODER: Final = json.JSONDecoder(
    parse_float=_parse_float,
    parse_int=_parse_int,
    parse_constant=_refuse_constant,
    object_pairs_hook=object_without_repeats,
)
"""The one JSON decoder: decimals become Decimal, NaN and Infinity are refused, so is a
number past the bounds (:class:`NumberBoundsError`), and so is a repeated key
(:class:`DuplicateKeyError`). Built once (``json.loads`` with options builds a decoder
per call)."""


def loads(text: str | bytes) -> Any:
    """Parse JSON; decimals become Decimal, NaN and Infinity are refused, and so
    is a repeated key (:class:`DuplicateKeyError`)."""
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8-sig" if text.startswith(b"\xef\xbb\xbf") else "utf-8")
    return DECODER.decode(text)


def seconds_number(value: timedelta) -> int | Decimal:
    """A duration as a JSON-friendly number of seconds (int when whole)."""
    micros = (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds
    if micros % 1_000_000 == 0:
        return micros // 1_000_000
    return Decimal(micros).scaleb(-6).normalize()


def _decimal_text(value: Decimal) -> str:
    if not value.is_finite():
        raise ValueError("NaN and Infinity are not JSON numbers")
    text = str(value)
    if "E" in text or "e" in text:
        # JSON allows exponents, but keep plain notation for readability where cheap.
        text = format(value, "f") if abs(value.adjusted()) < 30 else text.replace("E", "e")
    return text


def dumps(obj: Any, *, canonical: bool = False, ensure_ascii: bool = False) -> str:
    """Serialise plain data (dicts, lists, str, int, Decimal, float, bool, None,
    datetimes, timedeltas, enums) to JSON text."""
    parts: list[str] = []
    encode = encode_basestring_ascii if ensure_ascii else encode_basestring
    item_sep, key_sep = (",", ":") if canonical else (", ", ": ")

    def emit(value: Any) -> None:
        if value is None:
            parts.append("null")
        elif value is True:
            parts.append("true")
        elif value is False:
            parts.append("false")
        elif isinstance(value, enum.Enum):
            emit(value.value)
        elif isinstance(value, str):
            parts.append(encode(value))
        elif isinstance(value, int):
            parts.append(int.__repr__(value))
        elif isinstance(value, Decimal):
            parts.append(_decimal_text(value))
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError("NaN and Infinity are not JSON numbers")
            parts.append(float.__repr__(value))
        elif isinstance(value, datetime):
            parts.append(encode(format_instant(value)))
        elif isinstance(value, timedelta):
            emit(seconds_number(value))
        elif isinstance(value, Mapping):
            keys = sorted(value) if canonical else list(value)
            parts.append("{")
            for i, key in enumerate(keys):
                if i:
                    parts.append(item_sep)
                parts.append(encode(str(key)))
                parts.append(key_sep)
                emit(value[key])
            parts.append("}")
        elif isinstance(value, list | tuple):
            parts.append("[")
            for i, item in enumerate(value):
                if i:
                    parts.append(item_sep)
                emit(item)
            parts.append("]")
        else:
            raise TypeError(f"cannot write {type(value).__name__} as JSON")

    emit(obj)
    return "".join(parts)
