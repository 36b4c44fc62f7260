"""``vouched replay --store PATH|URL [--policy FILE] [--lexicon NAME|FILE] [--since ISO]
[--until ISO] [--json] [--chart OUT.png] [--engine local|ray] [--workers N]
[--ray-address ADDR]``.

Re-grades every stored snapshot under today's policy (``--policy``, a JSON
object of :class:`vouched.Policy` settings; the defaults when absent) and
today's scanner run on every attempt of the model, and compares then with
now. The scanner reads each snapshot's own lexicon, the one it was checked
with (recorded since snapshot format 4; older snapshots are read without
one); ``--lexicon`` names one lexicon for every snapshot instead. A snapshot
passes when no fact is a violation and the model's first attempt has no
finding. ``--store`` is a SQLite file's path, a ``sqlite:///PATH`` URL, a
``postgresql://`` URL (the ``vouched[postgres]`` extra; ``?schema=NAME``
picks its schema) or a JSON Lines export (``NAME.jsonl``). Exit status: 0 no
snapshot that passed then fails now; 1 some did (a regression); 2 bad input.

``--engine local`` (default) grades in this process, or in ``--workers N``
processes; ``--engine ray`` (the ``vouched[ray]`` extra) grades ranges of the
store's order as Ray tasks, on the cluster at ``--ray-address`` or on a local
Ray started for the run. Every engine prints the same report.

``--since`` and ``--until`` take an ISO 8601 instant with a time zone, or a
date (``2026-12-02``), read as midnight UTC.

``--json`` prints one document (``"schema": "vouched.replay/2"``)::

    {
      "schema": "vouched.replay/2",
      "policy_version": str,            # content hash of today's policy
      "rules": [str],                   # output checks re-run ("scan"; [] = gate only)
      "window": {"since": ISO|null, "until": ISO|null},
      "snapshots": int,
      "first_created_at": ISO|null, "last_created_at": ISO|null,
      "grounding_rate": {"then": float, "now": float},
      "passed": {"then": int, "now": int},    # no violation, first attempt without finding
      "attempts": {"count": int, "passed": {"then": int, "now": int},
                   "carried": int},        # format 1 attempts without text: not re-scanned
      "verdicts": {"then": {kind: int}, "now": {kind: int}},
      "reasons": {"then": {reason: int}, "now": {reason: int}},
      "findings": {"then": {kind: int}, "now": {kind: int}},
      "statuses": {status: int},               # ok | partial | unavailable | refused
      "flipped": {"to_fail": {"count": int, "ids": [str], "truncated": bool},
                  "to_pass": {"count": int, "ids": [str], "truncated": bool}},
      "prompt_versions": [{"prompt_version", "snapshots", "first_seen", "last_seen",
                           "grounding_rate": {"then", "now"},
                           "pass_rate": {"then", "now"},
                           "first_attempts_passed": {"then", "now"},
                           "attempts": {"count", "passed": {"then", "now"}},
                           "refused": int, "partial": int,
                           "verdicts": {"then", "now"}, "findings": {"then", "now"}}],
      "sources": [{"source", "facts", "grounding_rate": {"then", "now"},
                   "verdicts": {"then", "now"}}],
      "attributes": [{"attribute", "facts", "violations": {"then", "now"},
                      "violation_share": {"then", "now"}, "findings": {"then", "now"}}],
      "demotion_candidates": [str]
    }

``prompt_versions`` are ordered by first appearance, ``attributes`` by
violation share now (highest first). ``--chart`` writes a PNG of the
grounding rate and pass rate per prompt version, then and now.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path
from typing import Any

from vouched._claims._chart import require_matplotlib
from vouched._cli._common import (
    EXIT_FAILED,
    EXIT_OK,
    add_input_limit,
    atomic_output,
    cell,
    check_output_path,
    console,
    emit_json,
    lexicon_help,
    load_lexicon,
    load_policy,
)
from vouched._cli._stores import open_store
from vouched._exceptions import InputError
from vouched._policy import Policy
from vouched._replay._grade import GradeReport, replay
from vouched._replay._lexicons import stored_lexicons
from vouched._replay._postgres import safe_url
from vouched._replay._regressions import VerdictReport, replay_verdicts
from vouched._replay._tables import Change, Flagged, ReportTable, report_tables
from vouched._replay._tally import OwnLexiconRule, scanner_rule
from vouched._replay._verdicts import SidecarVerdicts, VerdictShelf
from vouched._replay._workers import ENGINES, require_ray
from vouched._time import format_instant, parse_day_or_instant

__all__ = ["register"]


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "replay",
        help="re-grade stored snapshots under today's policy",
        description="Re-grade stored snapshots under today's policy and scanner; compare "
        "then with now. Exit 0: nothing regressed; 1: some snapshot that passed then fails "
        "now; 2: bad input.",
    )
    parser.add_argument(
        "--store",
        required=True,
        metavar="PATH|URL",
        help="snapshot store: a SQLite file, sqlite:///PATH, postgresql://... or an export .jsonl",
    )
    parser.add_argument("--policy", metavar="FILE", help="today's policy as a JSON object")
    parser.add_argument(
        "--lexicon",
        metavar="FILE|NAME",
        help=lexicon_help(
            "the lexicon for every snapshot (default: each snapshot's own, as recorded)"
        ),
    )
    parser.add_argument(
        "--since",
        metavar="ISO",
        help="only snapshots created at or after (a date is midnight UTC)",
    )
    parser.add_argument(
        "--until", metavar="ISO", help="only snapshots created before (a date is midnight UTC)"
    )
    parser.add_argument(
        "--verdicts",
        nargs="?",
        const="",
        metavar="FILE",
        help="grade reviewers' verdicts instead (the store's own, or a verdicts .jsonl): a "
        "confirmed catch that now passes or a confirmed false alarm that now fires exits 1",
    )
    parser.add_argument("--json", action="store_true", help="print the JSON report")
    parser.add_argument("--chart", metavar="OUT.png", help="write a chart per prompt version")
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="local",
        help="where to grade: local (this machine, default) or ray (a Ray cluster)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="local: grade in N processes (default 1); ray: ranges for N workers "
        "(default: the cluster's CPUs)",
    )
    parser.add_argument(
        "--ray-address",
        metavar="ADDR",
        help="with --engine ray: the cluster to join (default: start a local Ray)",
    )
    parser.add_argument(
        "--max-ids", type=int, default=100, metavar="N", help="flipped ids listed (default 100)"
    )
    add_input_limit(parser)
    parser.set_defaults(handler=run)


def _instant(text: str | None, option: str) -> Any:
    """An ISO 8601 instant with a time zone, or a date taken as midnight UTC."""
    if text is None:
        return None
    try:
        return parse_day_or_instant(text)
    except ValueError as error:
        raise InputError(
            f"{error} (or give a date, 2026-12-02, read as midnight UTC)", field=option
        ) from None


def run(args: argparse.Namespace) -> int:
    since = _instant(args.since, "--since")
    until = _instant(args.until, "--until")
    if since is not None and until is not None and since >= until:
        raise InputError("must be before --until (the window would be empty)", field="--since")
    if args.max_ids < 0:
        raise InputError("must not be negative", field="--max-ids")
    if args.workers < 1:
        raise InputError("must be at least 1", field="--workers")
    if args.ray_address is not None and args.engine != "ray":
        raise InputError("is for --engine ray (add --engine ray)", field="--ray-address")
    if args.engine == "ray":
        require_ray()  # one line naming the extra, before any store is opened
    policy = load_policy(args.policy, max_bytes=args.max_input_bytes)
    lexicon = load_lexicon(args.lexicon, max_bytes=args.max_input_bytes)
    if args.chart:
        require_matplotlib()
        check_output_path(args.chart, field="--chart")
    if args.verdicts is not None:
        return run_verdicts(args, policy, lexicon)
    with open_store(args.store) as store:  # a path, a URL, or the JSON Lines export
        # Each snapshot with the lexicon it was checked with, unless --lexicon names one for all.
        # (--lexicon: None, so each worker process builds its own scanner rule.)
        rules = None if args.lexicon is not None else (_rule(store, args, policy, lexicon),)
        report = replay(
            store,
            policy,
            since=since,
            until=until,
            lexicon=lexicon,
            rules=rules,
            max_ids=args.max_ids,
            workers=args.workers,
            engine=args.engine,
            ray_address=args.ray_address,
        )
    if args.chart:
        png = chart_png(report)
        with atomic_output(args.chart, field="--chart") as handle:
            handle.write(png)
    if args.json:
        emit_json(report.to_json())
    else:
        render(report, store=safe_url(args.store))
    return EXIT_FAILED if report.regressed else EXIT_OK


def _rule(store: object, args: argparse.Namespace, policy: Policy, lexicon: Any) -> Any:
    """The scanner as replay runs it: each snapshot's own lexicon unless --lexicon."""
    if args.lexicon is not None:
        return scanner_rule(lexicon, policy=policy)
    return OwnLexiconRule(stored_lexicons(store), policy=policy)


