"""What the adapters accept in a query, checked before the source is called.

Each adapter's ``check_query(query)`` raises :class:`vouched.QueryError`
naming the field it cannot use: a caller's mistake is answered with a
``malformed_query`` silence (a 422 from ``vouched serve``) and never counts
as a failure of the source, so no caller can open a breaker for everyone.
The helpers here are the checks the adapters share.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from vouched import Query, QueryError

__all__ = [
    "check_coordinates",
    "check_mapping",
    "check_scalar",
    "check_text",
    "check_whole_number",
]

_MAX_TEXT = 1_000  # characters of one query value: a name, a code, a timezone


def check_mapping(query: object) -> Query:
    """The query itself must be a JSON object."""
    if not isinstance(query, Mapping):
        raise QueryError("(query)", "a JSON object", got=query)
    return query


def _number(query: Query, field: str) -> float:
    if field not in query:
        raise QueryError(field, "given (a number)")
    value = query[field]
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise QueryError(field, "a number", got=value)
    number = float(value)
    if not math.isfinite(number):
        raise QueryError(field, "a finite number", got=value)
    return number


def check_coordinates(query: object) -> None:
    """``latitude`` in [-90, 90] and ``longitude`` in [-180, 180], both numbers."""
    query = check_mapping(query)
    for field, limit in (("latitude", 90.0), ("longitude", 180.0)):
        if abs(_number(query, field)) > limit:
            raise QueryError(field, f"between -{limit:g} and {limit:g}", got=query[field])


def check_text(
    query: Query, field: str, *, pattern: re.Pattern[str] | None = None, accepted: str = ""
) -> None:
    """``field``, when given, is text (at most 1,000 characters; matching ``pattern``)."""
    if field not in query:
        return
    value = query[field]
    if not isinstance(value, str) or not value.strip() or len(value) > _MAX_TEXT:
        raise QueryError(field, accepted or "text of 1 to 1,000 characters", got=value)
    if pattern is not None and pattern.fullmatch(value) is None:
        raise QueryError(field, accepted or f"text matching {pattern.pattern}", got=value)


def check_whole_number(query: Query, field: str, low: int, high: int) -> None:
    """``field``, when given, is a whole number in [low, high]."""
    if field not in query:
        return
    value = query[field]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise QueryError(field, f"a whole number from {low} to {high}", got=value)


def check_scalar(query: Query, field: str) -> Any:
    """``field`` is given and is text or a number (it fills a URL or a SQL parameter)."""
    if field not in query:
        raise QueryError(field, "given (the source's template or SQL names it)")
    value = query[field]
    ok = isinstance(value, str | int | float | Decimal) and not isinstance(value, bool)
    if not ok or (isinstance(value, str) and len(value) > _MAX_TEXT):
        raise QueryError(field, "text (up to 1,000 characters) or a number", got=value)
    if isinstance(value, float) and not math.isfinite(value):
        raise QueryError(field, "a finite number", got=value)
    return value
