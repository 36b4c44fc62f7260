"""``vouched`` itself, before any command: its help and a missing command
(in this process, through main(); test_cli_process.py runs the real command)."""

from __future__ import annotations

import re
from pathlib import Path

from vouched.testing import CliResult, run_cli

COMMANDS = ("gate", "scan", "prompt", "verify", "replay", "sources", "serve", "review", "demo")


def vouched(*args: str) -> CliResult:
    return run_cli(args)


def test_help_lists_every_command_and_the_exit_statuses() -> None:
    run = vouched("--help")
    assert run.returncode == 0, run.stderr
    section = run.stdout.split("commands:", 1)[1].split("\n\n", 1)[0]
    listed = [line.split()[0] for line in section.splitlines()[2:]]
    assert tuple(listed) == COMMANDS
    for status in ("0  all good", "1  the input was processed", "2  usage error"):
        assert status in run.stdout


def test_no_command_is_one_line_naming_the_commands_exit_2() -> None:
    run = vouched()
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1
    assert f"a COMMAND is required ({', '.join(COMMANDS)})" in run.stderr
    assert run.stderr.count("see 'vouched --help'") == 1


def test_the_cli_reference_command_list_shows_every_command_and_option() -> None:
    from vouched._cli import _build_parser  # noqa: PLC0415 - the parser the CLI runs

    page = Path(__file__).resolve().parents[2] / "docs" / "reference" / "cli.md"
    block = page.read_text(encoding="utf-8").split("```\n", 1)[1].split("```", 1)[0]
    # One entry per command: its line and the indented lines that continue it.
    entries = re.split(r"\n(?=vouched )", block.strip())
    shown = {entry.split()[1]: set(re.findall(r"--[\w-]+", entry)) for entry in entries}
    parser = _build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")
    assert tuple(shown) == COMMANDS
    for name, sub in commands.choices.items():
        options = {o for a in sub._actions for o in a.option_strings if o.startswith("--")}
        # --debug is every command's, said once below the list.
        assert shown[name] == options - {"--help", "--debug"}, name


def test_version_prints_the_installed_version() -> None:
    from importlib.metadata import version  # noqa: PLC0415

    run = vouched("--version")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"vouched {version('vouched')} (scanner: ")


def test_version_says_the_scanner_is_pure_python_from_the_source_tree() -> None:
    run = vouched("--version")
    assert run.stdout.endswith("(scanner: pure Python)\n")


def test_an_unknown_option_is_reported_with_the_commands_usage() -> None:
    run = vouched("replay", "--store", "x.db", "--frobnicate")
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1
    assert run.stderr.startswith("vouched replay: error: unrecognized arguments: --frobnicate")
    assert "usage: vouched replay [-h] --store PATH" in run.stderr


def test_a_lexicon_option_names_every_shipped_lexicon() -> None:
    # `--lexicon weather` works, so the help says so: a reader of --help alone would
    # otherwise write a lexicon file for a domain vouched already ships.
    from vouched import Lexicon  # noqa: PLC0415

    for command in ("scan", "replay"):
        run = vouched(command, "--help")
        assert run.returncode == 0, run.stderr
        shown = " ".join(run.stdout.split())
        for name in Lexicon.shipped_names():
            assert name in shown, (command, name)


def test_the_size_cap_help_points_to_a_page_that_lists_the_caps() -> None:
    run = vouched("gate", "--help")
    assert run.returncode == 0, run.stderr
    assert "docs/reference/cli.md" in " ".join(run.stdout.split())
    page = Path(__file__).resolve().parents[2] / "docs" / "reference" / "cli.md"
    assert "facts 64 MiB" in " ".join(page.read_text(encoding="utf-8").split())
