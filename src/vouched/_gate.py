"""The grounding gate: a pure classification of each fact.

``classify(fact, policy, now)`` reads no clock and does no I/O. Rules, first
match wins (README "The gate's rules"):

1. silent_reason set, or value null  -> SILENT (the silent_reason, or ``no_value``)
2. attribute demoted by the policy   -> SILENT ``demoted``
3. confident and no source           -> VIOLATION ``confident_without_source`` (cardinal)
4. no source / no observed_at        -> VIOLATION ``missing_source`` / ``missing_observed_at``
5. observed beyond now + skew        -> VIOLATION ``observed_in_future``
6. older than its TTL                -> VIOLATION ``stale`` (exactly at the TTL is fresh;
                                        the TTL is capped by policy.max_ttl when set)
7. below min_confidence (if set)     -> VIOLATION ``low_confidence``
8. otherwise                         -> GROUNDED

``partition`` then judges facts with a period (``valid_from``/``valid_until``)
against each other, per (subject, attribute) and the same period exactly:

9. an older forecast of the same period  -> SILENT ``superseded`` (the one
   observed last speaks; a source re-issues forecasts)
10. the same period, observed at the same instant, another value
                                         -> VIOLATION ``conflicting_period`` (both)

Periods that overlap without being equal (a day's high and a 3-hour slot, a
1-hour and a 3-hour slot) stand side by side: each says what its own period
holds. Facts without a period are never compared (several facts for one pair
stay allowed, as before periods).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from operator import attrgetter
from typing import Any, NamedTuple

from vouched._exceptions import InputError
from vouched._fact import GATE_OBSERVED, Fact, fact_key
from vouched._policy import Policy
from vouched._time import later_by, parse_instant, to_utc

__all__ = [
    "ContentKey",
    "GateResult",
    "Verdict",
    "VerdictKind",
    "VerdictReason",
    "classify",
    "grounding_rate",
    "partition",
    "silence_for",
]


class VerdictKind(enum.StrEnum):
    """The gate's three outcomes."""

    GROUNDED = "grounded"
    SILENT = "silent"
    VIOLATION = "violation"


class VerdictReason(enum.StrEnum):
    """Stable machine codes for the gate's reasons (silences also carry the
    fact's own ``silent_reason``)."""

    GROUNDED = "grounded"
    NO_VALUE = "no_value"
    DEMOTED = "demoted"
    CONFIDENT_WITHOUT_SOURCE = "confident_without_source"
    MISSING_SOURCE = "missing_source"
    MISSING_OBSERVED_AT = "missing_observed_at"
    OBSERVED_IN_FUTURE = "observed_in_future"
    STALE = "stale"
    LOW_CONFIDENCE = "low_confidence"
    SUPERSEDED = "superseded"
    CONFLICTING_PERIOD = "conflicting_period"


# Enum members as module constants: on CPython 3.11 reading a member off its
# class costs ~250 ns (a constant ~15 ns); worth ~20% of bench/gate.py.
_GROUNDED = VerdictKind.GROUNDED
_SILENT = VerdictKind.SILENT
_VIOLATION = VerdictKind.VIOLATION
_R_GROUNDED = VerdictReason.GROUNDED
_R_NO_VALUE = VerdictReason.NO_VALUE
_R_DEMOTED = VerdictReason.DEMOTED
_R_CONFIDENT_WITHOUT_SOURCE = VerdictReason.CONFIDENT_WITHOUT_SOURCE
_R_MISSING_SOURCE = VerdictReason.MISSING_SOURCE
_R_MISSING_OBSERVED_AT = VerdictReason.MISSING_OBSERVED_AT
_R_OBSERVED_IN_FUTURE = VerdictReason.OBSERVED_IN_FUTURE
_R_STALE = VerdictReason.STALE
_R_LOW_CONFIDENCE = VerdictReason.LOW_CONFIDENCE
_R_SUPERSEDED = VerdictReason.SUPERSEDED
_R_CONFLICTING_PERIOD = VerdictReason.CONFLICTING_PERIOD


class Verdict(NamedTuple):
    """The gate's decision on one fact (an immutable value)."""

    kind: VerdictKind
    reason: str  # a VerdictReason, or the fact's own silent_reason for silences
    cardinal: bool
    fact: Fact

    def to_json(self) -> dict[str, Any]:
        return {
            "subject": self.fact.subject,
            "attribute": self.fact.attribute,
            "kind": str(self.kind),
            "reason": str(self.reason),
            "cardinal": self.cardinal,
        }


