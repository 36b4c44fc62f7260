"""The README's claims snippet runs and prints what the README says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).parents[2] / "README.md"


def test_readme_claims_snippet_prints_what_it_says() -> None:
    section = README.read_text(encoding="utf-8").split("## Claims against a catalog", 1)[1]
    code, printed = re.findall(r"```(?:python)?\n(.*?)```", section, re.DOTALL)[:2]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {})  # noqa: S102 - our own README
    assert out.getvalue() == printed
