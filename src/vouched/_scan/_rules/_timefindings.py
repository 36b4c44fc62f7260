"""How findings read when time binds: a period no fact covers, a range stated wrong.

Pure functions over a sentence's findings (spans into the sentence).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from vouched._scan._findings import Finding, FindingKind
from vouched._scan._read._times import Period, SentenceTime

__all__ = ["joined_ranges", "uncovered"]

_RANGE_GAP = re.compile(r"^\s*(?:to|and|-|\u2013|\u2014|through)\s*$")
_CLAUSE_BREAK = re.compile(r"[;()]|:(?=\s)|\s(?:while|but|whereas|then)\s|,\s(?!with\b)")
_K = FindingKind


def uncovered(
    part: str, timing: SentenceTime, periods: tuple[Period, ...], said: list[Finding]
) -> list[Finding]:
    """Values stated for a period no fact covers (day six of a five-day forecast)
    are one ``ungrounded_claim`` on the time named, not one finding per value."""
    mention = next((m for m in timing.mentions if m.periods == periods), None)
    if mention is None:  # carried from an earlier sentence: on the first value
        first = said[0]
        return [
            dataclasses.replace(first, kind=_K.UNGROUNDED_CLAIM, detail="no fact covers the period")
        ]
    return [
        Finding(
            _K.UNGROUNDED_CLAIM,
            mention.start,
            mention.end,
            part[mention.start : mention.end],
            "no fact covers this period: its values are vouched by nothing",
        )
    ]


def joined_ranges(
    part: str, findings: list[Finding], bounds: Sequence[tuple[int, int]] = ()
) -> list[Finding]:
    """A range whose two ends are both wrong ("from 5.5 °C to 5.5 °C") is one wrong
    statement, and so are wrong values stated together in one clause ("3 °C with
    a feels-like temperature of -1.41 °C": the reading of another time): one
    finding over them, with the first one's kind."""
    ordered = sorted(findings, key=lambda f: (f.start, f.end))
    out: list[Finding] = []
    for finding in ordered:
        if not out:
            out.append(finding)
            continue
        gap = part[out[-1].end : finding.start]
        together = (_RANGE_GAP.match(gap) or not _CLAUSE_BREAK.search(gap)) and not any(
            out[-1].start < cut <= finding.start for cut, _ in bounds
        )
        if (
            out
            and together
            and _numeric(out[-1])
            and _numeric(finding)
            and finding.start >= out[-1].end
        ):
            first = out[-1]
            out[-1] = dataclasses.replace(
                first,
                end=finding.end,
                text=part[first.start : finding.end],
                detail=f"{first.detail}; {finding.detail}",
            )
            continue
        out.append(finding)
    return out


def _numeric(finding: Finding) -> bool:
    return finding.kind in (_K.VALUE_MISMATCH, _K.UNGROUNDED_NUMBER, _K.UNIT_MISMATCH)
