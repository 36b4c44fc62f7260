"""The pages' templates: Jinja2 (the ``server`` extra), autoescaped, every
printed string from the store made printable first, and the filters they use."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

from markupsafe import Markup

from vouched._exceptions import MissingExtraError, printable
from vouched._replay._tables import Cell, Change, Flagged, percent
from vouched._review._answer import plural
from vouched._review._index import instant
from vouched._review._prompts import first_words

__all__ = ["jinja"]

_HERE = Path(__file__).parent


def jinja() -> Any:
    try:
        import jinja2  # noqa: PLC0415 - the server extra, loaded on use
    except ImportError:
        raise MissingExtraError("server", "jinja2") from None

    def finalize(value: Any) -> Any:
        # Markup is ours (charts); every other string may come from the store.
        if isinstance(value, str) and not isinstance(value, Markup):
            return printable(value)
        return value

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_HERE / "templates"),
        autoescape=True,
        finalize=finalize,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["pct"] = percent
    env.filters["when"] = lambda v: "-" if v is None else f"{v:%Y-%m-%d %H:%M:%S}Z"
    env.filters["us"] = lambda us: f"{instant(us):%Y-%m-%d %H:%M:%S}"
    env.filters["nextday"] = _next_day
    env.filters["cell"] = _cell
    env.filters["plural"] = lambda count, noun: plural(int(count), noun)
    env.filters["first_words"] = first_words
    return env


def _next_day(day: str) -> str:
    """The day after ``day`` (the last day there is has none: no upper bound)."""
    try:
        return (date.fromisoformat(day) + timedelta(days=1)).isoformat()
    except (OverflowError, ValueError):
        return ""


def _cell(value: Cell) -> Markup:
    """A grading table's cell: a change coloured by direction, a flagged name."""
    if isinstance(value, Change):
        css = {-1: "worse", 1: "better"}.get(value.direction, "same")
        return Markup('{} → <span class="{}">{}</span>').format(
            printable(percent(value.then)), css, printable(percent(value.now))
        )
    if isinstance(value, Flagged):
        return Markup('{} <span class="flag">{}</span>').format(
            printable(value.text), printable(value.note)
        )
    return Markup("{}").format(printable(value))
