"""The answer: text plus everything that stands behind it, as a frozen value."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from vouched._answer._onfail import FindingLike, RefusalReason
from vouched._answer._upstream import UpstreamFailure
from vouched._exceptions import AnswerRefusedError, PhraserError
from vouched._fact import Fact
from vouched._gate import Verdict, grounding_rate
from vouched._replay._attempts import AttemptAction

__all__ = [
    "Answer",
    "AnswerStatus",
    "Attempt",
    "client_finding",
    "error_reason",
    "finding_codes",
    "finding_json",
    "finding_reasons",
    "finding_span",
    "too_long_reason",
]


class AnswerStatus(enum.StrEnum):
    """``ok``: the text passed the scanner; ``partial``: sentences with findings
    were removed (and the answer says what could not be confirmed);
    ``refused``: no text could be vouched for; ``unavailable``: the text
    passed, but every source failed, so all it says is that nothing is
    available (a dashboard counts these apart from ``ok``); ``unchecked``: the
    checks themselves failed and the text was passed on as the model said it
    (``on_guard_error = "open"``)."""

    OK = "ok"
    PARTIAL = "partial"
    REFUSED = "refused"
    UNAVAILABLE = "unavailable"
    UNCHECKED = "unchecked"


def finding_span(finding: FindingLike) -> tuple[str, int, int]:
    """A finding's ``(kind, start, end)``: what "once per span" counts by."""
    return (str(finding.kind), finding.start, finding.end)


def finding_json(finding: FindingLike) -> dict[str, Any]:
    to_json = getattr(finding, "to_json", None)
    if callable(to_json):
        result = to_json()
        if isinstance(result, dict):
            return result
    return {
        "kind": str(finding.kind),
        "start": finding.start,
        "end": finding.end,
        "text": finding.text,
        "detail": finding.detail,
        "subject": finding.subject,
        "attribute": finding.attribute,
    }


@dataclass(frozen=True, slots=True)
class Attempt:
    """One call of the phraser: what it said, what the scanner found in it,
    the prompt version it answered and the on-fail action taken after it
    (``accept``, ``retry``, ``partial``, ``refuse``, or ``error`` when the
    phraser failed)."""

    text: str
    findings: tuple[FindingLike, ...]
    seconds: float
    action: AttemptAction = AttemptAction.ACCEPT
    prompt_version: str = ""
    failure: UpstreamFailure | None = None  # why the phraser gave no text (action error)

    @property
    def passed(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "text": self.text,
            "findings": [finding_json(f) for f in self.findings],
            "seconds": self.seconds,
            "action": str(self.action),
            "prompt_version": self.prompt_version,
        }
        if self.failure is not None:
            document["failure"] = self.failure.record()
        return document

    def record(self) -> dict[str, Any]:
        """The attempt as a snapshot's ``trail`` keeps it (a failed call: the
        upstream's status, vouched's code and the redacted message too)."""
        document: dict[str, Any] = {
            "text": self.text,
            "prompt_version": self.prompt_version,
            "findings": [finding_json(f) for f in self.findings],
            "action": str(self.action),
        }
        if self.failure is not None:
            document["failure"] = self.failure.record()
        return document


def _frozen_mapping(value: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(value))


