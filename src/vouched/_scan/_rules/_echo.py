"""The echo rule: numbers of the caller's own query that an answer repeats.

The scanner reads a subject's name as a name, digits and all, so a query subject
such as ``"Berlin, where it is 31 °C,"`` would come back in a silence sentence
("Nothing about Berlin, where it is 31 °C, is available") with 31 °C unchecked.
The caller's text is not a source: each caller string is read once, when the scanner
compiles (:class:`~vouched._scan._judge.Compiled`, its :class:`Echo`), against the
facts that vouch; at scan time the rule only finds where the answer repeats a string
and moves that string's findings there (:meth:`vouched.Scanner.echoes`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from vouched._scan._findings import Finding, FindingKind, shifted
from vouched._scan._rules._rule import Family, Rule, decided, ran

__all__ = ["ECHO_RULES", "Echo", "EchoCheck", "EchoRule", "echoed", "run_echo"]

_K = FindingKind


class Echo(NamedTuple):
    """One caller string and its findings (spans into the string), read at compile time."""

    text: str
    findings: tuple[Finding, ...]


EchoCheck = Callable[[str, Sequence[Echo]], list[Finding]]
"""An echo rule: the answer and the caller's strings, each read once."""
EchoRule = Rule[EchoCheck]


def echoed(text: str, echoes: Sequence[Echo]) -> list[Finding]:
    """A caller string the answer repeats is checked like the answer's own words: each
    finding of its reading stands at every place the answer repeats it."""
    findings: list[Finding] = []
    for echo in echoes:
        at = text.find(echo.text)
        while at >= 0:
            findings.extend(shifted(f, at) for f in echo.findings)
            at = text.find(echo.text, at + len(echo.text))
    return findings


ECHO_RULES: tuple[EchoRule, ...] = (
    Rule(
        "echoed",
        echoed,
        tuple(k for k in FindingKind if k not in {_K.UNSUPPORTED_QUOTE}),  # a scan's kinds
    ),
)
"""Over an answer and the caller's strings, in order."""


def run_echo(text: str, echoes: Sequence[Echo]) -> list[Finding]:
    """Every echo rule's findings, in order."""
    findings: list[Finding] = []
    if not echoes:
        return findings
    ran(Family.ECHO)
    for rule in ECHO_RULES:
        for finding in rule.check(text, echoes):
            decided(rule, finding)
            findings.append(finding)
    return findings
