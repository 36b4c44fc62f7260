"""`vouched gate` as a user runs it, on files on disk: in this process through
the CLI's main() with its streams captured (vouched.testing.run_cli), and as a
real process where the process is the point (a reader that goes away)."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from factories import BERLIN_JSON
from vouched.testing import CliResult, run_cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NOW = "2026-11-29T12:10:00Z"

GOOD = BERLIN_JSON


def vouched(*args: str, stdin: str = "") -> CliResult:
    return run_cli(args, stdin=stdin)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_json_output_follows_the_contract_and_exits_1_on_violations() -> None:
    run = vouched("gate", str(EXAMPLES / "facts.json"), "--now", NOW, "--json")
    assert run.returncode == 1, run.stderr
    document = json.loads(run.stdout)
    assert set(document) == {"verdicts", "counts", "grounding_rate"}
    assert set(document["verdicts"][0]) == {
        "index",
        "subject",
        "attribute",
        "kind",
        "reason",
        "cardinal",
    }
    assert document["counts"] == {"grounded": 3, "silent": 1, "violation": 4}
    assert document["grounding_rate"] == 0.5
    cardinal = [v for v in document["verdicts"] if v["cardinal"]]
    assert [(v["subject"], v["reason"]) for v in cardinal] == [
        ("EUR/GBP", "confident_without_source")
    ]


def test_table_output_names_each_verdict_and_the_rate() -> None:
    run = vouched("gate", str(EXAMPLES / "facts.json"), "--now", NOW)
    assert run.returncode == 1, run.stderr
    assert "observed_in_future" in run.stdout
    assert "circuit_open" in run.stdout
    assert "grounding rate 0.500" in run.stdout


def test_all_grounded_exits_0(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.json", json.dumps([GOOD]))
    run = vouched("gate", str(path), "--now", NOW, "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["counts"] == {"grounded": 1, "silent": 0, "violation": 0}


def test_json_lines_are_read_line_by_line(tmp_path: Path) -> None:
    silent = {"subject": "Berlin", "attribute": "wind_speed", "silent_reason": "timeout"}
    path = write(tmp_path, "facts.jsonl", f"{json.dumps(GOOD)}\n\n{json.dumps(silent)}\n")
    run = vouched("gate", str(path), "--now", NOW, "--json")
    assert run.returncode == 0, run.stderr
    assert [v["kind"] for v in json.loads(run.stdout)["verdicts"]] == ["grounded", "silent"]


def test_freshness_is_judged_at_now(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.json", json.dumps([GOOD]))
    run = vouched("gate", str(path), "--now", "2026-11-29T12:15:01Z", "--json")
    assert run.returncode == 1
    assert json.loads(run.stdout)["verdicts"][0]["reason"] == "stale"


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("empty.json", "", "empty.json: file is empty"),
        ("blank.jsonl", "\n  \n", "blank.jsonl: file is empty"),
        ("bad.json", '[{"subject": "x",', "bad.json:1: invalid JSON"),
        ("string.json", json.dumps("Berlin"), "string.json:1: expected a JSON object for a fact"),
        (
            "confidence.json",
            json.dumps([GOOD, {**GOOD, "confidence": 1.5}]),
            "confidence.json:index 1: confidence: must be between 0 and 1",
        ),
        (
            "naive.jsonl",
            json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "observed_at": "2026-11-29T12:00:00"}),
            "naive.jsonl:2: observed_at: datetime has no timezone",
        ),
        ("scalar.json", "[3]", "scalar.json:index 0: expected a JSON object for a fact"),
        (
            "both.json",
            json.dumps([{**GOOD, "silent_reason": "timeout"}]),
            "both.json:index 0: a fact with a silent_reason carries no value",
        ),
        (
            "nan.json",
            '[{"subject": "x", "attribute": "y", "value": NaN}]',
            "nan.json: invalid JSON",
        ),
        ("deep.json", "[" * 100_000 + "]" * 100_000, "deep.json: invalid JSON: nested too deeply"),
    ],
)
def test_bad_input_is_one_line_on_stderr_with_exit_2(
    tmp_path: Path, name: str, text: str, expected: str
) -> None:
    path = write(tmp_path, name, text)
    run = vouched("gate", str(path), "--now", NOW)
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert lines[0].startswith(f"vouched gate: {tmp_path / name.split(':', maxsplit=1)[0]}"), lines[
        0
    ]
    assert expected in lines[0]


def test_missing_file_is_exit_2_naming_the_file(tmp_path: Path) -> None:
    run = vouched("gate", str(tmp_path / "nope.json"))
    assert run.returncode == 2
    assert run.stderr.strip() == f"vouched gate: {tmp_path / 'nope.json'}: no such file"


def test_bad_now_is_exit_2_naming_the_option(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.json", json.dumps([GOOD]))
    run = vouched("gate", str(path), "--now", "2026-11-29T12:00:00")
    assert run.returncode == 2
    assert "--now" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_facts_from_stdin_are_named_stdin_in_errors() -> None:
    good = vouched("gate", "-", "--now", NOW, "--json", stdin=json.dumps([GOOD]))
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["counts"]["grounded"] == 1
    bad = vouched("gate", "-", "--now", NOW, stdin=json.dumps(GOOD) + '\n{"subject": "x"}\n')
    assert bad.returncode == 2
    assert bad.stderr == "vouched gate: <stdin>:2: attribute: is required\n"


def test_a_byte_order_mark_is_read_as_utf_8(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps([GOOD]).encode())
    run = vouched("gate", str(path), "--now", NOW, "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["counts"]["grounded"] == 1


def test_unknown_option_is_a_one_line_usage_error() -> None:
    run = vouched("gate", "--frobnicate")
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("output", [[], ["--json"]], ids=["table", "json"])
@pytest.mark.parametrize(
    ("last", "status"),
    [(GOOD, 0), ({**GOOD, "source": None}, 1)],
    ids=["all-grounded", "one-violation"],
)
def test_a_reader_that_goes_away_ends_quietly_with_the_real_exit_status(
    tmp_path: Path, output: list[str], last: dict[str, object], status: int
) -> None:
    # `vouched gate F | head` under `set -o pipefail` must still fail on a violation.
    # The output must outgrow the pipe, so that the writer is still writing when
    # the reader leaves: 200 rows (16 KB as a table) in a pipe cut to one page
    # (Linux), or 1,500 rows (120 KB) past a default pipe's 64 KiB elsewhere.
    read_end, write_end = os.pipe()
    rows = 1_500
    if hasattr(fcntl, "F_SETPIPE_SZ"):
        fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)
        rows = 200
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join([json.dumps(GOOD)] * rows + [json.dumps(last)]), encoding="utf-8")
    with subprocess.Popen(
        [sys.executable, "-m", "vouched", "gate", str(path), "--now", NOW, *output],
        stdout=write_end,
        stderr=subprocess.PIPE,
    ) as child:
        os.close(write_end)
        assert child.stderr is not None
        with open(read_end, "rb") as reader:
            reader.read(100)  # like `| head -c 100`
        stderr = child.stderr.read()
        assert child.wait(timeout=60) == status
    assert stderr == b""


def test_huge_input_is_processed_without_trouble(tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    line = json.dumps(GOOD)
    path.write_text("\n".join([line] * 20_000), encoding="utf-8")
    run = vouched("gate", str(path), "--now", NOW, "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["counts"]["grounded"] == 20_000


def test_demo_runs_offline_and_exits_0() -> None:
    run = vouched("demo")
    assert run.returncode == 0, run.stderr
    assert "grounding rate" in run.stdout


@pytest.mark.parametrize("output", [[], ["--json"]], ids=["table", "json"])
def test_a_file_without_facts_says_so_and_exits_1(tmp_path: Path, output: list[str]) -> None:
    path = write(tmp_path, "none.json", "[]")
    run = vouched("gate", str(path), "--now", NOW, *output)
    assert run.returncode == 1
    assert run.stderr == f"{path}: no facts: nothing was vouched for (exit 1)\n"
