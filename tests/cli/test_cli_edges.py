"""Rough edges of the command line (issue 22), in-process through ``main(argv)``:
echoes cut short, control and bidi characters escaped wherever input is
printed, tables whole when piped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factories import BERLIN_JSON
from vouched._cli import main
from vouched._exceptions import InputError, one_line, printable

NOW = "2026-11-29T12:05:00Z"
FACT = BERLIN_JSON
RLO = "\u202e"  # right-to-left override: "txt.exe" shows as "exe.txt"
HOSTILE = f"Ber{RLO}lin\x1b[2J\x9b31m"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``vouched ARGV`` in this process: (exit status, stdout, stderr)."""
    try:
        status = main(list(argv))
    except SystemExit as exit_:  # argparse's usage errors
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def write_facts(path: Path, **changes: object) -> Path:
    path.write_text(json.dumps([{**FACT, **changes}]), encoding="utf-8")
    return path


def assert_nothing_raw(text: str) -> None:
    for char in (RLO, "\x1b", "\x9b"):
        assert char not in text, f"{char!r} printed raw in {text!r}"


def test_printable_escapes_controls_and_bidi_but_keeps_tabs_and_newlines() -> None:
    assert printable(HOSTILE) == "Ber\\u202elin\\x1b[2J\\x9b31m"
    assert printable("a\tb\nc") == "a\tb\nc"
    assert printable("Zürich, 21 °C") == "Zürich, 21 °C"


def test_one_line_cuts_each_long_word_and_names_its_length() -> None:
    line = one_line("unrecognized arguments: --" + "x" * 5000 + " --y")
    assert len(line) < 200
    assert "(5,002 characters)" in line
    assert line.endswith(" --y")


def test_an_unknown_option_of_5_kb_is_echoed_cut_with_its_length(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "gate", "facts.json", "--" + "x" * 5000)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert len(err) < 400, len(err)
    assert "unrecognized arguments: --xxxx" in err
    assert "(5,002 characters)" in err


def test_many_unknown_arguments_stay_one_short_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "gate", "facts.json", *(f"--opt{n}" for n in range(2000)))
    assert status == 2
    assert err.count("\n") == 1
    assert len(err) < 600, len(err)


def test_an_unknown_option_with_escape_characters_is_escaped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run(capsys, "gate", "facts.json", f"--{HOSTILE}")
    assert status == 2
    assert_nothing_raw(err)
    assert "\\u202e" in err


def test_the_gate_table_escapes_bidi_and_control_characters(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    facts = write_facts(tmp_path / f"f{RLO}.json", subject=HOSTILE, attribute=f"t{RLO}emp\x1b")
    status, out, err = run(capsys, "gate", str(facts), "--now", NOW)
    assert (status, err) == (0, "")
    assert_nothing_raw(out)
    assert "Ber\\u202elin\\x1b[2J\\x9b31m" in out
    assert "f\\u202e.json" in out  # the title names the file


def test_an_unknown_facts_key_is_escaped_in_the_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps([{**FACT, f"evil{RLO}\x1b[2Jkey": 1}]), encoding="utf-8")
    status, out, err = run(capsys, "gate", str(facts))
    assert (status, out) == (2, "")
    assert_nothing_raw(err)
    assert "evil\\u202e\\x1b[2Jkey: unknown field" in err


def test_a_file_name_is_escaped_in_the_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path(f"name{RLO}\x1b[31m.json").write_text("[", encoding="utf-8")
    status, _, err = run(capsys, "gate", f"name{RLO}\x1b[31m.json")
    assert status == 2
    assert_nothing_raw(err)
    assert "vouched gate: name\\u202e\\x1b[31m.json:1: invalid JSON" in err


def test_a_sources_name_is_escaped_in_the_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # short relative names: the error line is not cut
    write_facts(Path("facts.json"))
    Path("answer.txt").write_text("It is 21.4 degC in Berlin.", encoding="utf-8")
    status, _, err = run(
        capsys,
        "scan",
        "--facts",
        "facts.json",
        "--now",
        NOW,
        "--sources",
        f"src{RLO}\x1b\x9bx",
        "answer.txt",
    )
    assert status == 2
    assert_nothing_raw(err)
    assert err == "vouched scan: src\\u202e\\x1b\\x9bx: no such file\n"


def test_an_error_line_never_prints_a_control_character_of_its_message() -> None:
    error = InputError(f"bad {HOSTILE}", file=f"a{RLO}", field="\x1bfield")
    assert_nothing_raw(str(error))


def test_tables_are_whole_when_stdout_is_a_pipe(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    facts = write_facts(tmp_path / "facts.json", source=None, confidence=0.95)
    status, out, _ = run(capsys, "gate", str(facts), "--now", NOW)
    assert status == 1
    assert "confident_without_source (cardinal)" in out  # not folded over two rows
    assert "…" not in out


def test_the_verify_table_fits_100_columns_and_cuts_nothing_when_stdout_is_a_pipe(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    examples = Path(__file__).resolve().parents[2] / "examples"
    status, out, _ = run(
        capsys,
        "verify",
        "--catalog",
        str(examples / "catalog.csv"),
        "--contract",
        str(examples / "contract.toml"),
        str(examples / "claims.jsonl"),
    )
    assert status == 1
    assert max(len(line) for line in out.splitlines()) <= 100
    assert "…" not in out
    # The long reason folds onto the lines below its row; its words all stay.
    start = out.index("│ citation_mismatch")
    reason_column = " ".join(
        line.rstrip(" │").rsplit("│", 1)[-1].strip() for line in out[start:].splitlines()[:4]
    )
    assert "citation 'CAT-001' is not the record of WS102 ('CAT-002')" in reason_column


@pytest.mark.parametrize(
    "argv",
    [
        ("y" * 5000,),
        ("replay", "--store", "x.db", "--engine", "\x1b" * 3000),
        ("gate", "--now", "2026-" + "1" * 5000, "facts.json"),
    ],
    ids=["command", "choice", "option-value"],
)
def test_every_usage_error_echoes_input_cut_and_escaped(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert err.count("\n") == 1
    assert_nothing_raw(err)
    assert "characters)" in err
    assert len(err.split(" (usage: ")[0]) < 300, err
