"""The attempts of the model behind one answer, as a snapshot stores them.

A snapshot's ``trail`` holds one :class:`RecordedAttempt` per call of the
model: its text, the prompt version, the findings of that attempt and the
:class:`AttemptAction` taken after it. Replay re-scans these texts, so a
refused answer is graded by what the model said, not by the refusal.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

from vouched._exceptions import InputError
from vouched._replay._jsondata import freeze, plain
from vouched._scan._findings import once_per_span  # the one overlap policy, re-exported

__all__ = [
    "AttemptAction",
    "RecordedAttempt",
    "attempt_data",
    "finding_span",
    "first_answered",
    "once_per_span",
    "only_attempt",
    "read_trail",
    "trail_from_format_1",
    "trusted_attempt",
]


_T = TypeVar("_T")


def finding_span(finding: Mapping[str, Any]) -> tuple[str, Any, Any]:
    """A stored finding's ``(kind, start, end)``, for :func:`once_per_span`."""
    return (str(finding.get("kind")), finding.get("start"), finding.get("end"))


class AttemptAction(enum.StrEnum):
    """What the answer path did after one attempt of the model."""

    ACCEPT = "accept"  # the text passed the scan and was shown
    RETRY = "retry"  # findings: asked again with them quoted
    PARTIAL = "partial"  # findings: the sentences holding them were dropped
    REFUSE = "refuse"  # findings, and nothing left to try: refused
    DISCONNECTED = "disconnected"  # the reader of a stream left during this attempt
    SHUTDOWN = "shutdown"  # the service shut down during this attempt
    DEADLINE = "deadline"  # the request's deadline passed during this attempt
    ERROR = "error"  # the phraser raised or timed out: no text


class RecordedAttempt(NamedTuple):
    """One call of the model as stored: ``text`` is what it said (``None``
    when a format 1 snapshot did not keep it), with the findings of that
    attempt then and the action taken after it."""

    text: str | None
    prompt_version: str
    findings: tuple[Mapping[str, Any], ...]
    action: str
    failure: Mapping[str, Any] | None = None
    """A failed call (action ``error``): the upstream's ``status``, vouched's
    ``code`` and the upstream's ``message``, redacted."""

    @property
    def passed(self) -> bool:
        """Then: the scanner found nothing in what the model said, and it was
        shown (every other action follows a finding or a phraser error)."""
        return self.action == AttemptAction.ACCEPT and not self.findings

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "text": self.text,
            "prompt_version": self.prompt_version,
            "findings": [dict(f) for f in self.findings],
            "action": self.action,
        }
        if self.failure is not None:
            document["failure"] = dict(self.failure)
        return document


def first_answered(trail: tuple[RecordedAttempt, ...]) -> int:
    """The index of the model's first attempt: the first that is not a failed
    call (an upstream that failed before its fallback answered), else 0."""
    return next((i for i, a in enumerate(trail) if a.action != AttemptAction.ERROR), 0)


def attempt_data(item: Mapping[str, Any] | RecordedAttempt) -> dict[str, Any]:
    data = item.to_json() if isinstance(item, RecordedAttempt) else dict(item)
    action = str(data.get("action", ""))
    if action not in AttemptAction.__members__.values():
        choices = ", ".join(member.value for member in AttemptAction)
        raise ValueError(f"unknown attempt action {action!r} (choose from {choices})")
    kept = {
        "text": data.get("text"),
        "prompt_version": str(data["prompt_version"]),
        "findings": [plain(f) for f in data.get("findings", ())],
        "action": action,
    }
    if data.get("failure") is not None:
        kept["failure"] = plain(data["failure"])
    return kept


