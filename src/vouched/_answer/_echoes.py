"""Numbers the caller passed in, echoed back in an answer: checked like any other.

The rule is the registry's echo family (:mod:`vouched._scan._rules._echo`), the
strings read once with the answer's scanner (``Scanner(..., caller=...)``); here are
the query's strings it reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["caller_texts"]


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
