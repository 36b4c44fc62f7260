"""Reviewers' verdicts as a regression suite (``vouched replay --verdicts``).

Each verdict that counts (the latest on its finding) is graded against
today's rules: the attempt it is about is scanned again (each snapshot with
its own lexicon unless the caller names one) and compared with what the
reviewer said:

- a confirmed catch (``right``) holds while some finding today covers its
  words; none is a **regression** (the mistake now passes);
- a confirmed false alarm holds while no finding today covers its words; one
  is a **regression** (the false alarm fires again);
- a missed mistake is **now caught** when a finding today covers its words
  (listed, never a regression: it was missed then too).

Findings today on a reviewed attempt that no verdict covers are listed apart
as **unreviewed**: they may be right or wrong, nobody has said.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from vouched._gate import GateResult, classify
from vouched._policy import Policy
from vouched._replay._snapshot import Snapshot
from vouched._replay._tally import OutputRule
from vouched._replay._verdicts import Mark, ReviewVerdict, latest

__all__ = ["Regression", "Unreviewed", "VerdictReport", "replay_verdicts"]


class _Getter(Protocol):
    def get(self, snapshot_id: str) -> Snapshot | None: ...


@dataclass(frozen=True)
class Regression:
    """A verdict today's rules contradict; ``now``: what they do instead."""

    verdict: ReviewVerdict
    now: str  # "passes" (a confirmed catch) | "fires" (a confirmed false alarm)
    findings: tuple[Mapping[str, Any], ...] = ()  # today's findings on its words

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.to_json(),
            "now": self.now,
            "findings": [dict(f) for f in self.findings],
        }


@dataclass(frozen=True)
class Unreviewed:
    """A finding today on a reviewed attempt that no verdict covers."""

    snapshot_id: str
    attempt: int
    finding: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"snapshot_id": self.snapshot_id, "attempt": self.attempt, **self.finding}


@dataclass
class VerdictReport:
    verdicts: int = 0  # verdicts that count, graded
    held: int = 0
    regressions: list[Regression] = field(default_factory=list)
    now_caught: list[ReviewVerdict] = field(default_factory=list)
    still_missed: int = 0
    unreviewed: list[Unreviewed] = field(default_factory=list)
    not_graded: int = 0  # verdicts whose snapshot or attempt text the store lacks

    @property
    def regressed(self) -> bool:
        return bool(self.regressions)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": "vouched.replay-verdicts/1",
            "verdicts": self.verdicts,
            "held": self.held,
            "regressions": [r.to_json() for r in self.regressions],
            "now_caught": [v.to_json() for v in self.now_caught],
            "still_missed": self.still_missed,
            "unreviewed": [u.to_json() for u in self.unreviewed],
            "not_graded": self.not_graded,
        }


def _overlaps(finding: Mapping[str, Any], start: int, end: int) -> bool:
    low, high = finding.get("start"), finding.get("end")
    return isinstance(low, int) and isinstance(high, int) and low < end and start < high


def replay_verdicts(
    store: _Getter,
    verdicts: Iterable[ReviewVerdict],
    policy: Policy,
    rule: OutputRule,
) -> VerdictReport:
    """Grade the verdicts that count against ``rule`` under ``policy`` (see the module docs).

    Snapshots are read one at a time (``store.get``), in id order: memory
    holds the verdicts and one snapshot, whatever the store's size."""
    grouped: dict[str, dict[int, list[ReviewVerdict]]] = defaultdict(lambda: defaultdict(list))
    for verdict in latest(verdicts):
        grouped[verdict.snapshot_id][verdict.attempt].append(verdict)
    report = VerdictReport()
    for snapshot_id in sorted(grouped):
        attempts = grouped.pop(snapshot_id)
        count = sum(len(v) for v in attempts.values())
        report.verdicts += count
        snapshot = store.get(snapshot_id)
        if snapshot is None:
            report.not_graded += count
            continue
        at = snapshot.judged_at
        gate = GateResult(tuple(classify(f, policy, at) for f in snapshot.facts), at=at)
        texts = [a.text for a in snapshot.trail] if snapshot.trail else [snapshot.output]
        for number, given in sorted(attempts.items()):
            text = texts[number - 1] if 1 <= number <= len(texts) else None
            if text is None:
                report.not_graded += len(given)
                continue
            now = list(rule(snapshot.with_output(text), gate))
            _grade_attempt(report, snapshot_id, number, given, now)
    return report


def _grade_attempt(
    report: VerdictReport,
    snapshot_id: str,
    attempt: int,
    given: list[ReviewVerdict],
    now: list[Mapping[str, Any]],
) -> None:
    for verdict in given:
        covering = tuple(f for f in now if _overlaps(f, verdict.start, verdict.end))
        if verdict.mark is Mark.RIGHT:
            if covering:
                report.held += 1
            else:
                report.regressions.append(Regression(verdict, "passes"))
        elif verdict.mark is Mark.FALSE_ALARM:
            if covering:
                report.regressions.append(Regression(verdict, "fires", covering))
            else:
                report.held += 1
        elif covering:
            report.now_caught.append(verdict)
        else:
            report.still_missed += 1
    for finding in now:
        start, end = finding.get("start"), finding.get("end")
        if not isinstance(start, int) or not isinstance(end, int):
            continue
        if not any(v.start < end and start < v.end for v in given):
            report.unreviewed.append(Unreviewed(snapshot_id, attempt, finding))
