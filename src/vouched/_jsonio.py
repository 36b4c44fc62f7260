"""JSON in and out without losing a number's precision.

``loads`` reads decimals as :class:`~decimal.Decimal` (27.50 stays 27.50, never
a binary float), refuses NaN/Infinity and refuses an object with a repeated
key (:class:`DuplicateKeyError`): "the last one wins" would let
``{"value": 99, "value": 27.5}`` be read as either. ``dumps`` writes Decimals back as
JSON numbers exactly as they were written, and datetimes as UTC ``...Z``.
Output is canonical when ``canonical=True``: sorted keys, no spaces, UTF-8.

Canonical text (every snapshot is written and hashed as such) is written by orjson
when it is installed (``pip install 'vouched[fastjson]'``), and only where its
bytes are the pure emitter's: anything orjson would write differently (a float
that Python writes with an exponent, an integer past 64 bits, a key that is not a
``str``, a lone surrogate) falls back to the pure emitter, which stays the
reference. tests/core/test_json_emitters.py holds the two to the same bytes.
"""

from __future__ import annotations

import enum
import functools
import importlib
import json
import math
import re
from collections.abc import Mapping
from datetime import datetime, timedelta
from decimal import Decimal
from json.encoder import encode_basestring, encode_basestring_ascii
from types import ModuleType
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
    "canonical_by_orjson",
    "dumps",
    "dumps_pure",
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
    if canonical and not ensure_ascii:
        text = canonical_by_orjson(obj)
        if text is not None:
            return text
    return dumps_pure(obj, canonical=canonical, ensure_ascii=ensure_ascii)


@functools.cache
def _orjson() -> ModuleType | None:
    """orjson when installed (the ``fastjson`` extra), else None; imported at first use."""
    try:
        module = importlib.import_module("orjson")
    except ImportError:
        return None
    return module if hasattr(module, "Fragment") else None  # raw numbers: orjson >= 3.9


# Where Python writes a float with an exponent ("1e-05", "1.5e-08"), orjson may
# write it otherwise ("0.00001", "1.5e-8"); a version could also write a large one
# plainly. So text holding a number token that starts "0.0000", holds an "e" or has
# 17 digits in a row goes to the pure emitter. Each test is a C-speed search (a
# literal, or a translated copy); a hit inside a string or a Decimal only costs the
# fall-back.
_EXPONENT: Final = re.compile(rb"e[-+0-9]")
_SMALL: Final = re.compile(rb"0\.0000")
_NUMBER_START: Final = frozenset(b":,[-")
_NUMBER_BODY: Final = frozenset(b"0123456789.")
_DIGITS_AS_ZERO: Final = bytes.maketrans(b"123456789", b"000000000")


def _maybe_written_otherwise(raw: bytes) -> bool:
    """Whether ``raw`` (orjson's text) may hold a float Python writes otherwise."""
    if b"0" * 17 in raw.translate(_DIGITS_AS_ZERO):
        return True
    for found in _SMALL.finditer(raw):  # "0.0000" starting a number token
        if found.start() == 0 or raw[found.start() - 1] in _NUMBER_START:
            return True
    for found in _EXPONENT.finditer(raw):  # "e" after a number token's digits
        i = found.start() - 1
        while i >= 0 and raw[i] in _NUMBER_BODY:
            i -= 1
        if i < found.start() - 1 and (i < 0 or raw[i] in _NUMBER_START):
            return True
    return False


def canonical_by_orjson(obj: Any) -> str | None:
    """``dumps(obj, canonical=True)`` written by orjson, or None when orjson is not
    installed or might write it differently (the caller then uses the pure emitter).

    Finite floats only: orjson writes NaN as ``null`` where the pure emitter
    refuses it; vouched's snapshots hold validated numbers and measured times."""
    orjson = _orjson()
    if orjson is None:
        return None
    try:
        raw: bytes = orjson.dumps(
            obj,
            default=_orjson_default,
            option=orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME,
        )
    except TypeError:  # orjson.JSONEncodeError: a type, key or integer it cannot write alike
        return None
    if _maybe_written_otherwise(raw) and _maybe_written_otherwise(
        # The suspect token may be a Decimal's (written as the pure emitter writes
        # it): asked again with every Decimal as null, only floats and ints remain.
        orjson.dumps(obj, default=_without_decimals, option=orjson.OPT_PASSTHROUGH_DATETIME)
    ):
        return None
    return raw.decode()


def _without_decimals(value: Any) -> Any:
    return None if isinstance(value, Decimal) else _orjson_default(value)


def _orjson_default(value: Any) -> Any:
    """What the pure emitter writes for the types orjson does not know."""
    if isinstance(value, Decimal):
        return _orjson().Fragment(_decimal_text(value))  # type: ignore[union-attr]  # set when called
    if isinstance(value, datetime):
        return format_instant(value)
    if isinstance(value, timedelta):
        return seconds_number(value)
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(type(value).__name__)


def dumps_pure(obj: Any, *, canonical: bool = False, ensure_ascii: bool = False) -> str:
    """:func:`dumps` in pure Python: the reference emitter."""
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
