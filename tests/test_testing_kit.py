"""vouched.testing as users get it: every public name has an example that runs,
importing it costs no optional dependency, and each switch puts back what it
changed. (The store twins run through their real stores' contract tests:
tests/replay/test_store_contract.py, tests/fleet/test_breaker_store_contract.py,
tests/fleet/test_last_good_contract.py.)"""

from __future__ import annotations

import asyncio
import doctest
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import vouched.testing
from vouched import MissingExtraError
from vouched.testing import run_cli, virtual_time

EXAMPLES = [name for name in vouched.testing.__all__ if name != "Outcome"]  # a type alias


def test_the_public_names_are_sorted_and_all_importable() -> None:
    assert vouched.testing.__all__ == sorted(vouched.testing.__all__)
    for name in vouched.testing.__all__:
        assert getattr(vouched.testing, name) is not None


@pytest.mark.parametrize("name", ["vouched.testing", *EXAMPLES])
def test_the_docstring_example_runs(name: str) -> None:
    target = vouched.testing if name == "vouched.testing" else getattr(vouched.testing, name)
    finder = doctest.DocTestFinder(recurse=False)
    tests = [t for t in finder.find(target, name, module=False, globs={}) if t.examples]
    assert tests, f"{name} has no example in its docstring"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_importing_the_kit_imports_neither_looptime_nor_the_command_line() -> None:
    code = (
        "import sys, vouched.testing\n"
        "print(sorted(m for m in ('looptime', 'vouched._cli') if m in sys.modules))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert run.stdout == "[]\n"


def test_virtual_time_without_looptime_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "looptime", None)  # as if not installed
    with pytest.raises(MissingExtraError, match=r"pip install 'vouched\[testing\]'"):  # noqa: SIM117
        with virtual_time():
            pass


def test_virtual_time_cancels_what_is_left_and_leaves_no_loop_behind() -> None:
    async def start_forever() -> asyncio.Task[None]:
        return asyncio.get_running_loop().create_task(asyncio.Event().wait())

    with virtual_time() as loop:
        forever = loop.run(start_forever())
    assert forever.cancelled()
    with pytest.raises(RuntimeError):
        asyncio.get_running_loop()


def test_virtual_time_counts_loop_seconds_across_runs() -> None:
    with virtual_time(start=100.0) as loop:
        loop.run(asyncio.sleep(1.5))
        first = loop.elapsed
        loop.run(asyncio.sleep(2))
    assert (first, loop.elapsed) == (1.5, 3.5)


def test_run_cli_puts_the_streams_back_even_when_the_command_fails() -> None:
    before = sys.stdin, sys.stdout, sys.stderr
    result = run_cli(["gate", "/nonexistent/facts.json"])
    assert (sys.stdin, sys.stdout, sys.stderr) == before
    assert result.returncode == 2
    assert "/nonexistent/facts.json" in result.stderr


def test_run_cli_reads_bytes_on_stdin_as_given() -> None:
    result = run_cli(["gate", "-"], stdin=b"\xff\xfe not text")
    assert result.returncode == 2
    assert result.stderr.startswith("vouched gate: <stdin>")
    assert "UTF-8" in result.stderr


def test_run_cli_reports_help_as_a_user_sees_it() -> None:
    result = run_cli(["--help"])
    assert result.returncode == 0
    assert result.stdout.startswith("usage: vouched")
    assert result.stderr == ""


def test_run_cli_with_a_timeout_fails_a_run_that_outlasts_it(tmp_path: Path) -> None:
    facts = tmp_path / "many.jsonl"
    fact = json.dumps({"subject": "Berlin", "attribute": "t", "value": 1, "source": "s",
                       "observed_at": "2026-11-29T12:00:00Z"})  # fmt: skip
    facts.write_text("\n".join([fact] * 2_000), encoding="utf-8")  # far past a millisecond
    before = sys.stdout
    with pytest.raises(TimeoutError, match=r"did not end within 0\.001 s"):
        run_cli(["gate", str(facts), "--json"], timeout=0.001)
    # The run goes on, on its own thread, until it ends and puts the streams back.
    for worker in threading.enumerate():
        if worker.name == "vouched run_cli":
            worker.join(60)
    assert sys.stdout is before


def test_run_cli_with_a_timeout_returns_what_the_run_gave() -> None:
    assert run_cli(["--version"], timeout=60) == run_cli(["--version"])


def test_run_cli_refuses_one_string_for_a_list_of_arguments() -> None:
    with pytest.raises(TypeError, match="list of arguments"):
        run_cli("gate --help")  # a str is a sequence of str: the mistake under test
