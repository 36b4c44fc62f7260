"""Answers people write (issue 37): clean answers flagged, planted mistakes caught.

The corpus is ``bench/answers/<domain>.toml``: per domain the instant the answers
are read at (``now``), a fact file shaped as an adapter writes it, a lexicon (a
file beside it or a shipped lexicon's name, plus optional ``[subjects]`` aliases)
and ``[[answer]]`` tables, each a ``text`` (and optionally the user's
``question``). A planted answer holds ONE mistake: ``wrong`` (the wrong words),
``span`` (their ``[start, end)`` in the text) and ``kind`` (the finding kind a
reader expects). The corpus was written before the rules it measures were changed,
without reading the scanner's code; see bench/answers/README.md.

Per domain and overall it prints how many clean answers got any finding, and how
many planted mistakes got a finding overlapping their span ("caught on their
words"; "kind" counts those whose overlapping finding has the expected kind),
beside the same corpus scored by the baseline commit (main when this round began,
extracted with ``git archive`` and run in a child process with the same facts and
lexicon files; a shipped lexicon as that commit shipped it). Then it lists every
flagged clean answer and missed mistake with its findings.

    python bench/answers.py                  # this checkout beside the baseline
    python bench/answers.py --no-baseline    # this checkout only
    python bench/answers.py --check          # validate the corpus only

``bench/answers/unseen/`` is a second, smaller set in the same format, written at the
start of issue 37's second round before any of its rule changes and without reading
the scanner; it is printed as its own table so it stays an unseen check.
``bench/answers/unseen2/`` is the third round's set, written the same way at its start.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "bench" / "answers"
UNSEEN = CORPUS / "unseen"  # the second round's own check, written before its rule changes
UNSEEN2 = CORPUS / "unseen2"  # the third round's own check, written before its rule changes
SHIPPED = ROOT / "src" / "vouched" / "_data" / "lexicons"
BASELINE = "0b1f7be"  # main when the third round began (da5241b the second, 371a6ef the first)
KINDS = frozenset(
    {
        "ungrounded_number",
        "value_mismatch",
        "unit_mismatch",
        "silent_spoken",
        "inconsistency",
        "placeholder",
        "internal_vocabulary",
        "template_fallback",
        "unsupported_quote",
        "subject_mismatch",
        "attribute_mismatch",
        "relation_mismatch",
        "ungrounded_claim",
    }
)
_CLEAN_KEYS = {"id", "text", "question"}
_PLANTED_KEYS = _CLEAN_KEYS | {"wrong", "span", "kind"}


class CorpusError(Exception):
    """A corpus file that breaks the format: the message names file, answer and field."""


@dataclass(frozen=True)
class Answer:
    id: str
    text: str
    question: str | None
    span: tuple[int, int] | None  # None: a clean answer
    kind: str | None


@dataclass(frozen=True)
class Domain:
    name: str
    now: str
    facts: Path
    lexicon: dict[str, Any]
    answers: tuple[Answer, ...]
    shipped: str | None = None  # the shipped lexicon's name, when the corpus names one


def _lexicon(path: Path, ref: object, subjects: object) -> dict[str, Any]:
    if not isinstance(ref, str) or not ref:
        raise CorpusError(f"{path}: lexicon: a file name or a shipped lexicon's name")
    file = path.parent / ref
    source = file if file.suffix == ".json" else SHIPPED / f"{ref}.json"
    if not source.is_file():
        raise CorpusError(f"{path}: lexicon: no file {source}")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    if subjects is not None:
        if not isinstance(subjects, dict) or not all(
            isinstance(v, list) and all(isinstance(a, str) for a in v) for v in subjects.values()
        ):
            raise CorpusError(f"{path}: subjects: a table of alias lists")
        data["subjects"] = {**data.get("subjects", {}), **subjects}
    return data


def _answer(path: Path, raw: object, seen: set[str]) -> Answer:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        raise CorpusError(f"{path}: an [[answer]] without a string id")
    where = f"{path}: answer {raw['id']}"
    if raw["id"] in seen:
        raise CorpusError(f"{where}: id: used twice")
    seen.add(raw["id"])
    text, question = raw.get("text"), raw.get("question")
    if not isinstance(text, str) or not text.strip():
        raise CorpusError(f"{where}: text: a non-empty string")
    if question is not None and not isinstance(question, str):
        raise CorpusError(f"{where}: question: a string")
    planted = "wrong" in raw or "span" in raw or "kind" in raw
    allowed = _PLANTED_KEYS if planted else _CLEAN_KEYS
    extra = sorted(set(raw) - allowed)
    if extra:
        raise CorpusError(f"{where}: {extra[0]}: not a field of an answer")
    if not planted:
        return Answer(raw["id"], text, question, None, None)
    wrong, span, kind = raw.get("wrong"), raw.get("span"), raw.get("kind")
    if kind not in KINDS:
        raise CorpusError(f"{where}: kind: {kind!r} is not a finding kind")
    if (
        not isinstance(span, list)
        or len(span) != 2
        or not all(isinstance(i, int) for i in span)
        or not 0 <= span[0] < span[1] <= len(text)
    ):
        raise CorpusError(f"{where}: span: [start, end) inside the text")
    if not isinstance(wrong, str) or text[span[0] : span[1]] != wrong:
        raise CorpusError(f"{where}: span: the text there is not {wrong!r}")
    return Answer(raw["id"], text, question, (span[0], span[1]), kind)


def load_domain(path: Path) -> Domain:
    """One corpus file, validated; a broken one is a CorpusError naming the place."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise CorpusError(f"{path}: {error}") from None
    for key in ("domain", "now", "facts", "lexicon"):
        if not isinstance(data.get(key), str):
            raise CorpusError(f"{path}: {key}: a string")
    facts = path.parent / data["facts"]
    if not facts.is_file():
        raise CorpusError(f"{path}: facts: no file {facts}")
    seen: set[str] = set()
    answers = tuple(_answer(path, raw, seen) for raw in data.get("answer", []))
    clean = sum(a.span is None for a in answers)
    if not answers or abs(2 * clean - len(answers)) > 1:
        raise CorpusError(f"{path}: answer: half clean, half planted ({clean} of {len(answers)})")
    lexicon = _lexicon(path, data["lexicon"], data.get("subjects"))
    ref = data["lexicon"]
    shipped = None if ref.endswith(".json") else ref
    return Domain(data["domain"], data["now"], facts, lexicon, answers, shipped)