@dataclass(frozen=True, slots=True)
class Answer:
    """What :meth:`vouched.Grounder.answer` returns.

    - ``text``: what may be shown (for a refusal, a fixed sentence saying so).
    - ``status``: ok | partial | unavailable | refused; ``refusal`` and ``reasons`` say why.
    - ``grounded``: the facts that were phrased; ``silences``: the typed absences
      that were said unavailable (including facts the gate stripped, e.g. stale
      ones, without their value); ``violations``: the gate's violation verdicts.
    - ``findings``: everything the scanner caught on the way, over all attempts;
      ``trail`` has each attempt's text and findings; ``attempts`` counts them.
    - ``dropped``: sentences a partial answer removed (the model's own words);
      a partial ``text`` is the model's kept sentences, then one sentence per
      subject and attribute that could not be confirmed.
    - ``prompt_version``: the template hash; ``timings``: seconds per stage.
    - ``failure``: when the phraser gave no text, why, as codes
      (:class:`vouched.UpstreamFailure`); ``usage``: the token counts the
      model server reported, summed over the attempts; ``model``: the model
      that answered, as the server named it.
    - ``mode``: ``enforce``, or ``audit`` (``text`` is the model's own, the
      status is the verdict beside it).
    """

    text: str
    status: AnswerStatus
    question: str
    grounded: tuple[Fact, ...]
    silences: tuple[Fact, ...]
    violations: tuple[Verdict, ...]
    findings: tuple[FindingLike, ...]
    prompt_version: str
    attempts: int
    timings: Mapping[str, float] = field(default_factory=dict)
    trail: tuple[Attempt, ...] = ()
    dropped: tuple[str, ...] = ()
    refusal: RefusalReason | None = None
    reasons: tuple[str, ...] = ()
    counts: Mapping[str, int] = field(default_factory=dict)
    phraser: str = ""
    failure: UpstreamFailure | None = None
    usage: Mapping[str, int] = field(default_factory=dict)
    model: str = ""
    mode: str = "enforce"
    response_id: str = ""  # the model server's id of the answer shown (its last attempt)
    system_fingerprint: str = ""  # the model server's configuration, as it named it
    upstream: str = ""  # the fallback ``[[upstream]]`` that answered in place of the one asked

    def __post_init__(self) -> None:
        object.__setattr__(self, "timings", _frozen_mapping(self.timings))
        object.__setattr__(self, "counts", _frozen_mapping(self.counts))
        object.__setattr__(self, "usage", _frozen_mapping(self.usage))

    @property
    def ok(self) -> bool:
        return self.status is AnswerStatus.OK

    @property
    def grounding_rate(self) -> float:
        """The gate's rate for the facts behind this answer."""
        return grounding_rate(self.counts)

    def raise_for_refusal(self) -> Answer:
        """Raise :class:`vouched.AnswerRefusedError` if refused; else return self."""
        if self.status is AnswerStatus.REFUSED:
            raise AnswerRefusedError(str(self.refusal), self.reasons)
        return self

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "status": str(self.status),
            "question": self.question,
            "grounded": [f.to_json() for f in self.grounded],
            "silences": [f.to_json() for f in self.silences],
            "violations": [v.to_json() for v in self.violations],
            "findings": [finding_json(f) for f in self.findings],
            "prompt_version": self.prompt_version,
            "attempts": self.attempts,
            "timings": dict(self.timings),
            "trail": [a.to_json() for a in self.trail],
            "dropped": list(self.dropped),
            "refusal": None if self.refusal is None else str(self.refusal),
            "reasons": list(self.reasons),
            "counts": dict(self.counts),
            "grounding_rate": self.grounding_rate,
            "phraser": self.phraser,
            "failure": None if self.failure is None else self.failure.to_json(),
            "usage": dict(self.usage),
            "model": self.model,
            "mode": self.mode,
        }

    def client_json(self) -> dict[str, Any]:
        """:meth:`to_json` for a reader (an HTTP client, a browser): the same
        keys, without a word of any text that failed the scan. Findings are
        codes and spans (:func:`client_finding`), the trail keeps each
        attempt's action and findings but not its text, ``dropped`` counts
        the sentences removed, and a refusal's reasons are codes
        (:func:`finding_codes`) or the refusal's code (a model server's
        failure: :class:`vouched.UpstreamFailure`'s code, never its message).
        The snapshot keeps everything."""
        document = self.to_json()
        document["findings"] = [client_finding(f) for f in self.findings]
        document["trail"] = [
            {
                "findings": [client_finding(f) for f in attempt.findings],
                "seconds": attempt.seconds,
                "action": str(attempt.action),
                "prompt_version": attempt.prompt_version,
            }
            for attempt in self.trail
        ]
        document["dropped"] = len(self.dropped)
        document["reasons"] = list(self.reason_codes())
        return document

    def reason_codes(self) -> tuple[str, ...]:
        """The reasons as a reader may see them: codes, never text."""
        if self.refusal in (RefusalReason.FINDINGS, RefusalReason.NOTHING_LEFT):
            last = self.trail[-1].findings if self.trail else self.findings
            return finding_codes(last)
        if self.failure is not None:
            return (str(self.failure.code),)
        if self.refusal is not None:
            return (str(self.refusal),)
        return tuple(r for r in self.reasons if r.isidentifier())


def client_finding(finding: FindingLike) -> dict[str, Any]:
    """A finding as a reader may see it: its code, span, subject and
    attribute; never the words (they are the failing sentence's)."""
    return {
        "kind": str(finding.kind),
        "start": finding.start,
        "end": finding.end,
        "subject": finding.subject,
        "attribute": finding.attribute,
    }


def finding_codes(findings: Iterable[FindingLike]) -> tuple[str, ...]:
    """One reason line per finding for a reader: the code and span, and the
    subject and attribute when known; never the failing sentence's words."""
    lines = []
    for finding in findings:
        about = ", ".join(str(x) for x in (finding.subject, finding.attribute) if x)
        where = f"{finding.kind} at {finding.start}-{finding.end}"
        lines.append(f"{where} ({about})" if about else where)
    return tuple(lines)


def too_long_reason(length: int, limit: int) -> str:
    """Why a phrased text was refused unscanned."""
    return f"phrased text of {length:,} characters, limit {limit:,}"


def finding_reasons(findings: Iterable[FindingLike]) -> tuple[str, ...]:
    """One reason line per finding, for ``Answer.reasons`` (answer and stream alike)."""
    return tuple(f"{finding.kind}: {finding.text!r}: {finding.detail}" for finding in findings)


def error_reason(error: BaseException, timeout: float) -> str:
    """Why a phraser gave no text, as a reason line."""
    if isinstance(error, PhraserError):
        return f"{type(error).__name__}: {' '.join(str(error).split())}"
    if isinstance(error, TimeoutError):
        return f"phraser did not answer within {timeout:g} s"
    return f"phraser raised {type(error).__name__}"
