"""A set of text spans, merged once, asked whether it overlaps a span."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable

__all__ = ["Spans"]


class Spans:
    """Sorted, merged spans (numbers inside them are not claims; an internal word inside
    a placeholder is the placeholder's)."""

    __slots__ = ("ends", "starts")

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for start, end in sorted(spans):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self.starts = [s for s, _ in merged]
        self.ends = [e for _, e in merged]

    def covers(self, start: int, end: int) -> bool:
        """Does ``[start, end)`` overlap one of the spans?"""
        i = bisect_right(self.starts, start) - 1
        if i >= 0 and self.ends[i] > start:
            return True
        j = bisect_left(self.starts, start)
        return j < len(self.starts) and self.starts[j] < end

    def holds(self, position: int) -> bool:
        """Does one of the spans hold ``position`` (``start <= position < end``)?"""
        i = bisect_right(self.starts, position) - 1
        return i >= 0 and self.ends[i] > position
