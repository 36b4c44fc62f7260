"""Replay and grade: re-judge a stored population under today's rules.

``replay(store, policy)`` streams every snapshot (memory stays flat whatever
the population size: only tallies and a capped list of ids are kept), re-runs
the gate with today's ``policy`` on the facts *as received*, at the instant
they were judged then, and re-runs today's output rules (by default the
scanner with ``lexicon``) on every attempt of the model the snapshot
stored, not on the text finally shown (a refusal has no numbers to find). It
compares then with now:

- grounding rate overall, per prompt version and per source;
- verdicts by kind and reason, findings by kind;
- the snapshots whose outcome flipped (passed then and fails now, and the
  reverse), with their ids; a snapshot *passes* when none of its facts is a
  violation and the model's *first* attempt has no finding (a retry that
  passed, a partial answer or a refusal do not make it pass);
- per prompt version: first attempts passed, every attempt passed, answers
  refused and partial;
- the violation share per attribute: the claim classes that stopped
  correlating with reality, candidates for demotion to silence.

A snapshot that already had a violation then cannot flip to fail; what a
new rule does to it still shows in the findings and verdict counts.
``workers=N`` grades ranges of the store's order in N processes, and
``engine="ray"`` on a Ray cluster (:mod:`vouched._replay._workers`); both give
the same report.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any

from vouched._exceptions import ConfigError
from vouched._gate import grounding_rate
from vouched._policy import Policy
from vouched._replay._snapshot import policy_version
from vouched._replay._store import SnapshotStore
from vouched._replay._tally import (
    OutputRule,
    Tally,
    grade_window,
    rule_name,
    scanner_rule,
)
from vouched._replay._workers import ENGINES, tally_in_workers
from vouched._scan._facts._lexicon import Lexicon

__all__ = [
    "AttributeGrade",
    "Flips",
    "GradeReport",
    "OutputRule",
    "SourceGrade",
    "VersionGrade",
    "replay",
    "scanner_rule",
]

_KINDS = ("grounded", "silent", "violation")


def _zero() -> dict[str, int]:
    return dict.fromkeys(_KINDS, 0)


def _frozen(counter: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(sorted(counter.items())))


def _rate(part: int, whole: int) -> float | None:
    return None if whole == 0 else part / whole


# -- the report's parts -------------------------------------------------------------


class _RatesThenNow:
    """Grounding rates from verdict counts then and now (shared by the grades)."""

    __slots__ = ()
    verdicts_then: Mapping[str, int]
    verdicts_now: Mapping[str, int]

    @property
    def grounding_rate_then(self) -> float:
        return grounding_rate(self.verdicts_then)

    @property
    def grounding_rate_now(self) -> float:
        return grounding_rate(self.verdicts_now)


@dataclass(frozen=True, slots=True)
class VersionGrade(_RatesThenNow):
    """One prompt version, then and now."""

    prompt_version: str
    snapshots: int
    first_seen: datetime
    last_seen: datetime
    verdicts_then: Mapping[str, int]
    verdicts_now: Mapping[str, int]
    passed_then: int
    passed_now: int
    findings_then: int
    findings_now: int
    attempts: int = 0
    attempts_passed_then: int = 0
    attempts_passed_now: int = 0
    refused: int = 0
    partial: int = 0

    @property
    def pass_rate_then(self) -> float | None:
        return _rate(self.passed_then, self.snapshots)

    @property
    def pass_rate_now(self) -> float | None:
        return _rate(self.passed_now, self.snapshots)

    def to_json(self) -> dict[str, Any]:
        return {
            "prompt_version": self.prompt_version,
            "snapshots": self.snapshots,
            "first_seen": self.first_seen,
            "last_seen": self.last_seen,
            "grounding_rate": {"then": self.grounding_rate_then, "now": self.grounding_rate_now},
            "pass_rate": {"then": self.pass_rate_then, "now": self.pass_rate_now},
            "first_attempts_passed": {"then": self.passed_then, "now": self.passed_now},
            "attempts": {
                "count": self.attempts,
                "passed": {"then": self.attempts_passed_then, "now": self.attempts_passed_now},
            },
            "refused": self.refused,
            "partial": self.partial,
            "verdicts": {"then": dict(self.verdicts_then), "now": dict(self.verdicts_now)},
            "findings": {"then": self.findings_then, "now": self.findings_now},
        }


@dataclass(frozen=True, slots=True)
class SourceGrade(_RatesThenNow):
    """The facts of one source, then and now (``(none)``: facts without a source)."""

    source: str
    verdicts_then: Mapping[str, int]
    verdicts_now: Mapping[str, int]

    @property
    def facts(self) -> int:
        return sum(self.verdicts_now.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "facts": self.facts,
            "grounding_rate": {"then": self.grounding_rate_then, "now": self.grounding_rate_now},
            "verdicts": {"then": dict(self.verdicts_then), "now": dict(self.verdicts_now)},
        }


@dataclass(frozen=True, slots=True)
class AttributeGrade:
    """One attribute (a claim class): how often its facts are violations, and
    how often the output misstated it."""

    attribute: str
    facts: int
    violations_then: int
    violations_now: int
    findings_then: int
    findings_now: int

    @property
    def violation_share_then(self) -> float:
        return self.violations_then / self.facts if self.facts else 0.0

    @property
    def violation_share_now(self) -> float:
        return self.violations_now / self.facts if self.facts else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "attribute": self.attribute,
            "facts": self.facts,
            "violations": {"then": self.violations_then, "now": self.violations_now},
            "violation_share": {
                "then": self.violation_share_then,
                "now": self.violation_share_now,
            },
            "findings": {"then": self.findings_then, "now": self.findings_now},
        }


@dataclass(frozen=True, slots=True)
class Flips:
    """Snapshots whose outcome changed one way: how many, and the first ids."""

    count: int
    ids: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "ids": list(self.ids), "truncated": self.count > len(self.ids)}


@dataclass(frozen=True, slots=True)
class GradeReport(_RatesThenNow):
    """A stored population graded then (as recorded) and now (today's rules)."""

    policy_version: str
    rules: tuple[str, ...]
    since: datetime | None
    until: datetime | None
    snapshots: int
    first_created_at: datetime | None
    last_created_at: datetime | None
    verdicts_then: Mapping[str, int]
    verdicts_now: Mapping[str, int]
    reasons_then: Mapping[str, int]
    reasons_now: Mapping[str, int]
    findings_then: Mapping[str, int]
    findings_now: Mapping[str, int]
    statuses: Mapping[str, int]
    passed_then: int
    passed_now: int
    to_fail: Flips
    to_pass: Flips
    prompt_versions: tuple[VersionGrade, ...]
    sources: tuple[SourceGrade, ...]
    attributes: tuple[AttributeGrade, ...]
    demotion_candidates: tuple[str, ...]
    attempts: int = 0
    attempts_passed_then: int = 0
    attempts_passed_now: int = 0
    attempts_carried: int = 0

    @property
    def regressed(self) -> bool:
        """True when some snapshot that passed then fails under today's rules."""
        return self.to_fail.count > 0

    def to_json(self) -> dict[str, Any]:
        """The documented ``vouched replay --json`` document (see the CLI module)."""
        return {
            "schema": "vouched.replay/2",
            "policy_version": self.policy_version,
            "rules": list(self.rules),
            "window": {"since": self.since, "until": self.until},
            "snapshots": self.snapshots,
            "first_created_at": self.first_created_at,
            "last_created_at": self.last_created_at,
            "grounding_rate": {"then": self.grounding_rate_then, "now": self.grounding_rate_now},
            "passed": {"then": self.passed_then, "now": self.passed_now},
            "attempts": {
                "count": self.attempts,
                "passed": {"then": self.attempts_passed_then, "now": self.attempts_passed_now},
                "carried": self.attempts_carried,
            },
            "verdicts": {"then": dict(self.verdicts_then), "now": dict(self.verdicts_now)},
            "reasons": {"then": dict(self.reasons_then), "now": dict(self.reasons_now)},
            "findings": {"then": dict(self.findings_then), "now": dict(self.findings_now)},
            "statuses": dict(self.statuses),
            "flipped": {"to_fail": self.to_fail.to_json(), "to_pass": self.to_pass.to_json()},
            "prompt_versions": [v.to_json() for v in self.prompt_versions],
            "sources": [s.to_json() for s in self.sources],
            "attributes": [a.to_json() for a in self.attributes],
            "demotion_candidates": list(self.demotion_candidates),
        }


def replay(
    store: SnapshotStore,
    policy: Policy,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    lexicon: Lexicon | None = None,
    rules: Sequence[OutputRule] | None = None,
    max_ids: int = 100,
    demotion_threshold: float = 0.2,
    min_facts: int = 10,
    workers: int = 1,
    engine: str = "local",
    ray_address: str | None = None,
) -> GradeReport:
    """Re-grade the snapshots with ``since <= created_at < until`` under ``policy``.

    ``rules`` are the output checks to re-run (default: the scanner with
    ``lexicon`` and ``policy``; ``()`` re-runs the gate only). At most
    ``max_ids`` ids are listed per flip direction (all are counted). An
    attribute is a demotion candidate when at least ``min_facts`` of its
    facts were judged and at least ``demotion_threshold`` of them are
    violations under today's policy.

    ``engine``: ``"local"`` (default) grades in this process, or with
    ``workers > 1`` in that many processes, each reading a range of the store's
    order (the scanner is the costly part; custom ``rules`` must then be
    picklable, module-level functions). ``"ray"`` (the ``vouched[ray]`` extra)
    grades the ranges as Ray tasks on the cluster at ``ray_address`` (a Ray
    already initialised in this process, else a local Ray started for the
    replay); ``workers`` then sets how many workers' worth of ranges are cut
    (default: the cluster's CPUs). Workers need a SQLite or PostgreSQL store;
    other stores are read in this process by the local engine.
    """
    if engine not in ENGINES:
        raise ConfigError("replay engine", " or ".join(map(repr, ENGINES)), got=engine)
    if ray_address is not None and engine != "ray":
        raise ConfigError("replay ray_address", "given only with engine='ray'", got=ray_address)
    if engine == "ray" or (workers > 1 and hasattr(store, "split")):
        tally = tally_in_workers(
            store,
            policy,
            since=since,
            until=until,
            lexicon=lexicon,
            rules=rules,
            max_ids=max_ids,
            workers=workers,
            engine=engine,
            ray_address=ray_address,
        )
        named = rules if rules is not None else (scanner_rule(lexicon, policy=policy),)
        return _report(
            tally,
            policy,
            rules=named,
            since=since,
            until=until,
            demotion_threshold=demotion_threshold,
            min_facts=min_facts,
        )
    if rules is None:
        rules = (scanner_rule(lexicon, policy=policy),)
    tally = grade_window(store, policy, since=since, until=until, rules=rules, max_ids=max_ids)
    return _report(
        tally,
        policy,
        rules=rules,
        since=since,
        until=until,
        demotion_threshold=demotion_threshold,
        min_facts=min_facts,
    )


def _report(
    tally: Tally,
    policy: Policy,
    *,
    rules: Sequence[OutputRule],
    since: datetime | None,
    until: datetime | None,
    demotion_threshold: float,
    min_facts: int,
) -> GradeReport:
    verdicts_then, verdicts_now = _zero(), _zero()
    reasons_then: Counter[str] = Counter()
    reasons_now: Counter[str] = Counter()
    by_version: dict[str, tuple[dict[str, int], dict[str, int]]] = {}
    by_source: dict[str, tuple[dict[str, int], dict[str, int]]] = {}
    by_attribute: dict[str, list[int]] = {}  # facts, violations then, now, findings then, now
    for key, n in tally.facts.items():
        version, source, attribute, kind_then, reason_then, kind_now, reason_now = key
        verdicts_then[kind_then] = verdicts_then.get(kind_then, 0) + n
        verdicts_now[kind_now] += n
        reasons_then[reason_then] += n
        reasons_now[reason_now] += n
        for group, name in ((by_version, version), (by_source, source)):
            then, now = group.setdefault(name, (_zero(), _zero()))
            then[kind_then] = then.get(kind_then, 0) + n
            now[kind_now] += n
        row = by_attribute.setdefault(attribute, [0, 0, 0, 0, 0])
        row[0] += n
        row[1] += n if kind_then == "violation" else 0
        row[2] += n if kind_now == "violation" else 0
    findings_then: Counter[str] = Counter()
    findings_now: Counter[str] = Counter()
    version_findings: dict[str, list[int]] = {}
    for (f_version, f_kind, f_attribute, when), n in tally.findings.items():
        (findings_then if when == "then" else findings_now)[f_kind] += n
        counts = version_findings.setdefault(f_version, [0, 0])
        counts[0 if when == "then" else 1] += n
        if f_attribute is not None:
            row = by_attribute.setdefault(f_attribute, [0, 0, 0, 0, 0])
            row[3 if when == "then" else 4] += n
    statuses: Counter[str] = Counter()
    version_outcomes: dict[str, list[int]] = {}  # snapshots, passed then, passed now
    for (o_version, status, was_passed, is_passed), n in tally.outcomes.items():
        statuses[status] += n
        outcome = version_outcomes.setdefault(o_version, [0, 0, 0])
        outcome[0] += n
        outcome[1] += n if was_passed else 0
        outcome[2] += n if is_passed else 0
    version_attempts: dict[str, list[int]] = {}  # attempts, passed then, passed now
    for (a_version, a_then, a_now), n in tally.attempts.items():
        row = version_attempts.setdefault(a_version, [0, 0, 0])
        row[0] += n
        row[1] += n if a_then else 0
        row[2] += n if a_now else 0
    version_statuses: Counter[tuple[str, str]] = Counter()
    for (o_version, status, _, _), n in tally.outcomes.items():
        version_statuses[(o_version, status)] += n
    versions = []
    for version, (first, last) in sorted(
        tally.seen.items(), key=lambda item: (item[1][0], item[0])
    ):
        then, now = by_version.get(version, (_zero(), _zero()))
        snapshots, passed_then, passed_now = version_outcomes[version]
        found = version_findings.get(version, [0, 0])
        tried = version_attempts.get(version, [0, 0, 0])
        versions.append(
            VersionGrade(
                prompt_version=version,
                snapshots=snapshots,
                first_seen=first,
                last_seen=last,
                verdicts_then=_frozen(then),
                verdicts_now=_frozen(now),
                passed_then=passed_then,
                passed_now=passed_now,
                findings_then=found[0],
                findings_now=found[1],
                attempts=tried[0],
                attempts_passed_then=tried[1],
                attempts_passed_now=tried[2],
                refused=version_statuses[(version, "refused")],
                partial=version_statuses[(version, "partial")],
            )
        )
    attributes = sorted(
        (AttributeGrade(name, *row) for name, row in by_attribute.items()),
        key=lambda a: (-a.violation_share_now, -a.findings_now, a.attribute),
    )
    candidates = tuple(
        a.attribute
        for a in attributes
        if a.facts >= min_facts
        and a.violation_share_now >= demotion_threshold
        and a.attribute not in policy.demoted
    )
    outcomes = version_outcomes.values()
    return GradeReport(
        policy_version=policy_version(policy),
        rules=tuple(rule_name(rule) for rule in rules),
        since=since,
        until=until,
        snapshots=sum(o[0] for o in outcomes),
        first_created_at=tally.first,
        last_created_at=tally.last,
        verdicts_then=_frozen(verdicts_then),
        verdicts_now=_frozen(verdicts_now),
        reasons_then=_frozen(reasons_then),
        reasons_now=_frozen(reasons_now),
        findings_then=_frozen(findings_then),
        findings_now=_frozen(findings_now),
        statuses=_frozen(statuses),
        passed_then=sum(o[1] for o in outcomes),
        passed_now=sum(o[2] for o in outcomes),
        to_fail=Flips(tally.to_fail_count, tuple(tally.to_fail)),
        to_pass=Flips(tally.to_pass_count, tuple(tally.to_pass)),
        prompt_versions=tuple(versions),
        sources=tuple(
            SourceGrade(name, _frozen(then), _frozen(now))
            for name, (then, now) in sorted(by_source.items())
        ),
        attributes=tuple(attributes),
        demotion_candidates=candidates,
        attempts=sum(row[0] for row in version_attempts.values()),
        attempts_passed_then=sum(row[1] for row in version_attempts.values()),
        attempts_passed_now=sum(row[2] for row in version_attempts.values()),
        attempts_carried=tally.carried,
    )
