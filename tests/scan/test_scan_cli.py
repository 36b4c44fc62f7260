"""``vouched scan`` run as users run it: real files, exit codes, stdin (in this
process, through the CLI's main() with its streams captured: vouched.testing.run_cli)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vouched import Lexicon, Policy, load_facts, partition, scan
from vouched._cli import _scan as scan_cli
from vouched._jsonio import dumps
from vouched._time import parse_instant
from vouched.testing import CliResult, run_cli

from ._cases import WORLDS

NOW = "2026-11-29T12:10:00Z"


def _world_files(tmp_path: Path) -> tuple[Path, Path]:
    data = json.loads((WORLDS / "weather.json").read_text(encoding="utf-8"))
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps(data["facts"]), encoding="utf-8")
    lexicon = tmp_path / "lexicon.json"
    lexicon.write_text(json.dumps(data["lexicon"]), encoding="utf-8")
    return facts, lexicon


def _run(*args: str, stdin: str = "") -> CliResult:
    return run_cli(["scan", *args], stdin=stdin)


def test_clean_output_exits_0_with_json(tmp_path: Path) -> None:
    facts, lexicon = _world_files(tmp_path)
    out = tmp_path / "answer.txt"
    out.write_text("Berlin is 21 °C with 63% humidity.", encoding="utf-8")
    result = _run(
        "--facts", str(facts), "--lexicon", str(lexicon), "--now", NOW, "--json", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"passed": True, "score": 1.0, "findings": []}


def test_finding_exits_1_and_json_lists_it(tmp_path: Path) -> None:
    facts, lexicon = _world_files(tmp_path)
    result = _run(
        "--facts", str(facts), "--lexicon", str(lexicon), "--now", NOW, "--json", "-",
        stdin="In Berlin the humidity is 70%.",
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    assert document["passed"] is False
    assert [
        {k: f[k] for k in ("kind", "start", "end", "text", "subject", "attribute")}
        for f in document["findings"]
    ] == [
        {
            "kind": "value_mismatch",
            "start": 26,
            "end": 29,
            "text": "70%",
            "subject": "Berlin",
            "attribute": "humidity",
        }
    ]


def test_facts_are_gated_at_now_so_stale_facts_vouch_for_nothing(tmp_path: Path) -> None:
    facts, _ = _world_files(tmp_path)
    text = "Munich is 17.8 °C."
    fresh = _run("--facts", str(facts), "--now", NOW, "--json", "-", stdin=text)
    later = _run("--facts", str(facts), "--now", "2026-11-29T18:00:00Z", "--json", "-", stdin=text)
    assert fresh.returncode == 0, fresh.stdout
    assert later.returncode == 1
    assert json.loads(later.stdout)["findings"][0]["kind"] == "ungrounded_number"


def test_the_table_says_which_facts_the_gate_left_out(tmp_path: Path) -> None:
    facts, _ = _world_files(tmp_path)
    later = _run("--facts", str(facts), "--now", "2026-11-29T18:00:00Z", "-", stdin="Hi.")
    gated = partition(load_facts(facts), Policy(), parse_instant("2026-11-29T18:00:00Z"))
    stale = sum(verdict.reason == "stale" for verdict in gated.violations)
    assert stale > 0
    assert f"gated at 2026-11-29T18:00:00Z: {len(gated.violations)} of" in later.stdout
    assert f"stale {stale}" in later.stdout


def test_sources_vouch_for_quotes(tmp_path: Path) -> None:
    facts, _ = _world_files(tmp_path)
    source = tmp_path / "source.txt"
    source.write_text("Expect  light drizzle in the late afternoon.", encoding="utf-8")
    text = 'The forecast says "light drizzle in the late afternoon".'
    without = _run("--facts", str(facts), "--now", NOW, "--json", "-", stdin=text)
    with_source = _run(
        "--facts", str(facts), "--sources", str(source), "--now", NOW, "--json", "-", stdin=text
    )
    assert without.returncode == 1
    assert with_source.returncode == 0, with_source.stdout


def test_question_numbers_may_be_repeated(tmp_path: Path) -> None:
    facts, _ = _world_files(tmp_path)
    text = "Yes, Berlin is 21.4 °C, above 20 °C."
    result = _run(
        "--facts", str(facts), "--question", "Is Berlin above 20 °C?", "--now", NOW, "-",
        stdin=text,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_table_output_names_the_finding(tmp_path: Path) -> None:
    facts, lexicon = _world_files(tmp_path)
    result = _run(
        "--facts", str(facts), "--lexicon", str(lexicon), "--now", NOW, "-",
        stdin="Berlin is 21 °C, humidity None.",
    )  # fmt: skip
    assert result.returncode == 1
    assert "placeholder" in result.stdout


def test_missing_facts_file_is_one_line_exit_2(tmp_path: Path) -> None:
    result = _run("--facts", str(tmp_path / "nope.json"), "-", stdin="x")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "nope.json" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_lexicon_names_file_and_field_exit_2(tmp_path: Path) -> None:
    facts, _ = _world_files(tmp_path)
    lexicon = tmp_path / "lex.json"
    lexicon.write_text('{"subjects": {"Berlin": "the capital"}}', encoding="utf-8")
    result = _run("--facts", str(facts), "--lexicon", str(lexicon), "--now", NOW, "-", stdin="x")
    assert result.returncode == 2
    assert "lex.json" in result.stderr
    assert "subjects.Berlin" in result.stderr
    assert result.stderr.count("\n") == 1


def test_missing_output_file_exit_2(tmp_path: Path) -> None:
    facts, _ = _world_files(tmp_path)
    result = _run("--facts", str(facts), "--now", NOW, str(tmp_path / "missing.txt"))
    assert result.returncode == 2
    assert "missing.txt" in result.stderr


def test_facts_flag_is_required() -> None:
    result = _run("-", stdin="x")
    assert result.returncode == 2
    assert "--facts" in result.stderr


def test_output_after_sources_is_the_output(tmp_path: Path) -> None:
    facts, _ = _world_files(tmp_path)
    source = tmp_path / "source.txt"
    source.write_text("Expect light drizzle in the late afternoon.", encoding="utf-8")
    out = tmp_path / "answer.txt"
    out.write_text('Berlin: "light drizzle in the late afternoon", 21 °C.', encoding="utf-8")
    result = _run("--facts", str(facts), "--now", NOW, "--json", "--sources", str(source), str(out))
    assert result.returncode == 0, result.stdout + result.stderr


def test_missing_output_is_exit_2() -> None:
    result = _run("--facts", "facts.json")
    assert result.returncode == 2
    assert result.stderr.startswith("vouched scan: OUTPUT: is required")
    assert result.stderr.count("\n") == 1


def test_json_written_as_it_is_read_is_the_report_byte_for_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--json spools each sentence's findings as it is read (here past the spool's
    memory, onto disk) and writes what emit_json(scan(...).to_json()) writes."""
    monkeypatch.setattr(scan_cli, "SPOOL_IN_MEMORY", 200)
    facts, lexicon = _world_files(tmp_path)
    text = "In Berlin the humidity is 70%. It is 9 \u00b0C in Berlin, winds 40 km/h.\n" * 40
    out = tmp_path / "answer.txt"
    out.write_text(text, encoding="utf-8")
    result = _run(
        "--facts", str(facts), "--lexicon", str(lexicon), "--now", NOW, "--json", str(out)
    )  # fmt: skip
    gated = partition(load_facts(facts), Policy(), parse_instant(NOW))
    report = scan(text, gated, Lexicon.from_json(json.loads(lexicon.read_text())))
    assert len(report.findings) > 80
    assert result.returncode == 1, result.stderr
    assert result.stdout == dumps(report.to_json()) + "\n"
