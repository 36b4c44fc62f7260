"""Corrupt store rows and plugins that misbehave at import: one line, never a
traceback (the CLI's main() in this process: vouched.testing.run_cli)."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from hostile.test_hostile_cli import assert_one_clean_line, run_guarded
from replay.population import T0, weather_facts
from vouched import Policy, Snapshot, SqliteSnapshotStore
from vouched.testing import run_cli as run_in_process


def store_with_a_corrupt_row(path: Path, sql: str) -> None:
    with SqliteSnapshotStore(path) as store:
        for n in range(3):
            store.write(
                Snapshot.build(
                    created_at=T0,
                    question=f"q{n}",
                    facts=weather_facts(T0),
                    policy=Policy(),
                    prompt_version="p1",
                    phraser="template",
                    output="Berlin: 21.4 degC.",
                    status="ok",
                )
            )
    with sqlite3.connect(path) as connection:
        connection.execute(sql)
    connection.close()


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE snapshots SET body = '{not json' WHERE rowid = 1",
        "UPDATE snapshots SET body = json_set(body, '$.created_at', 'yesterday') WHERE rowid = 1",
        "UPDATE snapshots SET body = json_set(body, '$.created_at', "
        "'0001-01-01T00:00:00+05:00') WHERE rowid = 2",
        "UPDATE snapshots SET body = json_remove(body, '$.facts') WHERE rowid = 3",
    ],
    ids=["bad-json", "bad-created-at", "created-at-out-of-range", "no-facts"],
)
def test_a_corrupt_row_is_one_line_naming_the_store_and_row(
    tmp_path: Path, sql: str, workers: str
) -> None:
    path = tmp_path / "s.db"
    store_with_a_corrupt_row(path, sql)
    run = run_guarded(["replay", "--store", str(path), "--workers", workers])
    assert run.returncode == 2
    assert_one_clean_line(run.stderr, "corrupt snapshot")
    assert run.stdout == ""


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ("raise SystemExit(3)", "SystemExit: 3"),
        ("raise RuntimeError('[/] boom')", "RuntimeError: [/] boom"),
    ],
)
def test_a_plugin_that_fails_at_import_is_listed_and_the_exit_is_1(
    tmp_path: Path, body: str, error: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "evil_plugin.py").write_text(f'"""[bold]Evil[/].\n"""\n{body}\n')
    info = tmp_path / "evil_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: evil-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[vouched.sources]\nevil = evil_plugin:Source\n")
    monkeypatch.syspath_prepend(tmp_path)  # installed, as PYTHONPATH would make it
    run = run_guarded(["sources", "--json"])
    assert run.returncode == 1, run.stderr
    rows = {row["name"]: row for row in json.loads(run.stdout)["sources"]}
    assert rows["evil"]["error"] == error
    assert "evil_plugin" not in sys.modules  # a failed import leaves nothing behind
    table = run_in_process(["sources"], columns=300)
    assert table.returncode == 1
    assert "cannot import" in table.stdout
    assert_one_clean_line(table.stderr, "")
