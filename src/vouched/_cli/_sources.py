"""``vouched sources [--json]``: the adapters installed under the entry-point group
``vouched.sources`` (for instance by the ``vouched-adapters`` distribution)."""

from __future__ import annotations

import argparse
import inspect
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from vouched._cli._common import EXIT_OK, console, emit_json

__all__ = ["ENTRY_POINT_GROUP", "register"]

ENTRY_POINT_GROUP = "vouched.sources"


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "sources",
        help="list the installed source adapters",
        description="List the source adapters registered under the entry-point group "
        f"{ENTRY_POINT_GROUP!r}. An adapter that fails to import is listed with its error.",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(handler=run)


def describe(entry: EntryPoint) -> dict[str, Any]:
    """One adapter: its name, where it lives, and its module docstring's first sentence."""
    dist = entry.dist
    row: dict[str, Any] = {
        "name": entry.name,
        "target": entry.value,
        "distribution": None if dist is None else f"{dist.name} {dist.version}",
        "summary": None,
        "error": None,
    }
    try:
        loaded = entry.load()
    except Exception as error:  # noqa: BLE001 - a broken plugin is reported, not fatal
        row["error"] = type(error).__name__
        return row
    module = inspect.getmodule(loaded)
    doc = (module.__doc__ if module is not None else None) or inspect.getdoc(loaded) or ""
    # The docstring's reST literals (``x``) read as plain text in a table.
    first = " ".join(doc.strip().split("\n\n")[0].replace("``", "").split())
    row["summary"] = first.split(". ")[0].rstrip(".:") or None
    return row


def run(args: argparse.Namespace) -> int:
    rows = [describe(e) for e in sorted(entry_points(group=ENTRY_POINT_GROUP), key=_name)]
    if args.json:
        emit_json({"group": ENTRY_POINT_GROUP, "sources": rows})
        return EXIT_OK
    from rich.table import Table  # noqa: PLC0415

    table = Table(title=f"sources ({ENTRY_POINT_GROUP})", title_justify="left")
    for column in ("name", "target", "distribution", "summary"):
        table.add_column(column, overflow="fold")
    for row in rows:
        summary = row["summary"] or ""
        if row["error"]:
            summary = f"[bold red]cannot import: {row['error']}[/]"
        table.add_row(row["name"], row["target"], row["distribution"] or "", summary)
    out = console()
    out.print(table)
    if not rows:
        out.print("no adapters installed: pip install ./adapters (vouched-adapters)")
    return EXIT_OK


def _name(entry: EntryPoint) -> str:
    return entry.name