def classify(fact: Fact, policy: Policy, now: datetime) -> Verdict:
    """Classify one fact as grounded, silent or violation at the instant ``now``.

    ``now`` must be timezone-aware. Pure: the same arguments give the same verdict.
    """
    # Three speed tricks, each worth well over 3% of bench/gate.py: fields are read
    # from the model's __dict__ (a pydantic attribute read costs ~75 ns, a dict
    # lookup ~30 ns); a fact whose own fields pass rules 1, 3 and 4 says so when it
    # is built (GATE_OBSERVED holds its observed_at), so the usual fact skips three
    # reads; and verdicts are built with tuple.__new__ (the NamedTuple's own
    # __new__ is a Python-level call).
    data = fact.__dict__
    # absent from a fact built without validation (model_construct, replay's rows):
    # the long way, without the cost of raising KeyError for each
    observed = data.get(GATE_OBSERVED)
    if observed is None:
        verdict = _intrinsic(fact, data, policy)
        if verdict is not None:
            return verdict
        observed = data["observed_at"]
    elif policy.demoted and data["attribute"] in policy.demoted:  # rule 2
        return _new(Verdict, (_SILENT, _R_DEMOTED, False, fact))
    try:
        in_future = observed > now
    except TypeError:
        raise ValueError("now must be timezone-aware") from None
    if in_future and observed - now > policy.max_clock_skew:
        return _new(Verdict, (_VIOLATION, _R_OBSERVED_IN_FUTURE, False, fact))
    # observed_at + ttl, computed when the fact was built (absent: not computed yet)
    expires = data.get("expires_at")
    if expires is None or policy.max_ttl is not None:
        expires = later_by(observed, _ttl(fact, policy))
    if now > expires:
        return _new(Verdict, (_VIOLATION, _R_STALE, False, fact))
    minimum = policy.min_confidence
    if minimum is not None and (data["confidence"] is None or data["confidence"] < minimum):
        return _new(Verdict, (_VIOLATION, _R_LOW_CONFIDENCE, False, fact))
    return _new(Verdict, (_GROUNDED, _R_GROUNDED, False, fact))


def _intrinsic(fact: Fact, data: dict[str, Any], policy: Policy) -> Verdict | None:
    """Rules 1 to 4 in order, every field read; None when they all pass (the
    fact has a value, a source and an observed_at, and is not demoted)."""
    reason = data["silent_reason"]
    if reason is not None:
        return _new(Verdict, (_SILENT, reason, False, fact))
    if data["value"] is None:
        return _new(Verdict, (_SILENT, _R_NO_VALUE, False, fact))
    if policy.demoted and data["attribute"] in policy.demoted:
        return _new(Verdict, (_SILENT, _R_DEMOTED, False, fact))
    if not data["source"]:
        confidence = data["confidence"]
        if confidence is not None and confidence >= policy.cardinal_confidence:
            return _new(Verdict, (_VIOLATION, _R_CONFIDENT_WITHOUT_SOURCE, True, fact))
        return _new(Verdict, (_VIOLATION, _R_MISSING_SOURCE, False, fact))
    if data["observed_at"] is None:
        return _new(Verdict, (_VIOLATION, _R_MISSING_OBSERVED_AT, False, fact))
    return None


_new = tuple.__new__
_VALID_FROM = attrgetter("valid_from")  # a datetime (true) or None


def _ttl(fact: Fact, policy: Policy) -> timedelta:
    """How long ``fact`` stays fresh under ``policy``: its TTL or the default, capped."""
    ttl = policy.default_ttl if fact.ttl is None else fact.ttl
    return ttl if policy.max_ttl is None else min(ttl, policy.max_ttl)


def silence_for(verdict: Verdict) -> Fact:
    """The verdict's fact as a typed absence, its value dropped, the verdict's
    reason as its silent_reason (a fact that is already a silence is itself).

    A demoted, null-valued or violating fact is passed on this way: its value
    must never reach the model."""
    fact = verdict.fact
    if fact.value is None and fact.silent_reason is not None:
        return fact
    return Fact.silence(
        fact.subject,
        fact.attribute,
        verdict.reason,
        source=fact.source,
        observed_at=fact.observed_at,
        unit=fact.unit,
    )


class ContentKey:
    """A tuple of values with its hash computed once (a large key is hashed on every
    lookup otherwise)."""

    __slots__ = ("_hash", "parts")

    def __init__(self, parts: tuple[object, ...]) -> None:
        self.parts = parts
        self._hash = hash(parts)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ContentKey):
            return NotImplemented
        return self is other or (self._hash == other._hash and self.parts == other.parts)


