"""``vouched replay`` as a user runs it over a real SQLite file (in this process,
through the CLI's main() with its streams captured: vouched.testing.run_cli)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from replay.population import T0, SnapshotFactory, weather_facts
from vouched import Snapshot, SqliteSnapshotStore
from vouched.testing import CliResult, run_cli


def vouched(*args: str) -> CliResult:
    return run_cli(["replay", *args])


@pytest.fixture
def population(store_path: Path, make_snapshot: SnapshotFactory) -> list[Snapshot]:
    """Monday on prompt p1 (fresh facts); Tuesday on p2 (50-minute-old observations)."""
    monday = [
        make_snapshot(created_at=T0 - timedelta(days=1, minutes=i), prompt_version="p1")
        for i in range(3)
    ]
    tuesday = [
        make_snapshot(
            created_at=T0 + timedelta(minutes=i),
            prompt_version="p2",
            facts=weather_facts(T0 + timedelta(minutes=i), age=timedelta(minutes=50)),
        )
        for i in range(2)
    ]
    with SqliteSnapshotStore(store_path) as store:
        store.write_many(monday + tuesday)
    return monday + tuesday


@pytest.fixture
def strict_policy(tmp_path: Path) -> Path:
    path = tmp_path / "policy.json"
    path.write_text(json.dumps({"default_ttl": "PT30M"}), encoding="utf-8")
    return path


def test_replay_prints_a_readable_report(store_path: Path, population: list[Snapshot]) -> None:
    result = vouched("--store", str(store_path))
    assert result.returncode == 0, result.stderr
    assert "5 snapshots" in result.stdout
    assert "per prompt version" in result.stdout
    assert "p1" in result.stdout
    assert "p2" in result.stdout


def test_replay_json_follows_the_documented_schema(
    store_path: Path, population: list[Snapshot]
) -> None:
    result = vouched("--store", str(store_path), "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["schema"] == "vouched.replay/2"
    assert document["snapshots"] == 5
    assert [v["prompt_version"] for v in document["prompt_versions"]] == ["p1", "p2"]
    assert document["flipped"]["to_fail"] == {"count": 0, "ids": [], "truncated": False}


def test_a_stricter_policy_exits_1_and_names_the_flipped_snapshots(
    store_path: Path, population: list[Snapshot], strict_policy: Path
) -> None:
    result = vouched("--store", str(store_path), "--policy", str(strict_policy), "--json")
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    assert sorted(document["flipped"]["to_fail"]["ids"]) == sorted(s.id for s in population[3:])
    p2 = document["prompt_versions"][1]
    assert (p2["pass_rate"]["then"], p2["pass_rate"]["now"]) == (1.0, 0.0)


def test_since_limits_the_replay_to_newer_snapshots(
    store_path: Path, population: list[Snapshot]
) -> None:
    result = vouched("--store", str(store_path), "--since", "2026-11-24T00:00:00Z", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["snapshots"] == 2


def test_chart_writes_a_png(store_path: Path, population: list[Snapshot], tmp_path: Path) -> None:
    chart = tmp_path / "rates.png"
    result = vouched("--store", str(store_path), "--chart", str(chart))
    assert result.returncode == 0, result.stderr
    assert chart.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_a_missing_store_is_one_line_exit_2_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.db"
    result = vouched("--store", str(missing))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "nowhere.db: no such snapshot store" in result.stderr
    assert "Traceback" not in result.stderr
    assert not missing.exists()


def test_a_directory_as_the_store_says_so(tmp_path: Path) -> None:
    result = vouched("--store", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr == f"vouched replay: {tmp_path}: is a directory, not a snapshot store\n"


def test_a_bad_policy_setting_names_the_file_and_field(
    store_path: Path, population: list[Snapshot], tmp_path: Path
) -> None:
    policy = tmp_path / "policy.json"
    policy.write_text('{"default_ttl": "soon"}', encoding="utf-8")
    result = vouched("--store", str(store_path), "--policy", str(policy))
    assert result.returncode == 2
    assert "policy.json: default_ttl: must be seconds >= 0 or an ISO 8601 duration" in result.stderr
    assert result.stderr.count("\n") == 1


def test_an_unknown_policy_setting_lists_only_the_settings_a_user_can_give(
    store_path: Path, population: list[Snapshot], tmp_path: Path
) -> None:
    policy = tmp_path / "policy.json"
    policy.write_text('{"default_tll": 60}', encoding="utf-8")
    result = vouched("--store", str(store_path), "--policy", str(policy))
    assert result.returncode == 2
    assert "policy.json: default_tll: unknown policy setting (known: " in result.stderr
    assert "default_ttl" in result.stderr
    assert "earliest_age" not in result.stderr  # derived, not a setting


def test_a_wrongly_typed_policy_setting_is_named_once(
    store_path: Path, population: list[Snapshot], tmp_path: Path
) -> None:
    policy = tmp_path / "policy.json"
    policy.write_text('{"min_confidence": "high"}', encoding="utf-8")
    result = vouched("--store", str(store_path), "--policy", str(policy))
    assert result.returncode == 2
    assert result.stderr == (
        f"vouched replay: {policy}: min_confidence: must be a number between 0 and 1, got 'high'\n"
    )


def test_a_bad_since_is_a_usage_error(store_path: Path, population: list[Snapshot]) -> None:
    result = vouched("--store", str(store_path), "--since", "last tuesday")
    assert result.returncode == 2
    assert "--since: not an ISO 8601 date-time" in result.stderr


def test_a_since_not_before_until_is_a_usage_error(
    store_path: Path, population: list[Snapshot]
) -> None:
    result = vouched(
        "--store", str(store_path), "--since", "2026-12-01T00:00:00Z",
        "--until", "2026-11-01T00:00:00Z",
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr == (
        "vouched replay: --since: must be before --until (the window would be empty)\n"
    )


def test_a_chart_into_a_missing_directory_leaves_no_file(
    store_path: Path, population: list[Snapshot], tmp_path: Path
) -> None:
    result = vouched("--store", str(store_path), "--chart", str(tmp_path / "no" / "c.png"))
    assert result.returncode == 2
    assert "directory does not exist" in result.stderr
    assert not (tmp_path / "no").exists()


def test_a_chart_path_that_is_a_directory_is_one_line_exit_2(
    store_path: Path, population: list[Snapshot], tmp_path: Path
) -> None:
    target = tmp_path / "charts"
    target.mkdir()
    result = vouched("--store", str(store_path), "--chart", str(target))
    assert result.returncode == 2
    assert result.stderr == f"vouched replay: {target}: --chart: is a directory, not a file\n"
    assert result.stdout == ""
    assert list(target.iterdir()) == []


def test_a_lexicon_reaches_the_scanner(
    store_path: Path, make_snapshot: SnapshotFactory, tmp_path: Path
) -> None:
    # "wxcache" is a term of our own plumbing only the lexicon knows about.
    snapshot = make_snapshot(output="Berlin is at 21.4 degC (from wxcache).")
    with SqliteSnapshotStore(store_path) as store:
        store.write(snapshot)
    lexicon = tmp_path / "lexicon.json"
    lexicon.write_text(json.dumps({"internal": ["wxcache"]}), encoding="utf-8")
    plain = json.loads(vouched("--store", str(store_path), "--json").stdout)
    bound = json.loads(
        vouched("--store", str(store_path), "--lexicon", str(lexicon), "--json").stdout
    )
    assert plain["findings"]["now"] == {}
    assert bound["findings"]["now"] == {"internal_vocabulary": 1}


def test_a_missing_lexicon_is_named(store_path: Path, population: list[Snapshot]) -> None:
    result = vouched("--store", str(store_path), "--lexicon", "nope.json")
    assert result.returncode == 2
    assert "nope.json: no such file" in result.stderr


def test_workers_print_the_same_report(store_path: Path, population: list[Snapshot]) -> None:
    alone = vouched("--store", str(store_path), "--json")
    parallel = vouched("--store", str(store_path), "--json", "--workers", "2")
    assert parallel.returncode == alone.returncode == 0, parallel.stderr
    assert json.loads(parallel.stdout) == json.loads(alone.stdout)


def test_a_since_given_as_a_date_is_midnight_utc(
    store_path: Path, population: list[Snapshot]
) -> None:
    as_date = vouched("--store", str(store_path), "--since", f"{T0:%Y-%m-%d}", "--json")
    as_instant = vouched(
        "--store", str(store_path), "--since", f"{T0:%Y-%m-%d}T00:00:00Z", "--json"
    )
    assert as_date.returncode == as_instant.returncode
    assert json.loads(as_date.stdout)["snapshots"] == json.loads(as_instant.stdout)["snapshots"]
    assert json.loads(as_date.stdout)["window"]["since"] == f"{T0:%Y-%m-%d}T00:00:00Z"
