"""The README's snapshots-and-replay snippet runs and prints what it says."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_replay_snippet_prints_what_the_readme_shows() -> None:
    section = README.read_text(encoding="utf-8").split("## Snapshots and replay", 1)[1]
    code, shown = re.findall(r"```(?:python)?\n(.*?)```", section, re.S)[:2]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert out == shown
