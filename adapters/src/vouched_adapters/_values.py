"""Reading instants the way sources write them: ISO 8601 with an offset, or Unix seconds.

A timestamp without a timezone is malformed, never guessed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from vouched import MalformedPayloadError

__all__ = ["instant"]


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
