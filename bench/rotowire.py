"""Benchmark: the scanner on outside data, Rotowire mistakes (train split, 60 texts).

Scores with the shared scorer's own rules (``../shared/rotowire/score.py``: the
same ``vouched scan --facts --lexicon --now --json`` command per text, run here
in-process through the CLI's ``main`` so the three runs fit in a minute) both
figures: NUMBER mistakes and ``--category ALL`` (every mistake: NAME, NUMBER,
WORD, ...), for three lexicons in the same run:

- the shared lexicon (stat phrases only);
- this repository's basketball lexicon without the sections that state facts in
  words (``values`` strings and booleans, ``comparisons``, ``superlatives``,
  ``thresholds``): the v3 reading, the baseline for what words add;
- the basketball lexicon (``bench/rotowire/lexicon.json``).

Then the speed of a scan on these texts per KB beside the naive membership check
(every digit number must be some fact's value), with and without the word
sections. Skips with a message when the shared data is not beside the checkout.

The lexicon is a basketball writer's list: stat phrases, pairs ("9-for-12 from the
field"), countable stats ("a steal"), roles and places ("off the bench" = not a
starter, "on the road" = not at home), result verbs ("defeated" = more points than
the team named after it), ranks ("a game-high", "led the way", "team-high" within
a team) and thresholds ("double-double": two of points, rebounds, assists, steals,
blocks at ten or more). No phrase is written for one line of the data.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from vouched import Fact, Lexicon, Policy, Scanner, partition
from vouched._cli import main as cli_main

ROOT = Path(__file__).resolve().parents[1]
# the shared data sits beside the checkout (or beside the folder of git worktrees)
_BESIDE = [p / "shared" / "rotowire" for p in (ROOT.parent, ROOT.parent.parent)]
SHARED = next((p for p in _BESIDE if p.is_dir()), _BESIDE[0])
LEXICON = ROOT / "bench" / "rotowire" / "lexicon.json"
V3 = "NUMBER 0.703 / 0.824, ALL 0.284 / 0.827 (main after the v3 engine, issue 18's note)"
TARGET = "ALL recall >= 0.55 and precision >= 0.85, NUMBER no lower than v3 (issue 19, train)"
WORD_SECTIONS = ("comparisons", "superlatives", "thresholds")
_NAIVE = re.compile(r"\d+(?:\.\d+)?")


def _scorer() -> ModuleType:
    """The shared scorer, imported from its folder (it imports its neighbour gold.py)."""
    if str(SHARED) not in sys.path:
        sys.path.insert(0, str(SHARED))
    return importlib.import_module("score")


def without_words(lexicon: dict[str, Any]) -> dict[str, Any]:
    """The lexicon less every section that states a fact in words."""
    kept = {k: v for k, v in lexicon.items() if k not in WORD_SECTIONS}
    values = {
        attribute: {p: v for p, v in phrases.items() if not isinstance(v, str | bool)}
        for attribute, phrases in kept.get("values", {}).items()
    }
    kept["values"] = {a: p for a, p in values.items() if p}
    return kept


def _scan_in_process(score: ModuleType, tid: str, lexicon: Path | None, tmp: Path) -> list[Any]:
    directory = score.split_dir("train")
    now = (directory / f"{tid}.now").read_text(encoding="utf-8").strip()
    lex = (
        score.game_lexicon("train", tid, lexicon, tmp)
        if lexicon is not None
        else directory / f"{tid}.lexicon.json"
    )
    argv = ["scan", "--facts", str(directory / f"{tid}.facts.json"), "--lexicon", str(lex)]
    argv += ["--now", now, "--json", str(directory / f"{tid}.txt")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = cli_main(argv)
    if status not in (0, 1):
        raise RuntimeError(f"vouched scan failed on {tid} (exit {status})")
    findings: list[Any] = json.loads(out.getvalue())["findings"]
    return findings


def score_run(score: ModuleType, lexicon: Path | None) -> dict[str, Any]:
    """Both figures for one lexicon: {category: Result}."""
    texts = list(score.text_ids("train"))
    with tempfile.TemporaryDirectory(prefix="rotowire-lex-") as tmp:
        found = {tid: _scan_in_process(score, tid, lexicon, Path(tmp)) for tid in texts}
    results = {}
    for category in ("NUMBER", "ALL"):
        gold = score.load_gold("train", None if category == "ALL" else "NUMBER")
        predicted = {
            tid: score.findings_to_spans(score.read_text("train", tid), found[tid], category)[0]
            for tid in texts
        }
        results[category] = score.evaluate(gold, predicted)
    return results


def _categories(result: Any) -> str:
    per: dict[str, list[int]] = {}
    for rows in result.matched.values():
        for gold, hit in rows:
            counts = per.setdefault(gold.category, [0, 0])
            counts[0] += 1
            counts[1] += hit is not None
    return ", ".join(f"{c} {h}/{n}" for c, (n, h) in sorted(per.items()) if n >= 10)


def _line(name: str, results: dict[str, Any]) -> str:
    number, every = results["NUMBER"], results["ALL"]
    return (
        f"{name:28} NUMBER {number.recall:.3f} / {number.precision:.3f}   "
        f"ALL {every.recall:.3f} / {every.precision:.3f} (f1 {every.f1:.3f})"
        f"\n{'':28} recalled by category: {_categories(every)}"
    )


def _speed(lexicons: dict[str, Lexicon], repeat: int = 5) -> None:
    """Per-KB scan time on every text beside the naive check, each lexicon (median)."""
    directory = SHARED / "data" / "train"
    per_kb: dict[str, list[float]] = {name: [] for name in [*lexicons, "naive"]}
    for text_file in sorted(directory.glob("S*.txt")):
        stem = text_file.name[: -len(".txt")]
        text = text_file.read_text(encoding="utf-8")
        facts = [
            Fact.model_validate(f)
            for f in json.loads((directory / f"{stem}.facts.json").read_text())
        ]
        now = (directory / f"{stem}.now").read_text().strip()
        gated = partition(facts, Policy(), _instant(now))
        aliases = json.loads((directory / f"{stem}.lexicon.json").read_text())["subjects"]
        kb = len(text.encode()) / 1024
        values = {str(f.value) for f in gated.grounded}
        per_kb["naive"].append(_best(lambda t=text, v=values: _naive(t, v), repeat) / kb)
        for name, lexicon in lexicons.items():
            game = Lexicon.from_json({**lexicon.to_json(), "subjects": aliases})
            scanner = Scanner(gated, game)
            per_kb[name].append(_best(lambda s=scanner, t=text: s.scan(t), repeat) / kb)
    naive = statistics.median(per_kb["naive"])
    print(f"speed per KB (p50 over 60 texts, best of {repeat}): naive {naive:8.1f} us")
    for name in lexicons:
        p50 = statistics.median(per_kb[name])
        print(f"  {name:26} {p50:9.1f} us  {p50 / naive:6.1f}x naive (issue 19 target: <= 8x)")


def _naive(text: str, values: set[str]) -> list[str]:
    """Every digit number that is no fact's value (the set built per call, as scan must)."""
    return [n for n in _NAIVE.findall(text) if n not in values]


def _best(function: Any, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best * 1e6


def _instant(text: str) -> Any:
    from vouched._time import parse_instant  # noqa: PLC0415 - the bench's only private read

    return parse_instant(text)


def main() -> int:
    if not (SHARED / "score.py").is_file():
        print(f"skipped: {SHARED / 'score.py'} is not there (shared data beside the checkout)")
        return 0
    score = _scorer()
    full = json.loads(LEXICON.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="rotowire-bench-") as tmp:
        numbers_only = Path(tmp) / "numbers-only.json"
        numbers_only.write_text(json.dumps(without_words(full)), encoding="utf-8")
        print(_line("shared lexicon", score_run(score, None)))
        print(_line("bench lexicon, no words", score_run(score, numbers_only)))
        print(_line("bench lexicon", score_run(score, LEXICON)))
    print(f"baseline: {V3}")
    print(f"target:   {TARGET}")
    print(
        "note: NUMBER precision counts every value_mismatch, those on weekdays and value words too"
    )
    _speed(
        {
            "no words": Lexicon.from_json(without_words(full)),
            "with words": Lexicon.from_json(full),
        }
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
