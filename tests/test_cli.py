"""``vouched`` itself, before any command: its help and a missing command."""

from __future__ import annotations

import subprocess
import sys

COMMANDS = ("gate", "scan", "verify", "replay", "sources", "demo")


def vouched(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vouched", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


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
