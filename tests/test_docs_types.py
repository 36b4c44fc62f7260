"""The documentation's python blocks and the examples type-check under ``mypy --strict``,
as a user's own code would: the types vouched declares are what a checker reads, with
pydantic's mypy plugin and without it.

Each section's blocks are one module (later blocks use what earlier ones defined, as in
one interpreter, tests/docblocks.py); a block that is an excerpt of an example is
checked as that example. One mypy run per configuration checks every module; the caches
live in the repository's (ignored) ``.mypy_cache``, so a rerun checks little more than
the blocks themselves.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from docblocks import EXAMPLES, ROOT, excerpt_of, sections, slug


def doc_modules() -> dict[str, str]:
    """``{module name: code}``, one module per section with python blocks."""
    modules: dict[str, str] = {}
    for section in sections():
        own = [
            textwrap.dedent(block.code)
            for block in section.python
            if excerpt_of(block.code) is None
        ]
        if own:
            name = f"doc_{slug(section.page.relative_to(ROOT).with_suffix('').as_posix())}"
            modules[f"{name}__{slug(section.heading)}"[:120]] = "\n".join(own)
    return modules


def test_every_python_block_is_checked_as_a_module_or_an_examples_excerpt() -> None:
    blocks = [block for section in sections() for block in section.python]
    own = sum(excerpt_of(block.code) is None for block in blocks)
    assert own > 0
    assert sum(code.count("\n") for code in doc_modules().values()) >= sum(
        block.code.count("\n") for block in blocks if excerpt_of(block.code) is None
    )


@pytest.mark.parametrize("plugin", [False, True], ids=["plain", "pydantic-plugin"])
def test_doc_blocks_and_examples_pass_mypy_strict(plugin: bool, tmp_path: Path) -> None:
    for name, code in doc_modules().items():
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
