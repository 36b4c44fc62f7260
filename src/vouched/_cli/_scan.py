"""``vouched scan --facts FACTS.json [--lexicon NAME|LEXICON.json] [--sources FILE ...]
[--question TEXT] [--now ISO8601] [--json] OUTPUT.txt|-``.

Facts are gated first with the default policy at ``--now``; only grounded
facts vouch for numbers, silences mark pairs that must not be stated, and
violations (stale, unsourced) vouch for nothing. Exit 0: no findings; 1:
findings; 2: unreadable input.

With ``--json`` the report is written as it is read: each sentence's findings go
to a spool (in memory up to :data:`SPOOL_IN_MEMORY` bytes, then a temporary file)
as the scanner reads them, a batch of sentences at a time, and the spool is copied
out after the report's ``passed`` and ``score``. Memory is the text and one batch
plus the spool's cap, whatever the number of findings; the output is the one
``scan(...).to_json()`` gives, byte for byte.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections import Counter
from typing import IO, Any

from vouched._cli._common import (
    EXIT_FAILED,
    EXIT_OK,
    add_input_limit,
    cell,
    console,
    lexicon_help,
    load_lexicon,
    load_policy,
    parse_now,
    read_input,
    silence_stdout,
)
from vouched._exceptions import InputError
from vouched._factio import load_facts
from vouched._gate import GateResult, partition
from vouched._jsonio import dumps
from vouched._scan._findings import Finding
from vouched._scan._scanner import Scanner, ScanReport, scan
from vouched._time import format_instant

__all__ = ["SPOOL_IN_MEMORY", "register", "write_json"]

SPOOL_IN_MEMORY = 8 * 1024 * 1024
"""Bytes of findings' JSON ``vouched scan --json`` holds in memory before its spool
moves to a temporary file."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "scan",
        help="scan a model's output for values no grounded fact vouches for",
        description="Scan a model's output against gated facts. "
        "Exit 0: no findings; 1: findings; 2: bad input.",
    )
    parser.add_argument(
        "output",
        metavar="OUTPUT",
        nargs="?",
        help="the model output to scan (a file, or - for stdin); "
        "when it follows --sources, the last FILE is taken as OUTPUT",
    )
    parser.add_argument(
        "--facts",
        required=True,
        help="facts: a JSON array, one object, or JSON Lines (- for stdin)",
    )
    parser.add_argument(
        "--lexicon", metavar="NAME|FILE", help=lexicon_help("how the answer names attributes")
    )
    parser.add_argument(
        "--sources", nargs="+", default=[], metavar="FILE", help="source texts quotes may come from"
    )
    parser.add_argument("--question", help="the user's question (its numbers may be repeated)")
    parser.add_argument("--now", help="gate freshness at this ISO 8601 instant (default: now)")
    parser.add_argument(
        "--policy",
        metavar="FILE",
        help="a JSON file of policy settings for the gate and the scan (default: the defaults)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_input_limit(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.output is None:
        # "--sources a.txt b.txt answer.txt": argparse gives every path to --sources.
        if len(args.sources) < 2:
            raise InputError(
                "is required: the model output to scan (a file, or - for stdin)", field="OUTPUT"
            )
        args.output = args.sources.pop()
    now = parse_now(args.now)
    limit = args.max_input_bytes
    inputs = [args.facts, args.lexicon, *args.sources, args.output]
    if sum(path == "-" for path in inputs) > 1:
        raise InputError("standard input (-) can be read only once", field="OUTPUT")
    policy = load_policy(args.policy, max_bytes=limit)
    facts = load_facts(args.facts, max_bytes=limit)
    lexicon = load_lexicon(args.lexicon, max_bytes=limit)
    sources = [read_input(path, kind="sources", max_bytes=limit) for path in args.sources]
    text = read_input(args.output, kind="output", max_bytes=limit)
    gated = partition(facts, policy, now)
    if args.json:
        scanner = Scanner(gated, lexicon, sources, args.question, policy)
        return EXIT_OK if write_json(scanner, text) else EXIT_FAILED
    report = scan(text, gated, lexicon, sources=sources, question=args.question, policy=policy)
    render(report, name="<stdin>" if args.output == "-" else args.output)
    note_violations(gated)
    return EXIT_OK if report.passed else EXIT_FAILED


def write_json(scanner: Scanner, text: str, out: IO[str] | None = None) -> bool:
    """Scan ``text`` and write its report's JSON (``scan(...).to_json()`` as
    :func:`emit_json` writes it) to ``out`` (standard output), the findings spooled as
    they are read; whether it passed."""
    out = out or sys.stdout
    with tempfile.SpooledTemporaryFile(SPOOL_IN_MEMORY, "w+", encoding="utf-8") as spool:
        separator = ""

        def spooled(findings: tuple[Finding, ...]) -> None:
            nonlocal separator
            for finding in findings:
                spool.write(separator)
                spool.write(dumps(finding.to_json()))
                separator = ", "

        tally = scanner.scan_into(text, spooled)
        head = dumps({"passed": tally.passed, "score": tally.score, "findings": []})
        spool.seek(0)
        try:
            out.write(head[: -len("]}")])  # '{"passed": ..., "findings": ['
            shutil.copyfileobj(spool, out)
            out.write("]}\n")
            out.flush()
        except BrokenPipeError:
            silence_stdout()
    return tally.passed


def render(report: ScanReport, *, name: str) -> None:
    from rich.table import Table  # noqa: PLC0415

    out = console()
    if report.passed:
        out.print("[green]passed[/]", cell(f"{name}: no findings (score {report.score:.2f})"))
        return
    table = Table(title=cell(f"{name}: {len(report.findings)} finding(s)"), title_justify="left")
    for column in ("span", "kind", "text", "detail"):
        table.add_column(column, overflow="fold")
    for finding in report.findings:
        table.add_row(
            f"{finding.start}-{finding.end}",
            f"[bold red]{finding.kind}[/]",
            cell(finding.text),
            cell(finding.detail),
        )
    out.print(table)
    out.print(f"[bold red]failed[/]  score {report.score:.2f}")


def note_violations(gated: GateResult) -> None:
    """One line under the table when facts of the file vouch for nothing: a
    finding "no grounded fact for Berlin temperature" about a pair the file does
    hold reads as a scanner bug until one sees that the fact was stale at
    ``--now`` (the real clock, when it is not given)."""
    if not gated.violations or gated.at is None:
        return
    reasons = Counter(str(verdict.reason) for verdict in gated.violations)
    listed = ", ".join(f"{reason} {count}" for reason, count in sorted(reasons.items()))
    at = format_instant(gated.at.replace(microsecond=0))
    console().print(
        cell(
            f"gated at {at}: {len(gated.violations)} of "
            f"{len(gated.verdicts)} facts are violations ({listed}) and vouch for nothing"
        )
    )
