"""``vouched review export-verdicts STORE --out DIR [--lexicon FILE]``.

Writes reviewers' verdicts as cases in the format of the scanner's case suite
(``tests/scan/cases/README.md``), so a team keeps them in its own tests:

- ``DIR/worlds/<world>.json``: one world per reviewed answer: its facts as
  received, its policy, ``now`` (when it was judged) and its lexicon (the one
  it was checked with, or ``--lexicon``);
- ``DIR/cases/verdicts.toml``: one case per reviewed attempt: its question,
  its text and the findings expected: each confirmed catch, each finding
  nobody reviewed (kept as found), and each missed mistake a reviewer named a
  kind for (the case then waits for the scanner: ``xfail``). A confirmed false
  alarm is expected *not* to be found. ``pins`` says who said what.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from vouched._cli._common import EXIT_OK, load_lexicon
from vouched._exceptions import InputError
from vouched._jsonio import dumps, loads
from vouched._replay._lexicons import stored_lexicons
from vouched._replay._open import open_snapshot_store
from vouched._replay._snapshot import Snapshot
from vouched._replay._verdicts import Mark, ReviewVerdict, VerdictShelf, latest

__all__ = ["export_verdicts", "toml_string"]


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (JSON's escapes are TOML's, less DEL)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _world(snapshot: Snapshot, lexicon: Any) -> dict[str, Any]:
    return {
        "now": snapshot.judged_at.isoformat().replace("+00:00", "Z"),
        "policy": loads(dumps(dict(snapshot.policy), canonical=True)),
        "lexicon": lexicon or {},
        "sources": [],
        "facts": [fact.to_json() for fact in snapshot.facts],
    }


def _case(world: str, snapshot: Snapshot, attempt: int, given: list[ReviewVerdict]) -> str:
    trail = snapshot.trail
    text = trail[attempt - 1].text if trail else snapshot.output
    then = trail[attempt - 1].findings if trail else snapshot.findings
    expected: list[tuple[str, str]] = []
    said: list[str] = []
    waits: list[str] = []
    for finding in then:
        start, end = finding.get("start"), finding.get("end")
        verdict = next(
            (
                v
                for v in given
                if v.mark is not Mark.MISSED
                and (v.start, v.end, v.kind) == (start, end, finding.get("kind"))
            ),
            None,
        )
        if verdict is None or verdict.mark is Mark.RIGHT:
            expected.append((str(finding.get("kind")), str(finding.get("text"))))
        if verdict is None:
            said.append(f"{finding.get('kind')} on {finding.get('text')!r} unreviewed, kept")
    for v in given:
        mark = {"right": "right", "false_alarm": "a false alarm", "missed": "missed"}[v.mark]
        said.append(f"{v.kind or 'a mistake'} on {v.text!r} {mark} ({v.reviewer})")
        if v.mark is Mark.MISSED and v.kind:
            expected.append((v.kind, v.text))
            waits.append(f"{v.kind} on {v.text!r}")
    lines = [
        "[[case]]",
        f"name = {toml_string(f'{world}_attempt_{attempt}')}",
        f"world = {toml_string(world)}",
        f"pins = {toml_string('reviewed: ' + '; '.join(said))}",
        f"question = {toml_string(snapshot.question)}",
        f"text = {toml_string(text or '')}",
    ]
    if expected:
        pairs = ", ".join(f"[{toml_string(k)}, {toml_string(t)}]" for k, t in sorted(expected))
        lines.append(f"findings = [{pairs}]")
    if waits:
        lines.append(f"xfail = {toml_string('missed then: ' + '; '.join(waits))}")
    return "\n".join(lines)


def export_verdicts(args: argparse.Namespace) -> int:
    if args.exported is None:
        raise InputError("give the STORE: vouched review export-verdicts STORE --out DIR")
    if not args.out:
        raise InputError("is required: the folder the cases are written to", field="--out")
    override = None
    if args.lexicon:
        if len(args.lexicon) > 1:
            raise InputError("give one lexicon for export-verdicts", field="--lexicon")
        chosen = load_lexicon(args.lexicon[0], max_bytes=args.max_input_bytes)
        override = None if chosen is None else chosen.to_json()
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise InputError("is not a folder", field="--out")
    cases: list[str] = []
    worlds: dict[str, dict[str, Any]] = {}
    with open_snapshot_store(args.exported, read_only=True) as store:
        if not isinstance(store, VerdictShelf):
            raise InputError("this store keeps no verdicts", file=args.exported)
        contents = stored_lexicons(store)
        grouped: dict[str, dict[int, list[ReviewVerdict]]] = defaultdict(lambda: defaultdict(list))
        for verdict in latest(store.review_verdicts()):
            grouped[verdict.snapshot_id][verdict.attempt].append(verdict)
        for snapshot_id in sorted(grouped):
            snapshot = store.get(snapshot_id)
            if snapshot is None:
                continue
            world = f"verdicts_{snapshot_id[:12]}"
            own = contents.get(snapshot.lexicon.hash) if snapshot.lexicon else None
            worlds[world] = _world(snapshot, override or (loads(own) if own else None))
            for attempt, given in sorted(grouped[snapshot_id].items()):
                cases.append(_case(world, snapshot, attempt, given))
    (out / "worlds").mkdir(parents=True, exist_ok=True)
    (out / "cases").mkdir(parents=True, exist_ok=True)
    for name, data in worlds.items():
        (out / "worlds" / f"{name}.json").write_text(
            dumps(data, canonical=True) + "\n", encoding="utf-8"
        )
    header = "# Reviewers' verdicts, exported by `vouched review export-verdicts`.\n"
    (out / "cases" / "verdicts.toml").write_text(
        header + "\n" + "\n\n".join(cases) + "\n", encoding="utf-8"
    )
    sys.stdout.write(f"{len(cases)} cases over {len(worlds)} answers written to {out}\n")
    return EXIT_OK
