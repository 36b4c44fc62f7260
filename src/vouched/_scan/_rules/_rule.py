"""What a rule is: a named, typed check that declares the finding kinds it may make.

Every decision of the scanner that makes a finding is a :class:`Rule` in one of the
families of the registry (:mod:`vouched._scan._rules`). A rule's ``check`` is typed by
its family (what it reads, what it returns); ``kinds`` are the finding kinds it may
return, and the runners report any other to :func:`audited` (a test switch that
restores itself), so a test fails when a rule returns a kind it did not declare.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

from vouched._scan._findings import Finding, FindingKind

__all__ = [
    "PASSED",
    "Family",
    "Outcome",
    "Passed",
    "Rule",
    "Undeclared",
    "audited",
    "decided",
    "decisions",
    "ran",
    "traced",
]


class Passed(enum.Enum):
    """A rule's word that a reading vouches for what it judged."""

    PASSED = "passed"


PASSED = Passed.PASSED
Outcome = Finding | Passed

C = TypeVar("C", bound=Callable[..., Any])
T = TypeVar("T")


class Family(enum.StrEnum):
    """The families of rules, in the order the scanner runs them."""

    TEXT = "text"  # placeholders, internal words, canned fallbacks: over the whole text
    QUOTE = "quote"  # quoted spans no source holds: per sentence
    DURATION = "duration"  # a duration no cue binds: a claim only in another unit of time
    QUANTITY = "quantity"  # per stated quantity: the first rule with an opinion decides
    REVISION = "revision"  # one quantity's outcome made sharper (pairs, restatements)
    CLAUSE = "clause"  # a clause's quantities together (the wrong name, the wrong column)
    EXPLANATION = "explanation"  # a sentence's numbers as a whole: the fewest changed words
    WORDS = "words"  # facts stated in words (weekdays, value words, relations)
    OCCASION = "occasion"  # words about occasions the facts do not cover (issue 28)
    TIME = "time"  # what a sentence says about the period it speaks of (facts with periods)
    ECHO = "echo"  # numbers of the caller's own query an answer repeats


@dataclass(frozen=True, slots=True)
class Rule(Generic[C]):
    """A named check of one family and the finding kinds it may return."""

    name: str
    check: C
    kinds: tuple[FindingKind, ...]


class Undeclared(NamedTuple):
    """A finding a rule returned of a kind it did not declare."""

    rule: str
    kind: FindingKind
    declared: tuple[FindingKind, ...]


_AUDIT: ContextVar[list[Undeclared] | None] = ContextVar("vouched_rule_audit", default=None)


_DECISIONS: ContextVar[list[str] | None] = ContextVar("vouched_rule_decisions", default=None)


def decided(rule: Rule[Any], finding: Finding) -> None:
    """Called by a runner for each finding a rule returns: one of an undeclared kind is
    reported to the audit in progress, and the rule's name to the record of decisions
    in progress (each costs one lookup otherwise)."""
    if finding.kind not in rule.kinds:
        audit = _AUDIT.get()
        if audit is not None:
            audit.append(Undeclared(rule.name, finding.kind, rule.kinds))
    record = _DECISIONS.get()
    if record is not None:
        record.append(rule.name)


@contextmanager
def _recording(var: ContextVar[list[T] | None]) -> Iterator[list[T]]:
    """A fresh list in ``var`` for the block (what the hooks append to), then the old one."""
    found: list[T] = []
    token = var.set(found)
    try:
        yield found
    finally:
        var.reset(token)


def decisions() -> AbstractContextManager[list[str]]:
    """Record the name of the rule behind every finding made inside the block, in order
    (tests: the decisions follow the registry's order)."""
    return _recording(_DECISIONS)


def audited() -> AbstractContextManager[list[Undeclared]]:
    """Collect every finding of an undeclared kind made inside the block (tests)."""
    return _recording(_AUDIT)


_TRACE: ContextVar[list[Family] | None] = ContextVar("vouched_rule_trace", default=None)


def ran(family: Family) -> None:
    """Called by a runner each time it runs a family's rules: recorded by the trace in
    progress (a test that the code runs the families in the registry's order)."""
    trace = _TRACE.get()
    if trace is not None:
        trace.append(family)


def traced() -> AbstractContextManager[list[Family]]:
    """Record the family of every runner call made inside the block, in order (tests)."""
    return _recording(_TRACE)