@dataclass(frozen=True, slots=True)
class GateResult:
    """Every fact's verdict, in input order, and the three piles.

    ``grounded`` are the facts that may be phrased; ``silent`` are typed
    absences (a demoted fact appears here without its value); ``violations``
    never reach the model.
    """

    verdicts: tuple[Verdict, ...]
    grounded: tuple[Fact, ...] = field(init=False)
    silent: tuple[Fact, ...] = field(init=False)
    violations: tuple[Verdict, ...] = field(init=False)
    at: datetime | None = field(default=None, compare=False)
    """The instant the facts were judged at (``partition``'s ``now``)."""
    _key: ContentKey | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        grounded: list[Fact] = []
        silent: list[Fact] = []
        violations: list[Verdict] = []
        for verdict in self.verdicts:
            if verdict.kind is _GROUNDED:
                grounded.append(verdict.fact)
            elif verdict.kind is _SILENT:
                silent.append(silence_for(verdict))
            else:
                violations.append(verdict)
        object.__setattr__(self, "grounded", tuple(grounded))
        object.__setattr__(self, "silent", tuple(silent))
        object.__setattr__(self, "violations", tuple(violations))

    @property
    def counts(self) -> dict[str, int]:
        """Verdicts by kind (every kind present, zero included)."""
        return {
            "grounded": len(self.grounded),
            "silent": len(self.silent),
            "violation": len(self.violations),
        }

    def content_key(self) -> ContentKey:
        """The verdicts as a value (each fact by :func:`fact_key`), hashed once: what a
        cache of work that depends only on this result is keyed by."""
        key = self._key
        if key is None:
            key = ContentKey(tuple((v.kind, v.reason, fact_key(v.fact)) for v in self.verdicts))
            object.__setattr__(self, "_key", key)
        return key

    @property
    def reasons(self) -> Counter[str]:
        """Verdicts by reason code."""
        return Counter(str(v.reason) for v in self.verdicts)

    @property
    def grounding_rate(self) -> float:
        return grounding_rate(self.counts)

    def to_json(self) -> dict[str, Any]:
        """The ``vouched gate --json`` document."""
        return {
            "verdicts": [
                {"index": i, **verdict.to_json()} for i, verdict in enumerate(self.verdicts)
            ],
            "counts": self.counts,
            "grounding_rate": self.grounding_rate,
        }


def partition(facts: Iterable[Fact], policy: Policy, now: datetime | str) -> GateResult:
    """Classify every fact at ``now`` and sort them into the three piles.

    ``now`` is a timezone-aware datetime or, as ``scan(now=...)`` takes it, ISO 8601
    text with an offset (``"2026-12-06T07:30:00Z"``); other text is an
    :class:`~vouched.InputError` naming ``now``."""
    if isinstance(now, str):
        try:
            now = parse_instant(now)
        except ValueError as error:
            raise InputError(str(error), field="now") from None
    now = to_utc(now)
    facts = facts if isinstance(facts, list | tuple) else list(facts)
    verdicts = [classify(fact, policy, now) for fact in facts]
    # Whether any fact has a period, asked in C (map and attrgetter): a generator
    # over the verdicts cost a tenth of the gate's time (bench/gate.py).
    if any(map(_VALID_FROM, facts)):
        _judge_periods(verdicts)
    return GateResult(tuple(verdicts), at=now)


def _judge_periods(verdicts: list[Verdict]) -> None:
    """Rules 9 and 10, in place: grounded facts of one (subject, attribute) and
    one period, the last observed speaks; two observed at once that disagree
    are both violations."""
    groups: dict[tuple[object, ...], list[int]] = {}
    for i, verdict in enumerate(verdicts):
        fact = verdict.fact
        period = fact.period
        if verdict.kind is _GROUNDED and period is not None:
            groups.setdefault((fact.subject, fact.attribute, *period), []).append(i)
    for members in groups.values():
        if len(members) < 2:
            continue
        latest = max(_observed(verdicts[i].fact) for i in members)
        current = [i for i in members if _observed(verdicts[i].fact) == latest]
        for i in members:
            if i not in current:
                verdicts[i] = _new(Verdict, (_SILENT, _R_SUPERSEDED, False, verdicts[i].fact))
        if len({_value_key(verdicts[i].fact) for i in current}) > 1:
            for i in current:
                verdicts[i] = _new(
                    Verdict, (_VIOLATION, _R_CONFLICTING_PERIOD, False, verdicts[i].fact)
                )


def _observed(fact: Fact) -> datetime:
    observed = fact.observed_at
    assert observed is not None  # noqa: S101 - a grounded fact has been observed
    return observed


def _value_key(fact: Fact) -> tuple[object, ...]:
    return (type(fact.value).__name__, fact.value, fact.unit)


def grounding_rate(verdicts: GateResult | Iterable[Verdict] | Mapping[str, int]) -> float:
    """(grounded + silent) / total; 1.0 when there is nothing to judge.

    Accepts a :class:`GateResult`, verdicts, or counts by kind.
    """
    if isinstance(verdicts, GateResult):
        counts: Mapping[str, int] = verdicts.counts
    elif isinstance(verdicts, Mapping):
        counts = verdicts
    else:
        tally: Counter[str] = Counter(str(v.kind) for v in verdicts)
        counts = tally
    ok = counts.get("grounded", 0) + counts.get("silent", 0)
    total = ok + counts.get("violation", 0)
    return 1.0 if total == 0 else ok / total
