"""The fact: one asserted value about one subject's attribute, with provenance.

The pydantic model mirrors the JSON contract (README "Facts") exactly. Reading
facts from files lives in :mod:`vouched._factio`.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from datetime import datetime, timedelta
from decimal import Decimal
from functools import cached_property
from typing import TYPE_CHECKING, Any, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    field_serializer,
    field_validator,
    model_validator,
)

from vouched._exceptions import shown
from vouched._jsonio import bounded_decimal, bounded_int, dumps, loads, seconds_number
from vouched._time import (
    DurationLike,
    InstantLike,
    format_local_instant,
    later_by,
    parse_duration,
    parse_instant,
    parse_local_instant,
    to_utc,
)

__all__ = [
    "GATE_OBSERVED",
    "Fact",
    "FactValue",
    "FactValueLike",
    "SilenceReason",
    "fact_key",
    "silence_reason",
]

FactValue = str | bool | int | Decimal | None
"""What a fact may assert. Decimal keeps the precision the source gave."""

FactValueLike = str | bool | int | float | Decimal | None
"""What :class:`Fact` accepts as ``value``: a float is kept as the Decimal of
its shortest text (``21.4`` is ``Decimal("21.4")``)."""


class SilenceReason(enum.StrEnum):
    """Why a fact carries no value. Callers may also use their own strings."""

    CIRCUIT_OPEN = "circuit_open"
    TIMEOUT = "timeout"
    SOURCE_ERROR = "source_error"
    SOURCE_BUG = "source_bug"  # the source's own code raised (KeyError, ...): not an outage
    MALFORMED = "malformed"
    MALFORMED_QUERY = "malformed_query"  # the caller's query cannot be asked: not an outage
    NO_DATA = "no_data"
    STALE = "stale"
    NOT_PERMITTED = "not_permitted"
    DEMOTED = "demoted"
    STORE_UNAVAILABLE = "store_unavailable"  # the fleet's last good store cannot answer


# The key, in a fact's __dict__, of the instant the gate's short way reads (Fact._derive).
GATE_OBSERVED = "gate_observed_at"

_REASONS = {member.value: member for member in SilenceReason}


def silence_reason(code: str) -> SilenceReason | str:
    """The :class:`SilenceReason` member for a known code; a caller's own code as is."""
    return _REASONS.get(code, code)