def run_verdicts(args: argparse.Namespace, policy: Policy, lexicon: Any) -> int:
    """``--verdicts``: reviewers' verdicts graded as a regression suite."""
    with open_store(args.store) as store:  # a path, a URL, or the JSON Lines export
        if args.verdicts:
            if not Path(args.verdicts).is_file():
                raise InputError("no such verdicts file", file=args.verdicts)
            given: Any = SidecarVerdicts(args.verdicts).review_verdicts()
        elif isinstance(store, VerdictShelf):
            given = store.review_verdicts()
        else:
            raise InputError("this store keeps no verdicts", field="--store")
        report = replay_verdicts(store, given, policy, _rule(store, args, policy, lexicon))
    if args.json:
        emit_json(report.to_json())
    else:
        render_verdicts(report, store=safe_url(args.store), limit=args.max_ids)
    return EXIT_FAILED if report.regressed else EXIT_OK


def render_verdicts(report: VerdictReport, *, store: str, limit: int) -> None:
    out = console()
    out.print(
        cell(
            f"vouched replay --verdicts {store}: {report.verdicts} verdicts; "
            f"{report.held} held, {len(report.regressions)} regressed"
            + (f", {report.not_graded} not graded (no text kept)" if report.not_graded else "")
        ),
        soft_wrap=True,
    )
    for r in report.regressions[:limit]:
        v = r.verdict
        said = "a confirmed catch now passes" if r.now == "passes" else "a false alarm fires again"
        out.print(
            cell(
                f"REGRESSION {said}: {v.kind} on {v.text!r} "
                f"(answer {v.snapshot_id}, attempt {v.attempt}, characters {v.start}-{v.end}; "
                f"marked by {v.reviewer})"
            ),
            soft_wrap=True,
        )
    for v in report.now_caught[:limit]:
        out.print(cell(f"now caught (was missed): {v.text!r} in answer {v.snapshot_id}"))
    if report.unreviewed:
        out.print(cell(f"new findings never reviewed: {len(report.unreviewed)}"))
        for u in report.unreviewed[:limit]:
            f = u.finding
            out.print(
                cell(
                    f"  {f.get('kind')} on {f.get('text')!r} "
                    f"(answer {u.snapshot_id}, attempt {u.attempt})"
                ),
                soft_wrap=True,
            )


