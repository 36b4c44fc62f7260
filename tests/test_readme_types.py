"""The README's python blocks and the examples type-check under ``mypy
--strict``, as a user's own code would: the types vouched declares are what a
checker reads, with pydantic's mypy plugin and without it.

Each README section's blocks are one module (later blocks use what earlier
ones defined, as in one interpreter); a block whose lines are an excerpt of
an example is checked as that example. One mypy run per configuration checks
every module; the caches live in the repository's (ignored) ``.mypy_cache``
(the plugin run shares the one ``make lint`` writes), so a rerun checks little
more than the blocks themselves: about 4 s warm, 30 s in a fresh clone.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))

_PYTHON = re.compile(r"```python\n(.*?)```", re.S)


def _lines(code: str) -> list[str]:
    return [line.strip() for line in code.splitlines() if line.strip()]


def _excerpt_of(block: str) -> Path | None:
    """The example whose lines hold ``block``'s lines in a row, if any."""
    wanted = _lines(block)
    for example in EXAMPLES:
        lines = _lines(example.read_text(encoding="utf-8"))
        if any(lines[i : i + len(wanted)] == wanted for i in range(len(lines))):
            return example
    return None


def _slug(heading: str) -> str:
    return re.sub(r"\W+", "_", heading.lower()).strip("_")


def readme_modules() -> tuple[dict[str, str], list[str]]:
    """``({module name: code}, [README excerpts of examples])``."""
    modules: dict[str, str] = {}
    excerpts: list[str] = []
    for section in README.split("\n## ")[1:]:
        heading = section.split("\n", 1)[0]
        own = []
        for block in _PYTHON.findall(section):
            if _excerpt_of(block) is not None:
                excerpts.append(heading)
            else:
                own.append(textwrap.dedent(block))
        if own:
            modules[f"readme_{_slug(heading)}"] = "\n".join(own)
    return modules, excerpts


def test_every_readme_block_is_checked_as_a_module_or_an_examples_excerpt() -> None:
    modules, excerpts = readme_modules()
    assert sorted(modules) == [
        "readme_claims_against_a_catalog",
        "readme_periods_forecasts_and_timetables",
        "readme_quick_start",
        "readme_running_many_workers",
        "readme_scanning_answers",
        "readme_snapshots_and_replay",
        "readme_sources",
        "readme_streamed_answers",
        "readme_testing_your_own_code",
        "readme_tracing",
        "readme_vouched_serve",
    ]
    assert excerpts == ["Quick start: an answer end to end"]


@pytest.mark.parametrize("plugin", [False, True], ids=["plain", "pydantic-plugin"])
def test_readme_blocks_and_examples_pass_mypy_strict(plugin: bool, tmp_path: Path) -> None:
    modules, _ = readme_modules()
    for name, code in modules.items():
        (tmp_path / f"{name}.py").write_text(code, encoding="utf-8")
    for example in EXAMPLES:
        (tmp_path / f"example_{example.name}").write_text(
            example.read_text(encoding="utf-8"), encoding="utf-8"
        )
    if plugin:
        # The project's own settings (strict, pydantic's plugin), so the cache
        # `make lint` just wrote for vouched's modules is the one read here.
        config, cache = ROOT / "pyproject.toml", ROOT / ".mypy_cache"
    else:
        config, cache = tmp_path / "mypy.ini", ROOT / ".mypy_cache" / "docs"
        config.write_text("[mypy]\nstrict = True\n", encoding="utf-8")
    mypy = [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir", str(cache)]
    run = subprocess.run(
        [*mypy, "--no-error-summary", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
