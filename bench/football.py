"""Benchmark: the scanner on LLM-written football match reports (D2T-Eval, dev split).

Converts every ``X.input.json`` of ``../shared/d2t/data/dev/football`` (an
API-Football fixture with its events) with ``vouched_adapters.match_facts`` into
facts (teams' goals per half, cards, substitutions, own goals, penalties; players'
goals, assists, cards and event minutes), writes a folder in the data's own layout
(``X.txt``, ``X.facts.json``, ``X.lexicon.json`` = the shipped ``football`` lexicon
plus the match's aliases from ``match_subjects``, ``X.now``, ``gold.jsonl``) and
scores it with the shared scorer (``score.py --data-dir``), INCORRECT and ALL.
Beside it, in the same run: the shared flat facts without a lexicon (the scorer's
default, the figure the data's README gives for today) and a frontier annotator.

The lexicon is a football writer's words, written from domain knowledge, never
from a line of these texts.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

from vouched import Lexicon, dump_facts
from vouched_adapters.football import match_facts, match_subjects

ROOT = Path(__file__).resolve().parents[1]
SHARED = next(
    (p / "shared" / "d2t" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared").is_dir()),
    ROOT.parent / "shared" / "d2t",
)  # beside the checkout, or beside its worktree folder
DEV = SHARED / "data" / "dev" / "football"
TARGET = "dev INCORRECT F1 >= 0.55 (issue 38)"
TODAY = "INCORRECT 0.091 / 0.250, F1 0.133 (flat facts, no lexicon: the data's README)"


def write_folder(out: Path) -> list[str]:
    """The dev split converted by the adapter, with the shipped lexicon and aliases."""
    shipped = Lexicon.shipped("football").to_json()  # thresholds hold Decimals
    ids = sorted(p.name[: -len(".input.json")] for p in DEV.glob("*.input.json"))
    for tid in ids:
        body = json.loads((DEV / f"{tid}.input.json").read_text(encoding="utf-8"))
        (out / f"{tid}.facts.json").write_text(dump_facts(match_facts(body)), encoding="utf-8")
        lexicon = {**shipped, "subjects": match_subjects(body)}
        (out / f"{tid}.lexicon.json").write_text(
            json.dumps(lexicon, default=_number), encoding="utf-8"
        )
        for suffix in (".txt", ".now"):
            shutil.copy(DEV / f"{tid}{suffix}", out / f"{tid}{suffix}")
    for rows in DEV.glob("*.jsonl"):
        shutil.copy(rows, out / rows.name)
    return ids


def _number(value: object) -> int | float:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    raise TypeError(type(value).__name__)


def score(*args: str, last: bool = True) -> str:
    """The scorer's last line (its figure), or all it printed."""
    proc = subprocess.run(
        [sys.executable, str(SHARED / "score.py"), "--domain", "football", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = proc.stdout.strip().splitlines()
    if not last:
        return proc.stdout + proc.stderr
    return lines[-1] if lines else proc.stderr.strip()


def main() -> int:
    if not DEV.is_dir():
        print(f"skipped: {DEV} is not there (shared data beside the checkout)")
        return 0
    quick = "--quick" in sys.argv[1:]  # the adapter's INCORRECT figure only, with details
    with tempfile.TemporaryDirectory(prefix="football-bench-") as tmp:
        folder = Path(tmp)
        write_folder(folder)
        if quick:
            print(score("--data-dir", str(folder), "--details", last=False))
            return 0
        for category in ("INCORRECT", "ALL"):
            mine = score("--data-dir", str(folder), "--category", category)
            print(f"adapter + football lexicon  {mine}")
            print(f"flat facts, no lexicon      {score('--category', category)}")
            claude = score("--predictor", "claude-3-7-sonnet", "--category", category)
            print(f"claude-3-7-sonnet           {claude}")
    print(f"today:  {TODAY}")
    print(f"target: {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
