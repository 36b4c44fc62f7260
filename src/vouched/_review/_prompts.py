"""Prompt versions as a reviewer reads them: the first words of the prompt
and its full text, where the pages know it.

A snapshot records its prompt's version (a content hash), not the prompt. The
pages know the text of vouched's own phrase-only prompt
(:data:`vouched._answer._prompt.SYSTEM_TEXT`); any other version is shown as
its hash, said to be a prompt these pages do not hold.
"""

from __future__ import annotations

from dataclasses import dataclass

from vouched._answer._prompt import PROMPT_VERSION, SYSTEM_TEXT

__all__ = ["KnownPrompt", "first_words", "known_prompt"]

_WORDS = 12


@dataclass(frozen=True)
class KnownPrompt:
    version: str
    name: str
    text: str


def known_prompt(version: str) -> KnownPrompt | None:
    """The prompt of ``version`` when the pages know its text."""
    if version == PROMPT_VERSION:
        return KnownPrompt(version, "vouched's phrase-only prompt", SYSTEM_TEXT)
    return None


def first_words(version: str) -> str:
    """The prompt's first sentence, or its first words when that runs long
    (``""`` when the pages do not know its text)."""
    known = known_prompt(version)
    if known is None:
        return ""
    sentence = known.text.strip().split(". ", 1)[0].split("\n", 1)[0].rstrip(".") + "."
    words = sentence.split()
    return sentence if len(words) <= _WORDS else " ".join(words[:_WORDS]) + "…"
