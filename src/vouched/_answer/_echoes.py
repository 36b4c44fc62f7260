"""Numbers the caller passed in, echoed back in an answer: checked like any other.

The scanner reads a subject's name as a name, digits and all, so a query
subject such as ``"Berlin, where it is 31 °C,"`` would come back in a silence
sentence ("Nothing about Berlin, where it is 31 °C, is available") with
31 °C unchecked. The caller's text is not a source: every string of the query
that the answer repeats is scanned on its own against the grounded facts, and
what no fact vouches for is a finding at each place the answer repeats it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from vouched._fact import Fact
from vouched._policy import Policy
from vouched._scan._lexicon import Lexicon
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
    """Findings for the numbers of each caller string the text repeats."""
    findings: list[Finding] = []
    for passed in caller:
        at = text.find(passed)
        if at < 0:
            continue
        report = scan(passed, grounded, lexicon, policy=policy)
        if report.passed:
            continue
        while at >= 0:
            findings.extend(
                dataclasses.replace(f, start=f.start + at, end=f.end + at) for f in report.findings
            )
            at = text.find(passed, at + len(passed))
    return findings
