"""`vouched verify` as users run it: exit codes, table, JSON, chart (in this
process, through the CLI's main() with its streams captured: vouched.testing.run_cli)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from vouched.testing import CliResult, run_cli

FIXTURES = Path(__file__).parent / "fixtures"
CATALOG = FIXTURES / "catalog.csv"
CONTRACT = FIXTURES / "contract.toml"
CASES = FIXTURES / "cases.jsonl"
STATUSES = [
    "verified",
    "invalid_json",
    "invalid_shape",
    "unknown_entity",
    "unsupported_attribute",
    "citation_mismatch",
    "invalid_value",
    "value_mismatch",
]


def vouched(*args: str | Path) -> CliResult:
    return run_cli(args, columns=200)


def verify(claims: Path, *extra: str | Path, catalog: Path = CATALOG) -> CliResult:
    return vouched("verify", "--catalog", catalog, "--contract", CONTRACT, *extra, claims)


def lines(tmp_path: Path, *rows: object) -> Path:
    path = tmp_path / "claims.jsonl"
    path.write_text(
        "".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows),
        encoding="utf-8",
    )
    return path


GOOD = '{"workshop_code":"WS101","attribute":"format","value":"In person","citation":"CAT-001"}'
BAD = '{"workshop_code":"WS103","attribute":"format","value":"online","citation":"CAT-003"}'


def test_json_output_has_the_contract_shape_and_matches_every_label() -> None:
    run = verify(CASES, "--json")
    assert run.returncode == 1, run.stderr
    document = json.loads(run.stdout)
    assert document["catalog_version"].startswith("sha256:")
    assert list(document["summary"]) == STATUSES
    assert sum(document["summary"].values()) == len(document["results"])
    for result in document["results"]:
        assert {"id", "claim_index", "status", "reason", "entity", "attribute", "citation"} <= set(
            result
        )
        assert result["status"] == result["expected_status"], result  # carried through


def test_json_reports_the_failure_rate_per_prompt_version() -> None:
    document = json.loads(verify(CASES, "--json").stdout)
    metrics = document["metrics"]
    assert metrics["total"] == len(document["results"])
    assert set(metrics["by_prompt_version"]) == {"p1", "p2"}
    failed = sum(v["failed"] for v in metrics["by_prompt_version"].values())
    assert failed == metrics["failed"] == metrics["total"] - document["summary"]["verified"]


def test_all_verified_exits_zero(tmp_path: Path) -> None:
    run = verify(lines(tmp_path, {"id": "a", "model_output": GOOD}), "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["summary"]["verified"] == 1


def test_table_shows_each_claim_and_the_summary(tmp_path: Path) -> None:
    path = lines(tmp_path, {"id": "good-1", "model_output": GOOD}, {"model_output": BAD})
    run = verify(path)
    assert run.returncode == 1, run.stderr
    assert "good-1" in run.stdout
    assert "line 2" in run.stdout  # no id: the line number names it
    assert "value_mismatch" in run.stdout
    assert "claim=online; catalog=hybrid" in run.stdout
    assert "2 claims, 1 not verified" in run.stdout


def test_answers_are_verified_claim_by_claim(tmp_path: Path) -> None:
    answer = json.dumps({"claims": [json.loads(GOOD), json.loads(BAD)]})
    run = verify(lines(tmp_path, {"id": "ans", "model_output": answer}), "--json")
    results = json.loads(run.stdout)["results"]
    assert [(r["id"], r["claim_index"], r["status"]) for r in results] == [
        ("ans", 0, "verified"),
        ("ans", 1, "value_mismatch"),
    ]


def test_chart_is_written_as_a_png(tmp_path: Path) -> None:
    chart = tmp_path / "out.png"
    run = verify(CASES, "--json", "--chart", chart)
    assert run.returncode == 1, run.stderr
    data = chart.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > 5_000


def test_chart_file_gets_the_permissions_the_umask_gives(tmp_path: Path) -> None:
    chart = tmp_path / "out.png"
    mask = os.umask(0o022)
    try:
        run = verify(CASES, "--json", "--chart", chart)
    finally:
        os.umask(mask)
    assert run.returncode == 1, run.stderr
    assert chart.stat().st_mode & 0o777 == 0o644


def test_chart_path_that_is_a_directory_is_one_line_before_any_output(tmp_path: Path) -> None:
    run = verify(CASES, "--json", "--chart", tmp_path)
    assert one_error_line(run) == f"vouched verify: {tmp_path}: --chart: is a directory, not a file"
    assert run.stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_chart_without_matplotlib_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    chart = tmp_path / "out.png"
    run = vouched("verify", "--catalog", CATALOG, "--contract", CONTRACT, "--chart", chart, CASES)
    assert run.returncode == 2
    assert "pip install 'vouched[chart]'" in run.stderr
    assert run.stdout == ""
    assert not chart.exists()


def one_error_line(run: CliResult) -> str:
    assert run.returncode == 2
    assert run.stdout == ""  # nothing half-written
    assert "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1
    return run.stderr.strip()


def test_a_line_that_is_not_json_names_file_and_line(tmp_path: Path) -> None:
    path = lines(tmp_path, {"model_output": GOOD}, '{"model_output": ')
    assert one_error_line(verify(path, "--json")).startswith(
        f"vouched verify: {path}:2: invalid JSON"
    )


def test_a_missing_model_output_names_file_line_and_field(tmp_path: Path) -> None:
    path = lines(tmp_path, {"model_output": GOOD}, {"model_output": GOOD}, {"id": 3})
    assert one_error_line(verify(path)) == f"vouched verify: {path}:3: model_output: is required"


def test_a_model_output_that_is_not_a_string_is_bad_input(tmp_path: Path) -> None:
    path = lines(tmp_path, {"model_output": json.loads(GOOD)})
    assert f"{path}:1: model_output: must be a string" in one_error_line(verify(path))


def test_a_line_that_is_not_an_object_is_bad_input(tmp_path: Path) -> None:
    path = lines(tmp_path, [GOOD])
    assert f"{path}:1: expected a JSON object" in one_error_line(verify(path))


def test_an_empty_claims_file_is_bad_input(tmp_path: Path) -> None:
    path = lines(tmp_path)
    assert "no claims" in one_error_line(verify(path))


def test_a_duplicate_catalog_key_is_bad_input(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.csv"
    text = CATALOG.read_text(encoding="utf-8")
    catalog.write_text(text + text.splitlines()[1] + "\n", encoding="utf-8")
    run = verify(CASES, catalog=catalog)
    assert f"{catalog}:10: workshop_code: duplicate entity key 'WS101'" in one_error_line(run)


def test_a_missing_catalog_file_is_bad_input(tmp_path: Path) -> None:
    run = verify(CASES, catalog=tmp_path / "absent.csv")
    assert "absent.csv: no such file" in one_error_line(run)


def test_bad_input_leaves_no_chart_file(tmp_path: Path) -> None:
    chart = tmp_path / "out.png"
    path = lines(tmp_path, {"model_output": GOOD}, "not json")
    one_error_line(verify(path, "--chart", chart))
    assert list(tmp_path.iterdir()) == [path]


@pytest.mark.parametrize("flag", ["--catalog", "--contract"])
def test_required_options_are_usage_errors(flag: str) -> None:
    args = ["verify", "--catalog", CATALOG, "--contract", CONTRACT, CASES]
    index = args.index(flag)
    del args[index : index + 2]
    run = vouched(*args)
    assert run.returncode == 2
    assert flag in run.stderr


def test_carried_numbers_keep_their_precision(tmp_path: Path) -> None:
    path = lines(tmp_path, '{"model_output": ' + json.dumps(GOOD) + ', "score": 0.10}')
    run = verify(path, "--json")
    assert '"score": 0.10' in run.stdout


def test_long_inputs_render_as_several_tables_with_one_summary(tmp_path: Path) -> None:
    path = lines(tmp_path, *({"id": f"c{i}", "model_output": GOOD} for i in range(1_200)))
    run = verify(path)
    assert run.returncode == 0, run.stderr
    assert "c1199" in run.stdout
    assert run.stdout.count("1200 claims, 0 not verified") == 1


def test_a_byte_order_mark_on_the_first_line_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "claims.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"model_output": GOOD}).encode() + b"\n")
    assert verify(path, "--json").returncode == 0
