"""Fixtures for the snapshot, store and replay tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from replay.population import T0, SnapshotFactory, weather_facts
from vouched import Policy, Snapshot, SqliteSnapshotStore

REDACTION_KEY = b"a secret the tests share"


@pytest.fixture
def make_snapshot() -> SnapshotFactory:
    def build(**overrides: Any) -> Snapshot:
        at = overrides.pop("created_at", T0)
        options: dict[str, Any] = {
            "created_at": at,
            "question": "What is the weather in Berlin?",
            "query": {"city": "Berlin"},
            "facts": weather_facts(at),
            "policy": Policy(),
            "prompt_version": "p1",
            "phraser": "template",
            "output": "Berlin: 21.4 degC, humidity 63%. Wind speed is unavailable right now.",
            "findings": (),
            "status": "ok",
            "attempts": 1,
            "timings": {"total": 0.0125, "phrase": 0.01},
            "redaction_key": REDACTION_KEY,
        }
        options.update(overrides)
        return Snapshot.build(**options)

    return build


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "snapshots.db"


@pytest.fixture
def store(store_path: Path) -> Iterator[SqliteSnapshotStore]:
    with SqliteSnapshotStore(store_path) as opened:
        yield opened
