"""The README's Sources snippet runs and prints what the README says."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_sources_snippet_prints_what_it_claims() -> None:
    section = README.read_text(encoding="utf-8").split("## Sources", 1)[1]
    code, expected = re.findall(r"```(?:python)?\n(.*?)```", section, re.S)[:2]
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout == expected
