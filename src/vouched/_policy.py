"""Policy: the gate's (and later the scanner's) configuration, as one frozen value."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from vouched._exceptions import ConfigError
from vouched._time import DurationLike, parse_duration

__all__ = ["DEFAULT_POLICY", "Policy"]

# Every default lives here, named once.
CARDINAL_CONFIDENCE = 0.7
DEFAULT_TTL = timedelta(hours=24)
MAX_CLOCK_SKEW = timedelta(seconds=60)
OTHER_OCCASIONS = "flag"

_DURATION = "seconds >= 0 or an ISO 8601 duration"


def _names(setting: str, values: Iterable[str] | str) -> frozenset[str]:
    accepted = "a collection of attribute or subject names"
    if isinstance(values, str):
        raise ConfigError(setting, accepted, got=values)
    if isinstance(values, Mapping):  # iterating it would keep its keys, silently
        raise ConfigError(setting, accepted + " (a list, not an object)", got=values)
    try:
        names = frozenset(values)
    except TypeError:  # not iterable, or unhashable items
        raise ConfigError(setting, accepted, got=values) from None
    if not all(isinstance(name, str) for name in names):
        raise ConfigError(setting, accepted, got=values)
    return names


def _duration(setting: str, value: object) -> timedelta:
    if isinstance(value, timedelta):
        if value < timedelta(0):
            raise ConfigError(setting, _DURATION, got=value)
        return value
    try:
        return parse_duration(value)
    except (TypeError, ValueError):
        raise ConfigError(setting, _DURATION, got=value) from None


def _share(setting: str, value: object) -> float:
    """A number in [0, 1], kept as given (an int stays an int: policy versions
    hash the policy's JSON); a Decimal, as JSON numbers are read, as a float."""
    if isinstance(value, Decimal):
        value = float(value)
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or math.isnan(value)
        or not 0.0 <= value <= 1.0
    ):
        raise ConfigError(setting, "a number between 0 and 1", got=value)
    return value


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
    - ``other_occasions``: what the scanner does with words about occasions the facts do
      not cover (a later game after a box score, a season's average, a streak):
      ``"flag"`` (the default: ``ungrounded_claim``, an unvouched schedule is an
      invention) or ``"leave"`` (not checked: other data covers them).
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
    other_occasions: str = OTHER_OCCASIONS

    if TYPE_CHECKING:
        # What the constructor accepts, as type checkers should read it: durations
        # as seconds or ISO 8601 text, names as any collection of strings
        # (__post_init__ normalizes them to the field types above). Run time
        # never sees this (the dataclass writes __init__); tests/core/test_typed_init.py
        # keeps it to the fields and their defaults.
        def __init__(
            self,
            *,
            cardinal_confidence: float | Decimal = CARDINAL_CONFIDENCE,
            default_ttl: DurationLike = DEFAULT_TTL,
            max_ttl: DurationLike | None = None,
            max_clock_skew: DurationLike = MAX_CLOCK_SKEW,
            min_confidence: float | Decimal | None = None,
            demoted: Iterable[str] = frozenset(),
            exact: Iterable[str] = frozenset(),
            sensitive_attributes: Iterable[str] = frozenset(),
            sensitive_subjects: Iterable[str] = frozenset(),
            other_occasions: str = OTHER_OCCASIONS,
        ) -> None: ...

    def __post_init__(self) -> None:
        _set = object.__setattr__  # frozen: normalize the settings once, here
        _set(
            self,
            "cardinal_confidence",
            _share("Policy.cardinal_confidence", self.cardinal_confidence),
        )
        if self.min_confidence is not None:
            _set(self, "min_confidence", _share("Policy.min_confidence", self.min_confidence))
        _set(self, "default_ttl", _duration("Policy.default_ttl", self.default_ttl))
        _set(self, "max_clock_skew", _duration("Policy.max_clock_skew", self.max_clock_skew))
        if self.max_ttl is not None:
            _set(self, "max_ttl", _duration("Policy.max_ttl", self.max_ttl))
        for name in ("demoted", "exact", "sensitive_attributes", "sensitive_subjects"):
            _set(self, name, _names(f"Policy.{name}", getattr(self, name)))
        if self.other_occasions not in {"flag", "leave"}:
            raise ConfigError(
                "Policy.other_occasions", '"flag" or "leave"', got=self.other_occasions
            )

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
            "other_occasions": self.other_occasions,
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
            raise ConfigError(
                f"Policy setting {', '.join(unknown)}", f"one of {', '.join(cls.settings())}"
            )
        return cls(**data)


DEFAULT_POLICY = Policy()
