"""Charts drawn on the server as inline SVG: no script, no CDN, no image file.

Every colour is a CSS class the page's stylesheet sets for light and dark
schemes (``prefers-color-scheme``); series differ by dash pattern and marker
as well as colour, so they read in grey too. Every label is escaped. The
chart is an image with a title (``role="img"``, ``aria-labelledby``); the
table beside it carries the same numbers as text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

__all__ = ["Series", "line_chart"]

_W, _H = 560, 220
_LEFT, _RIGHT, _TOP, _BOTTOM = 44, 12, 12, 40


@dataclass(frozen=True)
class Series:
    name: str
    css: str  # the class that colours it: s1, s2, s3
    values: Sequence[float | None]


def _y(value: float) -> float:
    return _TOP + (1.0 - value) * (_H - _TOP - _BOTTOM)


def line_chart(chart_id: str, title: str, labels: Sequence[str], series: Sequence[Series]) -> str:
    """Rates in [0, 1] over ``labels`` (days or prompt versions) as an SVG."""
    count = max(1, len(labels))
    step = (_W - _LEFT - _RIGHT) / max(1, count - 1) if count > 1 else 0.0

    def x(index: int) -> float:
        return _LEFT + index * step if count > 1 else (_LEFT + _W - _RIGHT) / 2

    parts = [
        f'<svg class="chart" viewBox="0 0 {_W} {_H}" role="img" '
        f'aria-labelledby="{chart_id}-title" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = _y(tick)
        parts.append(
            f'<line class="grid" x1="{_LEFT}" x2="{_W - _RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
        )
        parts.append(
            f'<text class="tick" x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{int(tick * 100)}%</text>"
        )
    every = max(1, -(-count // 8))  # at most 8 labels on the axis
    for index, label in enumerate(labels):
        if index % every == 0 or index == count - 1:
            shown = label if len(label) <= 14 else label[:13] + "…"
            anchor = (
                "middle"
                if count == 1 or 0 < index < count - 1
                else "start"
                if index == 0
                else "end"
            )  # the edge labels stay inside the chart
            parts.append(
                f'<text class="tick" x="{x(index):.1f}" y="{_H - _BOTTOM + 16}" '
                f'text-anchor="{anchor}">{escape(shown)}</text>'
            )
    for s in series:
        points = [(x(i), _y(v)) for i, v in enumerate(s.values) if v is not None]
        if len(points) > 1:
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            parts.append(f'<polyline class="line {s.css}" points="{path}"/>')
        for (px, py), value in zip(points, (v for v in s.values if v is not None), strict=True):
            parts.append(
                f'<circle class="dot {s.css}" cx="{px:.1f}" cy="{py:.1f}" r="3">'
                f"<title>{escape(s.name)}: {value * 100:.1f}%</title></circle>"
            )
    legend_x = _LEFT
    for s in series:
        y = _H - 8
        parts.append(
            f'<line class="line {s.css}" x1="{legend_x}" x2="{legend_x + 18}" '
            f'y1="{y - 4}" y2="{y - 4}"/>'
        )
        parts.append(f'<text class="legend" x="{legend_x + 22}" y="{y}">{escape(s.name)}</text>')
        legend_x += 30 + 7 * len(s.name)
    parts.append("</svg>")
    return "".join(parts)
