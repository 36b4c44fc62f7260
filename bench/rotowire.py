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
- the bench lexicon as first filed (``bench/rotowire/lexicon.json``);
- the basketball lexicon vouched ships (``Lexicon.shipped("basketball")``), grown
  from the bench lexicon: the figure the issues measure.

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
FILED = ROOT / "bench" / "rotowire" / "lexicon.json"
LEXICON = ROOT / "src" / "vouched" / "_data" / "lexicons" / "basketball.json"  # the shipped one
V3 = "NUMBER 0.703 / 0.824, ALL 0.284 / 0.827 (main after the v3 engine, issue 18's note)"
WORDS = "NUMBER 0.717 / 0.783, ALL 0.544 / 0.815 (main after issue 19, facts in words)"
EXPLAINED = (
    "NUMBER 0.732 / 0.811, ALL 0.648 / 0.846 (main 371a6ef, bench lexicon: issue 38's start)"
)
TARGET = "ALL recall >= 0.78 and precision >= 0.88, NUMBER >= 0.84 / 0.88 (issue 38, train)"
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


# The six classes of issue 28, read from each gold mistake's words and its sentence (the
# first class that fits, in this order). A reader's description, not a fit: the words
# are those the issue names for each class.
_LATER = re.compile(
    r"\b(?:will|next|upcoming|on deck|head(?:s|ing)? (?:back|home|to)|travels? to|"
    r"remains? home)\b|\w 'll\b",
    re.I,
)
_SPAN = re.compile(
    r"\b(?:straight|in a row|consecutive|streak|averag\w*|per game|on the (?:season|year)|"
    r"this season|season - high|career - high|of (?:their|his) last)\b",
    re.I,
)
_PERIOD = re.compile(r"\b(?:quarter|half|halftime|period|frame|intermission)\b", re.I)
_COUNT = re.compile(r"\b(?:only|other|all|both|every|players?|starters?)\b", re.I)
_RESULT = re.compile(
    r"\b(?:defeat\w*|beat\w*|win|won|victory|loss|lost|edg\w+|cruis\w+|coast\w*|pull\w* away|"
    r"blowout|blew|rout\w*|close|narrow\w*|easy|comfortabl\w+|outscor\w+|out - scor\w+|"
    r"battled back|held off|hold off|prevail\w*|dominat\w+)\b",
    re.I,
)
_DAYS = re.compile(r"^(?:mon|tues|wednes|thurs|fri|satur|sun)day$", re.I)
CLASSES = (
    "2 occasions the facts cannot back",
    "4 period scores",
    "3 counts over subjects",
    "5 result words and margins",
    "1 a wrong name",
    "6 several mistakes in one sentence",
)


def _sentence(tokens: list[str], start: int, end: int) -> str:
    low = max((i for i in range(start - 1) if tokens[i] == "."), default=-1) + 1
    high = next((i for i in range(end, len(tokens)) if tokens[i] == "."), len(tokens))
    return " ".join(tokens[low:high])


def mistake_class(mistake: Any, tokens: list[str], crowded: bool) -> str | None:
    """The class of one gold mistake (see :data:`CLASSES`), or None (a plain number)."""
    sentence = _sentence(tokens, mistake.start, mistake.end)
    said = mistake.tokens
    later = _LATER.search(sentence) and mistake.category in ("NAME", "WORD", "CONTEXT")
    if later or _SPAN.search(sentence):
        return CLASSES[0]
    if _PERIOD.search(sentence) and mistake.category in ("NUMBER", "NAME", "WORD"):
        return CLASSES[1]
    if "double figures" in sentence and _COUNT.search(said):
        return CLASSES[2]
    if mistake.category == "WORD" and _RESULT.search(said):
        return CLASSES[3]
    if mistake.category in ("NAME", "CONTEXT") and said[:1].isupper() and not _DAYS.match(said):
        return CLASSES[4]
    return CLASSES[5] if crowded else None


def class_counts(score: ModuleType, result: Any) -> dict[str, list[int]]:
    """{class: [training mistakes, found]} over every gold mistake."""
    counts = {name: [0, 0] for name in CLASSES}
    for tid, rows in result.matched.items():
        tokens = score.read_text("train", tid).split()
        per_sentence: dict[str, int] = {}
        for gold, _ in rows:
            key = _sentence(tokens, gold.start, gold.end)
            per_sentence[key] = per_sentence.get(key, 0) + 1
        for gold, hit in rows:
            crowded = per_sentence[_sentence(tokens, gold.start, gold.end)] > 1
            name = mistake_class(gold, tokens, crowded)
            if name is not None:
                counts[name][0] += 1
                counts[name][1] += hit is not None
    return counts


def _classes(score: ModuleType, results: dict[str, Any]) -> str:
    counts = class_counts(score, results["ALL"])
    return "\n".join(
        f"{'':28} class {name:38} found {found:3} of {total:3} training mistakes"
        for name, (total, found) in counts.items()
    )


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
        print(_line("bench lexicon (as filed)", score_run(score, FILED)))
        full_run = score_run(score, LEXICON)
        print(_line("shipped basketball lexicon", full_run))
        print(_classes(score, full_run))
    print(f"baseline: {V3}")
    print(f"baseline: {WORDS}")
    print(f"baseline: {EXPLAINED}")
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
