"""The tally of one replay: the counters a population of snapshots adds up to.

Output rules run on every attempt of the model a snapshot stored (its
``trail``), not on the text that was finally shown: a refused fabrication is
graded by the fabrication. Findings count once per ``(kind, start, end)``
per attempt. An attempt whose text a format 1 snapshot did not keep cannot be
re-scanned: its findings then are carried over as its findings now (counted
in ``carried``). A phraser error has no text and never passes.

:class:`Tally` keeps one increment per fact and finding (small tuple keys) and
merges with the tally of a later time window, so a replay can be graded in
one process (:func:`grade_window`) or in several (:mod:`vouched._replay._workers`)
and give the same report (:mod:`vouched._replay._grade`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from vouched._gate import GateResult, classify
from vouched._jsonio import loads
from vouched._policy import DEFAULT_POLICY, Policy
from vouched._replay._attempts import (
    AttemptAction,
    RecordedAttempt,
    finding_span,
    first_answered,
    once_per_span,
)
from vouched._replay._snapshot import Snapshot
from vouched._replay._store import SnapshotStore
from vouched._scan._facts._lexicon import Lexicon
from vouched._scan._scanner import scan

__all__ = [
    "NO_SOURCE",
    "OutputRule",
    "OwnLexiconRule",
    "Tally",
    "grade_window",
    "rule_name",
    "scanner_rule",
]

OutputRule = Callable[[Snapshot, GateResult], Iterable[Mapping[str, Any]]]
"""A check on a stored output: given the snapshot and today's gate result, the
findings as JSON dicts (at least ``"kind"``; ``"attribute"`` when known).
It is called once per attempt of the model, with ``snapshot.output`` set to
that attempt's text (:meth:`Snapshot.with_output`).
Its ``__name__`` (or ``name``) labels it in reports."""

NO_SOURCE = "(none)"
"""The source label of facts that name none."""


# -- output rules -------------------------------------------------------------------


def scanner_rule(lexicon: Lexicon | None = None, *, policy: Policy = DEFAULT_POLICY) -> OutputRule:
    """The scanner as an output rule: the stored output scanned against today's
    gate result, with ``lexicon`` and today's ``policy`` (exact attributes).
    Numbers in the snapshot's question may be repeated, as when it was answered."""

    def scan_rule(snapshot: Snapshot, gate: GateResult) -> list[dict[str, Any]]:
        report = scan(snapshot.output, gate, lexicon, question=snapshot.question, policy=policy)
        return [finding.to_json() for finding in report.findings]

    scan_rule.__name__ = "scan"
    return scan_rule


class OwnLexiconRule:
    """The scanner as a replay output rule, each snapshot with its own lexicon.

    ``lexicons``: hash -> the lexicon's canonical JSON, as a store keeps it
    (:func:`vouched._replay._lexicons.stored_lexicons`); each is parsed once,
    in the process that grades. A snapshot whose lexicon the table lacks (its
    store lost it) is scanned without one and its hash added to ``missing``.
    Plain data, so it crosses to worker processes."""

    name = "scan"
    __name__ = "scan"

    def __init__(self, lexicons: Mapping[str, str], *, policy: Policy = DEFAULT_POLICY) -> None:
        self.contents = dict(lexicons)
        self.policy = policy
        self.missing: set[str] = set()
        self._built: dict[str, Lexicon] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"contents": self.contents, "policy": self.policy, "missing": set()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _built={})

    def lexicon_of(self, snapshot: Snapshot) -> Lexicon | None:
        ref = snapshot.lexicon
        if ref is None:
            return None
        built = self._built.get(ref.hash)
        if built is None:
            content = self.contents.get(ref.hash)
            if content is None:
                self.missing.add(ref.hash)
                return None
            built = self._built[ref.hash] = Lexicon.from_json(loads(content))
        return built

    def __call__(self, snapshot: Snapshot, gate: GateResult) -> list[dict[str, Any]]:
        report = scan(
            snapshot.output,
            gate,
            self.lexicon_of(snapshot),
            question=snapshot.question,
            policy=self.policy,
        )
        return [finding.to_json() for finding in report.findings]


def _attempts_of(snapshot: Snapshot) -> tuple[RecordedAttempt, ...]:
    if snapshot.trail:
        return snapshot.trail
    # A snapshot made without a trail: its output is the model's only attempt.
    return (
        RecordedAttempt(
            snapshot.output, snapshot.prompt_version, snapshot.findings, AttemptAction.ACCEPT
        ),
    )


def rule_name(rule: OutputRule) -> str:
    name = getattr(rule, "name", None) or getattr(rule, "__name__", None)
    return str(name) if name else type(rule).__name__


