"""Benchmark: a native per-sentence core (Cython) beside mypyc, on the number reader and binder.

Issue 36 step 7 asks whether a native core beats mypyc by >= 2x on the stage it would
replace: the number reader (``read_numbers``: ``_lex/_numbers``, ``_numwords``, ``_units``,
``_patterns``, ``_quantities``, ``_skips``) and the binder (``bind``: ``_read/_binding``
and the readers it calls, ``_cues``, ``_subjects``, ``_sentence``, ``_mentions``,
``_structures``, ``_derived``, ``_values``). Three trees of the same sources:

- pure Python (``src/``);
- mypyc: those modules compiled with mypyc (the compiled build's flags), in a copy;
- Cython: the very same ``.py`` files compiled by ``cythonize`` in pure-Python mode (no
  source edits), in a copy.

Each copy lives in ``build/native/<tree>/`` (never in ``src/``) and is rebuilt only when
the sources change (each build takes 2-3 minutes of CPU). In a child process per tree, the
realistic answers (``bench/scan.py``'s generator) and the Rotowire box scores (when the
shared data is there) are scanned once while the arguments of every ``read_numbers`` and
``bind`` call the scanner makes are recorded; the stage is then replayed over them alone.
The three trees must give the same reports and the same stage results (digests compared).

Figures: instructions per pass of each stage (valgrind callgrind: a run with two more
passes minus a run without, halved, so imports, the corpus and warm-up cancel) and the
median of paired wall-clock passes (the trees alternated in each round), with Cython's
ratio to mypyc. Without Cython, a C compiler or mypyc it prints one line and stops.
Run ``python bench/native.py`` (``--no-valgrind`` for wall clock only).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "native"
MODULES = (
    "vouched/_scan/_lex/_numbers.py",
    "vouched/_scan/_lex/_numwords.py",
    "vouched/_scan/_lex/_units.py",
    "vouched/_scan/_lex/_patterns.py",
    "vouched/_scan/_lex/_quantities.py",
    "vouched/_scan/_lex/_skips.py",
    "vouched/_scan/_read/_binding.py",
    "vouched/_scan/_read/_cues.py",
    "vouched/_scan/_read/_subjects.py",
    "vouched/_scan/_read/_sentence.py",
    "vouched/_scan/_read/_mentions.py",
    "vouched/_scan/_read/_structures.py",
    "vouched/_scan/_read/_derived.py",
    "vouched/_scan/_read/_values.py",
)
# The compiled build's mypy flags (pyproject's mypyc hook: hatch-mypyc hides [tool.mypy])
MYPYC_ARGS = ("--strict", "--python-version=3.11", "--ignore-missing-imports")
STAGES = ("numbers", "binder")

CHILD = """
import hashlib, json, random, sys, time
sys.path.insert(0, %(bench)r)
from scan import LEXICON, NOW, box_score_games, make_answer, make_facts
import vouched._scan._judge as judge
import vouched._scan._read._evidence as evidence
from vouched import Policy, partition, scan
calls = {"numbers": [], "binder": []}
read_numbers, bind = judge.read_numbers, evidence.bind
def recording(name, function):
    def wrapper(*args):
        calls[name].append(args)
        return function(*args)
    return wrapper
judge.read_numbers = recording("numbers", read_numbers)
evidence.bind = recording("binder", bind)
rng = random.Random(20261129)
facts = make_facts(50, rng)
gated = partition(facts, Policy(), NOW)
work = [(make_answer(facts, rng.randint(500, 1000), rng), gated, LEXICON)
        for _ in range(%(answers)d)]
work += box_score_games(%(boxes)d)
reports = hashlib.sha256()
for text, facts_of, lexicon in work:
    report = scan(text, facts_of, lexicon).to_json()
    reports.update(json.dumps(report, sort_keys=True).encode())
judge.read_numbers, evidence.bind = read_numbers, bind
functions = {"numbers": read_numbers, "binder": bind}
def run(stage):
    function = functions[stage]
    return [function(*args) for args in calls[stage]]
out = {"compiled": type(bind).__name__ != "function", "reports": reports.hexdigest(),
       "calls": {s: len(c) for s, c in calls.items()}}
out["results"] = {s: hashlib.sha256(repr(run(s)).encode()).hexdigest() for s in calls}
passes = %(passes)r
for stage in passes:
    for _ in range(passes[stage]):
        run(stage)
