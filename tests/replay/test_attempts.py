"""Replay grades the model's attempts, not the text that was shown.

Each snapshot stores every attempt (text, prompt version, findings, on-fail
action) beside the output finally shown; a format 1 store written before
that still reads and grades without turning refusals into passes.
"""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from vouched import Fact, Grounder, InputError, Policy, Snapshot, SqliteSnapshotStore, replay
from vouched._jsonio import loads
from vouched._replay._snapshot import FORMAT_VERSION
from vouched.testing import FakeClock, ScriptedPhraser, ScriptedSource

NOW = "2026-11-29T12:05:00Z"
FIXTURE = Path(__file__).parent.parent / "fixtures" / "snapshots_v1.db"
FORMAT_2 = Path(__file__).parent.parent / "fixtures" / "snapshots_v2.jsonl"
RATE = Fact(
    subject="EUR/USD",
    attribute="rate",
    value=Decimal("1.0842"),
    source="ecb",
    observed_at="2026-11-29T12:00:00Z",
    confidence=0.95,
    ttl=86400,
)
GOOD = "The EUR/USD rate is 1.0842."
FABRICATION = "The EUR/USD rate is 1.0842, up 0.3% since yesterday."


def _answer(store: SqliteSnapshotStore, script: list[Any], on_fail: Any = "retry") -> None:
    clock = FakeClock(NOW)
    grounder = Grounder(
        [ScriptedSource("ecb", [[RATE]])],
        phraser=ScriptedPhraser(script),
        on_fail=on_fail,
        clock=clock,
        store=store,
    )
    grounder.answer_sync(f"what is a euro worth? ({len(store)})", {})


def _only(store: SqliteSnapshotStore) -> Snapshot:
    (snapshot,) = store.iter()
    return snapshot


def test_a_refused_answer_stores_each_fabrication_with_its_action(
    store: SqliteSnapshotStore,
) -> None:
    _answer(store, [FABRICATION, FABRICATION])
    snapshot = _only(store)
    assert snapshot.status == "refused"
    assert [a.text for a in snapshot.trail] == [FABRICATION, FABRICATION]
    assert [a.action for a in snapshot.trail] == ["retry", "refuse"]
    assert all(a.findings for a in snapshot.trail)
    assert snapshot.output.startswith("No answer is given")


def test_a_refused_fabrication_stays_a_failure_on_an_unchanged_policy(
    store: SqliteSnapshotStore,
) -> None:
    _answer(store, [FABRICATION, FABRICATION])
    _answer(store, [FABRICATION, GOOD])
    _answer(store, [GOOD])
    report = replay(store, Policy())
    assert (report.passed_then, report.passed_now) == (1, 1)
    assert (report.to_fail.count, report.to_pass.count) == (0, 0)
    assert report.findings_then == report.findings_now
    assert report.findings_now["ungrounded_number"] == 3  # one per fabricated attempt
    assert (report.attempts, report.attempts_passed_then, report.attempts_passed_now) == (5, 2, 2)
    (version,) = report.prompt_versions
    assert (version.refused, version.partial) == (1, 0)


def test_a_retry_that_passed_does_not_make_the_first_attempt_pass(
    store: SqliteSnapshotStore,
) -> None:
    _answer(store, [FABRICATION, GOOD])
    snapshot = _only(store)
    assert snapshot.status == "ok"
    assert not snapshot.passed
    assert replay(store, Policy()).passed_now == 0


def test_replay_rescans_the_attempts_under_todays_rules(store: SqliteSnapshotStore) -> None:
    _answer(store, [FABRICATION, FABRICATION])
    seen: list[str] = []

    def record(snapshot: Snapshot, gate: Any) -> list[dict[str, Any]]:
        seen.append(snapshot.output)
        return []

    report = replay(store, Policy(), rules=[record])
    assert seen == [FABRICATION, FABRICATION]
    assert report.to_pass.count == 1  # today's (empty) rule finds nothing in them


def test_a_phraser_error_never_passes(store: SqliteSnapshotStore) -> None:
    _answer(store, [TimeoutError()])
    snapshot = _only(store)
    assert [a.action for a in snapshot.trail] == ["error"]
    report = replay(store, Policy())
    assert (report.passed_then, report.passed_now) == (0, 0)


def test_a_partial_answer_keeps_the_whole_model_text(store: SqliteSnapshotStore) -> None:
    text = "The EUR/USD rate is 1.0842. It rose 0.3% since yesterday."
    _answer(store, [text], on_fail="partial")
    snapshot = _only(store)
    assert snapshot.status == "partial"
    assert snapshot.output.startswith("The EUR/USD rate is 1.0842. ")  # then what was left out
    assert [(a.text, a.action) for a in snapshot.trail] == [(text, "partial")]


def test_findings_count_once_per_span_per_attempt(
    store: SqliteSnapshotStore, make_snapshot: Any
) -> None:
    finding = {"kind": "ungrounded_number", "start": 3, "end": 5, "text": "18"}
    twice = make_snapshot(
        output="It is 18 km/h.",
        status="refused",
        findings=[finding, finding],
        trail=[
            {
                "text": "It 18",
                "prompt_version": "p1",
                "findings": [finding, finding],
                "action": "refuse",
            }
        ],
    )
    store.write(twice)
    report = replay(store, Policy(), rules=())
    assert report.findings_then == {"ungrounded_number": 1}


