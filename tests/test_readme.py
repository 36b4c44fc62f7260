"""The README's quick start runs, and prints what the README says it prints."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_quick_start_prints_what_the_readme_shows() -> None:
    text = README.read_text(encoding="utf-8")
    match = re.search(
        r"## Quick start\n\n```python\n(.*?)```\n\nprints\n\n```\n(.*?)```", text, re.S
    )
    assert match is not None, "the quick start block moved; update this test with it"
    code, expected = match.groups()
    assert len(code.strip().splitlines()) <= 20
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {"__name__": "readme"})  # noqa: S102 - the point
    assert out.getvalue() == expected
