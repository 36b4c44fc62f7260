"""The on-fail machine: after one attempt of the model, what happens next.

One pure function, :func:`next_action`, decides for every way of answering
(whole or streamed, the library or the service): the plan (``OnFail`` steps),
which attempt this was, and how it came out (:class:`Outcome`) give the
action recorded for the attempt and either the answer's status or "ask
again". :func:`after_partial` decides once partial has dropped what it had
to. No clock, no I/O, no text: the drivers read the model and build the
answer; the rules live here, once.

Two settings change what the rules give, never how they are driven:

- :class:`AnswerMode`: ``enforce`` (the default) applies the plan; ``audit``
  checks and records, but the model's text is what the reader gets (the
  verdict beside it), so it is asked once (a plan's retries are skipped).
- :class:`GuardErrorPolicy`: when the guard itself fails (the scan raised),
  ``closed`` refuses (``guard_error``), ``open`` passes the text on marked
  ``unchecked``. In audit mode the text always passes (``unchecked``): a
  shadow roll-out never takes answers down, whatever the policy says.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from vouched._answer._onfail import OnFail, RefusalReason
from vouched._answer._result import AnswerStatus
from vouched._exceptions import ConfigError
from vouched._replay._attempts import AttemptAction

__all__ = [
    "AnswerMode",
    "GuardErrorPolicy",
    "Next",
    "Outcome",
    "after_partial",
    "answer_mode",
    "guard_error_policy",
    "next_action",
    "provisional",
    "steps_for",
]


class AnswerMode(enum.StrEnum):
    """``enforce``: the on-fail plan decides what is shown; ``audit`` (shadow):
    the model's text is shown as it is, checked and recorded beside it."""

    ENFORCE = "enforce"
    AUDIT = "audit"


class GuardErrorPolicy(enum.StrEnum):
    """What a failure of the guard itself does: ``closed`` refuses, ``open``
    passes the model's text on, marked ``unchecked``."""

    CLOSED = "closed"
    OPEN = "open"


def answer_mode(value: object, setting: str = "mode") -> AnswerMode:
    """``value`` as an :class:`AnswerMode` (a :class:`vouched.ConfigError` if it is none)."""
    if isinstance(value, str) and value in AnswerMode.__members__.values():
        return AnswerMode(value)
    raise ConfigError(setting, "'enforce' or 'audit'", got=value)


def guard_error_policy(value: object, setting: str = "on_guard_error") -> GuardErrorPolicy:
    """``value`` as a :class:`GuardErrorPolicy` (a :class:`vouched.ConfigError` if it is none)."""
    if isinstance(value, str) and value in GuardErrorPolicy.__members__.values():
        return GuardErrorPolicy(value)
    raise ConfigError(setting, "'closed' or 'open'", got=value)


class Outcome(enum.StrEnum):
    """How one attempt came out."""

    PASSED = "passed"  # the text passed every check
    FINDINGS = "findings"  # the checks found something
    ERROR = "error"  # the phraser raised: no text
    TIMEOUT = "timeout"  # the phraser did not answer in time: no text
    TOO_LONG = "too_long"  # the text passed max_output_chars (refused unscanned)
    GUARD_ERROR = "guard_error"  # the checks themselves failed


@dataclass(frozen=True, slots=True)
class Next:
    """The decision after one attempt: the ``action`` recorded for it, and
    the answer's ``status`` (``None``: ask the model again, with the findings
    quoted). ``refusal`` says why a refused answer was refused;
    ``passes_text`` that the reader gets the model's text as it was (audit, or
    an unchecked text when the guard fails open)."""

    action: AttemptAction
    status: AnswerStatus | None
    refusal: RefusalReason | None = None
    passes_text: bool = False


def steps_for(plan: Sequence[OnFail], mode: AnswerMode) -> tuple[OnFail, ...]:
    """The steps an answer runs: the plan, or in audit mode only its last
    step (the model is asked once; the verdict is what the plan ends in)."""
    return tuple(plan) if mode is AnswerMode.ENFORCE else tuple(plan[-1:])


def provisional(steps: Sequence[OnFail], attempt: int) -> bool:
    """Whether what attempt ``attempt`` (0-based) showed may still be replaced
    by a retry: a reader that cannot take words back holds it."""
    return attempt < len(steps) and steps[attempt] is OnFail.RETRY


_ERRORS = {
    Outcome.ERROR: RefusalReason.PHRASER_ERROR,
    Outcome.TIMEOUT: RefusalReason.PHRASER_TIMEOUT,
}


def next_action(
    steps: Sequence[OnFail],
    attempt: int,
    outcome: Outcome,
    *,
    mode: AnswerMode = AnswerMode.ENFORCE,
    on_guard_error: GuardErrorPolicy = GuardErrorPolicy.CLOSED,
) -> Next:
    """The decision after attempt ``attempt`` (0-based) of ``steps``."""
    audit = mode is AnswerMode.AUDIT
    if outcome is Outcome.PASSED:
        return Next(AttemptAction.ACCEPT, AnswerStatus.OK, passes_text=audit)
    if outcome in _ERRORS:
        return Next(AttemptAction.ERROR, AnswerStatus.REFUSED, _ERRORS[outcome])
    if outcome is Outcome.TOO_LONG:  # a bound of the service, in audit mode too
        return Next(AttemptAction.REFUSE, AnswerStatus.REFUSED, RefusalReason.OUTPUT_TOO_LONG)
    if outcome is Outcome.GUARD_ERROR:
        if on_guard_error is GuardErrorPolicy.OPEN or audit:
            return Next(AttemptAction.ACCEPT, AnswerStatus.UNCHECKED, passes_text=True)
        return Next(AttemptAction.ERROR, AnswerStatus.REFUSED, RefusalReason.GUARD_ERROR)
    step = steps[min(attempt, len(steps) - 1)]
    if step is OnFail.RETRY:
        return Next(AttemptAction.RETRY, None)
    if step is OnFail.PARTIAL:
        return Next(AttemptAction.PARTIAL, AnswerStatus.PARTIAL, passes_text=audit)
    return Next(AttemptAction.REFUSE, AnswerStatus.REFUSED, RefusalReason.FINDINGS, audit)


def after_partial(kept: bool) -> Next:
    """Partial dropped the sentences with findings: an answer when something
    is ``kept``, else a refusal (``nothing_left``)."""
    if kept:
        return Next(AttemptAction.PARTIAL, AnswerStatus.PARTIAL)
    return Next(AttemptAction.PARTIAL, AnswerStatus.REFUSED, RefusalReason.NOTHING_LEFT)
