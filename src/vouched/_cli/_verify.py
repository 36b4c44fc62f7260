"""``vouched verify --catalog CATALOG.csv --contract CONTRACT.toml [--json]
[--chart OUT.png] CLAIMS.jsonl``.

CLAIMS.jsonl holds one JSON object a line with ``model_output`` (the raw model
text) and optionally ``id`` and ``prompt_version``; other keys are carried
through into each of the line's results (a key that names a result field,
such as ``status``, is not copied over it). Lines are streamed: memory stays
flat however long the file is. Output is spooled and written only once the
whole file was read, so bad input (exit 2) leaves no half-written document on
stdout and no chart file.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Iterator
from typing import IO, Any, Final, NamedTuple

from vouched._claims._catalog import Catalog
from vouched._claims._contract import Contract
from vouched._claims._metrics import ClaimMetrics, ClaimTally
from vouched._claims._verify import ClaimResult, ClaimStatus, verify_answer
from vouched._cli._common import (
    EXIT_FAILED,
    EXIT_OK,
    add_input_limit,
    atomic_output,
    cell,
    check_output_path,
    console,
    silence_stdout,
)
from vouched._exceptions import InputError
from vouched._files import input_lines, parse_json
from vouched._jsonio import dumps

__all__ = ["register"]

_RESULT_KEYS: Final = (
    "id",
    "line",
    "claim_index",
    "status",
    "reason",
    "entity",
    "attribute",
    "citation",
)
_NOT_CARRIED: Final = frozenset({*_RESULT_KEYS, "model_output"})
_SPOOL_IN_MEMORY: Final = 4 * 1024 * 1024
_TABLE_CHUNK: Final = 500
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "verify",
        help="check structured claims against a trusted catalog",
        description="Check each line's model_output (one claim, or an answer "
        '{"claims": [...]}) against a trusted catalog under a contract. '
        "Exit 0: every claim verified; 1: some claim not verified; 2: bad input.",
    )
    parser.add_argument("claims", metavar="CLAIMS.jsonl", help="JSON Lines with model_output")
    parser.add_argument("--catalog", required=True, metavar="CATALOG.csv", help="trusted rows")
    parser.add_argument(
        "--contract", required=True, metavar="CONTRACT.toml", help="entity, citation, attributes"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--chart", metavar="OUT.png", help="draw counts by status as a bar chart (needs [chart])"
    )
    add_input_limit(parser)
    parser.set_defaults(handler=run)


class _Line(NamedTuple):
    number: int
    id: Any
    model_output: str
    prompt_version: str | None
    carried: dict[str, Any]


def run(args: argparse.Namespace) -> int:
    if args.chart is not None:
        from vouched._claims._chart import require_matplotlib  # noqa: PLC0415 - only with --chart

        require_matplotlib()
        check_output_path(args.chart, field="--chart")
    limit = args.max_input_bytes
    contract = Contract.load(args.contract, max_bytes=limit)
    catalog = Catalog.from_csv(args.catalog, contract, max_bytes=limit)
    tally = ClaimTally()
    with tempfile.SpooledTemporaryFile(
        max_size=_SPOOL_IN_MEMORY, mode="w+", encoding="utf-8"
    ) as spool:
        writer: _JsonWriter | _TableWriter = (
            _JsonWriter(spool, catalog) if args.json else _TableWriter(spool, catalog, args.claims)
        )
        lines = 0
        for line in _iter_lines(args.claims, limit):
            lines += 1
            for result in verify_answer(line.model_output, catalog, contract):
                tally.add(result, line.prompt_version)
                writer.add(line, result)
        if not lines:
            raise InputError("no claims: the file has no lines", file=args.claims)
        metrics = tally.metrics()
        writer.finish(metrics)
        if args.chart is not None:
            _write_chart(args.chart, metrics, title=f"{args.claims} vs {catalog.version[:19]}")
        spool.seek(0)
        try:
            shutil.copyfileobj(spool, sys.stdout)
            sys.stdout.flush()
        except BrokenPipeError:
            silence_stdout()
    return EXIT_FAILED if metrics.failed else EXIT_OK


def _write_chart(path: str, metrics: ClaimMetrics, *, title: str) -> None:
    from vouched._claims._chart import status_chart_png  # noqa: PLC0415 - optional extra

    heading = (
        f"{title}: {metrics.total} claims, {metrics.failed} not verified "
        f"({metrics.failure_rate:.1%})"
    )
    png = status_chart_png(metrics.counts, title=heading)
    with atomic_output(path, "wb", field="--chart") as handle:
        handle.write(png)


def _iter_lines(path: str, limit: int | None) -> Iterator[_Line]:
    """The claim lines of a JSON Lines file, one at a time; errors name file:line:field."""
    for number, text in input_lines(path, kind="claims", max_bytes=limit):
        if text.strip():
            yield _parse_line(text, path, number)


def _parse_line(text: str, path: str, number: int) -> _Line:
    data = parse_json(text, file=path, line=number)
    if type(data) is not dict:
        raise InputError(
            "expected a JSON object with model_output on each line", file=path, line=number
        )
    model_output = data.get("model_output")
    if model_output is None:
        raise InputError("is required", file=path, line=number, field="model_output")
    if not isinstance(model_output, str):
        raise InputError(
            "must be a string (the raw model text)", file=path, line=number, field="model_output"
        )
    version = data.get("prompt_version")
    if version is not None:
        if isinstance(version, bool) or not isinstance(version, str | int):
            raise InputError(
                "must be a string or an integer", file=path, line=number, field="prompt_version"
            )
        version = str(version)
    carried = {key: value for key, value in data.items() if key not in _NOT_CARRIED}
    return _Line(number, data.get("id"), model_output, version, carried)


def _record(line: _Line, result: ClaimResult) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": line.id,
        "line": line.number,
        "claim_index": result.claim_index,
        "status": result.status.value,
        "reason": result.reason,
        "entity": result.entity,
        "attribute": result.attribute,
        "citation": result.citation,
    }
    record.update(line.carried)
    return record


def _summary(metrics: ClaimMetrics) -> dict[str, int]:
    return {status.value: count for status, count in metrics.counts.items()}


class _JsonWriter:
    """Writes the JSON document piece by piece: one result a line."""

    def __init__(self, out: IO[str], catalog: Catalog) -> None:
        self._out = out
        self._first = True
        out.write(f'{{"catalog_version": {dumps(catalog.version)}, "results": [')

    def add(self, line: _Line, result: ClaimResult) -> None:
        record = _record(line, result)
        try:
            text = _ENCODER.encode(record)
        except TypeError:  # a carried Decimal: write it exactly, the slower way
            text = dumps(record)
        self._out.write("\n" if self._first else ",\n")
        self._first = False
        self._out.write(text)

    def finish(self, metrics: ClaimMetrics) -> None:
        self._out.write(
            f"\n], {dumps('summary')}: {dumps(_summary(metrics))}, "
            f'"metrics": {dumps(metrics.to_json())}}}\n'
        )


_STYLE: Final = {ClaimStatus.VERIFIED: "green"}


class _TableWriter:
    """Readable tables of results, in chunks so memory stays flat."""

    def __init__(self, out: IO[str], catalog: Catalog, claims_name: str) -> None:
        self._console = console(out)
        self._catalog = catalog
        self._title: str | None = f"{claims_name} against {catalog.name} ({catalog.version[:19]})"
        self._rows: list[tuple[str, ...]] = []

    def add(self, line: _Line, result: ClaimResult) -> None:
        style = _STYLE.get(result.status, "bold red")
        label = f"line {line.number}" if line.id is None else str(line.id)
        if result.claim_index is not None:
            label += f" [{result.claim_index}]"
        self._rows.append(
            (
                label,
                f"[{style}]{result.status.value}[/]",
                result.entity or "",
                result.attribute or "",
                result.citation or "",
                result.reason,
            )
        )
        if len(self._rows) >= _TABLE_CHUNK:
            self._flush()

    def _flush(self) -> None:
        if not self._rows:
            return
        from rich.table import Table  # noqa: PLC0415

        table = Table(title=cell(self._title) if self._title else None, title_justify="left")
        self._title = None
        for column in ("claim", "status", "entity", "attribute", "citation"):
            table.add_column(column, overflow="fold")
        table.add_column("reason", overflow="fold", ratio=1)
        for label, status, *rest in self._rows:
            table.add_row(cell(label), status, *map(cell, rest))
        self._console.print(table)
        self._rows.clear()

    def finish(self, metrics: ClaimMetrics) -> None:
        self._flush()
        counts = "  ".join(
            f"{status.value} {count}" for status, count in metrics.counts.items() if count
        )
        self._console.print(counts, markup=False, highlight=False)
        self._console.print(
            f"{metrics.total} claims, {metrics.failed} not verified "
            f"(failure rate {metrics.failure_rate:.3f}); catalog {self._catalog.version}",
            markup=False,
            highlight=False,
        )
        for version, entry in metrics.by_prompt_version.items():
            self._console.print(
                f"prompt_version {version}: {entry.total} claims, {entry.failed} not verified "
                f"(failure rate {entry.failure_rate:.3f})",
                markup=False,
                highlight=False,
            )