def test_the_attempts_texts_are_redacted_like_the_output() -> None:
    policy = Policy(sensitive_subjects=["EUR/USD"])
    snapshot = Snapshot.build(
        created_at=FakeClock(NOW).now(),
        question="q",
        facts=[RATE],
        policy=policy,
        prompt_version="p1",
        phraser="scripted",
        output=GOOD,
        status="ok",
        trail=[{"text": GOOD, "prompt_version": "p1", "findings": [], "action": "accept"}],
        redaction_key=b"test key",  # sensitive settings need one (issue 12)
    )
    assert "EUR/USD" not in snapshot.output
    assert snapshot.trail[0].text == snapshot.output


def test_a_snapshot_with_attempts_reads_back_byte_for_byte(store: SqliteSnapshotStore) -> None:
    _answer(store, [FABRICATION, GOOD])
    snapshot = _only(store)
    again = Snapshot.from_json(loads(snapshot.canonical_json()))
    assert again.canonical_json() == snapshot.canonical_json()
    assert again.trail == snapshot.trail


def test_an_unknown_attempt_action_names_the_field(store: SqliteSnapshotStore) -> None:
    _answer(store, [GOOD])
    data = _only(store).to_json()
    data["trail"][0]["action"] = "shrug"
    with pytest.raises(InputError, match=r"trail\.0\.action"):
        Snapshot.from_json(data, check_id=False)


# -- a store written by the previous release (format 1) --------------------------------


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    path = tmp_path / "old.db"
    shutil.copy(FIXTURE, path)
    return path


def test_a_format_1_store_keeps_its_ids_and_bytes(old_store: Path) -> None:
    with SqliteSnapshotStore(old_store, read_only=True) as store:
        snapshots = list(store.iter())
        assert len(snapshots) == 4
        for snapshot in snapshots:
            assert store.get(snapshot.id) == snapshot
            assert snapshot.to_json()["format"] == 1
            Snapshot.from_json(snapshot.to_json())  # the content id still checks


def test_a_format_1_store_grades_refusals_as_failures(old_store: Path) -> None:
    # Written by the code before this change: 1 passed first time, 1 retried,
    # 1 refused after two fabrications, 1 partial. Replaying it under the
    # unchanged policy used to print "passed 1 -> 4".
    with SqliteSnapshotStore(old_store, read_only=True) as store:
        report = replay(store, Policy())
    assert (report.passed_then, report.passed_now) == (1, 1)
    assert (report.to_fail.count, report.to_pass.count) == (0, 0)
    assert report.attempts_carried == 4  # the texts format 1 did not keep


def test_a_format_1_refusal_is_rebuilt_as_failed_attempts(old_store: Path) -> None:
    with SqliteSnapshotStore(old_store, read_only=True) as store:
        (refused,) = [s for s in store.iter() if s.status == "refused"]
    assert [(a.text, a.action) for a in refused.trail] == [(None, "retry"), (None, "refuse")]
    assert not refused.passed


def test_a_format_1_store_opens_for_writing_and_takes_new_snapshots(old_store: Path) -> None:
    with SqliteSnapshotStore(old_store) as store:
        _answer(store, [GOOD])
        formats = sorted(s.to_json()["format"] for s in store.iter())
    assert formats == [1, 1, 1, 1, FORMAT_VERSION]


def test_once_per_span_keeps_the_first_finding_of_each_kind_and_span() -> None:
    from vouched._replay._attempts import finding_span, once_per_span  # noqa: PLC0415

    a = {"kind": "value_mismatch", "start": 0, "end": 4, "detail": "first"}
    b = {"kind": "value_mismatch", "start": 0, "end": 4, "detail": "again"}
    c = {"kind": "subject_mismatch", "start": 0, "end": 4}
    assert once_per_span([a, b, c], finding_span) == [a, c]


def test_a_one_attempt_answer_stores_its_text_once(store: SqliteSnapshotStore) -> None:
    _answer(store, [GOOD])
    snapshot = _only(store)
    assert snapshot.canonical_json().count(GOOD) == 1
    assert [a.text for a in snapshot.trail] == [GOOD]  # still read as the attempt's text


def test_a_retried_answer_keeps_the_text_of_each_attempt(store: SqliteSnapshotStore) -> None:
    _answer(store, [FABRICATION, GOOD])
    snapshot = _only(store)
    assert [a.text for a in snapshot.trail] == [FABRICATION, GOOD]
    assert snapshot.canonical_json().count(GOOD) == 1


def test_a_format_2_snapshot_keeps_its_id_and_bytes_and_grades_as_it_did(
    tmp_path: Path,
) -> None:
    from vouched._replay._jsonl import import_jsonl  # noqa: PLC0415

    lines = FORMAT_2.read_text(encoding="utf-8").splitlines()
    with SqliteSnapshotStore(tmp_path / "v2.db") as store:
        assert import_jsonl(store, FORMAT_2) == 4
        stored = sorted(s.canonical_json() for s in store.iter())
        report = replay(store, Policy())
        texts = [[a.text for a in s.trail] for s in store.iter()]
    assert stored == sorted(lines)
    assert all(json.loads(line)["format"] == 2 for line in lines)
    assert (report.passed_then, report.passed_now) == (1, 1)
    assert report.attempts_carried == 0  # format 2 kept every text
    assert [GOOD] in texts