class Fact(BaseModel):
    """One value about ``subject``'s ``attribute``, with where and when it was seen.

    A fact with ``silent_reason`` (or no value) is a *silence*: a typed absence.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=False)

    # The schema says what the validator enforces: text that is not blank.
    subject: str = Field(json_schema_extra={"minLength": 1, "pattern": r"\S"})
    attribute: str = Field(json_schema_extra={"minLength": 1, "pattern": r"\S"})
    value: FactValue = None
    unit: str | None = None
    source: str | None = None
    observed_at: datetime | None = None
    confidence: float | None = None
    ttl: timedelta | None = None
    citation: str | None = None
    source_version: str | None = None
    silent_reason: SilenceReason | str | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None

    if TYPE_CHECKING:
        # What the constructor accepts, as type checkers should read it (mypy and
        # pyright, with or without pydantic's plugin): the validators below turn
        # floats, ISO 8601 text and seconds into the field types above. Run time
        # never sees this; tests/core/test_typed_init.py keeps it to the fields.
        def __init__(
            self,
            *,
            subject: str,
            attribute: str,
            value: FactValueLike = None,
            unit: str | None = None,
            source: str | None = None,
            observed_at: InstantLike | None = None,
            confidence: float | Decimal | None = None,
            ttl: DurationLike | None = None,
            citation: str | None = None,
            source_version: str | None = None,
            silent_reason: SilenceReason | str | None = None,
            valid_from: InstantLike | None = None,
            valid_until: InstantLike | None = None,
        ) -> None: ...

    # -- validation -----------------------------------------------------------

    @field_validator("subject", "attribute", mode="before")
    @classmethod
    def _non_empty_text(cls, value: Any) -> Any:
        if not isinstance(value, str):
            raise ValueError("must be a string")
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("value", mode="before")
    @classmethod
    def _exact_value(cls, value: Any) -> Any:
        if isinstance(value, bool) or value is None or isinstance(value, str):
            return value
        if isinstance(value, int):
            return bounded_int(value)
        if isinstance(value, float):
            if math.isnan(value) or math.isinf(value):
                raise ValueError("must be a finite number")
            return bounded_decimal(Decimal(repr(value)))  # the shortest text that round-trips
        if isinstance(value, Decimal):
            if not value.is_finite():
                raise ValueError("must be a finite number")
            return bounded_decimal(value)
        raise ValueError("must be a string, integer, decimal number, boolean or null")

    @field_validator("observed_at", mode="before")
    @classmethod
    def _aware_instant(cls, value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, str):
            return parse_instant(value)
        if isinstance(value, datetime):
            return to_utc(value)
        raise ValueError("must be an ISO 8601 date-time with a timezone")

    @field_validator("valid_from", "valid_until", mode="before")
    @classmethod
    def _instant_with_offset(cls, value: Any) -> Any:
        # The place's offset is kept (not turned to UTC): it says which local
        # day a period belongs to ("Friday" in Berlin is not Friday in UTC).
        if value is None:
            return None
        if isinstance(value, str):
            return parse_local_instant(value)
        if isinstance(value, datetime):
            to_utc(value)  # refuses a naive datetime
            return value
        raise ValueError("must be an ISO 8601 date-time with a UTC offset")

    @field_validator("confidence", mode="before")
    @classmethod
    def _unit_interval(cls, value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
            raise ValueError("must be a number between 0 and 1")
        if isinstance(value, float | Decimal) and not math.isfinite(value):
            raise ValueError(f"must be between 0 and 1, got {shown(value)}")
        if not 0 <= value <= 1:  # compared exactly: float(10**400) would overflow
            raise ValueError(f"must be between 0 and 1, got {shown(value)}")
        return float(value)

    @field_validator("ttl", mode="before")
    @classmethod
    def _duration(cls, value: Any) -> Any:
        if value is None:
            return None
        return parse_duration(value)

    @field_validator("silent_reason", mode="before")
    @classmethod
    def _reason(cls, value: Any) -> Any:
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise ValueError("must be a non-empty string")
        return silence_reason(value)

    @model_validator(mode="after")
    def _silence_has_no_value(self) -> Self:
        if self.silent_reason is not None and self.value is not None:
            raise ValueError("a fact with a silent_reason carries no value (value must be null)")
        start, end = self.valid_from, self.valid_until
        if (start is None) != (end is None):
            raise ValueError("valid_from and valid_until come together (a period has both ends)")
        if start is not None and end is not None and not start < end:
            raise ValueError("valid_until must be later than valid_from")
        self._derive()
        return self

    def _derive(self) -> None:
        # Derived once, when the fact is built (in a validator pydantic calls
        # anyway): the gate reads it on every call. Stored where cached_property
        # keeps its value, without its __get__ (which takes a lock on Python
        # 3.11: ~3.5 us a fact, more than the gate then saves).
        observed, ttl = self.observed_at, self.ttl
        derived = self.__dict__
        derived["expires_at"] = None if observed is None or ttl is None else later_by(observed, ttl)
        # observed_at when the fact's own fields pass the gate's rules 1, 3 and 4 (no
        # silent_reason, a value, a source, an observed_at), else None: the gate then
        # takes its short way, three dict reads fewer (bench/gate.py).
        derived[GATE_OBSERVED] = (
            observed
            if self.silent_reason is None and self.value is not None and self.source
            else None
        )

    # -- serialisation --------------------------------------------------------

    @field_serializer("ttl")
    def _ttl_seconds(self, ttl: timedelta | None, info: SerializationInfo) -> FactValue | float:
        seconds = None if ttl is None else seconds_number(ttl)
        return _json_number(seconds) if info.mode_is_json() else seconds

    @field_serializer("valid_from", "valid_until")
    def _local_instant(self, instant: datetime | None) -> str | None:
        return None if instant is None else format_local_instant(instant)

    @field_serializer("value", when_used="json")
    def _value_json(self, value: FactValue) -> FactValue | float:
        return _json_number(value)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy (pydantic's), with the derived values computed afresh."""
        copy = super().model_copy(update=update, deep=deep)
        copy._derive()  # from the copy's own fields
        return copy

    @cached_property
    def expires_at(self) -> datetime | None:
        """The instant this fact stops being fresh by its own TTL (``observed_at``
        + ``ttl``); None when it has no observed_at or no TTL (then the policy's
        default TTL applies)."""
        if self.observed_at is None or self.ttl is None:
            return None
        return later_by(self.observed_at, self.ttl)

    @property
    def period(self) -> tuple[datetime, datetime] | None:
        """``(valid_from, valid_until)``: the time the value describes, or None
        when it describes the time it was observed (current conditions)."""
        start, end = self.valid_from, self.valid_until
        if start is None or end is None:
            return None
        return start, end

    @property
    def is_silent(self) -> bool:
        """True when this fact is a typed absence rather than a value."""
        return self.silent_reason is not None or self.value is None

    @classmethod
    def silence(
        cls,
        subject: str,
        attribute: str,
        reason: SilenceReason | str,
        *,
        source: str | None = None,
        observed_at: InstantLike | None = None,
        unit: str | None = None,
    ) -> Fact:
        """A typed absence: no value for ``subject``'s ``attribute``, and why."""
        return cls(
            subject=subject,
            attribute=attribute,
            silent_reason=reason,
            source=source,
            observed_at=observed_at,
            unit=unit,
        )

    def model_dump_json(self, **kwargs: Any) -> str:
        """The fact as JSON text, numbers as JSON numbers with the precision
        the source gave (``"value": 21.40``, never the string ``"21.40"``).

        Keyword arguments go to :meth:`model_dump` (``exclude``, ``include``,
        ...); ``indent`` is not supported (the text is one line).
        """
        return dumps(self.model_dump(mode="python", **kwargs))

    @classmethod
    def model_validate_json(cls, json_data: str | bytes | bytearray, **kwargs: Any) -> Self:
        """A fact from JSON text, decimals read exactly (``21.40`` stays a
        Decimal of that precision, never a binary float)."""
        text = json_data.decode("utf-8") if isinstance(json_data, bytes | bytearray) else json_data
        return cls.model_validate(loads(text), **kwargs)

    def to_json(self) -> dict[str, Any]:
        """The JSON contract's dict: every key present, instants as UTC ``Z``,
        ``ttl`` in seconds, values with their original precision;
        ``valid_from`` / ``valid_until`` only when the fact has a period (as
        ISO 8601 text with the place's offset), so a fact without one writes
        exactly what it wrote before periods existed.

        The values stay exact Python objects (``Decimal``, ``datetime``), which
        the standard library's ``json.dumps`` does not write; for text use
        :meth:`model_dump_json` or :func:`vouched.dump_facts`, which write
        them as JSON numbers and ``...Z`` strings that read back equal."""
        return {
            "subject": self.subject,
            "attribute": self.attribute,
            "value": self.value,
            "unit": self.unit,
            "source": self.source,
            "observed_at": self.observed_at,
            "confidence": self.confidence,
            "ttl": None if self.ttl is None else seconds_number(self.ttl),
            "citation": self.citation,
            "source_version": self.source_version,
            "silent_reason": None if self.silent_reason is None else str(self.silent_reason),
            **self._period_json(),
        }

    def _period_json(self) -> dict[str, str]:
        start, end = self.valid_from, self.valid_until
        if start is None or end is None:
            return {}
        return {
            "valid_from": format_local_instant(start),
            "valid_until": format_local_instant(end),
        }


