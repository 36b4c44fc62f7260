"""What happens when the scanner finds something in the model's text.

Three defensible responses, never a fourth (seeds/000): **retry** once with
the findings quoted beside the facts they contradict; return a **partial**
answer without the sentences that hold findings, marked partial; or
**refuse** with the reasons. The model's wrong value is never replaced with
the right one: that would turn a visible bug into an invisible one.

An on-fail policy is a value: ``"retry"`` (the default: retry once, then
refuse), ``"partial"``, ``"refuse"``, or a sequence of steps such as
``("retry", "partial")``. Every plan ends in a refusal when nothing else is
left. Everything here is pure: no clock, no I/O.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from vouched._answer._prompt import Problem, Prompt
from vouched._exceptions import ConfigError
from vouched._scan._lex._splitter import sentence_spans as scanner_sentences

__all__ = [
    "REFUSAL_TEXT",
    "UNCHECKED_TEXT",
    "UNPHRASED_TEXT",
    "FindingLike",
    "OnFail",
    "OnFailLike",
    "Partial",
    "RefusalReason",
    "drop_sentences",
    "plan",
    "problems_for",
    "sentence_spans",
    "unconfirmed",
]

REFUSAL_TEXT = "No answer is given: what was phrased is not supported by the sources."
"""The text of an answer refused for its findings (the reasons are in ``Answer.reasons``):
the text was checked and found wanting, which "could not be checked" would hide."""

UNCHECKED_TEXT = "No answer is given: what was phrased could not be checked against the sources."
"""The text of an answer refused before its check could judge it: the checks failed
(``guard_error``) or the text passed ``max_output_chars``."""

UNPHRASED_TEXT = "No answer is given: the model could not be asked or gave no usable reply."
"""The text of an answer refused because the phraser failed or timed out:
nothing was phrased, so nothing is said to have been checked."""


class OnFail(enum.StrEnum):
    """One step of an on-fail policy."""

    RETRY = "retry"
    PARTIAL = "partial"
    REFUSE = "refuse"


class RefusalReason(enum.StrEnum):
    """Why an answer was refused (a stable code for logs and metrics)."""

    FINDINGS = "findings"  # the text still had findings when the plan ran out
    NOTHING_LEFT = "nothing_left"  # partial removed every sentence
    PHRASER_ERROR = "phraser_error"  # the phraser raised (HTTP error, bad shape, a bug)
    PHRASER_TIMEOUT = "phraser_timeout"  # the phraser did not answer in time
    OUTPUT_TOO_LONG = "output_too_long"  # the phrased text passed max_output_chars
    GUARD_ERROR = "guard_error"  # the checks themselves failed (on_guard_error = closed)


OnFailLike = OnFail | str | Sequence[OnFail | str]


def plan(on_fail: OnFailLike) -> tuple[OnFail, ...]:
    """The steps of an on-fail policy, always ending in a terminal step.

    ``"retry"`` is ``(RETRY, REFUSE)``; ``("retry", "partial")`` retries once,
    then returns what passes. ``partial`` and ``refuse`` end a plan.
    """
    choices = ", ".join(member.value for member in OnFail)
    accepted = f"one of {choices}, or a sequence of them (only the last step may end a plan)"
    raw = [on_fail] if isinstance(on_fail, str) else list(on_fail)
    if not raw:
        raise ConfigError("on_fail", accepted, got=on_fail)
    steps: list[OnFail] = []
    for item in raw:
        try:
            steps.append(OnFail(item))
        except ValueError:
            raise ConfigError("on_fail", accepted, got=item) from None
    for step in steps[:-1]:
        if step is not OnFail.RETRY:
            raise ConfigError("on_fail", accepted, got=on_fail)
    if steps[-1] is OnFail.RETRY:
        steps.append(OnFail.REFUSE)
    return tuple(steps)


class FindingLike(Protocol):
    """What on-fail needs of a scanner finding (``vouched.Finding`` fits)."""

    @property
    def kind(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def detail(self) -> str: ...
    @property
    def subject(self) -> str | None: ...
    @property
    def attribute(self) -> str | None: ...


def _ids_for(prompt: Prompt, finding: FindingLike) -> tuple[str, ...]:
    if finding.attribute is None:
        return ()
    ids = [fid for fid, fact in prompt.fact_ids() if _matches(fact, finding)]
    ids += [sid for sid, fact in prompt.silence_ids() if _matches(fact, finding)]
    return tuple(ids)


def _matches(fact: object, finding: FindingLike) -> bool:
    subject = getattr(fact, "subject", None)
    attribute = getattr(fact, "attribute", None)
    return attribute == finding.attribute and finding.subject in (None, subject)


def problems_for(prompt: Prompt, text: str, findings: Iterable[FindingLike]) -> list[Problem]:
    """The findings as problems to send back: the model's words quoted, with
    the ids of the facts (or silences) they contradict."""
    problems = []
    for finding in findings:
        quote = finding.text or text[finding.start : finding.end]
        problems.append(
            Problem(str(finding.kind), quote, finding.detail, _ids_for(prompt, finding))
        )
    return problems


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` spans of the sentences in ``text``, without the whitespace around
    them: the scanner's own sentences (one splitter for scan, stream and on-fail)."""
    spans = []
    for start, end in scanner_sentences(text):
        piece = text[start:end]
        stripped = piece.strip()
        if stripped:
            lead = len(piece) - len(piece.lstrip())
            spans.append((start + lead, start + lead + len(stripped)))
    return spans


