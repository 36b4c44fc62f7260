"""One answer as the page shows it: what the model said (each attempt, its findings
on their words), then the facts with their verdicts and periods, what the client
was sent, the on-fail path taken.

A forecast answer holds hundreds of facts: the page lists those the findings name
(their subject and attribute, and their period when a finding names one), the
rest behind a link (``?facts=all``); an answer whose findings name none lists
its first :data:`FACTS_SHOWN`.

Only what the store holds is shown: redacted values stay the tokens they
were stored as.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from vouched._replay._snapshot import Snapshot
from vouched._review._spans import Placed, Segment, place, segments
from vouched._time import format_local_instant, period_words

__all__ = [
    "FACTS_SHOWN",
    "AnswerView",
    "AttemptView",
    "FactView",
    "age_text",
    "answer_view",
    "attempt_view",
    "plural",
]

FACTS_SHOWN = 100
"""Facts listed at first when no finding names any (the rest behind a link)."""


@dataclass(frozen=True)
class FactView:
    subject: str
    attribute: str
    value: str
    unit: str
    kind: str
    reason: str
    cardinal: bool
    source: str
    observed_at: datetime | None
    age: str
    ttl: str  # "" when the fact gives none (the policy's default applies)
    citation: str
    period: str = ""  # "Mon 2026-12-07", "Mon 2026-12-07 12:00 to ..."; "" without one
    named: bool = False  # a finding of the answer names it


@dataclass(frozen=True)
class AttemptView:
    number: int
    action: str
    prompt_version: str
    text: str | None  # None: a format 1 snapshot did not keep it
    findings: tuple[Placed, ...]
    segments: tuple[Segment, ...]
    anchor: str  # the element id prefix of its findings: "a1"


@dataclass(frozen=True)
class AnswerView:
    snapshot: Snapshot
    facts: tuple[FactView, ...]
    attempts: tuple[AttemptView, ...]
    path: tuple[str, ...]  # the actions taken, in order
    findings: int
    violations: int = 0  # facts the gate refused (not the model's doing)

    @property
    def first_attempt(self) -> str:
        """What the model's first attempt read as: its findings only (a fact the
        gate refused is a violation, shown apart, not a failure of the model)."""
        if not self.attempts:
            return "no attempt"
        first = self.attempts[0]
        if first.text is None and not first.findings:
            return "first attempt: text not kept"
        count = len(first.findings)
        return (
            "first attempt: no finding"
            if not count
            else f"first attempt: {plural(count, 'finding')}"
        )

    def shown_facts(self, everything: bool) -> tuple[FactView, ...]:
        """The facts the page lists: all of them when asked, else those a finding
        names, else the first :data:`FACTS_SHOWN`."""
        if everything:
            return self.facts
        named = tuple(f for f in self.facts if f.named)
        return named or self.facts[:FACTS_SHOWN]


def plural(count: int, noun: str) -> str:
    """``1 finding``, ``2 findings``, ``0 findings`` (English nouns of this page)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def age_text(delta: timedelta) -> str:
    """``3 min``, ``2 h 5 min``, ``4 d 1 h``; ``-1 min`` for a future instant."""
    seconds = int(delta.total_seconds())
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{sign}{days} d {hours} h"
    if hours:
        return f"{sign}{hours} h {minutes} min"
    if minutes:
        return f"{sign}{minutes} min"
    return f"{sign}{secs} s"


def _value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def attempt_view(
    number: int,
    text: str | None,
    findings: Sequence[Any],
    action: str,
    prompt_version: str,
    *,
    anchor: str | None = None,
) -> AttemptView:
    placed = tuple(place(text or "", findings))
    return AttemptView(
        number=number,
        action=action,
        prompt_version=prompt_version,
        text=text,
        findings=placed,
        segments=tuple(segments(text, placed)) if text is not None else (),
        anchor=anchor or f"a{number}",
    )


def _named(findings: Sequence[Any]) -> set[tuple[Any, ...]]:
    """(subject, attribute, period or None) of every finding that names a fact."""
    keys: set[tuple[Any, ...]] = set()
    for finding in findings:
        subject, attribute = finding.get("subject"), finding.get("attribute")
        if subject is None or attribute is None:
            continue
        period = finding.get("period")
        when = (period.get("from"), period.get("until")) if isinstance(period, Mapping) else None
        keys.add((subject, attribute, when))
    return keys


def _is_named(fact: Any, keys: set[tuple[Any, ...]]) -> bool:
    if (fact.subject, fact.attribute, None) in keys:
        return True
    period = fact.period
    if period is None:
        return False
    when = (format_local_instant(period[0]), format_local_instant(period[1]))
    return (fact.subject, fact.attribute, when) in keys


def answer_view(snapshot: Snapshot) -> AnswerView:
    every = [f for a in snapshot.trail for f in a.findings] or list(snapshot.findings)
    keys = _named(every)
    facts = tuple(
        FactView(
            subject=fact.subject,
            attribute=fact.attribute,
            value=_value(fact.value),
            unit=fact.unit or "",
            kind=verdict.kind,
            reason=verdict.reason,
            cardinal=verdict.cardinal,
            source=fact.source or "",
            observed_at=fact.observed_at,
            age="" if fact.observed_at is None else age_text(snapshot.judged_at - fact.observed_at),
            ttl="" if fact.ttl is None else age_text(fact.ttl),
            citation=fact.citation or "",
            period="" if fact.period is None else period_words(*fact.period),
            named=_is_named(fact, keys),
        )
        for fact, verdict in zip(snapshot.facts, snapshot.verdicts, strict=True)
    )
    trail = snapshot.trail
    attempts = tuple(
        attempt_view(n, a.text, a.findings, a.action, a.prompt_version)
        for n, a in enumerate(trail, start=1)
    )
    if not attempts:  # no trail: the output was the only attempt
        attempts = (
            attempt_view(1, snapshot.output, snapshot.findings, "accept", snapshot.prompt_version),
        )
    return AnswerView(
        snapshot=snapshot,
        facts=facts,
        attempts=attempts,
        path=tuple(a.action for a in attempts),
        findings=sum(len(a.findings) for a in attempts),
        violations=sum(1 for v in snapshot.verdicts if v.kind == "violation"),
    )
