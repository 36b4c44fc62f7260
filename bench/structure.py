"""Benchmark of the scanner's structure (issue 36), this checkout beside another commit.

Run ``python bench/structure.py`` (beside ``main``) or ``--against REF``. Each figure is
measured on both trees in one run (the other commit's ``src`` from ``git archive``):

- the conductor's scanner imports (``_scan/_judge.py``: scanner modules it imports at
  run time, and those it imports for types only);
- runner entry points: the rule runners (``judge*``, ``run*`` from ``_rules``) the
  conductor and the faces call;
- reader names imported by ``_rules/`` (functions of the read stage a rule calls);
- sentence readings per sentence on the weather dev texts with facts valid for periods
  (calls of ``read_sentence`` per sentence read; skipped without the shared data);
- scanner functions at radon CC >= 21 (skipped without radon, in the lint extra).

The speed figures beside another commit are ``bench/scan.py --against REF``'s.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
TARGETS = {
    "conductor's scanner imports (run time)": "<= 6",
    "conductor's scanner imports (types only)": "",
    "conductor's lines": "<= 150",
    "runner entry points": "1",
    "reader names imported by _rules/": "0",
    "sentence readings per sentence (forecast texts)": "1",
    "radon CC >= 21 in _scan": "0",
}

READINGS = """
import importlib, json, sys
sys.path.insert(0, %(bench)r)
from scan import forecast_texts
import vouched._scan._scanner  # every scanner module loaded
from vouched import Scanner
for name in ("vouched._scan._read._sentence", "vouched._scan._sentence"):
    try:
        home = importlib.import_module(name)
        break
    except ImportError:
        continue
real = home.read_sentence
calls = [0]
def counting(*args, **kwargs):
    calls[0] += 1
    return real(*args, **kwargs)
for module in list(sys.modules.values()):
    if (getattr(module, "__name__", "") or "").startswith("vouched._scan") and getattr(
        module, "read_sentence", None
    ) is real:
        module.read_sentence = counting
for text, now, periods, lexicon, _, _ in forecast_texts():
    Scanner(periods, lexicon, now=now).scan(text)
print(json.dumps(calls[0]))
"""


def _sentences() -> int:
    """How many sentences the forecast texts hold (this checkout's splitter)."""
    sys.path.insert(0, str(BENCH))
    from scan import forecast_texts  # noqa: PLC0415 - the bench's corpora
    from vouched._scan._lex._splitter import SentenceSplitter  # noqa: PLC0415

    count = 0
    for text, *_ in forecast_texts():
        ends = SentenceSplitter().ends(text, final=True)
        count += sum(1 for a, b in zip([0, *ends], ends, strict=False) if text[a:b].strip())
    return count


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of import nodes inside ``if TYPE_CHECKING:`` blocks."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found.update(id(n) for n in ast.walk(node) if isinstance(n, ast.ImportFrom))
    return found


def _imports(path: Path) -> list[tuple[str, list[str], bool]]:
    """Each ``from X import ...`` of ``path``: the module, the names, whether for types."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = _type_only(tree)
    return [
        (node.module or "", [a.name for a in node.names], id(node) in typing_only)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    ]


def _static(src: Path) -> dict[str, object]:
    scan = src / "vouched" / "_scan"
    conductor = scan / "_judge.py"
    if not conductor.exists():  # before the stage folders (issue 36 step 5)
        conductor = scan / "_reading.py"
    imports = _imports(conductor)
    run = {m for m, _, t in imports if m.startswith("vouched._scan") and not t}
    types = {m for m, _, t in imports if m.startswith("vouched._scan") and t} - run
    runners: set[str] = set()
    for face in (conductor.name, "_scanner.py", "_stream.py"):
        for module, names, _ in _imports(scan / face) if (scan / face).exists() else ():
            if module.startswith("vouched._scan._rules"):
                runners.update(n for n in names if n.startswith(("judge", "run")))
    readers: set[str] = set()
    for path in sorted((scan / "_rules").glob("*.py")):
        for module, names, _ in _imports(path):
            if module.startswith("vouched._scan._read."):
                readers.update(n for n in names if n[0].islower())
    figures: dict[str, object] = {
        "conductor's scanner imports (run time)": len(run),
        "conductor's scanner imports (types only)": len(types),
        "conductor's lines": len(conductor.read_text(encoding="utf-8").splitlines()),
        "runner entry points": len(runners),
        "reader names imported by _rules/": len(readers) if (scan / "_read").is_dir() else None,
    }
    try:
        from radon.complexity import cc_visit  # noqa: PLC0415 - the lint extra
    except ImportError:
        figures["radon CC >= 21 in _scan"] = None
    else:
        blocks = (b for p in scan.rglob("*.py") for b in cc_visit(p.read_text(encoding="utf-8")))
        figures["radon CC >= 21 in _scan"] = sum(1 for b in blocks if b.complexity >= 21)
    return figures


def _readings(src: Path, sentences: int) -> object:
    code = READINGS % {"bench": str(BENCH)}
    paths = os.pathsep.join([str(src), str(ROOT / "adapters" / "src")])
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": paths},
        check=True,
    )
    calls = json.loads(done.stdout.strip().splitlines()[-1])
    return calls / sentences if sentences and calls else None  # 0: the reader not found


def figures_of(src: Path, sentences: int) -> dict[str, object]:
    """Every structure figure of the scanner under ``src``."""
    found = _static(src)
    found["sentence readings per sentence (forecast texts)"] = _readings(src, sentences)
    return found


def _shown(value: object) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="main", help="the commit shown beside this one")
    args = parser.parse_args(argv)
    sentences = _sentences()
    with tempfile.TemporaryDirectory(prefix="structure-") as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.against, "src"],  # noqa: S607 - git on PATH
            capture_output=True,
            check=False,
        )
        before = None
        if archive.returncode == 0:
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)  # noqa: S607
            before = figures_of(Path(tmp) / "src", sentences)
        after = figures_of(ROOT / "src", sentences)
    label = args.against if before is not None else f"{args.against} (not in this clone)"
    print(f"scanner structure: {label} beside this checkout (issue 36 targets)")
    print(f"  {'figure':50} {args.against[:12]:>12} {'this':>8} {'target':>8}")
    for name, target in TARGETS.items():
        old = _shown(None if before is None else before.get(name))
        print(f"  {name:50} {old:>12} {_shown(after.get(name)):>8} {target:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
