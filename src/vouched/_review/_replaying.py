"""The replay page: a sample of answers graded under another rule version.

The rule versions offered are the ones the operator named when starting the
pages (policy and lexicon files, by name; the defaults, each answer's own
lexicon, the one it was checked with, and no lexicon always; each answer's
own lexicon is the default):
a browser never names a file. The sample is the newest answers matching the
list's filters. :func:`vouched._replay._grade.replay` grades it, so the page's
tables are the ones ``vouched replay`` prints
(:func:`vouched._replay._tables.report_tables`); each answer whose verdict
flipped is shown before (its first attempt with the findings then) and after
(the same text under today's gate and scanner, :func:`scanner_rule`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from vouched._gate import GateResult, classify
from vouched._policy import Policy
from vouched._replay._attempts import first_answered
from vouched._replay._grade import GradeReport, replay
from vouched._replay._lexicons import stored_lexicons
from vouched._replay._snapshot import Snapshot
from vouched._replay._tables import ReportTable, report_tables
from vouched._replay._tally import OutputRule, OwnLexiconRule, scanner_rule
from vouched._review._answer import AttemptView, attempt_view
from vouched._review._index import ReadableStore
from vouched._scan._facts._lexicon import Lexicon

__all__ = [
    "DEFAULTS",
    "NO_LEXICON",
    "OWN_LEXICON",
    "Flip",
    "ReplayChoices",
    "ReplayView",
    "replay_view",
]

DEFAULTS = "defaults"
"""The name of the default policy among the replay page's choices."""
NO_LEXICON = "none"
"""The name of "no lexicon" among the replay page's choices."""
OWN_LEXICON = "recorded"
"""The name of "each answer's own lexicon" (the default) among the replay page's choices."""
_SHOWN_FLIPS = 20


@dataclass(frozen=True)
class ReplayChoices:
    """The rule versions the page may run, by name."""

    policies: Mapping[str, Policy]
    lexicons: Mapping[str, Lexicon | str | None]  # OWN_LEXICON maps to itself

    @classmethod
    def of(
        cls,
        policies: Mapping[str, Policy] | None,
        lexicons: Mapping[str, Lexicon | None] | None,
    ) -> ReplayChoices:
        return cls(
            {DEFAULTS: Policy(), **(policies or {})},
            {OWN_LEXICON: OWN_LEXICON, NO_LEXICON: None, **(lexicons or {})},
        )

    def policy(self, name: str) -> Policy:
        if name and name not in self.policies:
            raise KeyError(f"policy: no rule version named {name!r}")
        return self.policies[name or DEFAULTS]

    def lexicon(self, name: str) -> Lexicon | str | None:
        """The lexicon named, or :data:`OWN_LEXICON` (the default)."""
        if name and name not in self.lexicons:
            raise KeyError(f"lexicon: no rule version named {name!r}")
        return self.lexicons[name or OWN_LEXICON]


class _Sample:
    """A few snapshots as a store ``replay`` reads (oldest first)."""

    def __init__(self, snapshots: Sequence[Snapshot]) -> None:
        self._snapshots = sorted(snapshots, key=lambda s: (s.created_at, s.id))

    def write(self, snapshot: Snapshot) -> None:  # pragma: no cover - never written
        raise TypeError("a replay sample is read-only")

    def iter(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> Iterator[Snapshot]:
        return iter(self._snapshots)


@dataclass(frozen=True)
class Flip:
    snapshot: Snapshot
    direction: str  # "to_fail" | "to_pass"
    before: AttemptView
    after: AttemptView
    verdicts: tuple[tuple[str, str, str], ...]  # fact, then, now (changed only)


@dataclass(frozen=True)
class ReplayView:
    report: GradeReport
    tables: tuple[ReportTable, ...]
    flips: tuple[Flip, ...]
    sample: int


def _verdict(kind: str, reason: str) -> str:
    return str(kind) if str(reason) == str(kind) else f"{kind} ({reason})"


def _flip(
    number: int, snapshot: Snapshot, direction: str, policy: Policy, rule: OutputRule
) -> Flip:
    at = snapshot.judged_at
    now = tuple(classify(fact, policy, at) for fact in snapshot.facts)
    gate = GateResult(now, at=at)
    first = snapshot.trail[first_answered(snapshot.trail)] if snapshot.trail else None
    text = snapshot.output if first is None else first.text
    then_findings = snapshot.findings if first is None else first.findings
    now_findings = (
        list(rule(snapshot.with_output(text), gate)) if text is not None else list(then_findings)
    )
    version = snapshot.prompt_version
    verdicts = tuple(
        (
            f"{fact.subject} {fact.attribute}",
            _verdict(old.kind, old.reason),
            _verdict(new.kind, new.reason),
        )
        for fact, old, new in zip(snapshot.facts, snapshot.verdicts, now, strict=True)
        if (old.kind, old.reason) != (new.kind.value, str(new.reason))
    )
    return Flip(
        snapshot=snapshot,
        direction=direction,
        before=attempt_view(
            1,
            text,
            then_findings,
            first.action if first else "accept",
            version,
            anchor=f"r{number}b",
        ),
        after=attempt_view(1, text, now_findings, "", version, anchor=f"r{number}n"),
        verdicts=verdicts,
    )


def replay_view(
    store: ReadableStore, ids: Sequence[str], policy: Policy, lexicon: Lexicon | str | None
) -> ReplayView:
    """The sample ``ids`` graded under ``policy`` and ``lexicon``
    (:data:`OWN_LEXICON`: each answer's own)."""
    snapshots = [s for s in (store.get(i) for i in ids) if s is not None]
    rule: OutputRule = (
        OwnLexiconRule(stored_lexicons(store), policy=policy)
        if isinstance(lexicon, str)
        else scanner_rule(lexicon, policy=policy)
    )
    report = replay(_Sample(snapshots), policy, rules=(rule,), max_ids=_SHOWN_FLIPS)
    by_id = {s.id: s for s in snapshots}
    flipped = [
        (direction, snapshot_id)
        for direction, flips in (("to_fail", report.to_fail), ("to_pass", report.to_pass))
        for snapshot_id in flips.ids
    ]
    flips = tuple(
        _flip(number, by_id[snapshot_id], direction, policy, rule)
        for number, (direction, snapshot_id) in enumerate(flipped, start=1)
    )
    return ReplayView(report, tuple(report_tables(report)), flips, len(snapshots))