if %(timed)r:
    for stage in calls:
        samples = []
        for _ in range(%(repeat)d):
            start = time.perf_counter_ns()
            run(stage)
            samples.append((time.perf_counter_ns() - start) / 1000)
        samples.sort()
        out[stage] = samples[len(samples) // 2]
print(json.dumps(out))
"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=40, help="realistic answers")
    parser.add_argument("--boxes", type=int, default=20, help="Rotowire box scores")
    parser.add_argument("--rounds", type=int, default=5, help="paired wall-clock rounds")
    parser.add_argument("--no-valgrind", action="store_true", help="wall clock only")
    args = parser.parse_args(argv)
    missing = _missing()
    if missing:
        print(f"native core (Cython) beside mypyc: skipped ({missing})")
        return 0
    trees = {
        "pure": ROOT / "src",
        "mypyc": _built("mypyc", _mypyc),
        "cython": _built("cython", _cython),
    }
    corpus = {"answers": args.answers, "boxes": args.boxes}
    print(
        f"native core (Cython) beside mypyc: number reader and binder, {args.answers} "
        f"realistic answers + {args.boxes} box scores, the stage replayed on the scanner's calls"
    )
    wall: dict[str, dict[str, list[float]]] = {t: {s: [] for s in STAGES} for t in trees}
    seen: dict[str, dict[str, object]] = {}
    for _ in range(args.rounds):
        for tree, path in trees.items():
            got = _child(path, {**corpus, "passes": {}, "timed": True, "repeat": 5})
            assert bool(got.pop("compiled")) == (tree != "pure"), f"{tree}: wrong tree imported"
            for stage in STAGES:
                wall[tree][stage].append(float(got.pop(stage)))  # type: ignore[arg-type]
            seen[tree] = got
    calls = seen["pure"]["calls"]
    same = all(seen[t] == seen["pure"] for t in trees)
    print(f"  calls replayed: {calls}; reports and stage results identical: {same}")
    if not args.no_valgrind and shutil.which("valgrind"):
        small = {"answers": max(1, args.answers // 4), "boxes": max(1, args.boxes // 4)}
        counts = {t: _instructions(p, small) for t, p in trees.items()}
        print(
            f"  instructions per pass (callgrind, {small['answers']} answers + "
            f"{small['boxes']} box scores: run with 2 more passes minus run without, halved)"
        )
        _table(counts, "{:>14,.0f}")
    print(f"  wall clock per pass, us (median of {args.rounds} rounds x 5, trees alternated)")
    _table(
        {t: {s: statistics.median(v) for s, v in w.items()} for t, w in wall.items()}, "{:>14.0f}"
    )
    paired = {
        s: statistics.median(
            m / c for m, c in zip(wall["mypyc"][s], wall["cython"][s], strict=True)
        )
        for s in STAGES
    }
    figures = ", ".join(f"{s} {paired[s]:.2f}x" for s in STAGES)
    print(f"  Cython over mypyc, paired wall clock: {figures} (adopt only at >= 2x)")
    return 0 if same else 1


def _table(figures: dict[str, dict[str, float]], cell: str) -> None:
    print(f"  {'':8}" + "".join(f"{s:>14}" for s in STAGES) + f"{'both':>14}")
    for tree, f in figures.items():
        row = [f[s] for s in STAGES]
        print(f"  {tree:8}" + "".join(cell.format(v) for v in [*row, sum(row)]))
    mypyc, cython = figures["mypyc"], figures["cython"]
    ratios = [mypyc[s] / cython[s] for s in STAGES]
    ratios.append(sum(mypyc.values()) / sum(cython.values()))
    print(f"  {'mypyc/cy':8}" + "".join(f"{r:>13.2f}x" for r in ratios))


def _missing() -> str:
    if importlib.util.find_spec("Cython") is None:
        return "Cython is not installed: pip install cython"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (the lint extra's hatch-mypyc brings it)"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    return ""


def _built(tree: str, build: Callable[[Path], None]) -> Path:
    """The copy of ``src`` with :data:`MODULES` compiled by ``build``; rebuilt when the
    sources change."""
    digest = hashlib.sha256(tree.encode())
    for path in sorted((ROOT / "src").rglob("*.py")):
        digest.update(path.read_bytes())
    home = BUILD / tree
    stamp = home / ".built"
    if stamp.is_file() and stamp.read_text() == digest.hexdigest():
        return home / "src"
    print(f"  building the {tree} tree in {home} (a few minutes)", flush=True)
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    shutil.copytree(
        ROOT / "src", home / "src", ignore=shutil.ignore_patterns("*.so", "__pycache__")
    )
    build(home / "src")
    shutil.rmtree(home / "src" / "build", ignore_errors=True)
    stamp.write_text(digest.hexdigest())
    return home / "src"


def _mypyc(src: Path) -> None:
    env = {**os.environ, "MYPYC_OPT_LEVEL": "3", "MYPYC_DEBUG_LEVEL": "0"}
    mypyc = [sys.executable, "-m", "mypyc", *MYPYC_ARGS, *MODULES]
    subprocess.run(mypyc, cwd=src, env=env, check=True, capture_output=True)


def _cython(src: Path) -> None:
    cython = [sys.executable, "-m", "Cython.Build.Cythonize", "-i", "-3", "-j", "1", *MODULES]
    subprocess.run(cython, cwd=src, check=True, capture_output=True)


def _child(tree: Path, values: dict[str, object], wrap: Sequence[str] = ()) -> dict[str, object]:
    code = CHILD % {"bench": str(ROOT / "bench"), **values}
    done = subprocess.run(
        [*wrap, sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tree)},
        check=True,
    )
    got: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    if wrap:
        found = re.search(r"Collected : (\d+)", done.stderr)
        assert found, done.stderr[-500:]
        got["instructions"] = int(found.group(1))
    return got


def _instructions(tree: Path, corpus: dict[str, int]) -> dict[str, float]:
    """Instructions per pass of each stage under callgrind."""
    wrap = ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")
    runs = [{}, {"numbers": 2}, {"binder": 2}]
    got = [_child(tree, {**corpus, "passes": p, "timed": False, "repeat": 0}, wrap) for p in runs]
    base = float(got[0]["instructions"])  # type: ignore[arg-type]
    return {s: (float(g["instructions"]) - base) / 2 for s, g in zip(STAGES, got[1:], strict=True)}  # type: ignore[arg-type]


if __name__ == "__main__":
    sys.exit(main())
