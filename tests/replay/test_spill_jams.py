"""A spill file no crash can jam: read as bytes line by line, what cannot be
read moved to a quarantine file (named in one log line with the count), every
append on a fresh line, and two processes on one path losing nothing."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from replay.population import SnapshotFactory
from vouched import Snapshot, SqliteSnapshotStore
from vouched._replay._spill import SpillFile

TESTS = Path(__file__).resolve().parent.parent


def _snapshots(make: SnapshotFactory, n: int, tag: str = "p") -> list[Snapshot]:
    return [make(prompt_version=f"{tag}{i}") for i in range(n)]


def test_a_line_torn_inside_a_utf8_character_jams_nothing(
    tmp_path: Path, make_snapshot: SnapshotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    spill = SpillFile(tmp_path / "spill.jsonl")
    torn = make_snapshot(question="Wie warm ist es in Köln?").canonical_json().encode()
    cut = torn.index("ö".encode()) + 1  # inside the two bytes of "ö"
    whole = _snapshots(make_snapshot, 99)
    spill.path.write_bytes(torn[:cut] + b"\n")
    spill.add(whole)
    written: list[Snapshot] = []
    with caplog.at_level(logging.ERROR, logger="vouched.snapshots"):
        assert spill.replay(written.extend, batch=10) == 99
    assert [s.id for s in written] == [s.id for s in whole]
    assert spill.quarantine.read_bytes() == torn[:cut] + b"\n"
    (said,) = [r.getMessage() for r in caplog.records]
    assert "1 lines" in said
    assert str(spill.quarantine) in said
    assert not spill.waiting()


def test_a_line_nested_200000_deep_is_quarantined_and_the_rest_replayed(
    tmp_path: Path, make_snapshot: SnapshotFactory
) -> None:
    spill = SpillFile(tmp_path / "spill.jsonl")
    spill.path.write_bytes(b"[" * 200_000 + b"]" * 200_000 + b"\n")
    whole = _snapshots(make_snapshot, 3)
    spill.add(whole)
    written: list[Snapshot] = []
    assert spill.replay(written.extend) == 3
    assert len(spill.quarantine.read_bytes()) == 400_001


def test_an_append_after_a_torn_last_line_starts_on_a_fresh_line(
    tmp_path: Path, make_snapshot: SnapshotFactory
) -> None:
    spill = SpillFile(tmp_path / "spill.jsonl")
    first, second = _snapshots(make_snapshot, 2)
    spill.path.write_bytes(first.canonical_json().encode()[:40])  # a kill mid-append
    spill.add([second])
    written: list[Snapshot] = []
    assert spill.replay(written.extend) == 1
    assert written == [second]


def test_a_line_past_the_cap_is_quarantined_without_being_held(
    tmp_path: Path, make_snapshot: SnapshotFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    import vouched._replay._spill as spill_module  # noqa: PLC0415 - the cap, made small for the test

    whole = _snapshots(make_snapshot, 2)
    cap = max(len(s.canonical_json()) for s in whole) + 10
    monkeypatch.setattr(spill_module, "MAX_LINE", cap)
    monkeypatch.setattr(spill_module, "_CHUNK", 100)
    spill = SpillFile(tmp_path / "spill.jsonl")
    spill.path.write_bytes(b"x" * (cap * 3) + b"\n")
    spill.add(whole)
    written: list[Snapshot] = []
    assert spill.replay(written.extend) == 2
    assert spill.quarantine.read_bytes() == b"x" * (cap * 3) + b"\n"


_WORKER = """
import sys
sys.path[:0] = [sys.argv[4], sys.argv[4] + "/replay"]
from datetime import timedelta
from conftest import REDACTION_KEY
from replay.population import T0, weather_facts
from vouched import Policy, Snapshot, SqliteSnapshotStore
from vouched._replay._spill import SpillFile

spill, store_path, tag = SpillFile(sys.argv[1]), sys.argv[2], sys.argv[3]
store = SqliteSnapshotStore(store_path, timeout=30)
n = 0
for round in range(12):
    batch = []
    for i in range(40):
        n += 1
        at = T0 + timedelta(seconds=n)
        batch.append(Snapshot.build(
            created_at=at, question="Berlin?", query={"city": "Berlin"},
            facts=weather_facts(at), policy=Policy(), prompt_version=f"{tag}-{n}",
            phraser="template", output="ok", findings=(), status="ok", attempts=1,
            timings={}, redaction_key=REDACTION_KEY))
    spill.add(batch)
    if round % 3 == 2:  # the store takes writes again now and then: replay
        spill.replay(store.write_many, 64)
store.close()
print(n)
"""


def test_two_processes_on_one_spill_path_lose_nothing(tmp_path: Path) -> None:
    path, store_path = tmp_path / "spill.jsonl", tmp_path / "s.db"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    SqliteSnapshotStore(store_path).close()
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(path), str(store_path), tag, str(TESTS)],
            stdout=subprocess.PIPE, text=True, env=env,
        )
        for tag in ("a", "b")
    ]  # fmt: skip
    made = sum(int(w.communicate(timeout=120)[0]) for w in workers)
    assert all(w.returncode == 0 for w in workers)
    with SqliteSnapshotStore(store_path) as store:
        SpillFile(path).replay(store.write_many)
        versions = {json.loads(s.canonical_json())["prompt_version"] for s in store.iter()}
    assert made == 960
    assert len(versions) == 960
    assert not SpillFile(path).quarantine.exists()


def test_a_replay_cut_short_goes_on_from_the_last_batch_written(
    tmp_path: Path, make_snapshot: SnapshotFactory
) -> None:
    spill = SpillFile(tmp_path / "spill.jsonl")
    whole = _snapshots(make_snapshot, 30)
    spill.add(whole)
    written: list[Snapshot] = []

    def fails_on_the_third(batch: list[Snapshot]) -> None:
        if len(written) == 20:
            raise OSError("the store went away")
        written.extend(batch)

    with pytest.raises(OSError, match="went away"):
        spill.replay(fails_on_the_third, batch=10)
    assert spill.replay(written.extend, batch=10) == 10  # not 30: the first 20 are in
    assert [s.id for s in written] == [s.id for s in whole]
    assert not spill.waiting()
