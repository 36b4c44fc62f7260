"""The examples run as they stand (subprocess, offline) and say what the docs say;
the docs' commands run on them through the CLI's main() (vouched.testing.run_cli)."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vouched.testing import run_cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


# The child's environment is ours (PATH, locale, the virtualenv, CI's settings)
# minus what would switch an example off its offline path.
_ONLINE = ("OPENAI_BASE_URL", "VOUCHED_MODEL_URL", "VOUCHED_MODEL", "OPENAI_API_KEY")


def _offline_env() -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k not in _ONLINE}, "PYTHONUTF8": "1"}


@functools.cache  # an example says the same each time: two tests read one run
def _run(name: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=_offline_env(),
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


def test_weather_example_states_facts_and_the_missing_wind() -> None:
    assert _run("weather_answer.py") == (
        "The temperature in Berlin is 21.4 °C. The relative humidity in Berlin is 63%. "
        "The wind speed in Berlin is unavailable right now (the source has no data for it).\n"
        "status: ok, attempts: 1, grounded: 2, silent: 1\n"
    )


DOCS = EXAMPLES.parent / "docs"


def _page(name: str) -> str:
    return (DOCS / name).read_text("utf-8")


def test_getting_started_shows_the_weather_example_output() -> None:
    readme = _page("getting-started.md")
    assert _run("weather_answer.py") in readme


def test_currency_example_catches_the_added_number_and_retries() -> None:
    out = _run("currency_answer.py")
    assert "scanner caught: ungrounded_number '0.3%'" in out
    assert out.endswith("answer (ok): The EUR/USD exchange rate is 1.0842.\n")


def test_forecast_serve_example_sends_one_day_catches_the_wrong_day_and_retries() -> None:
    out = _run("forecast_serve.py")
    assert "the model was sent 1 fact(s), for 1 day(s)" in out
    assert "vouched told the model: value_mismatch '7 °C'" in out
    assert "trail: retry ['value_mismatch'], accept []" in out
    assert out.endswith("answer (ok, 2 attempts): The high in Vienna tomorrow is 5 °C.\n")


def test_the_forecast_guide_shows_the_forecast_serve_example_output() -> None:
    guide = (EXAMPLES.parent / "docs" / "guides" / "forecast-answers.md").read_text("utf-8")
    assert _run("forecast_serve.py") in guide


def test_catalog_example_shows_each_status() -> None:
    statuses = [line.split()[0] for line in _run("catalog_check.py").splitlines()[1:]]
    assert statuses == [
        "verified",
        "verified",
        "citation_mismatch",
        "value_mismatch",
        "unknown_entity",
        "invalid_json",
    ]


@pytest.fixture
def at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLES.parent)  # the README's commands run from the repository root


def _readme_command(start: str) -> list[str]:
    readme = "".join(_page(p.relative_to(DOCS).as_posix()) for p in sorted(DOCS.rglob("*.md")))
    line = next(block for block in readme.split("```") if block.strip().startswith(start))
    return line.replace("\\\n", " ").split()[1:]


def test_the_claims_guide_contract_is_the_example_contract() -> None:
    readme = _page("guides/claims.md")
    block = readme.split("```toml\n", 1)[1].split("```", 1)[0]
    assert block == (EXAMPLES / "contract.toml").read_text("utf-8")


@pytest.mark.usefixtures("at_the_root")
def test_readme_verify_command_on_the_examples_flags_two_claims() -> None:
    run = run_cli([*_readme_command("vouched verify --catalog examples/"), "--json"])
    assert run.returncode == 1, run.stderr
    results = json.loads(run.stdout)["results"]
    assert [(r["id"], r["status"]) for r in results] == [
        ("q1", "verified"),
        ("q2", "citation_mismatch"),
        ("q3", "verified"),
        ("q3", "value_mismatch"),
    ]


@pytest.mark.usefixtures("at_the_root")
def test_readme_scan_command_on_the_examples_finds_the_silent_wind() -> None:
    run = run_cli([*_readme_command("vouched scan --facts examples/"), "--json"])
    assert run.returncode == 1, run.stderr
    findings = json.loads(run.stdout)["findings"]
    assert [(f["kind"], f["text"]) for f in findings] == [("silent_spoken", "12 km/h")]
