"""Snapshots record the lexicon they were checked with (issue 43, item 4).

A Grounder with a lexicon refuses an answer for a word only its lexicon
names; replay without ``--lexicon`` must grade that snapshot with the same
lexicon (no "now passes" that only reflects a missing lexicon), ``--lexicon``
overrides it for every snapshot, and a JSON Lines export carries the
lexicon's content once, so it replays the same.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from fleet.services import require_postgres
from vouched import Fact, Grounder, Lexicon, SqliteSnapshotStore
from vouched._replay._jsonl import export_jsonl
from vouched._replay._open import open_snapshot_store
from vouched.testing import FakeClock, ScriptedPhraser, ScriptedSource, run_cli

NOW = "2026-11-29T12:00:00Z"
# "backend" is internal vocabulary only under this lexicon: refused with it,
# passes without it.
INTERNAL = Lexicon(attributes={"humidity": ["humidity"]}, internal=["backend"])
TEXT = "The backend says the humidity in Berlin is 63%."


def _source() -> ScriptedSource:
    fact = Fact(
        subject="Berlin",
        attribute="humidity",
        value=63,
        unit="%",
        source="meteo",
        observed_at=NOW,
        ttl=900,
    )
    return ScriptedSource("meteo", [[fact]] * 10)


def _answer(store: object, lexicon: Lexicon | None, text: str = TEXT) -> str:
    grounder = Grounder(
        [_source()],
        phraser=ScriptedPhraser([text] * 4),
        clock=FakeClock(NOW),
        store=store,  # type: ignore[arg-type]
        lexicon=lexicon,
        on_fail="refuse",
    )
    return str(grounder.answer_sync("How humid is Berlin?", {"city": "Berlin"}).status)


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "answers.db"


def test_a_snapshot_names_the_lexicon_it_was_checked_with(store_path: Path) -> None:
    with SqliteSnapshotStore(store_path) as store:
        _answer(store, Lexicon.shipped("weather"))
        (snapshot,) = store.iter()
    assert snapshot.lexicon is not None
    assert snapshot.lexicon.name == "weather"
    assert snapshot.lexicon_recorded


def test_the_store_keeps_a_lexicon_once_whatever_the_answers(store_path: Path) -> None:
    with SqliteSnapshotStore(store_path) as store:
        _answer(store, INTERNAL)
        _answer(store, INTERNAL, "The humidity in Berlin is 63%.")
        assert len(store) == 2
        assert len(list(store.lexicons())) == 1


def test_an_answer_without_a_lexicon_records_none(store_path: Path) -> None:
    with SqliteSnapshotStore(store_path) as store:
        _answer(store, None)
        (snapshot,) = store.iter()
    assert snapshot.lexicon is None
    assert snapshot.lexicon_recorded


def test_replay_grades_each_snapshot_with_its_own_lexicon(store_path: Path) -> None:
    with SqliteSnapshotStore(store_path) as store:
        assert _answer(store, INTERNAL) == "refused"
    done = run_cli(["replay", "--store", str(store_path), "--json"])
    report = json.loads(done.stdout)
    assert done.returncode == 0
    assert report["flipped"]["to_pass"]["count"] == 0
    assert report["findings"]["now"] == {"internal_vocabulary": 1}


def test_replay_lexicon_option_overrides_every_snapshots_own(
    store_path: Path, tmp_path: Path
) -> None:
    with SqliteSnapshotStore(store_path) as store:
        _answer(store, INTERNAL)
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"attributes": {"humidity": ["humidity"]}}), encoding="utf-8")
    done = run_cli(["replay", "--store", str(store_path), "--lexicon", str(plain), "--json"])
    assert json.loads(done.stdout)["flipped"]["to_pass"]["count"] == 1


def test_an_export_carries_its_lexicons_and_replays_the_same(
    store_path: Path, tmp_path: Path
) -> None:
    with SqliteSnapshotStore(store_path) as store:
        _answer(store, INTERNAL)
        _answer(store, INTERNAL, "The humidity in Berlin is 63%.")
        export = tmp_path / "answers.jsonl"
        with export.open("w", encoding="utf-8") as out:
            export_jsonl(store, out)
    records = [json.loads(line) for line in export.read_text(encoding="utf-8").splitlines()]
    assert sum(1 for r in records if r.get("record") == "vouched.lexicon/1") == 1
    done = run_cli(["replay", "--store", str(export), "--json"])
    report = json.loads(done.stdout)
    assert (done.returncode, report["snapshots"]) == (0, 2)
    assert report["findings"]["now"] == {"internal_vocabulary": 1}


def test_an_export_whose_lexicon_was_edited_is_refused_naming_the_line(
    store_path: Path, tmp_path: Path
) -> None:
    with SqliteSnapshotStore(store_path) as store:
        _answer(store, INTERNAL)
        export = tmp_path / "answers.jsonl"
        with export.open("w", encoding="utf-8") as out:
            export_jsonl(store, out)
    lines = export.read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace("backend", "frontend")
    export.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run_cli(["replay", "--store", str(export)])
    assert done.returncode == 2
    assert f"{export}:1" in done.stderr
    assert "hash" in done.stderr


def test_a_snapshot_from_before_format_4_recorded_no_lexicon() -> None:
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "snapshots_v2.jsonl"
    with open_snapshot_store(str(fixtures)) as store:
        snapshots = list(store.iter())
    assert snapshots
    assert not any(s.lexicon_recorded for s in snapshots)


@pytest.fixture
def pg_url() -> Iterator[str]:
    psycopg = pytest.importorskip("psycopg")
    base = require_postgres()
    schema = f"review_lexicons_{uuid.uuid4().hex[:10]}"  # ours alone on the shared server
    yield f"{base}?schema={schema}"
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def test_postgresql_keeps_the_lexicon_once_and_replays_with_it(pg_url: str) -> None:
    with open_snapshot_store(pg_url) as store:
        _answer(store, INTERNAL)
        _answer(store, INTERNAL, "The humidity in Berlin is 63%.")
        assert len(list(store.lexicons())) == 1  # type: ignore[union-attr]
    done = run_cli(["replay", "--store", pg_url, "--json"])
    assert json.loads(done.stdout)["findings"]["now"] == {"internal_vocabulary": 1}