def load_corpus(directory: Path = CORPUS) -> list[Domain]:
    domains = [load_domain(p) for p in sorted(directory.glob("*.toml"))]
    if not domains:
        raise CorpusError(f"{directory}: no corpus files")
    return domains


def findings(domains: Sequence[Domain]) -> dict[str, list[dict[str, Any]]]:
    """Every answer's findings with the vouched on sys.path (this checkout or the baseline)."""
    from vouched import Lexicon, Policy, load_facts, partition, scan  # noqa: PLC0415

    out: dict[str, list[dict[str, Any]]] = {}
    for domain in domains:
        gated = partition(load_facts(domain.facts), Policy(), _instant(domain.now))
        lexicon = _read_lexicon(domain, Lexicon)
        for answer in domain.answers:
            report = scan(answer.text, gated, lexicon, question=answer.question)
            out[answer.id] = [
                {
                    "kind": str(f.kind),
                    "start": f.start,
                    "end": f.end,
                    "text": f.text,
                    "detail": f.detail,
                }
                for f in report.findings
            ]
    return out


def _read_lexicon(domain: Domain, lexicon_type: Any) -> Any:
    """The domain's lexicon as the running library reads it. A baseline commit scores a
    shipped lexicon as it shipped then (its own data, in its own format), so a key this
    checkout's data added cannot break the older reader; a lexicon file is the same for both."""
    names = getattr(lexicon_type, "shipped_names", tuple)()  # none before lexicons shipped
    if domain.shipped is not None and domain.shipped in names:
        own = lexicon_type.shipped(domain.shipped).to_json()
        subjects = {**own.get("subjects", {}), **domain.lexicon.get("subjects", {})}
        return lexicon_type.from_json({**own, "subjects": subjects})
    return lexicon_type.from_json(domain.lexicon)