class Tally:
    """Counters keyed by small tuples: one increment per fact, derived at the end."""

    def __init__(self, max_ids: int) -> None:
        self.max_ids = max_ids
        # (prompt_version, source, attribute, kind_then, reason_then, kind_now, reason_now)
        self.facts: Counter[tuple[str, str, str, str, str, str, str]] = Counter()
        # (prompt_version, kind, attribute, "then" | "now")
        self.findings: Counter[tuple[str, str, str | None, str]] = Counter()
        # (prompt_version, status, passed_then, passed_now): the first attempt
        self.outcomes: Counter[tuple[str, str, bool, bool]] = Counter()
        # (prompt_version, passed_then, passed_now): every attempt
        self.attempts: Counter[tuple[str, bool, bool]] = Counter()
        self.carried = 0  # attempts without a text (format 1): not re-scanned
        self.seen: dict[str, list[datetime]] = {}
        self.to_fail: list[str] = []
        self.to_pass: list[str] = []
        self.to_fail_count = 0
        self.to_pass_count = 0
        self.first: datetime | None = None
        self.last: datetime | None = None

    def merge(self, later: Tally) -> None:
        """Add the tally of a later window (ids keep time order, still capped)."""
        self.facts.update(later.facts)
        self.findings.update(later.findings)
        self.outcomes.update(later.outcomes)
        self.attempts.update(later.attempts)
        self.carried += later.carried
        for version, (first, last) in later.seen.items():
            seen = self.seen.setdefault(version, [first, last])
            seen[0], seen[1] = min(seen[0], first), max(seen[1], last)
        self.to_fail.extend(later.to_fail[: self.max_ids - len(self.to_fail)])
        self.to_pass.extend(later.to_pass[: self.max_ids - len(self.to_pass)])
        self.to_fail_count += later.to_fail_count
        self.to_pass_count += later.to_pass_count
        for instant in (later.first, later.last):
            if instant is not None:
                self.first = instant if self.first is None else min(self.first, instant)
                self.last = instant if self.last is None else max(self.last, instant)

    def add(self, snapshot: Snapshot, policy: Policy, rules: Sequence[OutputRule]) -> None:
        version = snapshot.prompt_version
        at = snapshot.judged_at
        then = snapshot.verdicts
        facts = snapshot.facts
        now = tuple(classify(fact, policy, at) for fact in facts)
        counter = self.facts
        violations_now = False
        for fact, old, new in zip(facts, then, now, strict=True):
            kind_now = new.kind.value
            if kind_now == "violation":
                violations_now = True
            counter[
                (
                    version,
                    fact.source or NO_SOURCE,
                    fact.attribute,
                    old.kind,
                    old.reason,
                    kind_now,
                    str(new.reason),
                )
            ] += 1
        gate = GateResult(now, at=at) if rules else None
        first_now = self._grade_attempts(snapshot, gate, rules)
        passed_then = snapshot.passed
        passed_now = not violations_now and first_now
        self.outcomes[(version, snapshot.status, passed_then, passed_now)] += 1
        if passed_then and not passed_now:
            self.to_fail_count += 1
            if len(self.to_fail) < self.max_ids:
                self.to_fail.append(snapshot.id)
        elif passed_now and not passed_then:
            self.to_pass_count += 1
            if len(self.to_pass) < self.max_ids:
                self.to_pass.append(snapshot.id)
        created = snapshot.created_at
        seen = self.seen.get(version)
        if seen is None:
            self.seen[version] = [created, created]
        elif created < seen[0]:
            seen[0] = created
        elif created > seen[1]:
            seen[1] = created
        if self.first is None or created < self.first:
            self.first = created
        if self.last is None or created > self.last:
            self.last = created

    def _grade_attempts(
        self, snapshot: Snapshot, gate: GateResult | None, rules: Sequence[OutputRule]
    ) -> bool:
        """Count the findings of every attempt then and now; True when the
        first attempt passes today's rules."""
        version = snapshot.prompt_version
        findings = self.findings
        first_now = True
        attempts = _attempts_of(snapshot)
        first = first_answered(attempts)  # a fallback's failed call is not the model's
        for index, attempt in enumerate(attempts):
            found_then = once_per_span(attempt.findings, finding_span)
            for finding in found_then:
                findings[(version, str(finding.get("kind")), finding.get("attribute"), "then")] += 1
            found_now: list[Mapping[str, Any]] = []
            if attempt.text is None:  # not kept (format 1): carried over, not re-scanned
                found_now = found_then
                self.carried += 1
            elif gate is not None and attempt.action != AttemptAction.ERROR:
                view = snapshot.with_output(attempt.text)
                found_now = once_per_span(
                    (f for rule in rules for f in rule(view, gate)), finding_span
                )
            for finding in found_now:
                findings[(version, str(finding.get("kind")), finding.get("attribute"), "now")] += 1
            if attempt.text is None:
                attempt_now = attempt.passed
            else:
                attempt_now = attempt.action != AttemptAction.ERROR and not found_now
            self.attempts[(version, attempt.passed, attempt_now)] += 1
            if index == first:
                first_now = attempt_now
        return first_now


def grade_window(
    store: SnapshotStore,
    policy: Policy,
    *,
    since: datetime | None,
    until: datetime | None,
    rules: Sequence[OutputRule],
    max_ids: int,
) -> Tally:
    """The tallies of one window of snapshots, streamed."""
    tally = Tally(max_ids)
    for snapshot in store.iter(since=since, until=until):
        tally.add(snapshot, policy, rules)
    return tally
