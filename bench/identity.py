"""Byte-identity harness: every report of the case suite, the Rotowire training texts and
the bench corpora, dumped to JSON and compared with a saved dump.

A change to the scanner's engine (how it reads, not what it decides) must leave
every report byte for byte as it was. Run before the change with ``--save``, and
after it with ``--compare``:

    python bench/identity.py --save /tmp/before.json
    python bench/identity.py --compare /tmp/before.json
    python bench/identity.py --against main      # another commit's code, same inputs

Without either flag (as ``make bench`` runs it) it prints how many reports it
made per corpus and one digest of them all, the figure two runs compare.

Corpora: every case of ``tests/scan/cases`` in its world (streamed in words as
well, which must give the same report); each Rotowire training text with its own
lexicon and with ``bench/rotowire/lexicon.json`` (through the CLI, as the scorer
runs it; skipped when the shared data is not there); the weather dev texts
(``../shared/weather``, each with its own facts, lexicon and instant, and again with
facts valid for periods as the forecast adapter writes them); the answers of
``bench/scan.py`` and ``bench/stream.py`` (same seeds) and its hostile texts cut
to 64 KB.

``--against REF`` extracts ``REF``'s ``src`` with ``git archive``, dumps its
reports in a child process on this checkout's inputs, and compares.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scan import LEXICON, NOW, forecast_texts, make_answer, make_facts
from vouched import Fact, Lexicon, Policy, StreamScanner, partition, scan
from vouched._time import parse_instant

try:
    from vouched._scan._rules._rule import audited
except ImportError:  # an older commit (--against): no rule registry to audit
    audited = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "scan"))

HOSTILE_CHARS = 64 * 1024
# A report an older commit (--against) could not make: its reader refuses an input this
# checkout's data grew (a lexicon key added since). Counted apart, never as changed.
UNREADABLE = "unreadable"


def _cases() -> Iterator[tuple[str, dict[str, Any]]]:
    from _cases import load_cases, world  # noqa: PLC0415 - the tests' loader, read at run time

    for case in load_cases():
        w = world(case.world)
        lexicon = w.lexicon if case.lexicon else None
        args = (w.gated, lexicon)
        kwargs: dict[str, Any] = {
            "sources": w.sources,
            "question": case.question,
            "policy": w.policy,
        }
        yield f"case:{case.id}", scan(case.text, *args, **kwargs).to_json()
        stream = StreamScanner(*args, **kwargs)
        for piece in re.findall(r"\S+\s*|\s+", case.text):
            stream.feed(piece)
        yield f"case-stream:{case.id}", stream.close().to_json()


def _rotowire() -> Iterator[tuple[str, dict[str, Any]]]:
    import rotowire  # noqa: PLC0415 - the bench's own Rotowire runner

    if not (rotowire.SHARED / "score.py").is_file():
        print(f"rotowire: skipped ({rotowire.SHARED} is not there)")
        return
    score = rotowire._scorer()
    with tempfile.TemporaryDirectory(prefix="identity-") as tmp:
        for tid in score.text_ids("train"):
            for name, lexicon in (("own", None), ("bench", rotowire.LEXICON)):
                try:
                    found = rotowire._scan_in_process(score, tid, lexicon, Path(tmp))
                except RuntimeError as error:  # an older commit refusing a newer lexicon
                    yield f"rotowire:{name}:{tid}", {UNREADABLE: str(error)}
                    continue
                yield f"rotowire:{name}:{tid}", {"findings": found}


def _weather() -> Iterator[tuple[str, dict[str, Any]]]:
    from weather import DEV  # noqa: PLC0415 - the bench's own path to the shared data

    if not DEV.is_dir():
        print(f"weather: skipped ({DEV} is not there)")
        return
    for text in sorted(DEV.glob("*.txt")):
        stem = text.name[: -len(".txt")]
        rows = json.loads((DEV / f"{stem}.facts.json").read_text(encoding="utf-8"))
        lexicon = json.loads((DEV / f"{stem}.lexicon.json").read_text(encoding="utf-8"))
        now = parse_instant((DEV / f"{stem}.now").read_text(encoding="utf-8").strip())
        gated = partition([Fact.model_validate(r) for r in rows], Policy(), now)
        report = scan(text.read_text(encoding="utf-8"), gated, Lexicon.from_json(lexicon))
        yield f"weather:{stem}", report.to_json()


def _forecasts() -> Iterator[tuple[str, dict[str, Any]]]:
    """The weather dev texts with facts valid for periods (the forecast adapter's), where
    time binds; skipped without the shared data or the adapters."""
    for n, (text, now, periods, lexicon, _, _) in enumerate(forecast_texts()):
        yield f"forecast:{n}", scan(text, periods, lexicon, now=now).to_json()


def _bench() -> Iterator[tuple[str, dict[str, Any]]]:
    rng = random.Random(20261129)  # bench/scan.py's seed and draws
    facts = make_facts(50, rng)
    gated = partition(facts, Policy(), NOW)
    for n in range(60):
        text = make_answer(facts, rng.randint(500, 1000), rng)
        yield f"scan-answer:{n}", scan(text, gated, LEXICON).to_json()
    for kb in (1, 4, 16):
        yield f"scan-kb:{kb}", scan(make_answer(facts, kb * 1024, rng), gated, LEXICON).to_json()
    for count in (10, 100, 1000):
        many = make_facts(count, rng)
        text = make_answer(many, 1024, rng)
        yield f"scan-facts:{count}", scan(text, partition(many, Policy(), NOW), LEXICON).to_json()
    value = next(f for f in facts if f.attribute == "temperature")
    hostile = {
        "quote-straight": '"x ' * 40_000,
        "quote-curly": "\u201cx " * 40_000,
        "quote-single": " \u2018x" * 40_000,
        "quote-guillemet": "\u00abx " * 40_000,
        "restated": f"{value.subject} is {value.value} °C. " * 3_000,
        "dense": make_answer(facts, HOSTILE_CHARS, random.Random(7)),
        "no-end": "Berlin 21.4 °C, " * 4_000,
        "named": " ".join(f"{f.subject} {f.value}" for f in facts) * 60,
    }
    for name, text in hostile.items():
        yield f"hostile:{name}", scan(text[:HOSTILE_CHARS], gated, LEXICON).to_json()
    rng = random.Random(20261201)  # bench/stream.py's seed
    facts = make_facts(50, rng)
    gated = partition(facts, Policy(), NOW)
    for kb in (1, 2, 4):
        yield f"stream-answer:{kb}", scan(make_answer(facts, kb * 1024, rng), gated).to_json()


def dump() -> dict[str, Any]:
    reports: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for corpus in (_cases, _rotowire, _weather, _forecasts, _bench):
        for key, report in corpus():
            reports[key] = report
            family = key.split(":", 1)[0]
            counts[family] = counts.get(family, 0) + 1
    print("reports: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return reports


def digest(reports: dict[str, Any]) -> str:
    exact = json.dumps(reports, sort_keys=True, default=str)  # a Decimal as its text
    return hashlib.sha256(exact.encode()).hexdigest()[:16]


def _against(ref: str, out: Path) -> bool:
    """Dump ``ref``'s reports into ``out`` (its ``src``, this checkout's inputs);
    False when git cannot give it."""
    run = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "src"],  # noqa: S607 - git on PATH
        capture_output=True,
        check=False,
    )
    if run.returncode != 0:
        return False
    tree = out.parent / "tree"
    tree.mkdir()
    subprocess.run(["tar", "-x", "-C", str(tree)], input=run.stdout, check=True)  # noqa: S607
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    script = str(Path(__file__).resolve())
    subprocess.run([sys.executable, script, "--save", str(out)], env=env, check=True)
    return True


def _compare(before: dict[str, Any], reports: dict[str, Any], name: str) -> int:
    # as the dump reads back: a fact's exact value (a Decimal) as its text
    reports = json.loads(json.dumps(reports, default=str))
    keys = before.keys() | reports.keys()
    unreadable = {k for k in keys if UNREADABLE in (before.get(k) or {})}
    changed = sorted(k for k in keys - unreadable if before.get(k) != reports.get(k))
    print(f"against {name} (digest {digest(before)}): {len(changed)} changed")
    if unreadable:
        print(
            f"  not compared: {len(unreadable)} ({name} cannot read their input, e.g. "
            f"{before[min(unreadable)][UNREADABLE][:120]})"
        )
    families = Counter(k.split(":", 1)[0] for k in changed)
    if families:
        print("  changed per corpus: " + ", ".join(f"{k} {v}" for k, v in families.items()))
    for key in changed[:40]:
        print(f"  {key}")
        print(f"    before: {json.dumps(before.get(key), default=str)[:400]}")
        print(f"    after:  {json.dumps(reports.get(key), default=str)[:400]}")
    return 1 if changed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", type=Path, help="write every report to this JSON file")
    parser.add_argument("--compare", type=Path, help="compare every report with this dump")
    parser.add_argument("--against", help="compare with this commit's code (git archive)")
    args = parser.parse_args(argv)
    with audited() if audited is not None else contextlib.nullcontext([]) as undeclared:
        reports = dump()
    print(f"{len(reports)} reports, digest {digest(reports)}")
    print(f"findings of a kind their rule did not declare: {len(undeclared)}")
    for (rule, kind), count in Counter((u.rule, str(u.kind)) for u in undeclared).items():
        print(f"  {rule} -> {kind}: {count}")
    if args.save:
        saved = json.dumps(reports, sort_keys=True, indent=1, default=str)
        args.save.write_text(saved, encoding="utf-8")
        print(f"saved to {args.save}")
    if args.compare:
        before: dict[str, Any] = json.loads(args.compare.read_text(encoding="utf-8"))
        return _compare(before, reports, str(args.compare))
    if args.against:
        with tempfile.TemporaryDirectory(prefix="identity-") as tmp:
            out = Path(tmp) / "before.json"
            if not _against(args.against, out):
                print(f"skipped: git cannot archive {args.against!r} here (no such commit)")
                return 0
            before = json.loads(out.read_text(encoding="utf-8"))
        return _compare(before, reports, f"{args.against} (git archive)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