def only_attempt(document: Mapping[str, Any], prompt_version: str) -> dict[str, Any]:
    """The trail of a snapshot built without one: ``output`` was the model's only text."""
    findings = document["findings"]
    status = document["status"]
    action = (
        AttemptAction.PARTIAL
        if status == "partial"
        else AttemptAction.REFUSE
        if findings or status == "refused"
        else AttemptAction.ACCEPT
    )
    return {
        "text": document["output"],
        "prompt_version": prompt_version,
        "findings": findings,
        "action": str(action),
    }


def trail_from_format_1(data: Mapping[str, Any]) -> tuple[RecordedAttempt, ...]:
    """The attempts a format 1 snapshot implies, as far as it kept them.

    Format 1 kept the shown text and every finding of every attempt in one
    list. What can be rebuilt: an ``ok`` answer's last attempt said the shown
    text and had no finding, so the findings belong to the earlier ones; a
    refused or partial answer's model text was not kept (``text=None``:
    replay carries those findings over instead of re-scanning). All the
    findings are put on the first attempt that failed; a refusal without any
    finding was a phraser error.
    """
    count = max(int(data["attempts"]), 1)
    version = str(data["prompt_version"])
    status = data["status"]
    findings = tuple(freeze(f) for f in data["findings"])
    last_action: str
    if status == "ok":
        last_action, last_text = AttemptAction.ACCEPT, data["output"]
    elif status == "partial":
        last_action, last_text = AttemptAction.PARTIAL, None
    elif findings:
        last_action, last_text = AttemptAction.REFUSE, None
    else:
        last_action, last_text = AttemptAction.ERROR, ""
    attempts: list[RecordedAttempt] = [
        RecordedAttempt(None, version, (), AttemptAction.RETRY) for _ in range(count - 1)
    ]
    attempts.append(RecordedAttempt(last_text, version, (), last_action))
    failed = next((i for i, a in enumerate(attempts) if a.action != AttemptAction.ACCEPT), None)
    if failed is not None and findings:
        attempts[failed] = attempts[failed]._replace(findings=findings)
    return tuple(attempts)


def trusted_attempt(data: Mapping[str, Any], shown: str) -> RecordedAttempt:
    """An attempt of a stored row; without a ``text`` (format 3) it said ``shown``."""
    return RecordedAttempt(
        data.get("text", shown),
        data["prompt_version"],
        tuple(MappingProxyType(f) for f in data["findings"]),
        data["action"],
        None if data.get("failure") is None else MappingProxyType(data["failure"]),
    )


def read_trail(value: Any, *, shown: object = None) -> tuple[RecordedAttempt, ...]:
    """The ``trail`` field of a snapshot, checked; errors name the attempt and field.

    ``shown``: the text shown (format 3), which an attempt without ``text`` said."""
    if not isinstance(value, list):
        raise InputError("must be an array of attempts", field="trail")
    actions = {member.value for member in AttemptAction}
    out: list[RecordedAttempt] = []
    for index, item in enumerate(value):
        where = f"trail.{index}"
        if not isinstance(item, Mapping):
            raise InputError("must be a JSON object", field=where)
        text = item.get("text", shown if isinstance(shown, str) else None)
        if text is not None and not isinstance(text, str):
            raise InputError("must be a string or null", field=f"{where}.text")
        if not isinstance(item.get("prompt_version"), str):
            raise InputError("must be a string", field=f"{where}.prompt_version")
        if item.get("action") not in actions:
            raise InputError(
                f"must be one of {', '.join(sorted(actions))}", field=f"{where}.action"
            )
        findings = item.get("findings")
        if not isinstance(findings, list) or not all(isinstance(f, Mapping) for f in findings):
            raise InputError("must be an array of JSON objects", field=f"{where}.findings")
        failure = item.get("failure")
        if failure is not None and not isinstance(failure, Mapping):
            raise InputError("must be a JSON object or null", field=f"{where}.failure")
        out.append(
            RecordedAttempt(
                text,
                item["prompt_version"],
                tuple(freeze(f) for f in findings),
                item["action"],
                None if failure is None else freeze(failure),
            )
        )
    return tuple(out)
