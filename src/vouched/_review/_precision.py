"""What reviewers said, counted: each rule's precision and the review queue.

:class:`VerdictBook` keeps the verdict that counts on each finding (the
latest, :func:`vouched._replay._verdicts.latest`) and adds them up per rule,
per finding kind, per day and per prompt version: findings reviewed,
confirmed (``right``), false alarms, and precision = confirmed / reviewed.
Missed mistakes are counted apart (they have no finding to be precise about).

The review queue (:meth:`vouched._review._index.ReviewIndex.queue`) is every
finding of every attempt the index holds that no verdict covers yet, oldest
first, or the most frequent waiting kind first.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from markupsafe import Markup

from vouched._exceptions import printable
from vouched._replay._verdicts import Mark, ReviewVerdict
from vouched._review._charts import Series, line_chart

__all__ = ["Counts", "VerdictBook", "Waiting", "finding_key", "precision_charts"]

_DAY_US = 86_400 * 1_000_000
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

Key = tuple[str, int, int, int, str]


def finding_key(snapshot_id: str, attempt: int, start: int, end: int, kind: str) -> Key:
    """The key a verdict on this finding has (:attr:`ReviewVerdict.key`)."""
    return (snapshot_id, attempt, start, end, kind)


@dataclass
class Counts:
    """Verdicts on one group of findings (a rule, a kind, a day, a version)."""

    right: int = 0
    false_alarm: int = 0
    missed: int = 0

    @property
    def reviewed(self) -> int:
        return self.right + self.false_alarm

    @property
    def precision(self) -> float | None:
        """Confirmed / reviewed (None before the first verdict)."""
        return self.right / self.reviewed if self.reviewed else None

    def add(self, mark: Mark, sign: int = 1) -> None:
        if mark is Mark.RIGHT:
            self.right += sign
        elif mark is Mark.FALSE_ALARM:
            self.false_alarm += sign
        else:
            self.missed += sign


class Waiting(NamedTuple):
    """One finding waiting for a verdict."""

    created_us: int
    snapshot_id: str
    attempt: int
    kind: str
    start: int
    end: int
    question: str


@dataclass
class _Groups:
    rules: dict[str, Counts] = field(default_factory=dict)
    kinds: dict[str, Counts] = field(default_factory=dict)
    days: dict[int, Counts] = field(default_factory=dict)
    versions: dict[str, Counts] = field(default_factory=dict)

    def add(self, verdict: ReviewVerdict, sign: int) -> None:
        mark = verdict.mark
        self.rules.setdefault(verdict.rule, Counts()).add(mark, sign)
        self.kinds.setdefault(verdict.kind or "(not named)", Counts()).add(mark, sign)
        day = _micros(verdict.created_at) // _DAY_US
        self.days.setdefault(day, Counts()).add(mark, sign)
        self.versions.setdefault(verdict.prompt_version, Counts()).add(mark, sign)


def _micros(instant: datetime) -> int:
    delta = instant - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


class VerdictBook:
    """The verdicts that count, added up (see the module docs). Thread-safe."""

    def __init__(self, verdicts: Iterable[ReviewVerdict] = ()) -> None:
        self._lock = threading.Lock()
        self._latest: dict[Key, ReviewVerdict] = {}
        self._groups = _Groups()
        self.given = 0  # verdicts read or added, changed minds included
        for verdict in verdicts:
            self.add(verdict)

    def add(self, verdict: ReviewVerdict) -> None:
        """Count ``verdict``; it replaces an earlier one on the same finding."""
        with self._lock:
            self.given += 1
            earlier = self._latest.pop(verdict.key, None)
            if earlier is not None:
                self._groups.add(earlier, -1)
            self._latest[verdict.key] = verdict
            self._groups.add(verdict, 1)

    def __len__(self) -> int:
        return len(self._latest)

    def covers(self, key: Key) -> bool:
        return key in self._latest

    def reviewed_per_kind(self) -> dict[str, int]:
        """Findings with a verdict (right or false alarm), per kind."""
        with self._lock:
            return {k: c.reviewed for k, c in self._groups.kinds.items()}

    def on(self, snapshot_id: str) -> dict[Key, ReviewVerdict]:
        """The verdicts that count on one snapshot's findings."""
        with self._lock:
            return {k: v for k, v in self._latest.items() if k[0] == snapshot_id}

    def verdicts(self) -> list[ReviewVerdict]:
        with self._lock:
            return list(self._latest.values())

    def by_rule(self) -> list[tuple[str, Counts]]:
        """Per rule, most reviewed first."""
        return self._sorted(self._groups.rules)

    def by_kind(self) -> list[tuple[str, Counts]]:
        return self._sorted(self._groups.kinds)

    def by_day(self) -> list[tuple[datetime, Counts]]:
        with self._lock:
            days = sorted(d for d, c in self._groups.days.items() if c.reviewed or c.missed)
            return [
                (datetime.fromtimestamp(d * 86_400, UTC), self._groups.days[d]) for d in days[-60:]
            ]

    def by_version(self, order: Sequence[str]) -> list[tuple[str, Counts]]:
        """Per prompt version, in ``order`` (first use), those with verdicts."""
        with self._lock:
            return [
                (v, self._groups.versions[v])
                for v in order
                if v in self._groups.versions
                and (self._groups.versions[v].reviewed or self._groups.versions[v].missed)
            ]

    def _sorted(self, table: dict[str, Counts]) -> list[tuple[str, Counts]]:
        with self._lock:
            rows = [(k, c) for k, c in table.items() if c.reviewed or c.missed]
        return sorted(rows, key=lambda item: (-item[1].reviewed, item[0]))


def precision_charts(book: VerdictBook, order: Sequence[str]) -> list[dict[str, Any]]:
    """The overview's precision charts (per day answered, per prompt version in
    ``order``), each with the rows of the table beside it."""
    out: list[dict[str, Any]] = []
    by_day = [(f"{d:%Y-%m-%d}", c) for d, c in book.by_day()]
    for chart_id, title, rows in (
        ("precision-by-day", "precision from verdicts, per day answered (UTC)", by_day),
        (
            "precision-by-version",
            "precision from verdicts, per prompt version",
            book.by_version(order),
        ),
    ):
        if not rows:
            continue
        labels = [printable(label) for label, _ in rows]
        series = [Series("precision", "s1", [c.precision for _, c in rows])]
        out.append(
            {
                "id": chart_id,
                "title": title,
                "svg": Markup(line_chart(chart_id, title, labels, series)),  # noqa: S704 - it escapes every label
                "rows": rows,
                "precision": True,
            }
        )
    return out
