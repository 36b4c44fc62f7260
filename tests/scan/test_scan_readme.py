"""The README's scanner snippet runs and prints what the README says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_scan_snippet_prints_what_it_says() -> None:
    section = README.read_text(encoding="utf-8").split("## Scanning answers", 1)[1]
    code, printed = re.findall(r"```(?:python)?\n(.*?)```", section, re.S)[:2]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {})  # noqa: S102 - the README's own snippet
    assert out.getvalue() == printed
