"""``vouched prompt``: what the model would be sent, gated first and sent nowhere; and
``--policy`` on gate and scan, read as replay reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vouched.testing import run_cli

FACTS = Path(__file__).resolve().parents[2] / "examples" / "facts.json"
NOW = "2026-11-29T12:10:00Z"


def test_prompt_prints_the_system_and_user_messages_with_the_grounded_facts() -> None:
    run = run_cli(["prompt", "How warm is it in Berlin?", "--facts", str(FACTS), "--now", NOW])
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("--- system ---\n")
    user = run.stdout.split("--- user ---\n", 1)[1]
    assert 'Question: "How warm is it in Berlin?"' in user
    assert '"value": 21.4' in user


def test_prompt_json_gives_the_messages_and_the_gates_counts() -> None:
    run = run_cli(["prompt", "Q?", "--facts", str(FACTS), "--now", NOW, "--json"])
    document = json.loads(run.stdout)
    assert [m["role"] for m in document["messages"]] == ["system", "user"]
    assert document["counts"]["violation"] > 0
    assert document["version"].startswith("p-")


def test_prompt_never_shows_a_violations_value() -> None:
    # examples/facts.json holds a stale Munich reading: the gate keeps it from the model.
    facts = json.loads(FACTS.read_text(encoding="utf-8"))
    stale = [f for f in facts if f["subject"] == "Munich"]
    assert stale
    run = run_cli(["prompt", "Q?", "--facts", str(FACTS), "--now", NOW, "--json"])
    assert "Munich" not in run.stdout


def test_gate_policy_file_changes_the_verdicts(tmp_path: Path) -> None:
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"demoted": ["temperature"]}), encoding="utf-8")
    plain = json.loads(run_cli(["gate", str(FACTS), "--now", NOW, "--json"]).stdout)
    demoted = json.loads(
        run_cli(["gate", str(FACTS), "--now", NOW, "--policy", str(policy), "--json"]).stdout
    )
    assert demoted["counts"]["silent"] > plain["counts"]["silent"]


def test_scan_policy_file_with_an_unknown_setting_is_one_line_exit_2(tmp_path: Path) -> None:
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"frobnicate": 1}), encoding="utf-8")
    answer = tmp_path / "answer.txt"
    answer.write_text("It is 21.4 °C in Berlin.", encoding="utf-8")
    run = run_cli(["scan", "--facts", str(FACTS), "--policy", str(policy), str(answer)])
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1
    assert "frobnicate" in run.stderr


def test_prompt_asks_the_sources_a_serve_config_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FACTS.parent)  # the config names its files relative to itself
    query = '{"subject": "Berlin"}'
    run = run_cli(["prompt", "Q?", "--config", "serve.toml", "--query", query, "--now", NOW])
    assert run.returncode == 0, run.stderr
    assert '"subject": "Berlin", "attribute": "temperature", "value": 21.4' in run.stdout
    assert "EUR/USD" not in run.stdout  # the query asked for Berlin


def test_prompt_query_without_a_config_is_one_line_exit_2() -> None:
    run = run_cli(["prompt", "Q?", "--facts", str(FACTS), "--query", "{}"])
    assert run.returncode == 2
    assert run.stderr == (
        "vouched prompt: --query: is given without --config: there are no sources to ask\n"
    )


def test_prompt_query_that_is_not_an_object_is_one_line_exit_2() -> None:
    config = str(FACTS.parent / "serve.toml")
    run = run_cli(["prompt", "Q?", "--config", config, "--query", "[1]"])
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1
    assert "--query: expected a JSON object" in run.stderr
