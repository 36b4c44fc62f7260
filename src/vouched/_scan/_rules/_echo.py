"""The echo rule: numbers of the caller's own query that an answer repeats.

The scanner reads a subject's name as a name, digits and all, so a query subject
such as ``"Berlin, where it is 31 °C,"`` would come back in a silence sentence
("Nothing about Berlin, where it is 31 °C, is available") with 31 °C unchecked.
The caller's text is not a source: each caller string the answer repeats is scanned
on its own, and what no fact vouches for is a finding at each place it is repeated.
Answers run it (:mod:`vouched._answer._echoes`), with the scan of one string passed in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from vouched._scan._findings import Finding, FindingKind, ScanReport
from vouched._scan._rules._rule import Rule, decided

__all__ = ["ECHO_RULES", "EchoCheck", "EchoRule", "echoed", "run_echo"]

_K = FindingKind

EchoCheck = Callable[[str, Iterable[str], Callable[[str], ScanReport]], list[Finding]]
"""An echo rule: the answer, the caller's strings, and the scan of one string."""
EchoRule = Rule[EchoCheck]


def echoed(
    text: str, caller: Iterable[str], scan_one: Callable[[str], ScanReport]
) -> list[Finding]:
    """A caller string the answer repeats is checked like the answer's own words: each
    finding of its scan stands at every place the answer repeats it."""
    findings: list[Finding] = []
    for passed in caller:
        at = text.find(passed)
        if at < 0:
            continue
        report = scan_one(passed)
        if report.passed:
            continue
        while at >= 0:
            findings.extend(
                dataclasses.replace(f, start=f.start + at, end=f.end + at) for f in report.findings
            )
            at = text.find(passed, at + len(passed))
    return findings


ECHO_RULES: tuple[EchoRule, ...] = (
    Rule(
        "echoed",
        echoed,
        tuple(k for k in FindingKind if k not in {_K.UNSUPPORTED_QUOTE}),  # a scan's kinds
    ),
)
"""Over an answer and the caller's strings, in order."""


def run_echo(
    text: str, caller: Iterable[str], scan_one: Callable[[str], ScanReport]
) -> list[Finding]:
    """Every echo rule's findings, in order."""
    strings = tuple(caller)
    findings: list[Finding] = []
    for rule in ECHO_RULES:
        for finding in rule.check(text, strings, scan_one):
            decided(rule, finding)
            findings.append(finding)
    return findings
