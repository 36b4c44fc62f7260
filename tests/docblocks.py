"""The code blocks of the documentation (README.md and docs/**/*.md), read once.

A page is cut into sections at its ``## `` headings. In a section, the ``python``
blocks are one program, as pasted into one fresh interpreter in order (later blocks use
what earlier ones defined); a block followed by a line ``prints`` and a plain block
shows what it prints, and is checked. A block is left out of the run only when the line
before it says why: ``<!-- not run: REASON -->`` (it is still type-checked), or when its
lines are an excerpt of a file under ``examples/`` (that file runs and is checked in its
place). A block that is one line ``--8<-- "docs/examples/NAME.py"`` shows that file
(pymdownx.snippets includes it in the site): examples longer than a screen are real
files, run and type-checked here like any block. ``console`` blocks are shell
sessions: each ``$ `` line runs, the other lines are what they print (``...`` alone is
any lines, inside a line any text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))

_FENCE = re.compile(
    r"(?:<!-- not run: (?P<reason>[^>]*?) -->\n)?```(?P<lang>python|console)\n(?P<code>.*?)```\n"
    r"(?:\nprints\n\n```\n(?P<printed>.*?)```\n)?",
    re.S,
)


@dataclass
class Block:
    """One python block: its code, what it shows it prints (or None), and why it is not
    run (None when it runs)."""

    code: str
    printed: str | None
    skip: str | None
    line: int
    shown: str = ""
    """The block as the page writes it (an include's line, not the file)."""


@dataclass
class Section:
    page: Path
    heading: str
    python: list[Block] = field(default_factory=list)
    console: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT).as_posix()}: {self.heading}"

    @property
    def runs(self) -> list[Block]:
        return [block for block in self.python if block.skip is None]


def _lines(code: str) -> list[str]:
    return [line.strip() for line in code.splitlines() if line.strip()]


def excerpt_of(code: str) -> Path | None:
    """The example whose lines hold ``code``'s lines in a row, if any."""
    wanted = _lines(code)
    for example in EXAMPLES:
        lines = _lines(example.read_text(encoding="utf-8"))
        if any(lines[i : i + len(wanted)] == wanted for i in range(len(lines))):
            return example
    return None


_INCLUDE = re.compile(r'--8<-- "([^"]+)"\n')


def included(shown: str) -> str:
    """A block's code: the file a one-line include names, or the block itself."""
    found = _INCLUDE.fullmatch(shown)
    return (ROOT / found[1]).read_text(encoding="utf-8") if found else shown


def sections() -> list[Section]:
    found: list[Section] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        offset = 0
        for part in re.split(r"(?m)^(?=## )", text):
            heading = part.split("\n", 1)[0].lstrip("#").strip() or page.stem
            section = Section(page, heading)
            for match in _FENCE.finditer(part):
                line = text.count("\n", 0, offset + match.start()) + 1
                if match["lang"] == "console":
                    section.console.append(match["code"])
                    continue
                shown, reason = match["code"], match["reason"]
                code = included(shown)
                example = excerpt_of(code)
                if reason is None and example is not None:
                    reason = f"an excerpt of examples/{example.name}, which runs in its place"
                section.python.append(Block(code, match["printed"], reason, line, shown))
            offset += len(part)
            if section.python or section.console:
                found.append(section)
    return found


def slug(text: str) -> str:
    return re.sub(r"\W+", "_", text.lower()).strip("_")


MARK = "\x1e--vouched-docs-block--\x1e"
"""Printed between the blocks of one run, so each block's output is told apart."""


def program(section: Section) -> str:
    """The section's runnable blocks as one program, a mark printed before each."""
    parts = [f"print({MARK!r})\n{block.code}" for block in section.runs]
    return "\n".join(parts)


def split_output(stdout: str) -> list[str]:
    """One output per runnable block, in order."""
    return stdout.split(MARK + "\n")[1:]
