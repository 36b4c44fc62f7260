"""Every README snippet that says what it prints runs, as a user would paste
it into a fresh interpreter, and prints exactly that."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")

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
        "Quick start #1",
        "Running many workers #1",
        "Scanning answers #1",
        "Snapshots and replay #1",
        "Sources #1",
        "Streamed answers #1",
    ]


def test_the_quick_start_stays_short() -> None:
    assert len(SNIPPETS["Quick start #1"][0].strip().splitlines()) <= 20


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_prints_what_the_readme_shows(name: str) -> None:
    if name.startswith("Running many workers"):
        from fleet.services import require_postgres, require_redis  # noqa: PLC0415

        require_redis()
        require_postgres()
    code, printed = SNIPPETS[name]
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == printed
