"""Every example of the documentation runs as printed (the rules: tests/docblocks.py).

Each section's python blocks run as one fresh interpreter would run them pasted in
order; a block's shown output is checked exactly. ``VOUCHED_DOCS_UPDATE=1 pytest
tests/test_docs.py`` writes what the blocks print now into the pages instead (review
the diff). Each ``console`` block's commands run in a shell from a fresh directory that
holds the examples, and print what the block shows.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from docblocks import ROOT, Section, program, sections, split_output

SECTIONS = sections()
RUNNABLE = {s.name: s for s in SECTIONS if s.runs}
SESSIONS = {f"{s.name} #{n}": block for s in SECTIONS for n, block in enumerate(s.console, 1)}
UPDATE = os.environ.get("VOUCHED_DOCS_UPDATE") == "1"
# The fleet's blocks need the real Redis and PostgreSQL (as the fleet tests do).
_NEEDS_SERVICES = ("many-workers.md",)


def test_the_blocks_are_found_and_every_block_left_out_says_why() -> None:
    blocks = [block for section in SECTIONS for block in section.python]
    skipped = [block for block in blocks if block.skip is not None]
    assert len(blocks) >= 15  # a fence that stops matching would silently run nothing
    assert all(block.skip for block in skipped)
    assert sum(block.printed is not None for block in blocks) >= 12


def test_every_included_example_file_is_shown_by_a_page() -> None:
    shown = {block.shown for section in SECTIONS for block in section.python}
    for example in sorted((ROOT / "docs" / "examples").glob("*.py")):
        line = f'--8<-- "{example.relative_to(ROOT).as_posix()}"\n'
        assert line in shown, f"{example.name} is in no page: it would run nowhere"


def test_the_readme_quick_start_stays_short() -> None:
    readme = next(s for s in SECTIONS if s.page.name == "README.md" and s.runs)
    assert len(readme.runs[0].code.strip().splitlines()) <= 20


@pytest.fixture(scope="module")
def runs() -> dict[str, subprocess.CompletedProcess[str]]:
    """Every section's program in a fresh interpreter of its own, two at a time."""
    env = {**os.environ, "PYTHONUTF8": "1"}
    for key in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "VOUCHED_MODEL_URL", "VOUCHED_MODEL"):
        env.pop(key, None)  # the examples run offline, whatever the shell says
    done: dict[str, subprocess.CompletedProcess[str]] = {}
    names = sorted(RUNNABLE)
    for start in range(0, len(names), 2):
        children = {
            name: subprocess.Popen(
                [sys.executable, "-c", program(RUNNABLE[name])],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
                cwd=ROOT,
            )
            for name in names[start : start + 2]
        }
        for name, child in children.items():
            try:
                out, err = child.communicate(timeout=120)
            except subprocess.TimeoutExpired:
                child.kill()
                out, err = child.communicate()
                err += "\n(killed: no end within 120 s)"
            done[name] = subprocess.CompletedProcess(child.args, child.returncode, out, err)
    return done


def _update(section: Section, printed: list[str]) -> None:
    text = section.page.read_text(encoding="utf-8")
    for block, now in zip(section.runs, printed, strict=True):
        if block.printed is not None and block.printed != now:
            shown = f"```python\n{block.shown}```\n\nprints\n\n```\n"
            text = text.replace(shown + block.printed, shown + now, 1)
    section.page.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("name", sorted(RUNNABLE))
def test_section_runs_and_prints_what_the_page_shows(
    name: str, runs: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    section = RUNNABLE[name]
    if section.page.name in _NEEDS_SERVICES:
        from fleet.services import require_postgres, require_redis  # noqa: PLC0415

        require_redis()
        require_postgres()
    run = runs[name]
    assert run.returncode == 0, run.stderr
    printed = split_output(run.stdout)
    assert len(printed) == len(section.runs)
    if UPDATE:
        _update(section, printed)
        return
    for block, out in zip(section.runs, printed, strict=True):
        where = f"{section.page.name} line {block.line}"
        if block.printed is None:
            assert out == "", f"{where} prints, but the page does not show it:\n{out}"
        else:
            assert out == block.printed, f"{where}"


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


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_session_prints_what_the_page_shows(name: str, tmp_path: Path) -> None:
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


def test_the_testing_guide_says_how_to_turn_off_looptimes_plugin() -> None:
    guide = (ROOT / "docs" / "guides" / "testing.md").read_text(encoding="utf-8")
    assert "-p no:looptime_plugin" in guide


def test_the_serve_config_shown_is_the_example_file() -> None:
    # The guide shows examples/serve.toml with comments; the file itself must say the
    # same keys and values, or a user copying one gets a different service.
    guide = (ROOT / "docs" / "guides" / "serve.md").read_text(encoding="utf-8")
    shown = re.search(r"```toml\n(.*?)```", guide, re.S)
    assert shown is not None, "the serve guide lost its config block"
    example = (ROOT / "examples" / "serve.toml").read_text(encoding="utf-8")
    assert tomllib.loads(shown.group(1)) == tomllib.loads(example)


def test_the_readme_gateway_lines_load_beside_the_example_config(tmp_path: Path) -> None:
    # The README shows [[upstream]] tables "added to examples/serve.toml": they must
    # load there, with the pass-through key it names, as a user would paste them.
    from vouched._server._config import load_config  # noqa: PLC0415

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    gateway = readme[readme.index("## The gateway") :]
    shown = re.search(r"```toml\n(.*?)```", gateway, re.S)
    assert shown is not None, "the README lost its gateway block"
    for name in ("facts.json", "lexicon.json", "catalog.csv", "contract.toml"):
        (tmp_path / name).write_bytes((ROOT / "examples" / name).read_bytes())
    example = (ROOT / "examples" / "serve.toml").read_text(encoding="utf-8")
    example = example.replace("[answer]\n", '[answer]\nwithout_vouched = "audit"\n', 1)
    (tmp_path / "serve.toml").write_text(example + "\n" + shown.group(1), encoding="utf-8")
    config = load_config(tmp_path / "serve.toml", environ={})
    assert config.without_vouched == "audit"
    assert [u.name for u in config.upstreams] == ["local", "small"]
