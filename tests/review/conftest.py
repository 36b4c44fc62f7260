"""Fixtures for the review pages: a real SQLite store of a small population."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from review.population import population
from vouched import Snapshot, SqliteSnapshotStore


@pytest.fixture(scope="session")
def snapshots() -> list[Snapshot]:
    return population()


@pytest.fixture
def store(tmp_path: Path, snapshots: list[Snapshot]) -> Iterator[SqliteSnapshotStore]:
    with SqliteSnapshotStore(tmp_path / "snapshots.db") as opened:
        opened.write_many(snapshots)
        yield opened
