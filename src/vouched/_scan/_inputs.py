"""What a caller may pass for a scanner's lexicon and instant, as the scanner reads them.

``Scanner(facts, {"attributes": ...})`` and ``scan(..., now="2026-12-03T09:00:00Z")``
take what users pass (a lexicon's JSON form, ISO 8601 text); anything else is a
one-line error naming the argument.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from vouched._exceptions import InputError
from vouched._scan._facts._lexicon import Lexicon
from vouched._time import parse_instant

__all__ = ["as_instant", "as_lexicon"]


def as_lexicon(lexicon: object) -> Lexicon | None:
    """A :class:`Lexicon` from what a caller passes: a lexicon, its JSON form as a
    mapping, or None; anything else is a one-line ``TypeError`` naming ``lexicon``."""
    if lexicon is None or isinstance(lexicon, Lexicon):
        return lexicon
    if isinstance(lexicon, Mapping):
        try:
            return Lexicon.from_json(lexicon)
        except InputError as error:
            raise InputError(
                error.message, field=f"lexicon.{error.field or ''}".rstrip(".")
            ) from None
    raise TypeError(f"lexicon: expected a Lexicon or a mapping, not {type(lexicon).__name__}")


def as_instant(now: object) -> datetime | None:
    """``now`` as a datetime: one given (as it is), or ISO 8601 text with an offset (in
    UTC); anything else is a one-line error naming ``now``."""
    if now is None:
        return None
    if isinstance(now, str):
        try:
            return parse_instant(now)
        except ValueError as error:
            raise InputError(str(error), field="now") from None
    if isinstance(now, datetime):
        return now
    raise TypeError(f"now: expected a datetime or ISO 8601 text, not {type(now).__name__}")
