"""``vouched gate FACTS.json|.jsonl|- [--now ISO8601] [--policy FILE] [--json]``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from vouched._cli._common import (
    EXIT_FAILED,
    EXIT_OK,
    add_input_limit,
    cell,
    console,
    emit_json,
    load_policy,
    parse_now,
)
from vouched._exceptions import printable
from vouched._factio import load_facts
from vouched._gate import GateResult, VerdictKind, partition

__all__ = ["register"]


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "gate",
        help="classify facts as grounded, silent or violation",
        description="Classify every fact as grounded, silent or violation. "
        "Exit 0: no violations; 1: violations, or no facts at all; 2: bad input.",
    )
    parser.add_argument(
        "facts",
        metavar="FACTS",
        help="a JSON array of facts, one object, or JSON Lines (- for stdin)",
    )
    add_input_limit(parser)
    parser.add_argument("--now", help="judge freshness at this ISO 8601 instant (default: now)")
    parser.add_argument(
        "--policy", metavar="FILE", help="a JSON file of policy settings (default: the defaults)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    now = parse_now(args.now)
    policy = load_policy(args.policy, max_bytes=args.max_input_bytes)
    facts = load_facts(args.facts, max_bytes=args.max_input_bytes)
    result = partition(facts, policy, now)
    name = "<stdin>" if args.facts == "-" else args.facts
    if args.json:
        emit_json(result.to_json())
    elif facts:
        render(result, title=f"{name} at {now:%Y-%m-%d %H:%M:%S}Z")
    if not facts:
        # An empty list vouches for nothing: a rate of 1.0 with exit 0 would
        # read as "all good" to a script whose export came out empty.
        sys.stderr.write(f"{printable(name)}: no facts: nothing was vouched for (exit 1)\n")
        return EXIT_FAILED
    return EXIT_FAILED if result.violations else EXIT_OK


_STYLE = {
    VerdictKind.GROUNDED: "green",
    VerdictKind.SILENT: "yellow",
    VerdictKind.VIOLATION: "bold red",
}


def render(result: GateResult, *, title: str) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table(title=cell(title), title_justify="left")
    for column in ("#", "subject", "attribute", "value", "verdict", "reason"):
        table.add_column(column, overflow="fold")
    for index, verdict in enumerate(result.verdicts):
        fact = verdict.fact
        value = "" if fact.value is None else f"{fact.value}{' ' + fact.unit if fact.unit else ''}"
        reason = str(verdict.reason) + (" (cardinal)" if verdict.cardinal else "")
        style = _STYLE[verdict.kind]
        table.add_row(
            str(index),
            cell(fact.subject),
            cell(fact.attribute),
            cell(value),
            f"[{style}]{verdict.kind}[/]",
            cell(reason),
        )
    out = console()
    out.print(table)
    counts = result.counts
    out.print(
        f"grounded {counts['grounded']}  silent {counts['silent']}  "
        f"violation {counts['violation']}  grounding rate {result.grounding_rate:.3f}"
    )