# -- the readable report ------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _change(then: float | None, now: float | None, *, higher_is_better: bool = True) -> str:
    return _changed(Change(then, now, higher_is_better))


def _changed(change: Change) -> str:
    if change.then is None or change.now is None:
        return str(change)
    colour = {-1: "red", 1: "green"}.get(change.direction, "default")
    return f"{_pct(change.then)} -> [{colour}]{_pct(change.now)}[/]"


def _rich_table(table: ReportTable) -> Any:
    """One of the report's tables (:mod:`vouched._replay._tables`) for the terminal."""
    from rich.table import Table  # noqa: PLC0415

    out = Table(title=table.title, title_justify="left")
    for column in table.columns:
        out.add_column(column, justify="right" if column in table.right else "left")
    for row in table.rows:
        cells: list[Any] = []
        for value in row:
            if isinstance(value, Change):
                cells.append(_changed(value))
            elif isinstance(value, Flagged):
                cells.append(cell(value.text).append(f" {value.note}", style="yellow"))
            else:
                cells.append(cell(value))
        out.add_row(*cells)
    return out


def render(report: GradeReport, *, store: str) -> None:
    from rich.markup import escape  # noqa: PLC0415

    out = console()
    rules = ", ".join(report.rules) or "gate only (no scanner in this build)"
    window = ""
    if report.first_created_at is not None and report.last_created_at is not None:
        window = (
            f" from {format_instant(report.first_created_at)}"
            f" to {format_instant(report.last_created_at)}"
        )
    out.print(
        f"[bold]vouched replay[/] {escape(cell(store).plain)}: "
        f"{report.snapshots} snapshots{window}\n"
        f"today's policy {report.policy_version}; output rules: {rules}",
        soft_wrap=True,
    )
    if not report.snapshots:
        out.print("no snapshots in this window")
        return
    out.print(
        f"grounding rate {_change(report.grounding_rate_then, report.grounding_rate_now)}; "
        f"first attempts passed {report.passed_then} -> {report.passed_now}; flipped: "
        f"[red]{report.to_fail.count} now fail[/], [green]{report.to_pass.count} now pass[/]",
        soft_wrap=True,
    )
    refused = sum(v.refused for v in report.prompt_versions)
    partial = sum(v.partial for v in report.prompt_versions)
    carried = (
        f"; {report.attempts_carried} kept no text (format 1), not re-scanned"
        if report.attempts_carried
        else ""
    )
    out.print(
        f"model attempts {report.attempts}, passed {report.attempts_passed_then} -> "
        f"{report.attempts_passed_now}{carried}; answers refused {refused}, partial {partial}",
        soft_wrap=True,
    )

    for table in report_tables(report):
        out.print(_rich_table(table))

    for label, flips in (
        ("passed then, fail now", report.to_fail),
        ("failed then, pass now", report.to_pass),
    ):
        if flips.count:
            shown = ", ".join(flips.ids[:10])
            more = f" (+{flips.count - 10} more)" if flips.count > 10 else ""
            out.print(cell(f"{label}: {flips.count}: {shown}{more}"), soft_wrap=True)


