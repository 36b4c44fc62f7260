"""`vouched demo`: five scenarios, offline, through the real CLI's main() in this
process (vouched.testing.run_cli)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from vouched.testing import CliResult, run_cli


def _demo(*args: str) -> CliResult:
    return run_cli(["demo", *args])


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    done = _demo("--json")
    assert done.returncode == 0, done.stderr
    parsed: dict[str, Any] = json.loads(done.stdout)
    return parsed


def test_every_scenario_behaves_and_the_demo_exits_zero(document: dict[str, Any]) -> None:
    assert [s["name"] for s in document["scenarios"]] == [
        "all sources up",
        "weather source down",
        "cached facts gone stale",
        "model fabricates a number",
        "forecast stated for the wrong day",
    ]
    assert all(s["behaved"] for s in document["scenarios"])


def test_statuses_are_ok_unavailable_ok_refused_ok(document: dict[str, Any]) -> None:
    statuses = [s["status"] for s in document["scenarios"]]
    assert statuses == ["ok", "unavailable", "ok", "refused", "ok"]


def test_a_forecast_value_said_for_the_wrong_day_is_caught_and_retried(
    document: dict[str, Any],
) -> None:
    forecast = document["scenarios"][4]
    assert "caught '6 °C'" in forecast["verdict"]
    assert forecast["text"] == "On Monday the high in Berlin is 6 °C."


def test_the_outage_is_stated_as_silence_and_the_breaker_recovers(
    document: dict[str, Any],
) -> None:
    outage = document["scenarios"][1]
    assert "unavailable right now (the source reported an error)" in outage["text"]
    assert "breaker open after 2 failures" in outage["verdict"]
    assert "closed" in outage["verdict"]


def test_stale_cached_values_are_never_spoken(document: dict[str, Any]) -> None:
    stale = document["scenarios"][2]
    assert "21.4" not in stale["text"]
    assert "out of date" in stale["text"]


def test_run_ends_with_a_grounding_rate_below_one_because_of_the_stale_facts(
    document: dict[str, Any],
) -> None:
    assert document["counts"]["violation"] == 3
    assert 0 < document["grounding_rate"] < 1


def test_table_output_shows_the_four_verdicts_and_the_rate() -> None:
    done = _demo()
    assert done.returncode == 0, done.stderr
    assert "grounding rate of the run" in done.stdout
    assert "refused" in done.stdout


def test_store_keeps_every_answer_and_a_second_run_adds_nothing(tmp_path: Path) -> None:
    from vouched import SqliteSnapshotStore  # noqa: PLC0415

    path = tmp_path / "snapshots.db"
    for _ in range(2):
        done = _demo("--json", "--store", str(path))
        assert done.returncode == 0, done.stderr
    with SqliteSnapshotStore(path, read_only=True) as store:
        snapshots = list(store.iter())
    assert len(snapshots) == 8  # 1 all up, 4 while down, 1 stale, 1 refused, 1 forecast
    (refused,) = [s for s in snapshots if s.status == "refused"]
    assert [a.action for a in refused.trail] == ["retry", "refuse"]


@pytest.mark.parametrize(
    "where", ["missing/snapshots.db", "."], ids=["no-directory", "a-directory"]
)
def test_a_store_path_that_cannot_be_written_is_one_line_exit_2(tmp_path: Path, where: str) -> None:
    done = _demo("--store", str(tmp_path / where))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("vouched demo: ")
    assert "--store" in done.stderr
