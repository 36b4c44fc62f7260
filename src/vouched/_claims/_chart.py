"""Bar charts of claim results (the optional ``chart`` extra: matplotlib).

matplotlib is imported only when a chart is drawn, and only its object API
with the Agg canvas is used: no pyplot, no global backend switch, no window.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Final

from vouched._claims._verify import ClaimStatus
from vouched._exceptions import MissingExtraError

__all__ = ["STATUS_COLOURS", "require_matplotlib", "status_chart_png"]

STATUS_COLOURS: Final[Mapping[ClaimStatus, str]] = {
    ClaimStatus.VERIFIED: "#2e7d32",  # green: passed this contract
    ClaimStatus.INVALID_JSON: "#6a1b9a",
    ClaimStatus.INVALID_SHAPE: "#ad1457",
    ClaimStatus.UNKNOWN_ENTITY: "#c62828",
    ClaimStatus.UNSUPPORTED_ATTRIBUTE: "#ef6c00",
    ClaimStatus.CITATION_MISMATCH: "#f9a825",
    ClaimStatus.INVALID_VALUE: "#4e342e",
    ClaimStatus.VALUE_MISMATCH: "#1565c0",
}


def require_matplotlib() -> None:
    """Fail early, before any work, when the chart extra is missing."""
    try:
        import matplotlib  # noqa: F401, PLC0415 - optional extra, probed on demand
    except ImportError:
        raise MissingExtraError("chart", "matplotlib") from None


def status_chart_png(counts: Mapping[ClaimStatus, int], *, title: str) -> bytes:
    """A PNG bar chart of counts by status, every status shown in its colour."""
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415
    from matplotlib.ticker import MaxNLocator  # noqa: PLC0415

    statuses = list(ClaimStatus)
    values = [counts.get(status, 0) for status in statuses]
    figure = Figure(figsize=(9, 4.8), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    bars = axes.bar(
        [status.value for status in statuses],
        values,
        color=[STATUS_COLOURS[status] for status in statuses],
    )
    axes.bar_label(bars, labels=[str(value) for value in values], padding=2)
    axes.set_ylabel("claims")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_title(title, loc="left", fontsize=10)
    axes.tick_params(axis="x", labelrotation=30)
    axes.spines[["top", "right"]].set_visible(False)
    axes.margins(y=0.12)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