# -- the chart ----------------------------------------------------------------------


def chart_png(report: GradeReport) -> bytes:
    """Grounding rate and pass rate per prompt version, then and now, as PNG bytes."""
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    names = [v.prompt_version for v in report.prompt_versions]
    series = {
        "grounding rate then": [v.grounding_rate_then for v in report.prompt_versions],
        "grounding rate now": [v.grounding_rate_now for v in report.prompt_versions],
        "pass rate then": [v.pass_rate_then or 0.0 for v in report.prompt_versions],
        "pass rate now": [v.pass_rate_now or 0.0 for v in report.prompt_versions],
    }
    colours = ("#90a4ae", "#2e7d32", "#b0bec5", "#1565c0")
    figure = Figure(figsize=(max(6.0, 1.2 * len(names) + 3), 4.5), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    width = 0.8 / len(series)
    for offset, ((label, values), colour) in enumerate(zip(series.items(), colours, strict=True)):
        positions = [i + (offset - (len(series) - 1) / 2) * width for i in range(len(names))]
        axes.bar(positions, values, width=width, label=label, color=colour)
    axes.set_xticks(range(len(names)), names)
    axes.set_ylim(0, 1.05)
    axes.set_ylabel("share")
    axes.set_xlabel("prompt version (in order of first use)")
    axes.set_title(
        f"replay of {report.snapshots} snapshots under policy {report.policy_version}",
        loc="left",
        fontsize=10,
    )
    figure.legend(loc="outside lower center", ncols=len(series), fontsize=8)
    axes.spines[["top", "right"]].set_visible(False)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
