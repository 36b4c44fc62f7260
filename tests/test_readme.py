"""Every README snippet that says what it prints runs, as a user would paste
it into a fresh interpreter, and prints exactly that; every ``console`` block
runs its ``$`` commands in a shell, from a fresh directory that holds the
examples, and prints what the block shows (a line ``...`` stands for any
lines, ``...`` inside a line for any text)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

# A python block, the word "prints" on its own line, and the block it prints.
_SNIPPET = re.compile(r"```python\n(.*?)```\n\nprints\n\n```\n(.*?)```", re.S)


def _snippets() -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    for section in README.split("\n## ")[1:]:
        heading = section.split("\n", 1)[0]
        for number, (code, printed) in enumerate(_SNIPPET.findall(section), start=1):
            found[f"{heading} #{number}"] = (code, printed)
    return found


SNIPPETS = _snippets()


def test_every_section_with_a_runnable_snippet_is_found() -> None:
    # A snippet whose "prints" block moved away would silently stop being run.
    assert sorted(SNIPPETS) == [
        "Claims against a catalog #1",
        "Game recaps: basketball and football #1",
        "Periods: forecasts and timetables #1",
        "Quick start #1",
        "Running many workers #1",
        "Scanning answers #1",
        "Snapshots and replay #1",
        "Sources #1",
        "Streamed answers #1",
        "Testing your own code #1",
        "Tracing #1",
    ]


def test_the_quick_start_stays_short() -> None:
    assert len(SNIPPETS["Quick start #1"][0].strip().splitlines()) <= 20


@pytest.fixture(scope="module")
def snippet_runs() -> dict[str, subprocess.CompletedProcess[str]]:
    """Every snippet run in a fresh interpreter of its own, all started at once
    (each waits on its own imports and I/O; together they keep both cores busy)."""
    children = {
        name: subprocess.Popen(
            [sys.executable, "-c", code],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, (code, _) in SNIPPETS.items()
    }
    runs = {}
    for name, child in children.items():
        try:
            out, err = child.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            child.kill()
            out, err = child.communicate()
            err += "\n(killed: no end within 120 s)"
        runs[name] = subprocess.CompletedProcess(child.args, child.returncode, out, err)
    return runs


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_prints_what_the_readme_shows(
    name: str, snippet_runs: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    if name.startswith("Running many workers"):
        from fleet.services import require_postgres, require_redis  # noqa: PLC0415

        require_redis()
        require_postgres()
    run = snippet_runs[name]
    assert run.returncode == 0, run.stderr
    assert run.stdout == SNIPPETS[name][1]


# -- shell sessions -----------------------------------------------------------------

_CONSOLE = re.compile(r"```console\n(.*?)```", re.S)


def _sessions() -> dict[str, str]:
    found: dict[str, str] = {}
    for section in README.split("\n## ")[1:]:
        heading = section.split("\n", 1)[0]
        for number, block in enumerate(_CONSOLE.findall(section), start=1):
            found[f"{heading} #{number}"] = block
    return found


SESSIONS = _sessions()


def _matches(expected: list[str], actual: list[str]) -> bool:
    """``expected`` lines against ``actual``: ``...`` alone is any lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(_matches(rest, actual[i:]) for i in range(len(actual) + 1))
    pattern = ".*".join(re.escape(part) for part in head.split("..."))
    return (
        bool(actual) and re.fullmatch(pattern, actual[0]) is not None and _matches(rest, actual[1:])
    )


def test_the_replay_walkthrough_is_a_session() -> None:
    assert sorted(SESSIONS) == ["Snapshots and replay #1"]


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_session_prints_what_the_readme_shows(name: str, tmp_path: Path) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    lines = SESSIONS[name].splitlines()
    commands = [line[2:] for line in lines if line.startswith("$ ")]
    expected = [line for line in lines if not line.startswith("$ ")]
    # The environment's own bin first: what `. .venv/bin/activate` does.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    printed: list[str] = []
    for command in commands:
        run = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert run.stderr == "", run.stderr
        printed.extend(run.stdout.splitlines())
    assert _matches(expected, printed), "\n".join(printed)


def test_the_readme_says_how_to_turn_off_looptimes_plugin() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    testing = readme.split("\n## Testing your own code\n", 1)[1].split("\n## ", 1)[0]
    assert "-p no:looptime_plugin" in testing


def test_the_serve_config_shown_is_the_example_file() -> None:
    # The README shows examples/serve.toml with comments; the file itself must say
    # the same keys and values, or a user copying one gets a different service.
    import tomllib  # noqa: PLC0415 - this test's own reader

    section = README.split("\n## vouched serve\n", 1)[1]
    shown = re.search(r"```toml\n(.*?)```", section, re.S)
    assert shown is not None, "the serve section lost its config block"
    example = (ROOT / "examples" / "serve.toml").read_text(encoding="utf-8")
    assert tomllib.loads(shown.group(1)) == tomllib.loads(example)
