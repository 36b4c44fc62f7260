"""The events of a streamed answer (:meth:`vouched.Grounder.answer_stream`).

- ``sentence``: one sentence that passed the scan (``text`` is exactly the
  model's words, with the whitespace before them, so the sentences of a
  segment joined rebuild its text); ``provisional`` when the plan may still
  retry this segment (a reader that cannot take words back holds it);
- ``retry``: the model is asked again; what follows is a new ``segment`` that
  replaces the one shown so far (its sentences passed, but the answer as a
  whole is phrased anew);
- ``note``: a partial answer ends here; the rest is unavailable (``text``);
- ``refusal``: no answer is given (``text``, and ``reasons`` as codes);
- ``done``: always last, with the whole :class:`vouched.Answer`.

Not a character of a sentence with a finding is ever in an event (in audit
mode every sentence is, as the model said it, and the verdict is in ``done``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Literal

from vouched._answer._result import Answer

__all__ = [
    "DISCONNECTED",
    "PARTIAL_NOTE",
    "AnswerEvent",
    "AnswerEventKind",
    "DoneEvent",
    "NoteEvent",
    "RefusalEvent",
    "RetryEvent",
    "SentenceEvent",
]

PARTIAL_NOTE = "The rest of the answer is unavailable right now: it could not be checked."
"""The note that ends a partial streamed answer, after one sentence per
subject and attribute that could not be confirmed (as a whole partial
answer names them)."""

DISCONNECTED = "disconnected"
"""The reason an answer whose reader left mid-stream is recorded with."""


class AnswerEventKind(enum.StrEnum):
    """What one event of a streamed answer carries."""

    SENTENCE = "sentence"
    RETRY = "retry"
    NOTE = "note"
    REFUSAL = "refusal"
    DONE = "done"


def _event_json(
    kind: AnswerEventKind, segment: int, text: str, reasons: tuple[str, ...]
) -> dict[str, Any]:
    document: dict[str, Any] = {"kind": str(kind), "segment": segment, "text": text}
    if reasons:
        document["reasons"] = list(reasons)
    return document


@dataclass(frozen=True, slots=True)
class SentenceEvent:
    """One sentence that passed the scan (``text`` with the whitespace before
    it); ``provisional``: a retry may still replace this segment."""

    segment: int
    text: str
    reasons: tuple[str, ...] = ()
    provisional: bool = False
    kind: Literal[AnswerEventKind.SENTENCE] = field(default=AnswerEventKind.SENTENCE, init=False)

    def to_json(self) -> dict[str, Any]:
        document = _event_json(self.kind, self.segment, self.text, self.reasons)
        if self.provisional:
            document["provisional"] = True
        return document


@dataclass(frozen=True, slots=True)
class RetryEvent:
    """The model is asked again: a new ``segment`` replaces the one shown so far."""

    segment: int
    text: str = ""
    reasons: tuple[str, ...] = ()
    kind: Literal[AnswerEventKind.RETRY] = field(default=AnswerEventKind.RETRY, init=False)

    def to_json(self) -> dict[str, Any]:
        return _event_json(self.kind, self.segment, self.text, self.reasons)


@dataclass(frozen=True, slots=True)
class NoteEvent:
    """A partial answer ends here; ``text`` names what could not be confirmed."""

    segment: int
    text: str
    reasons: tuple[str, ...] = ()
    kind: Literal[AnswerEventKind.NOTE] = field(default=AnswerEventKind.NOTE, init=False)

    def to_json(self) -> dict[str, Any]:
        return _event_json(self.kind, self.segment, self.text, self.reasons)


@dataclass(frozen=True, slots=True)
class RefusalEvent:
    """No answer is given: ``text`` says so, ``reasons`` are finding codes and
    spans (never the failing sentence's words) or the phraser's failure."""

    segment: int
    text: str
    reasons: tuple[str, ...] = ()
    kind: Literal[AnswerEventKind.REFUSAL] = field(default=AnswerEventKind.REFUSAL, init=False)

    def to_json(self) -> dict[str, Any]:
        return _event_json(self.kind, self.segment, self.text, self.reasons)


@dataclass(frozen=True, slots=True)
class DoneEvent:
    """Always last: the whole :class:`vouched.Answer` (written for a reader by
    ``to_json``: :meth:`vouched.Answer.client_json`)."""

    segment: int
    answer: Answer
    text: str = ""
    reasons: tuple[str, ...] = ()
    kind: Literal[AnswerEventKind.DONE] = field(default=AnswerEventKind.DONE, init=False)

    def to_json(self) -> dict[str, Any]:
        return {"kind": str(self.kind), "segment": self.segment,
                "answer": self.answer.client_json()}  # fmt: skip


AnswerEvent = SentenceEvent | RetryEvent | NoteEvent | RefusalEvent | DoneEvent
"""One event of a streamed answer, discriminated by ``kind``: after
``event.kind is AnswerEventKind.DONE`` a type checker knows ``event.answer``
is an :class:`vouched.Answer`. Every event has ``kind``, ``segment``,
``text`` and ``reasons`` and ``to_json()``; what an event carries is meant for
the reader (no word of a failing sentence)."""