def _instant(text: str) -> Any:
    from datetime import datetime  # noqa: PLC0415

    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def baseline_findings(commit: str) -> dict[str, list[dict[str, Any]]]:
    """The same corpus scored by ``commit``'s library, in a child process."""
    with tempfile.TemporaryDirectory(prefix="vouched-answers-") as tmp:
        archive = subprocess.run(
            ["git", "archive", commit, "src"],  # noqa: S607 - git from PATH, as a developer runs it
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        tar_path = Path(tmp) / "src.tar"
        tar_path.write_bytes(archive)
        with tarfile.open(tar_path) as tar:
            tar.extractall(tmp, filter="data")
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src")}
        done = subprocess.run(
            [sys.executable, __file__, "--findings-json"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp,
        )
        result: dict[str, list[dict[str, Any]]] = json.loads(done.stdout)
        return result


@dataclass(frozen=True)
class Score:
    clean: int = 0
    flagged: int = 0
    planted: int = 0
    caught: int = 0
    kind: int = 0

    def __add__(self, other: Score) -> Score:
        return Score(*(a + b for a, b in zip(_fields(self), _fields(other), strict=True)))

    def line(self) -> str:
        return (
            f"flagged {self.flagged:3}/{self.clean:<3} ({_pct(self.flagged, self.clean):5.1f}%)"
            f"  caught {self.caught:3}/{self.planted:<3} ({_pct(self.caught, self.planted):5.1f}%)"
            f"  kind {self.kind:3}"
        )


def _fields(score: Score) -> tuple[int, ...]:
    return (score.clean, score.flagged, score.planted, score.caught, score.kind)


def _pct(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 0.0


def _overlaps(answer: Answer, found: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    assert answer.span is not None
    start, end = answer.span
    return [f for f in found if f["start"] < end and start < f["end"]]


def score(domain: Domain, found: Mapping[str, Sequence[Mapping[str, Any]]]) -> Score:
    total = Score()
    for answer in domain.answers:
        mine = found[answer.id]
        if answer.span is None:
            total += Score(clean=1, flagged=int(bool(mine)))
        else:
            hits = _overlaps(answer, mine)
            total += Score(
                planted=1,
                caught=int(bool(hits)),
                kind=int(any(f["kind"] == answer.kind for f in hits)),
            )
    return total


def failures(domain: Domain, found: Mapping[str, Sequence[Mapping[str, Any]]]) -> Iterator[str]:
    for answer in domain.answers:
        mine = found[answer.id]
        if answer.span is None and not mine:
            continue
        if answer.span is not None and _overlaps(answer, mine):
            continue
        what = "FLAGGED" if answer.span is None else f"MISSED {answer.kind} {answer.span}"
        yield f"  {answer.id} {what}: {answer.text!r}"
        if answer.span is not None:
            start, end = answer.span
            yield f"      planted: {answer.text[start:end]!r}"
        for f in mine:
            yield f"      {f['kind']} {f['text']!r} [{f['start']}, {f['end']}): {f['detail']}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="validate the corpus only")
    parser.add_argument("--no-baseline", action="store_true", help="skip the baseline commit")
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with")
    parser.add_argument("--quiet", action="store_true", help="figures only, no failure list")
    parser.add_argument("--findings-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        domains = load_corpus()
        unseen = load_corpus(UNSEEN) if UNSEEN.is_dir() else []
        unseen2 = load_corpus(UNSEEN2) if UNSEEN2.is_dir() else []
    except CorpusError as error:
        print(f"bench/answers.py: {error}", file=sys.stderr)
        return 2
    if args.findings_json:
        print(json.dumps(findings([*domains, *unseen, *unseen2])))
        return 0
    if args.check:
        for name, group in (("corpus", domains), ("unseen", unseen), ("unseen2", unseen2)):
            answers = sum(len(d.answers) for d in group)
            print(f"{name} ok: {len(group)} domains, {answers} answers")
        return 0
    now = findings([*domains, *unseen, *unseen2])
    before = None if args.no_baseline else baseline_findings(args.baseline)
    _table("answers", domains, now, before, args)
    for name, group in (("unseen", unseen), ("unseen2", unseen2)):
        if group:
            print()
            _table(name, group, now, before, args)
    return 0


def _table(
    name: str,
    domains: Sequence[Domain],
    now: Mapping[str, Sequence[Mapping[str, Any]]],
    before: Mapping[str, Sequence[Mapping[str, Any]]] | None,
    args: argparse.Namespace,
) -> None:
    answers = sum(len(d.answers) for d in domains)
    print(
        f"{name}: {len(domains)} domains, {answers} answers"
        + ("" if before is None else f" (baseline {args.baseline} | this checkout)")
    )
    totals, base_totals = Score(), Score()
    for domain in domains:
        mine = score(domain, now)
        totals += mine
        if before is None:
            print(f"{domain.name:17} {mine.line()}")
        else:
            base = score(domain, before)
            base_totals += base
            print(f"{domain.name:17} {base.line()}  |  {mine.line()}")
    if before is None:
        print(f"{'overall':17} {totals.line()}")
    else:
        print(f"{'overall':17} {base_totals.line()}  |  {totals.line()}")
    if not args.quiet:
        for domain in domains:
            lines = list(failures(domain, now))
            if lines:
                print(f"\n{name} {domain.name}:")
                print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
