"""Findings laid on the text they were found in: the highlighted attempt.

A finding's ``[start, end)`` names the words that are wrong. A snapshot
stores its texts after redaction and its spans before it, so a span is
trusted only when the stored text holds the finding's own ``text`` there;
otherwise the finding's text is looked for in the stored text (nearest
occurrence to the span), and a finding found nowhere is listed without a
highlight (``placed=False``), never drawn on other words.

The text is cut at every span edge into :class:`Segment`\\ s, each naming the
findings that cover it, so overlapping findings stay visible and every
character is shown exactly once.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Placed", "Segment", "place", "segments"]


@dataclass(frozen=True)
class Placed:
    """One finding of an attempt, with where it sits in the stored text."""

    number: int  # 1-based, in the order the scanner reported
    kind: str
    detail: str
    text: str
    subject: str | None
    attribute: str | None
    start: int
    end: int
    placed: bool  # False: its words are not in the stored text (redacted)
    moved: bool  # True: found at another place than its stored span
    stored: tuple[int, int] | None = None  # the span as stored (what a verdict names)


@dataclass(frozen=True)
class Segment:
    text: str
    findings: tuple[int, ...]  # numbers of the findings covering it
    opens: tuple[int, ...]  # numbers of the findings that start here


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def place(text: str, findings: Sequence[Mapping[str, Any]]) -> list[Placed]:
    """Each finding with a span checked against ``text`` (see the module docs)."""
    out: list[Placed] = []
    for number, finding in enumerate(findings, start=1):
        start, end = _int(finding.get("start")), _int(finding.get("end"))
        stored = (start, end) if start is not None and end is not None else None
        said = finding.get("text")
        said = said if isinstance(said, str) else None
        placed, moved = False, False
        if start is not None and end is not None and 0 <= start < end <= len(text):
            placed = said is None or text[start:end] == said
        if not placed and said:
            anchor = start if start is not None else 0
            hits: list[int] = []
            at = text.find(said)
            while at >= 0 and len(hits) < 100:
                hits.append(at)
                at = text.find(said, at + 1)
            if hits:
                start = min(hits, key=lambda h: abs(h - anchor))
                end = start + len(said)
                placed, moved = True, True
        out.append(
            Placed(
                number=number,
                kind=str(finding.get("kind", "")),
                detail=str(finding.get("detail", "") or ""),
                text=said if said is not None else "",
                subject=None if finding.get("subject") is None else str(finding.get("subject")),
                attribute=None
                if finding.get("attribute") is None
                else str(finding.get("attribute")),
                start=start if placed and start is not None else 0,
                end=end if placed and end is not None else 0,
                placed=placed,
                moved=moved,
                stored=stored,
            )
        )
    return out


def segments(text: str, placed: Sequence[Placed]) -> list[Segment]:
    """``text`` cut at every placed span's edges, each piece naming its findings."""
    spans = [p for p in placed if p.placed]
    edges = sorted({0, len(text), *(p.start for p in spans), *(p.end for p in spans)})
    out: list[Segment] = []
    for low, high in itertools.pairwise(edges):
        covering = tuple(p.number for p in spans if p.start <= low and high <= p.end)
        opens = tuple(p.number for p in spans if p.start == low)
        out.append(Segment(text[low:high], covering, opens))
    return out
