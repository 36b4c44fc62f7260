"""Numbers the caller passed in, echoed back in an answer: checked like any other.

The rule is the registry's echo family (:mod:`vouched._scan._rules._echo`); here
are the query's strings it reads and the scan of one string it is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from vouched._fact import Fact
from vouched._policy import Policy
from vouched._scan._facts._lexicon import Lexicon
from vouched._scan._rules._echo import run_echo
from vouched._scan._scanner import Finding, scan

__all__ = ["caller_texts", "echoed_numbers"]


def caller_texts(query: Mapping[str, Any]) -> tuple[str, ...]:
    """The query's strings holding a digit: its values, and the strings in
    list values and nested queries (every subject of every query of a list)."""
    found: list[str] = []
    pending: list[Any] = [query]
    while pending:  # iterative: a deep query costs its size, never the stack
        value = pending.pop()
        if isinstance(value, str):
            if any(c.isdigit() for c in value):
                found.append(value)
        elif isinstance(value, Mapping):
            pending.extend(reversed(list(value.values())))
        elif isinstance(value, list | tuple):
            pending.extend(reversed(value))
    return tuple(dict.fromkeys(found))


def echoed_numbers(
    text: str,
    caller: Iterable[str],
    grounded: Sequence[Fact],
    lexicon: Lexicon | None,
    policy: Policy,
) -> list[Finding]:
    """Findings for the numbers of each caller string the text repeats (the registry's
    echo rules, each string scanned against the grounded facts)."""
    return run_echo(text, caller, lambda passed: scan(passed, grounded, lexicon, policy=policy))
