"""The grading tables of a replay report, as data: one home for what
``vouched replay`` prints and the review page's replay shows.

Each :class:`ReportTable` has a title, its columns and rows of cells; a cell
is text or a :class:`Change` (a rate then and now, and which way is better),
which the terminal colours with rich and the page with CSS classes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vouched._replay._grade import GradeReport

__all__ = ["Cell", "Change", "Flagged", "ReportTable", "percent", "report_tables"]


def percent(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


@dataclass(frozen=True)
class Change:
    """A rate then and now; ``direction`` is -1 worse, 0 about the same, 1 better."""

    then: float | None
    now: float | None
    higher_is_better: bool = True

    @property
    def direction(self) -> int:
        if self.then is None or self.now is None:
            return 0
        delta = (self.now - self.then) * (100 if self.higher_is_better else -100)
        return -1 if delta < -0.05 else 1 if delta > 0.05 else 0

    def __str__(self) -> str:
        return f"{percent(self.then)} -> {percent(self.now)}"


@dataclass(frozen=True)
class Flagged:
    """A name with a note beside it (an attribute that is a demotion candidate)."""

    text: str
    note: str

    def __str__(self) -> str:
        return f"{self.text} {self.note}"


Cell = str | Change | Flagged


@dataclass(frozen=True)
class ReportTable:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    right: frozenset[str] = frozenset()  # columns aligned right (numbers)


def report_tables(report: GradeReport, *, attributes: int = 15) -> list[ReportTable]:
    """The tables ``vouched replay`` prints for ``report``, in its order."""
    versions: list[tuple[Cell, ...]] = [
        (
            v.prompt_version,
            str(v.snapshots),
            f"{v.first_seen:%Y-%m-%d %H:%M}",
            Change(v.grounding_rate_then, v.grounding_rate_now),
            Change(v.pass_rate_then, v.pass_rate_now),
            f"{v.attempts_passed_then} -> {v.attempts_passed_now} of {v.attempts}",
            str(v.refused),
            str(v.partial),
            f"{v.findings_then} -> {v.findings_now}",
        )
        for v in report.prompt_versions
    ]
    sources: list[tuple[Cell, ...]] = [
        (s.source, str(s.facts), Change(s.grounding_rate_then, s.grounding_rate_now))
        for s in report.sources
    ]
    attribute_rows: list[tuple[Cell, ...]] = [
        (
            Flagged(a.attribute, "(demote?)")
            if a.attribute in report.demotion_candidates
            else a.attribute,
            str(a.facts),
            Change(a.violation_share_then, a.violation_share_now, higher_is_better=False),
            f"{a.violations_then} -> {a.violations_now}",
            f"{a.findings_then} -> {a.findings_now}",
        )
        for a in report.attributes[:attributes]
    ]
    reasons: list[tuple[Cell, ...]] = [
        (
            "verdict",
            name,
            str(report.reasons_then.get(name, 0)),
            str(report.reasons_now.get(name, 0)),
        )
        for name in sorted(set(report.reasons_then) | set(report.reasons_now))
    ]
    reasons.extend(
        (
            "finding",
            name,
            str(report.findings_then.get(name, 0)),
            str(report.findings_now.get(name, 0)),
        )
        for name in sorted(set(report.findings_then) | set(report.findings_now))
    )
    version_columns = (
        "prompt version",
        "snapshots",
        "first seen",
        "grounding",
        "first attempt passed",
        "attempts passed",
        "refused",
        "partial",
        "findings",
    )
    return [
        _table(
            "per prompt version (then -> now)",
            version_columns,
            versions,
            right=set(version_columns[1:]),
        ),
        _table("per source", ("source", "facts", "grounding then -> now"), sources),
        _table(
            "per attribute (then -> now)",
            ("attribute", "facts", "violation share", "violations", "findings"),
            attribute_rows,
        ),
        _table("by reason", ("what", "reason", "then", "now"), reasons),
    ]


def _table(
    title: str,
    columns: tuple[str, ...],
    rows: Sequence[tuple[Cell, ...]],
    *,
    right: set[str] | None = None,
) -> ReportTable:
    return ReportTable(title, columns, tuple(rows), frozenset(right or ()))
