"""Benchmark: the optional compiled scanner (mypyc, ``make compiled``) beside pure Python.

Run ``python bench/compiled.py`` (about a minute) after ``make compiled``; without the
compiled copy in ``build/compiled/lib`` it prints one line and stops. The same
realistic answers (``bench/scan.py``'s seed) and Rotowire box scores (when the shared
data is there) are timed in a child process per tree (``PYTHONPATH`` at ``src`` or at
the compiled copy), alternated three times, the least of each figure kept (the
machine's load hits both alike). Per tree: one-shot ``scan`` p50 per answer and its
median ratio to the naive membership check (issue 27 target <= 10x), ms per KB
(target <= 1 ms), box scores' one-shot p50 and ratio to naive (target <= 40x).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "compiled" / "lib"

CHILD = """
import json, random, statistics, sys
from pathlib import Path
sys.path.insert(0, %(bench)r)
from scan import LEXICON, NOW, box_score_games, make_answer, make_facts, naive_check, timed
import vouched._scan._judge as reading
from vouched import Policy, partition, scan
rng = random.Random(20261129)
facts = make_facts(50, rng)
gated = partition(facts, Policy(), NOW)
one, ratios, per_kb = [], [], []
for _ in range(%(answers)d):
    text = make_answer(facts, rng.randint(500, 1000), rng)
    s = timed(lambda t=text: scan(t, gated, LEXICON), %(repeat)d)
    n = timed(lambda t=text, c=naive_check(gated.grounded): c(t), %(repeat)d)
    one.append(s)
    ratios.append(s / n)
    per_kb.append(s / 1000 / (len(text.encode()) / 1024))
box, box_ratios = [], []
for text, game, words in box_score_games(%(boxes)d):
    s = timed(lambda t=text, g=game, x=words: scan(t, g, x), %(repeat)d)
    box.append(s)
    check = naive_check(game.grounded)
    box_ratios.append(s / timed(lambda t=text, c=check: c(t), %(repeat)d))
nan = float("nan")
print(json.dumps({
    "compiled": reading.__file__.endswith(".so"),
    "answer_us": statistics.median(one),
    "answer_ratio": statistics.median(ratios),
    "ms_per_kb": statistics.median(per_kb),
    "box_us": statistics.median(box) if box else nan,
    "box_ratio": statistics.median(box_ratios) if box else nan,
}))
"""

FIGURES = ("answer_us", "answer_ratio", "ms_per_kb", "box_us", "box_ratio")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="more answers and repetitions")
    args = parser.parse_args(argv)
    if not any(COMPILED.glob("vouched/_scan/_judge*.so")):
        print(f"compiled scanner: skipped (not built: `make compiled` puts it in {COMPILED})")
        return 0
    answers, repeat, boxes = (200, 21, 60) if args.full else (40, 9, 20)
    values = {"answers": answers, "repeat": repeat, "boxes": boxes}
    code = CHILD % {"bench": str(ROOT / "bench"), **values}
    trees = (("pure Python", ROOT / "src"), ("compiled", COMPILED))
    figures: dict[str, dict[str, float]] = {}
    for _ in range(3):
        for label, tree in trees:
            figures[label] = _least(figures.get(label), _child(code, tree, label))
    print(
        f"compiled scanner (mypyc) beside pure Python: {answers} realistic answers, "
        f"{boxes} box scores, {repeat} runs each, least of 3 alternated child runs"
    )
    print(f"  {'':12} {'answer p50 us':>13} {'x naive':>8} {'ms/KB':>6} {'box p50 us':>11} x naive")
    for label, f in figures.items():
        print(
            f"  {label:12} {f['answer_us']:13.1f} {f['answer_ratio']:7.1f}x "
            f"{f['ms_per_kb']:6.2f} {f['box_us']:11.1f} {f['box_ratio']:7.1f}x"
        )
    pure, fast = figures["pure Python"], figures["compiled"]
    print(
        f"  compiled speed-up: answers {pure['answer_us'] / fast['answer_us']:.2f}x, box scores "
        f"{pure['box_us'] / fast['box_us']:.2f}x  (issue 27's prototype: mypyc 1.6-1.75x; "
        "targets: answers <= 10x naive, <= 1 ms/KB, box scores <= 40x naive)"
    )
    return 0


def _child(code: str, tree: Path, label: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tree)},
        check=True,
    )
    got: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    assert bool(got.pop("compiled")) == (label == "compiled"), f"{label}: wrong tree imported"
    return got


def _least(kept: dict[str, float] | None, got: dict[str, float]) -> dict[str, float]:
    return got if kept is None else {k: min(kept[k], got[k]) for k in FIGURES}


if __name__ == "__main__":
    sys.exit(main())
