"""Verdicts as a regression suite (issue 43, item 3): ``vouched replay --verdicts``
and ``vouched review export-verdicts``, as a user runs them."""

from __future__ import annotations

import json
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from review.test_lexicon_recorded import INTERNAL, _answer
from vouched import Fact, Lexicon, Policy, SqliteSnapshotStore, partition, scan
from vouched._replay._verdicts import Mark, ReviewVerdict
from vouched.testing import run_cli

AT = datetime(2026, 11, 29, 13, 0, tzinfo=UTC)
TWO = "The backend says the humidity in Berlin is 64%."  # an internal word and a wrong value


def _store(path: Path, text: str, mark: Mark, *, kind: str = "internal_vocabulary") -> None:
    """One answer refused under INTERNAL, and a verdict on its ``kind`` finding."""
    with SqliteSnapshotStore(path) as store:
        _answer(store, INTERNAL, text)
        (snapshot,) = store.iter()
        finding = next(f for f in snapshot.trail[0].findings if f["kind"] == kind)
        store.write_verdict(
            ReviewVerdict(
                snapshot_id=snapshot.id,
                attempt=1,
                mark=mark,
                kind=kind,
                start=finding["start"],
                end=finding["end"],
                text=finding["text"],
                reviewer="ana",
                at=AT,
            )
        )


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    """The lexicon without the internal word: the change under test."""
    path = tmp_path / "plain.json"
    path.write_text(json.dumps({"attributes": {"humidity": ["humidity"]}}), encoding="utf-8")
    return path


def test_a_confirmed_false_alarm_that_still_fires_is_a_regression(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    _store(db, "The backend says the humidity in Berlin is 63%.", Mark.FALSE_ALARM)
    done = run_cli(["replay", "--store", str(db), "--verdicts", "--json"])
    report = json.loads(done.stdout)
    assert done.returncode == 1
    assert [r["now"] for r in report["regressions"]] == ["fires"]


def test_a_change_that_silences_a_confirmed_false_alarm_passes(tmp_path: Path, plain: Path) -> None:
    db = tmp_path / "a.db"
    _store(db, "The backend says the humidity in Berlin is 63%.", Mark.FALSE_ALARM)
    done = run_cli(["replay", "--store", str(db), "--verdicts", "--lexicon", str(plain), "--json"])
    assert (done.returncode, json.loads(done.stdout)["held"]) == (0, 1)


def test_a_confirmed_catch_that_now_passes_is_a_regression(tmp_path: Path, plain: Path) -> None:
    db = tmp_path / "a.db"
    _store(db, "The backend says the humidity in Berlin is 63%.", Mark.RIGHT)
    done = run_cli(["replay", "--store", str(db), "--verdicts", "--lexicon", str(plain)])
    assert done.returncode == 1
    assert "a confirmed catch now passes" in done.stdout
    assert "'backend'" in done.stdout


def test_findings_nobody_reviewed_are_listed_apart_not_as_regressions(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    _store(db, TWO, Mark.RIGHT)
    done = run_cli(["replay", "--store", str(db), "--verdicts", "--json"])
    report = json.loads(done.stdout)
    assert done.returncode == 0
    assert [u["text"] for u in report["unreviewed"]] == ["64%"]


def test_verdicts_from_a_file_replace_the_stores_own(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    _store(db, "The backend says the humidity in Berlin is 63%.", Mark.FALSE_ALARM)
    (verdict,) = SqliteSnapshotStore(db).review_verdicts()
    right = ReviewVerdict.from_json({**verdict.to_json(), "mark": "right"})
    file = tmp_path / "team.verdicts.jsonl"
    file.write_text(json.dumps(right.to_json()) + "\n", encoding="utf-8")
    done = run_cli(["replay", "--store", str(db), "--verdicts", str(file)])
    assert done.returncode == 0


def test_a_missing_verdicts_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    _store(db, "The backend says the humidity in Berlin is 63%.", Mark.RIGHT)
    done = run_cli(["replay", "--store", str(db), "--verdicts", str(tmp_path / "none.jsonl")])
    assert (done.returncode, done.stderr.count("\n")) == (2, 1)


def test_exported_cases_read_as_the_case_suite_and_hold_today(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    _store(db, TWO, Mark.FALSE_ALARM)
    out = tmp_path / "cases"
    done = run_cli(["review", "export-verdicts", str(db), "--out", str(out)])
    assert done.returncode == 0, done.stderr
    cases = tomllib.loads((out / "cases" / "verdicts.toml").read_text(encoding="utf-8"))["case"]
    (case,) = cases
    world = json.loads((out / "worlds" / f"{case['world']}.json").read_text(encoding="utf-8"))
    # the false alarm is expected not to fire; the unreviewed finding is kept as found
    assert case["findings"] == [["value_mismatch", "64%"]]
    assert "a false alarm (ana)" in case["pins"]
    policy = Policy.from_json(world["policy"])
    facts = [Fact.model_validate(f) for f in world["facts"]]
    gated = partition(facts, policy, datetime.fromisoformat(world["now"]))
    lexicon = Lexicon.from_json(world["lexicon"])
    found = scan(case["text"], gated, lexicon, question=case["question"], policy=policy)
    # today's rules still fire the false alarm: the exported case fails until fixed
    assert sorted((str(f.kind), f.text) for f in found.findings) == [
        ("internal_vocabulary", "backend"),
        ("value_mismatch", "64%"),
    ]


def test_export_verdicts_without_a_folder_is_one_line_and_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    _store(db, TWO, Mark.RIGHT)
    done = run_cli(["review", "export-verdicts", str(db)])
    assert (done.returncode, done.stderr.count("\n")) == (2, 1)
    assert "--out" in done.stderr
