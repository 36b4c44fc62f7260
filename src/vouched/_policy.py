"""Policy: the gate's (and later the scanner's) configuration, as one frozen value."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import timedelta
from decimal import Decimal
from typing import Any

from vouched._time import parse_duration

__all__ = ["DEFAULT_POLICY", "Policy"]

# Every default lives here, named once.
CARDINAL_CONFIDENCE = 0.7
DEFAULT_TTL = timedelta(hours=24)
MAX_CLOCK_SKEW = timedelta(seconds=60)


def _names(values: Iterable[str] | str) -> frozenset[str]:
    if isinstance(values, str):
        raise TypeError("give a collection of names, not one string")
    if isinstance(values, Mapping):  # iterating it would keep its keys, silently
        raise TypeError("give a list of names, not an object")
    names = frozenset(values)
    if not all(isinstance(name, str) for name in names):
        raise TypeError("give a list of names (strings)")
    return names


@dataclass(frozen=True, slots=True, kw_only=True)
class Policy:
    """What the gate enforces.

    - ``cardinal_confidence``: a fact at least this confident with no source is a
      cardinal violation.
    - ``default_ttl``: freshness for facts that declare no TTL (deliberately short
      for unknown sources: 24 h).
    - ``max_ttl``: if set, a cap on every fact's TTL, declared or default (a
      stricter policy can shorten what producers declare, e.g. when replaying).
    - ``max_clock_skew``: how far in the future an observation may lie before it
      is a violation.
    - ``min_confidence``: if set, less confident facts are violations.
    - ``demoted``: attributes always spoken as silence ("when a claim class stops
      correlating with reality, demote it to silence; don't tune the threshold").
    - ``exact``: attributes whose numbers must match as written, never rounded
      (identifiers, ports, codes; prices where a team wants that).
    - ``sensitive_attributes`` / ``sensitive_subjects``: stored hashed in snapshots.
    """

    cardinal_confidence: float = CARDINAL_CONFIDENCE
    default_ttl: timedelta = DEFAULT_TTL
    max_ttl: timedelta | None = None
    max_clock_skew: timedelta = MAX_CLOCK_SKEW
    min_confidence: float | None = None
    demoted: frozenset[str] = field(default_factory=frozenset)
    exact: frozenset[str] = field(default_factory=frozenset)
    sensitive_attributes: frozenset[str] = field(default_factory=frozenset)
    sensitive_subjects: frozenset[str] = field(default_factory=frozenset)
    # Derived: the smallest age (now - observed_at) that is not "in the future".
    earliest_age: timedelta = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("cardinal_confidence", "min_confidence"):
            value = getattr(self, name)
            if value is None and name == "min_confidence":
                continue
            if isinstance(value, Decimal):  # as JSON numbers are read
                value = float(value)
                object.__setattr__(self, name, value)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"Policy.{name} must be a number between 0 and 1")
            if math.isnan(value) or not 0.0 <= value <= 1.0:
                raise ValueError(f"Policy.{name} must be between 0 and 1, got {value}")
        for name in ("default_ttl", "max_ttl", "max_clock_skew"):
            value = getattr(self, name)
            if value is None and name == "max_ttl":
                continue
            if not isinstance(value, timedelta):
                object.__setattr__(self, name, parse_duration(value))
            elif value < timedelta(0):
                raise ValueError(f"Policy.{name} must not be negative")
        for name in ("demoted", "exact", "sensitive_attributes", "sensitive_subjects"):
            object.__setattr__(self, name, _names(getattr(self, name)))
        object.__setattr__(self, "earliest_age", -self.max_clock_skew)

    def with_changes(self, **changes: Any) -> Policy:
        """A copy with some settings changed (policies are values)."""
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The policy as plain data (for snapshots and reports)."""
        return {
            "cardinal_confidence": self.cardinal_confidence,
            "default_ttl": self.default_ttl,
            "max_ttl": self.max_ttl,
            "max_clock_skew": self.max_clock_skew,
            "min_confidence": self.min_confidence,
            "demoted": sorted(self.demoted),
            "exact": sorted(self.exact),
            "sensitive_attributes": sorted(self.sensitive_attributes),
            "sensitive_subjects": sorted(self.sensitive_subjects),
        }

    @classmethod
    def settings(cls) -> tuple[str, ...]:
        """The names a policy can be built from (``from_json`` keys), sorted."""
        return tuple(sorted(name for name, f in cls.__dataclass_fields__.items() if f.init))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Policy:
        """Build a policy from plain data (durations as seconds or ISO 8601)."""
        unknown = sorted(set(data) - set(cls.settings()))
        if unknown:
            raise ValueError(f"unknown policy setting(s): {', '.join(unknown)}")
        return cls(**data)


DEFAULT_POLICY = Policy()
