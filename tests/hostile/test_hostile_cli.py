"""Every class of hostile input through the CLI as a subprocess (cases in cases.py).

Each case: the exit status it must have, at most one line on stderr (at most
300 characters, no traceback) that says what it must, no temporary file left
beside any output, and an end well within the subprocess timeout (a hang is a
failure, never a wait).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hostile.cases import CASES, FIFO, Case

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TIMEOUT = 20  # seconds: a guard against hangs, not a measure of speed


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
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(
        [sys.executable, "-m", "vouched", *argv],
        input=stdin,
        stderr=subprocess.PIPE,
        timeout=TIMEOUT,
        check=False,
        **{"env": {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}, **kwargs},  # type: ignore[arg-type]  # subprocess's own keywords
    )


def assert_one_clean_line(stderr: str, says: str) -> None:
    assert "Traceback" not in stderr
    if not says:
        assert stderr == ""
        return
    assert stderr.endswith("\n")
    assert stderr.count("\n") == 1, stderr[:500]
    assert len(stderr) <= 301, stderr[:500]
    assert says in stderr


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_hostile_input_gets_its_status_and_one_clean_line(tmp_path: Path, case: Case) -> None:
    make_files(tmp_path, case.files)
    before = set(tmp_path.iterdir())
    argv = [part.format(tmp=tmp_path, ex=EXAMPLES) for part in case.argv]
    run = run_cli(argv, case.stdin)
    stderr = run.stderr.decode("utf-8", "replace")
    stdout = run.stdout.decode("utf-8", "replace")
    assert run.returncode == case.status, (stderr[:500], stdout[:500])
    assert_one_clean_line(stderr, case.says)
    if case.status == 2:
        assert stdout == ""
    if case.stdout_has:
        assert case.stdout_has in stdout
    if case.stdout_lacks:
        assert case.stdout_lacks not in stdout
    left = {p for p in set(tmp_path.iterdir()) - before if p.name != "s.db"}
    assert not left, left  # no partial output, no temporary file


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
