"""mkdocs hooks: the command-line reference is generated from the parsers themselves.

``<!-- vouched-cli-help -->`` in a page becomes the ``--help`` of ``vouched`` and of
every command, laid out at 100 columns, so the page cannot drift from the CLI.
"""

from __future__ import annotations

import os
from typing import Any

MARKER = "<!-- vouched-cli-help -->"


def cli_reference() -> str:
    """Markdown: one section per command, its ``--help`` as a block."""
    from vouched._cli import _build_parser  # noqa: PLC0415 - only when a page asks

    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        parser = _build_parser()
        parts = ["## vouched\n", f"```text\n{parser.format_help()}```\n"]
        for name, command in parser.commands.choices.items():
            parts += [f"## vouched {name}\n", f"```text\n{command.format_help()}```\n"]
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before
    return "\n".join(parts)


def on_page_markdown(markdown: str, **_: Any) -> str:
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference())
    return markdown


def _fence_doctests(text: str) -> str:
    """Each run of ``>>>`` lines and their output, fenced as a ``pycon`` block (Markdown
    would read them as a quote and their output as links)."""
    out: list[str] = []
    in_session = False
    for line in text.splitlines():
        starts = line.lstrip().startswith(">>>")
        if starts and not in_session:
            out.append("```pycon")
            in_session = True
        elif in_session and not line.strip():
            out.append("```")
            in_session = False
        out.append(line)
    if in_session:
        out.append("```")
    return "\n".join(out)


try:  # the docs extra's griffe: absent, this file is still a plain mkdocs hook
    import griffe
except ImportError:  # pragma: no cover - only without the docs extra
    pass
else:

    class DoctestFences(griffe.Extension):
        """Docstrings' doctest sessions shown as Python sessions, not as Markdown."""

        def on_instance(self, *, obj: griffe.Object, **_: Any) -> None:
            if obj.docstring is not None and ">>>" in obj.docstring.value:
                obj.docstring.value = _fence_doctests(obj.docstring.value)
