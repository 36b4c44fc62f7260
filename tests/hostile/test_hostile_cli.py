"""Every class of hostile input through the CLI (cases in cases.py).

Each case: the exit status it must have, at most one line on stderr (at most
300 characters, no traceback) that says what it must, no temporary file left
beside any output, and an end well within the timeout (a hang is a failure,
never a wait). Every case runs in this process, through the CLI's main() with
its streams captured (vouched.testing.run_cli) on a thread the test stops
waiting for at the timeout. The cases where the danger is what a file is (a
FIFO that never gets a writer, a device that never ends) run once more as a
real process too (one of each kind), which the timeout can kill, as does a
full disk on stdout.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hostile.cases import CASES, FIFO, Case
from vouched.testing import CliResult
from vouched.testing import run_cli as run_in_process

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TIMEOUT = 20  # seconds: a guard against hangs, not a measure of speed
COLUMNS = 200


def make_files(tmp: Path, files: dict[str, object]) -> None:
    for name, content in files.items():
        path = tmp / name
        if content is FIFO:
            os.mkfifo(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(str(content), encoding="utf-8")


def run_cli(
    argv: list[str], stdin: bytes = b"", **kwargs: object
) -> subprocess.CompletedProcess[bytes]:
    """The CLI as a real process (what needs one: a timeout that can kill it)."""
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(
        [sys.executable, "-m", "vouched", *argv],
        input=stdin,
        stderr=subprocess.PIPE,
        timeout=TIMEOUT,
        check=False,
        **{"env": {**os.environ, "COLUMNS": str(COLUMNS), "NO_COLOR": "1"}, **kwargs},  # type: ignore[arg-type]  # subprocess's own keywords
    )


def run_guarded(argv: list[str], stdin: bytes = b"") -> CliResult:
    """The CLI in this process; a run that outlasts the timeout fails the test."""
    return run_in_process(argv, stdin=stdin, columns=COLUMNS, timeout=TIMEOUT)


def assert_one_clean_line(stderr: str, says: str) -> None:
    assert "Traceback" not in stderr
    if not says:
        assert stderr == ""
        return
    assert stderr.endswith("\n")
    assert stderr.count("\n") == 1, stderr[:500]
    assert len(stderr) <= 301, stderr[:500]
    assert says in stderr


def check(case: Case, tmp_path: Path, returncode: int, stdout: str, stderr: str) -> None:
    assert returncode == case.status, (stderr[:500], stdout[:500])
    assert_one_clean_line(stderr, case.says)
    if case.status == 2:
        assert stdout == ""
    if case.stdout_has:
        assert case.stdout_has in stdout
    if case.stdout_lacks:
        assert case.stdout_lacks not in stdout


def files_left(tmp_path: Path, before: set[Path]) -> set[Path]:
    return {p for p in set(tmp_path.iterdir()) - before if p.name != "s.db"}


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_hostile_input_gets_its_status_and_one_clean_line(tmp_path: Path, case: Case) -> None:
    make_files(tmp_path, case.files)
    before = set(tmp_path.iterdir())
    argv = [part.format(tmp=tmp_path, ex=EXAMPLES) for part in case.argv]
    run = run_guarded(argv, case.stdin)
    check(case, tmp_path, run.returncode, run.stdout, run.stderr)
    left = files_left(tmp_path, before)
    assert not left, left  # no partial output, no temporary file


# One of each kind whose danger is what the file is, where a slip in the input
# layer would hang or read forever: a real process the timeout can kill.
PROCESS_IDS = {
    "gate-dev-zero",
    "gate-fifo",
    "gate-stdin-over-the-cap",
    "verify-chart-onto-a-fifo-is-refused",
}
PROCESS_CASES = [case for case in CASES if case.id in PROCESS_IDS]


@pytest.mark.parametrize("case", PROCESS_CASES, ids=[case.id for case in PROCESS_CASES])
def test_hostile_input_as_a_real_process(tmp_path: Path, case: Case) -> None:
    make_files(tmp_path, case.files)
    before = set(tmp_path.iterdir())
    argv = [part.format(tmp=tmp_path, ex=EXAMPLES) for part in case.argv]
    run = run_cli(argv, case.stdin)
    stdout = run.stdout.decode("utf-8", "replace")
    check(case, tmp_path, run.returncode, stdout, run.stderr.decode("utf-8", "replace"))
    left = files_left(tmp_path, before)
    assert not left, left


def test_a_full_disk_on_stdout_is_one_line_and_exit_2() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system (Linux has it)")
    with Path("/dev/full").open("wb") as full:
        run = run_cli(
            ["gate", "--json", str(EXAMPLES / "facts.json"), "--now", "2026-11-29T12:10:00Z"],
            stdout=full,
        )
    assert run.returncode == 2
    assert_one_clean_line(run.stderr.decode(), "No space left on device")
