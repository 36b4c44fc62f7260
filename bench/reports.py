"""Identity check: every scan report of the case suite and the corpora, before and after.

Scans, with this checkout's data, every case of ``tests/scan/cases`` (its world),
the Rotowire training texts (``../shared/rotowire``, the bench lexicon with each
game's aliases, and the shared lexicon), the weather dev texts
(``../shared/weather``) and the realistic answers of ``bench/scan.py`` (same seed),
and dumps each report (passed, findings with kind, span, text, detail) to JSON.
"Before" is another commit (default ``main``) extracted with ``git archive`` and run
in a child process on the same inputs; the figure is how many reports changed, per
corpus, and each change is printed (``--quiet``: counts only).

    python bench/reports.py                      # against main
    python bench/reports.py --against 0b51ad2    # against a commit
    python bench/reports.py --dump OUT.json      # this checkout's reports only
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# the shared data beside the checkout, or beside a folder of worktrees
SHARED = next(
    (p / "shared" for p in ROOT.parents if (p / "shared").is_dir()), ROOT.parent / "shared"
)
CASES = ROOT / "tests" / "scan" / "cases"
WORLDS = ROOT / "tests" / "scan" / "worlds"
LEXICON = ROOT / "bench" / "rotowire" / "lexicon.json"

Job = tuple[str, str, dict[str, Any]]  # corpus, key, inputs


def _world_jobs() -> Iterator[Job]:
    for path in sorted(CASES.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        default = data.get("world", path.stem)
        for case in data["case"]:
            yield (
                "cases",
                f"{path.stem}:{case['name']}",
                {
                    "world": case.get("world", default),
                    "text": case["text"],
                    "question": case.get("question"),
                    "lexicon": case.get("lexicon", True),
                },
            )


def _folder_jobs(corpus: str, folder: Path, base: Path | None) -> Iterator[Job]:
    for text in sorted(folder.glob("*.txt")):
        stem = text.name[: -len(".txt")]
        lexicon = json.loads((folder / f"{stem}.lexicon.json").read_text(encoding="utf-8"))
        if base is not None:
            lexicon = {
                **json.loads(base.read_text(encoding="utf-8")),
                "subjects": lexicon["subjects"],
            }
        yield (
            corpus,
            stem,
            {
                "facts": str(folder / f"{stem}.facts.json"),
                "lexicon_json": lexicon,
                "now": (folder / f"{stem}.now").read_text(encoding="utf-8").strip(),
                "text": text.read_text(encoding="utf-8"),
            },
        )


def _bench_jobs() -> Iterator[Job]:
    sys.path.insert(0, str(ROOT / "bench"))
    import scan as bench_scan  # noqa: PLC0415 - the bench's own corpus generator

    rng = random.Random(20261129)
    facts = bench_scan.make_facts(50, rng)
    rows = [f.model_dump(mode="json") for f in facts]
    for number in range(60):
        text = bench_scan.make_answer(facts, rng.randint(500, 1000), rng)
        yield "bench-scan", f"answer-{number}", {"fact_rows": rows, "text": text}


def jobs() -> list[Job]:
    found = list(_world_jobs())
    rotowire = SHARED / "rotowire" / "data" / "train"
    if rotowire.is_dir():
        found += _folder_jobs("rotowire-bench-lexicon", rotowire, LEXICON)
        found += _folder_jobs("rotowire-shared-lexicon", rotowire, None)
    weather = SHARED / "weather" / "data" / "dev"
    if weather.is_dir():
        found += _folder_jobs("weather-dev", weather, None)
    found += _bench_jobs()
    return found


def _report(job: Job) -> dict[str, Any]:
    from vouched import Fact, Lexicon, Policy, partition, scan  # noqa: PLC0415 - the tree run
    from vouched._time import parse_instant  # noqa: PLC0415

    _, _, inputs = job
    if "world" in inputs:
        world = json.loads((WORLDS / f"{inputs['world']}.json").read_text(encoding="utf-8"))
        policy = Policy.from_json(world.get("policy", {}))
        facts = [Fact.model_validate(f) for f in world["facts"]]
        gated = partition(facts, policy, parse_instant(world["now"]))
        lexicon = Lexicon.from_json(world.get("lexicon", {})) if inputs["lexicon"] else None
        report = scan(
            inputs["text"],
            gated,
            lexicon,
            sources=tuple(world.get("sources", ())),
            question=inputs["question"],
            policy=policy,
        )
    elif "fact_rows" in inputs:
        facts = [Fact.model_validate(f) for f in inputs["fact_rows"]]
        gated = partition(facts, Policy(), parse_instant("2026-11-29T12:10:00Z"))
        sys.path.insert(0, str(ROOT / "bench"))
        import scan as bench_scan  # noqa: PLC0415

        report = scan(inputs["text"], gated, bench_scan.LEXICON)
    else:
        rows = json.loads(Path(inputs["facts"]).read_text(encoding="utf-8"))
        facts = [Fact.model_validate(f) for f in rows]
        gated = partition(facts, Policy(), parse_instant(inputs["now"]))
        report = scan(inputs["text"], gated, Lexicon.from_json(inputs["lexicon_json"]))
    return {
        "passed": report.passed,
        "findings": [
            [str(f.kind), f.start, f.end, f.text, f.detail, f.subject, f.attribute]
            for f in report.findings
        ],
    }


def dump(out: Path) -> None:
    reports: dict[str, dict[str, Any]] = {}
    for job in jobs():
        corpus, key, _ = job
        try:
            reports.setdefault(corpus, {})[key] = _report(job)
        except Exception as error:  # noqa: BLE001 - a crash is a report too
            reports.setdefault(corpus, {})[key] = {"error": f"{type(error).__name__}: {error}"}
    out.write_text(json.dumps(reports, ensure_ascii=False, indent=0), encoding="utf-8")


def _before(ref: str, tmp: Path, out: Path) -> bool:
    """Dump the reports of ``ref``'s code into ``out``; False when git cannot give it."""
    run = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "src"],  # noqa: S607 - git on PATH
        capture_output=True,
        check=False,
    )
    if run.returncode != 0:
        return False
    archive = run.stdout
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)  # noqa: S607
    env = {**os.environ, "PYTHONPATH": str(tmp / "src")}
    subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--dump", str(out)], env=env, check=True
    )
    return True