@dataclass(frozen=True, slots=True)
class Partial:
    """What partial kept and dropped; ``text`` is empty when nothing is left."""

    text: str
    dropped: tuple[str, ...]
    findings: tuple[FindingLike, ...]  # the findings that caused the drops


def _drop_once(text: str, findings: Sequence[FindingLike]) -> tuple[str, list[str]]:
    kept: list[str] = []
    dropped: list[str] = []
    for start, end in sentence_spans(text):
        sentence = text[start:end].strip()
        hit = any(f.start < end and start < max(f.end, f.start + 1) for f in findings)
        (dropped if hit else kept).append(sentence)
    return " ".join(kept), dropped


def drop_sentences(
    text: str,
    findings: Sequence[FindingLike],
    check: Callable[[str], Sequence[FindingLike]],
) -> Partial:
    """Remove the sentences that hold findings; re-check what is left (a
    sentence can lose the context it leaned on) until it passes or is empty.

    The kept sentences are the model's own words, unchanged.
    """
    dropped: list[str] = []
    caught: list[FindingLike] = list(findings)
    current = list(findings)
    while current and text:
        text, removed = _drop_once(text, current)
        if not removed:  # findings outside any sentence: nothing safe to keep
            dropped.append(text)
            text = ""
            break
        dropped.extend(removed)
        current = list(check(text)) if text else []
        caught.extend(current)
    return Partial(text, tuple(dropped), tuple(caught))


def _spelled(attribute: str) -> str:
    return attribute.replace("_", " ")


def unconfirmed(
    findings: Iterable[FindingLike], phrase: Callable[[str], str] = _spelled
) -> list[str]:
    """What a partial answer left out, in plain words: one sentence per
    subject and attribute, one for findings that name neither. ``phrase`` names an
    attribute as a reader would (the lexicon's first phrase for it: "rebounds", not
    "REB")."""
    said: list[str] = []
    seen: set[tuple[str | None, str | None]] = set()
    for finding in findings:
        key = (finding.subject, finding.attribute) if finding.attribute else (None, None)
        if key in seen:
            continue
        seen.add(key)
        subject, attribute = key
        if attribute is None:
            said.append("Part of the answer could not be confirmed and was left out.")
        elif subject is None:
            said.append(f"The {phrase(attribute)} could not be confirmed.")
        else:
            said.append(f"The {phrase(attribute)} for {subject} could not be confirmed.")
    return said
