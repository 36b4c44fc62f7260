"""What the scanner reports: finding kinds (stable codes), findings and the report."""

from __future__ import annotations

import enum
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, TypeVar

from vouched._time import format_local_instant

__all__ = [
    "Finding",
    "FindingKind",
    "Placed",
    "ScanReport",
    "Tally",
    "finding_key",
    "in_order",
    "once_per_span",
    "report_of",
    "score_of",
    "shifted",
]


class FindingKind(enum.StrEnum):
    """Stable codes for what the scanner found."""

    UNGROUNDED_NUMBER = "ungrounded_number"
    VALUE_MISMATCH = "value_mismatch"
    UNIT_MISMATCH = "unit_mismatch"
    SILENT_SPOKEN = "silent_spoken"
    INCONSISTENCY = "inconsistency"
    PLACEHOLDER = "placeholder"
    INTERNAL_VOCABULARY = "internal_vocabulary"
    TEMPLATE_FALLBACK = "template_fallback"
    UNSUPPORTED_QUOTE = "unsupported_quote"
    SUBJECT_MISMATCH = "subject_mismatch"
    ATTRIBUTE_MISMATCH = "attribute_mismatch"
    RELATION_MISMATCH = "relation_mismatch"
    UNGROUNDED_CLAIM = "ungrounded_claim"


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in the text: ``text == scanned[start:end]``."""

    kind: FindingKind
    start: int
    end: int
    text: str
    detail: str
    subject: str | None = None
    attribute: str | None = None
    period: tuple[datetime, datetime] | None = None
    """The period of the fact a time-bound value was checked against (its
    ``valid_from`` / ``valid_until``); None for a fact without one."""
    fact_value: Any = None
    """That fact's value (set with ``period``)."""

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` finding; ``period`` (``{"from", "until"}``, ISO 8601 in the
        place's offset) and ``fact_value`` only when the value was checked against a
        fact with a period."""
        out = {
            "kind": str(self.kind),
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "detail": self.detail,
            "subject": self.subject,
            "attribute": self.attribute,
        }
        if self.period is not None:
            start, end = (format_local_instant(t) for t in self.period)
            out["period"] = {"from": start, "until": end}
            out["fact_value"] = self.fact_value
        return out


@dataclass(frozen=True, slots=True)
class ScanReport:
    """The scanner's verdict on one text.

    ``passed`` is True when there are no findings. ``score`` in [0, 1] is the
    share of checked claims (quantities checked, plus one per text finding)
    without a finding: 1.0 for a clean text.
    """

    passed: bool
    score: float
    findings: tuple[Finding, ...]

    @property
    def kinds(self) -> dict[str, int]:
        """Findings counted by kind."""
        counts: dict[str, int] = {}
        for finding in self.findings:
            counts[str(finding.kind)] = counts.get(str(finding.kind), 0) + 1
        return counts

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "score": self.score,
            "findings": [finding.to_json() for finding in self.findings],
        }


class Tally(NamedTuple):
    """What a :class:`ScanReport` says besides its findings: a text's findings handed on
    as they are read (``vouched scan --json``) need only this kept. ``findings``: how
    many there were."""

    passed: bool
    score: float
    findings: int


def score_of(spans: int, claims: int) -> float:
    """The report's score: the share of ``claims`` checked claims that no finding stands
    on, ``spans`` the distinct spans the findings stand on (1.0 when there are none)."""
    if not spans:
        return 1.0
    return max(0.0, (claims - spans) / claims) if claims else 0.0


class Placed:
    """Findings of a whole batch of sentences, looked up per sentence by bisection:
    a scan of all of them per sentence was quadratic over a text of many text findings
    (10,000 placeholders: 21 s)."""

    __slots__ = ("_findings", "_order", "_starts")

    def __init__(self, findings: Sequence[Finding]) -> None:
        self._findings = findings
        self._order = sorted(range(len(findings)), key=lambda i: findings[i].start)
        self._starts = [findings[i].start for i in self._order]

    def within(self, low: int, high: int) -> list[Finding]:
        """The findings with ``low <= start`` and ``end <= high``, in their given order."""
        if not self._order:
            return []
        found = self._order[bisect_left(self._starts, low) : bisect_right(self._starts, high)]
        return [self._findings[i] for i in sorted(found) if self._findings[i].end <= high]


def shifted(finding: Finding, offset: int) -> Finding:
    """``finding`` with its span moved by ``offset`` (a sentence's findings into its text)."""
    if not offset:
        return finding
    f = finding  # built directly: dataclasses.replace costs 3x (one per finding)
    return Finding(
        f.kind,
        f.start + offset,
        f.end + offset,
        f.text,
        f.detail,
        f.subject,
        f.attribute,
        f.period,
        f.fact_value,
    )


def in_order(findings: Iterable[Finding]) -> list[Finding]:
    """Findings in the one order a report gives them: by span, then kind."""
    return sorted(findings, key=lambda f: (f.start, f.end, str(f.kind)))


def report_of(findings: Iterable[Finding], claims: int) -> ScanReport:
    """The report of ``findings`` among ``claims`` checked claims (ordered by span)."""
    ordered = in_order(findings)
    score = score_of(len({(f.start, f.end) for f in ordered}), claims)
    return ScanReport(passed=not ordered, score=score, findings=tuple(ordered))


_T = TypeVar("_T")


def finding_key(finding: Finding) -> tuple[str, int, int]:
    """A finding's ``(kind, start, end)``: what "once per span" counts by."""
    return (str(finding.kind), finding.start, finding.end)


def once_per_span(
    findings: Iterable[_T],
    span: Callable[[_T], tuple[Any, Any, Any]],
    *,
    yielding: Iterable[_T] = (),
) -> list[_T]:
    """The one overlap policy: which finding wins a span (the scanner, replay and
    answers all use it). Findings come in the registry's order; the first of each
    ``(kind, start, end)`` wins it (a span reported twice under one kind is one
    mistake); ``yielding`` findings (a family that yields: the word rules to the
    rules of stated numbers and of the text) are kept only where their span overlaps
    no winner's. ``span`` reads the ``(kind, start, end)`` key (:func:`finding_key`;
    stored JSON findings have their own reader)."""
    seen: set[tuple[Any, Any, Any]] = set()
    out: list[_T] = []
    for finding in findings:
        key = span(finding)
        if key not in seen:
            seen.add(key)
            out.append(finding)
    late = list(yielding)
    if not late:
        return out
    taken = [span(f) for f in out]
    for finding in late:
        key = span(finding)
        _, start, end = key
        if key not in seen and not any(s < end and start < e for _, s, e in taken):
            seen.add(key)
            out.append(finding)
    return out