def _json_number(value: FactValue) -> FactValue | float:
    """A Decimal as ``model_dump(mode="json")`` gives it: a JSON number, not
    pydantic's string. An integer as an int; otherwise a float when the float
    holds the same value (``21.40`` -> ``21.4``: the same amount); a number more
    precise than a float can hold stays its exact text, never rounded.
    :meth:`Fact.model_dump_json` writes every digit as given (``21.40``)."""
    if not isinstance(value, Decimal):
        return value
    exponent = value.as_tuple().exponent  # an int: facts hold finite numbers only
    if isinstance(exponent, int) and exponent >= 0:
        return int(value)
    number = float(value)
    return number if Decimal(repr(number)) == value else str(value)


def fact_key(fact: Fact) -> tuple[object, ...]:
    """A hashable value that tells two facts apart whenever anything could read them
    differently: each field with its type, a Decimal as written (``1``, ``1.0`` and
    ``True`` differ, and so do ``27.5`` and ``27.50``, which compare equal as facts)."""
    return tuple(
        (type(v), str(v))
        if isinstance(v, Decimal | float)
        # a period keeps its offset: the same instant in another offset is another local day
        else (type(v), v.isoformat())
        if isinstance(v, datetime)
        else (type(v), v)
        for v in fact.__dict__.values()
    )
