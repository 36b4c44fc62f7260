"""Reading what sources write: instants (ISO 8601 with an offset, or Unix seconds)
and numbers, exactly.

A timestamp without a timezone is malformed, never guessed. A number is taken as
written: an int stays an int, a Decimal (a body parsed with
``parse_float=Decimal``) stays itself, and a float (a body read with plain
``json.load``) becomes ``Decimal(str(x))``, the shortest text that reads back as
that float: the number the source sent (a written ``2.50`` comes back as ``2.5``,
the same amount). NaN and infinity are malformed.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from decimal import Decimal

from vouched import MalformedPayloadError

__all__ = ["exact_number", "instant"]


def exact_number(value: object, what: str) -> int | Decimal | None:
    """``value`` as an exact number, None when it is no number (a string, null, a
    bool); a float NaN or infinity is a MalformedPayloadError naming ``what``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | Decimal):
        if isinstance(value, Decimal) and not value.is_finite():
            raise MalformedPayloadError(f"{what} is not a finite number")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise MalformedPayloadError(f"{what} is not a finite number")
        return Decimal(str(value))
    return None


def instant(value: object, what: str = "observed_at") -> datetime:
    """``value`` as an aware UTC datetime, or MalformedPayloadError naming ``what``."""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return datetime.fromtimestamp(float(value), UTC)
    if isinstance(value, str):
        text = value.strip()
        if text.endswith(("z", "Z")):
            text = text[:-1] + "+00:00"
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            raise MalformedPayloadError(f"{what} is not ISO 8601") from None
        if parsed.tzinfo is None or parsed.utcoffset() is None:
            raise MalformedPayloadError(f"{what} has no timezone")
        return parsed.astimezone(UTC)
    raise MalformedPayloadError(f"{what} is neither ISO 8601 text nor Unix seconds")
