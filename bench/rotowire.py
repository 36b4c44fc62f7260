"""Benchmark: the scanner on outside data, Rotowire NUMBER mistakes (train, 60 texts).

Runs the shared scorer (``../shared/rotowire/score.py``, which calls ``vouched scan``
through the CLI once per text) with this repository's basketball lexicon
(``bench/rotowire/lexicon.json``), and beside it, in the same run, the naive
value-membership anchor and the shared lexicon without the v2 sections. Prints
each run's last line and the figures of vouched 0.1.0 (0.494 / 0.351) for
comparison. Skips with a message when the shared data is not next to the checkout.

The lexicon is a basketball writer's list of stat phrases, pairs ("9-for-12 from
the field": made, attempted; "(33-34)" after a team: wins, losses; "113-107" after
"defeated": both teams' points) and countable stats ("a steal" is one); it holds
no phrase written for one line of the data.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "rotowire"
LEXICON = ROOT / "bench" / "rotowire" / "lexicon.json"
V010 = "recall=0.494 precision=0.351 (vouched 0.1.0, shared lexicon, measured 2026-12-01)"
TARGET = "recall >= 0.80 and precision >= 0.85 (issue 11, train)"


def last_line(command: list[str]) -> str:
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=1800, check=False
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("rotowire NUMBER")]
    if not lines:
        tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
        return "failed: " + " | ".join(tail)
    return lines[-1]


def main() -> int:
    score = SHARED / "score.py"
    if not score.is_file():
        print(f"skipped: {score} is not there (the shared Rotowire data sits beside the checkout)")
        return 0
    python = sys.executable
    print("naive membership: " + last_line([python, str(SHARED / "baseline_membership.py")]))
    print("shared lexicon:   " + last_line([python, str(score)]))
    print("bench lexicon:    " + last_line([python, str(score), "--lexicon", str(LEXICON)]))
    print(f"baseline:         {V010}")
    print(f"target:           {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
