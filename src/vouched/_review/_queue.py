"""One finding of the review queue as the queue page shows it: the words
found, in their sentence, with the finding's detail."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vouched._replay._snapshot import Snapshot
from vouched._review._precision import Waiting

__all__ = ["QueueItem", "queue_item"]

_CONTEXT = 120  # characters shown on each side of the words found


@dataclass(frozen=True)
class QueueItem:
    waiting: Waiting
    before: str
    words: str
    after: str
    detail: str
    attribute: str


def queue_item(snapshot: Snapshot | None, waiting: Waiting) -> QueueItem:
    """``waiting`` with the text around its words (from its snapshot, when found)."""
    if snapshot is None:
        return QueueItem(waiting, "", "", "", "(the answer is no longer in the store)", "")
    trail = snapshot.trail
    text = (trail[waiting.attempt - 1].text if trail else snapshot.output) or ""
    found: Any = trail[waiting.attempt - 1].findings if trail else snapshot.findings
    finding: Any = next(
        (
            f
            for f in found
            if f.get("kind") == waiting.kind
            and f.get("start") == waiting.start
            and f.get("end") == waiting.end
        ),
        {},
    )
    start, end = waiting.start, waiting.end
    if not 0 <= start < end <= len(text):
        start = end = 0
    low = max(0, start - _CONTEXT)
    high = min(len(text), end + _CONTEXT)
    return QueueItem(
        waiting,
        ("…" if low else "") + text[low:start],
        text[start:end] or str(finding.get("text") or ""),
        text[end:high] + ("…" if high < len(text) else ""),
        str(finding.get("detail") or ""),
        str(finding.get("attribute") or ""),
    )
