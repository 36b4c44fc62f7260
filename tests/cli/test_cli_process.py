"""The few things only a real process shows: the console script and
``python -m vouched`` exit with main()'s status, standard input arrives through
a pipe, and Ctrl-C is one line and status 130. Everything else about the CLI
is tested in process through main() (vouched.testing.run_cli), which these
keep honest: the same command gives the same status and output both ways."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from factories import BERLIN_JSON
from vouched.testing import run_cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NOW = "2026-11-29T12:10:00Z"
GOOD = BERLIN_JSON


def python_m_vouched(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vouched", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "stdin", "status"),
    [
        (("gate", "-", "--now", NOW, "--json"), json.dumps([GOOD]), 0),
        (("gate", str(EXAMPLES / "facts.json"), "--now", NOW, "--json"), "", 1),
        (("gate", "-", "--now", NOW), '[{"subject": "x"}]', 2),
        (("gate", "--frobnicate"), "", 2),
    ],
    ids=["stdin-all-good", "file-violations", "stdin-bad-input", "usage-error"],
)
def test_a_real_process_exits_and_prints_as_main_does_in_process(
    args: tuple[str, ...], stdin: str, status: int
) -> None:
    real = python_m_vouched(*args, stdin=stdin)
    assert real.returncode == status, real.stderr
    assert "Traceback" not in real.stderr
    assert (real.returncode, real.stdout, real.stderr) == run_cli(args, stdin=stdin)


def test_the_console_script_runs_main() -> None:
    script = Path(sys.executable).with_name("vouched")
    if not script.exists():
        pytest.skip(f"no console script beside {sys.executable} (not installed with pip)")
    run = subprocess.run(
        [script, "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == run_cli(["--version"]).stdout


def _reading_stdin(pid: int) -> bool:
    """True while the process is blocked in read(0, ...) (Linux: /proc/PID/syscall)."""
    try:
        fields = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        pytest.skip("/proc/PID/syscall is not readable here (Linux shows it to the parent)")
    return fields[:2] == ["0", "0x0"]  # syscall 0 is read on x86-64; its first argument, fd 0


def test_ctrl_c_while_reading_stdin_is_one_line_and_status_130() -> None:
    if not Path(f"/proc/{os.getpid()}/syscall").exists() or os.uname().machine != "x86_64":
        pytest.skip("needs Linux on x86-64 to see the child blocked on its read")
    with subprocess.Popen(
        [sys.executable, "-m", "vouched", "gate", "-", "--now", NOW],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as child:
        deadline = time.monotonic() + 60  # a guard against a hang, not a measure
        while not _reading_stdin(child.pid):
            assert child.poll() is None, child.stderr.read() if child.stderr else ""
            assert time.monotonic() < deadline, "the child never read its standard input"
            time.sleep(0.01)  # polling the child's state, not waiting for time to pass
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 130
    assert stdout == ""
    assert stderr == "vouched gate: interrupted\n"
