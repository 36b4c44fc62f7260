"""``vouched replay --store`` takes a path, a sqlite:/// URL or a postgresql:// URL
(the real PostgreSQL on 127.0.0.1), and says so in one line when it cannot."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from fleet.services import closed_port, require_postgres, unique
from replay.population import T0, SnapshotFactory
from vouched import PostgresSnapshotStore, SqliteSnapshotStore, open_snapshot_store
from vouched.testing import CliResult, run_cli


def vouched(*args: str) -> CliResult:
    return run_cli(["replay", *args])


@pytest.fixture
def postgres_schema() -> Iterator[tuple[str, str]]:
    url = require_postgres()
    import psycopg  # noqa: PLC0415 - the extra under test
    from psycopg import sql  # noqa: PLC0415

    schema = unique("vouched_cli")
    yield url, schema
    with psycopg.connect(url) as connection:
        connection.execute(
            sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
        )


def test_replay_reads_a_postgresql_url(
    postgres_schema: tuple[str, str], make_snapshot: SnapshotFactory
) -> None:
    url, schema = postgres_schema
    with PostgresSnapshotStore(url, schema=schema) as store:
        store.write_many(make_snapshot(created_at=T0 + timedelta(minutes=i)) for i in range(4))
    result = vouched("--store", f"{url}?schema={schema}", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["snapshots"] == 4


def test_replay_reads_a_relative_sqlite_url(
    tmp_path: Path, make_snapshot: SnapshotFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    with SqliteSnapshotStore(tmp_path / "s.db") as store:
        store.write(make_snapshot())
    monkeypatch.chdir(tmp_path)
    result = vouched("--store", "sqlite:///s.db", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["snapshots"] == 1


def test_an_absolute_sqlite_url_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "abs.db"
    SqliteSnapshotStore(path).close()
    with open_snapshot_store(f"sqlite:///{path}") as store:
        assert isinstance(store, SqliteSnapshotStore)
        assert store.path == path


def test_an_unknown_url_scheme_is_one_line_and_exit_2() -> None:
    result = vouched("--store", "mysql://db/snapshots")
    assert result.returncode == 2
    assert result.stderr == (
        "vouched replay: --store: unknown store URL scheme 'mysql' "
        "(a path, sqlite:/// or postgresql://)\n"
    )


def test_an_unreachable_postgresql_server_is_one_line_without_the_password() -> None:
    url = f"postgresql://reader:s3cret@127.0.0.1:{closed_port()}/test"
    result = vouched("--store", url)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "cannot connect" in result.stderr
    assert "s3cret" not in result.stderr
    assert "Traceback" not in result.stderr


def test_a_postgresql_schema_without_snapshots_is_refused_for_reading(
    postgres_schema: tuple[str, str],
) -> None:
    url, schema = postgres_schema
    result = vouched("--store", f"{url}?schema={schema}")
    assert result.returncode == 2
    assert "not a snapshot store" in result.stderr


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://reader@127.0.0.1:{port}/test?password=Sx9secretPW",
        "postgresql://reader:Sx9secretPW@127.0.0.1:{port}/test",
        "postgresql://reader:Sx9secret%zzPW@127.0.0.1:{port}/test",  # badly encoded
        "postgresql://reader@127.0.0.1:{port}/test?password=Sx9secret%zzPW&sslmode=disable",
    ],
)
def test_no_spelling_of_the_password_reaches_any_output(url: str) -> None:
    result = vouched("--store", url.format(port=closed_port()))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    for spelling in ("Sx9secret", "secret%zz", "zzPW"):
        assert spelling not in result.stderr + result.stdout


def test_the_schema_parameter_leaves_every_other_parameter_byte_for_byte() -> None:
    from vouched._replay._urls import split_parameter  # noqa: PLC0415

    url = (
        "postgresql://u@h/db?options=-c%20search_path%3Dx%2Cpublic"
        "&schema=vouched_a&application_name=a+b&sslmode=disable"
    )
    rest, values = split_parameter(url, "schema")
    assert values == ["vouched_a"]
    assert rest == (
        "postgresql://u@h/db?options=-c%20search_path%3Dx%2Cpublic"
        "&application_name=a+b&sslmode=disable"
    )


def test_a_url_shown_in_a_message_hides_only_the_password() -> None:
    from vouched._replay._urls import safe_url  # noqa: PLC0415

    url = "postgresql://u:p%40ss@h:5432/db?sslmode=disable&password=other&options=-c%20x%3Dy"
    assert safe_url(url) == (
        "postgresql://u:***@h:5432/db?sslmode=disable&password=***&options=-c%20x%3Dy"
    )


def test_the_demo_writes_to_the_same_postgresql_url_replay_reads(
    postgres_schema: tuple[str, str],
) -> None:
    url, schema = postgres_schema
    target = f"{url}?schema={schema}"
    demo = run_cli(["demo", "--store", target])
    assert demo.returncode == 0, demo.stderr
    result = vouched("--store", target, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["snapshots"] == 8