def _short(report: dict[str, Any]) -> str:
    if "error" in report:
        return report["error"]
    return "; ".join(f"{k} {t!r}" for k, _s, _e, t, *_ in report["findings"]) or "clean"


def compare(before: dict[str, Any], after: dict[str, Any], *, quiet: bool) -> int:
    changed_total = 0
    for corpus in sorted(set(before) | set(after)):
        old, new = before.get(corpus, {}), after.get(corpus, {})
        keys = sorted(set(old) | set(new))
        changed = [k for k in keys if old.get(k) != new.get(k)]
        changed_total += len(changed)
        print(f"{corpus:26} {len(keys):5} reports, {len(changed):4} changed")
        if quiet:
            continue
        for key in changed:
            print(f"  {key}")
            print(f"    before: {_short(old[key]) if key in old else '(absent)'}")
            print(f"    after:  {_short(new[key]) if key in new else '(absent)'}")
    return changed_total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", type=Path, help="write this tree's reports to a JSON file")
    parser.add_argument("--against", default="main", help="the commit to compare with")
    parser.add_argument("--quiet", action="store_true", help="counts only")
    args = parser.parse_args()
    if args.dump is not None:
        dump(args.dump)
        return 0
    with tempfile.TemporaryDirectory(prefix="reports-") as name:
        tmp = Path(name)
        if not _before(args.against, tmp, tmp / "before.json"):
            print(f"skipped: git cannot archive {args.against!r} here (no such commit)")
            return 0
        dump(tmp / "after.json")
        before = json.loads((tmp / "before.json").read_text(encoding="utf-8"))
        after = json.loads((tmp / "after.json").read_text(encoding="utf-8"))
    print(f"before: {args.against} (git archive); after: this checkout; same inputs")
    total = compare(before, after, quiet=args.quiet)
    print(f"reports changed: {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
