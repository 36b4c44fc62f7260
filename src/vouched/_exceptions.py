"""The exceptions vouched raises, all in one small tree.

::

    VouchedError                 base: catch this to catch everything of ours
    +-- InputError               bad input: a file, a line, a field (CLI exit 2)
    +-- MissingExtraError        an optional extra is not installed (also ImportError)
    +-- PhraserError             the model could not phrase an answer
    |   +-- PhraserTimeoutError      it did not answer within the timeout
    |   +-- PhraserHTTPError         it answered with an HTTP error status
    |   +-- PhraserResponseError     its answer was not the shape we asked for
    |   +-- PhraserStreamError       its streamed answer broke off before the end
    +-- AnswerRefusedError       raised by Answer.raise_for_refusal() on a refusal
    +-- SourceError              a source could not answer (adapters raise it;
        |                        GuardedSource turns it into silence)
        +-- MalformedPayloadError  the source answered, but the payload did not parse
    +-- StoreError               a snapshot store cannot be opened, read or written

Later layers add their own subclasses here (never elsewhere), so users never
need to import pybreaker, httpx or pydantic to catch what we raise.
"""

from __future__ import annotations

__all__ = [
    "AnswerRefusedError",
    "InputError",
    "MalformedPayloadError",
    "MissingExtraError",
    "PhraserError",
    "PhraserHTTPError",
    "PhraserResponseError",
    "PhraserStreamError",
    "PhraserTimeoutError",
    "SourceError",
    "StoreError",
    "VouchedError",
]


class VouchedError(Exception):
    """Base class of every error vouched raises on purpose."""


class InputError(VouchedError, ValueError):
    """Input that cannot be used, with where it was found.

    ``str(error)`` is one line: ``FILE:LINE: FIELD: what is wrong`` with the parts
    that are known. ``location`` says how to read ``line`` ("line" for JSON
    Lines and text, "index" for an item of a JSON array).
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        field: str | None = None,
        location: str = "line",
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        self.location = location
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.file is not None:
            where.append(self.file)
        if self.line is not None:
            where.append(
                f"{self.location} {self.line}" if self.location != "line" else str(self.line)
            )
        head = ":".join(where)
        body = f"{self.field}: {self.message}" if self.field else self.message
        text = f"{head}: {body}" if head else body
        return " ".join(text.split())  # always one line

    def at(
        self, *, file: str | None = None, line: int | None = None, location: str | None = None
    ) -> InputError:
        """A copy of this error with the file and line filled in where unknown."""
        return InputError(
            self.message,
            file=self.file if self.file is not None else file,
            line=self.line if self.line is not None else line,
            field=self.field,
            location=location or self.location,
        )


class MissingExtraError(VouchedError, ImportError):
    """An optional dependency is missing; the message names the install to run."""

    def __init__(self, extra: str, package: str) -> None:
        self.extra = extra
        self.package = package
        super().__init__(f"this feature needs {package}: pip install 'vouched[{extra}]'")


class PhraserError(VouchedError):
    """The phraser (a model behind HTTP, or any callable) failed to phrase.

    The Grounder turns this into a refused answer; callers of a phraser's
    ``phrase`` directly see it raised.
    """


class PhraserTimeoutError(PhraserError, TimeoutError):
    """The phraser did not answer within its timeout (``seconds``)."""

    def __init__(self, message: str, *, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(message)


class PhraserHTTPError(PhraserError):
    """The model server answered with an HTTP error (``status``, ``body`` excerpt)."""

    def __init__(self, message: str, *, status: int | None = None, body: str = "") -> None:
        self.status = status
        self.body = body
        super().__init__(message)


class PhraserResponseError(PhraserError):
    """The model server answered, but not with the shape asked for."""


class PhraserStreamError(PhraserError):
    """A streamed answer broke off: the connection dropped, or the stream ended
    before the model said it had finished."""


class AnswerRefusedError(VouchedError):
    """An answer was refused; ``refusal`` is its code, ``reasons`` the details."""

    def __init__(self, refusal: str, reasons: tuple[str, ...]) -> None:
        self.refusal = refusal
        self.reasons = reasons
        detail = "; ".join(reasons) if reasons else "no details"
        super().__init__(f"answer refused ({refusal}): {detail}")


class SourceError(VouchedError):
    """A source could not answer (HTTP 500, refused connection, unreadable file).

    Adapters raise it with a short message that is safe to log (``"HTTP 503"``),
    never a URL with credentials. :class:`vouched.GuardedSource` maps it to a
    ``source_error`` silence.
    """


class MalformedPayloadError(SourceError):
    """The source answered, but what it sent did not parse or had the wrong shape.

    :class:`vouched.GuardedSource` maps it to a ``malformed`` silence.
    """


class StoreError(VouchedError):
    """A snapshot store cannot be opened, read or written (the message says why)."""
