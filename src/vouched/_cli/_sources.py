"""``vouched sources [--json]``: the adapters installed under the entry-point group
``vouched.sources`` (for instance by the ``vouched-adapters`` distribution)."""

from __future__ import annotations

import argparse
import inspect
from collections import Counter
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from vouched._cli._common import EXIT_FAILED, EXIT_OK, cell, console, emit_json

__all__ = ["ENTRY_POINT_GROUP", "register"]

ENTRY_POINT_GROUP = "vouched.sources"


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "sources",
        help="list the installed source adapters",
        description="List the source adapters registered under the entry-point group "
        f"{ENTRY_POINT_GROUP!r}. An adapter that fails to import is listed with its error "
        "(exit 1).",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(handler=run)


def describe(entry: EntryPoint, *, shares_module: bool = False) -> dict[str, Any]:
    """One adapter: its name, where it lives, and its module docstring's first sentence
    (its class's own, when other adapters live in the same module and the module's
    would say the same of each)."""
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
    except (Exception, SystemExit) as error:  # noqa: BLE001 - a broken plugin is reported
        # SystemExit too: a plugin calling sys.exit at import must not end the listing.
        detail = " ".join(str(error).split())
        kind = type(error).__name__
        if len(detail) > 80:
            detail = f"{detail[:60]}… ({len(detail):,} characters)"
        row["error"] = f"{kind}: {detail}" if detail else kind
        return row
    module = inspect.getmodule(loaded)
    own = loaded.__doc__ if shares_module else None  # not getdoc: no inherited text
    doc = own or (module.__doc__ if module is not None else None) or inspect.getdoc(loaded) or ""
    # The docstring's reST literals (``x``) read as plain text in a table.
    first = " ".join(doc.strip().split("\n\n")[0].replace("``", "").split())
    row["summary"] = first.split(". ")[0].rstrip(".:") or None
    return row


def run(args: argparse.Namespace) -> int:
    """Exit 0 when every adapter imports, 1 when one does not (each is listed)."""
    entries = sorted(entry_points(group=ENTRY_POINT_GROUP), key=_name)
    modules = Counter(entry.module for entry in entries)
    rows = [describe(e, shares_module=modules[e.module] > 1) for e in entries]
    status = EXIT_FAILED if any(row["error"] for row in rows) else EXIT_OK
    if args.json:
        emit_json({"group": ENTRY_POINT_GROUP, "sources": rows})
        return status
    from rich.table import Table  # noqa: PLC0415

    table = Table(title=f"sources ({ENTRY_POINT_GROUP})", title_justify="left")
    for column in ("name", "target", "distribution", "summary"):
        table.add_column(column, overflow="fold")
    for row in rows:
        summary = cell(row["summary"])
        if row["error"]:
            summary = cell(f"cannot import: {row['error']}")
            summary.stylize("bold red")
        table.add_row(cell(row["name"]), cell(row["target"]), cell(row["distribution"]), summary)
    out = console()
    out.print(table)
    if not rows:
        out.print("no adapters installed: pip install ./adapters (vouched-adapters)")
    return status


def _name(entry: EntryPoint) -> str:
    return entry.name
