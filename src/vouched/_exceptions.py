"""The exceptions vouched raises, all in one small tree.

::

    VouchedError                 base: catch this to catch everything of ours
    +-- ConfigError              a setting of Policy, OnFail, Grounder, a source... is
    |                            wrong (also ValueError); names the setting and what
    |                            it accepts
    +-- InputError               bad input: a file, a line, a field (CLI exit 2)
    +-- MissingExtraError        an optional extra is not installed (also ImportError)
    +-- PhraserError             the model could not phrase an answer
    |   +-- PhraserTimeoutError      it did not answer within the timeout
    |   +-- PhraserHTTPError         it answered with an HTTP error status
    |   +-- PhraserConnectionError   it could not be reached
    |   +-- PhraserResponseError     its answer was not the shape we asked for
    |   +-- PhraserStreamError       its streamed answer broke off before the end
    +-- AnswerRefusedError       raised by Answer.raise_for_refusal() on a refusal
    +-- SourceError              a source could not answer (adapters raise it;
    |   |                        GuardedSource turns it into silence)
    |   +-- MalformedPayloadError  the source answered, but the payload did not parse
    +-- QueryError               the caller's query is one the source cannot ask
    |                            (also ValueError): a malformed_query silence, never
    |                            a failure of the source (422 on serve)
    +-- StoreError               a snapshot store cannot be opened, read or written

Later layers add their own subclasses here (never elsewhere), so users never
need to import pybreaker, httpx or pydantic to catch what we raise.

Whatever a message echoes of its input goes through :func:`printable` (control
and bidi characters escaped) and is cut to about 80 characters with its length
named (:func:`shown`, :func:`one_line`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "AnswerRefusedError",
    "ConfigError",
    "InputError",
    "MalformedPayloadError",
    "MissingExtraError",
    "PhraserConnectionError",
    "PhraserError",
    "PhraserHTTPError",
    "PhraserResponseError",
    "PhraserStreamError",
    "PhraserTimeoutError",
    "QueryError",
    "SourceError",
    "StoreError",
    "VouchedError",
    "one_line",
    "printable",
    "shown",
    "shown_list",
]

_SHOWN = 80
_LINE_MAX = 270  # with "vouched COMMAND: " in front, a line stays within 300


# C0 controls but tab and newline (ESC starts a terminal's escape sequences), DEL,
# C1 controls (U+009B is a one-character CSI), the bidi controls that reorder
# what a reader sees (U+202E "right-to-left override"), line/paragraph separators,
# and the invisible format characters that hide text from a reader: soft hyphen,
# combining grapheme joiner, zero-width space/joiners, word joiner and invisible
# operators, Hangul fillers, Mongolian vowel separator, the byte-order mark,
# interlinear annotations and the Unicode tag characters (U+E0000-U+E007F,
# which spell out text no font shows).
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e"
    "\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
    "\U000e0000-\U000e007f]"
)


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: control characters (ESC, C1), bidi
    controls (U+202E) and invisible format characters (zero-width space, tag
    characters) shown as escapes (``\\x1b``, ``\\u202e``, ``\\u200b``,
    ``\\U000e0041``), never sent; tabs and newlines kept. Every place that prints
    input uses it (the review pages and CLI tables too)."""
    return _UNPRINTABLE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    return ascii(match.group())[1:-1]


def one_line(text: str, limit: int = _LINE_MAX, *, cut_words: bool = True) -> str:
    """A message as one printable line: escaped (:func:`printable`), whitespace
    collapsed, every word longer than ~80 characters cut (unless ``cut_words``
    is false), and the whole cut at ``limit`` characters, each cut naming the
    full length."""
    words = printable(text).split()
    if cut_words:
        words = [w if len(w) <= _SHOWN else _cut_word(w) for w in words]
    line = " ".join(words)
    if len(line) > limit:  # a backstop: the messages cut what they echo
        line = line[: limit - 30] + f"… ({len(line):,} characters)"
    return line


def _cut_word(word: str) -> str:
    return f"{word[: _SHOWN - 20]}… ({len(word):,} characters)"


def shown(value: object, limit: int = _SHOWN) -> str:
    """A value echoed in a message: its repr, cut to about ``limit`` characters,
    with the full length named when cut (``'2026-…' (5,242,880 characters)``),
    and never more than one line."""
    text = value if isinstance(value, str) else printable(str(value))
    if len(text) <= limit:
        return repr(text) if isinstance(value, str) else " ".join(text.split())
    head = text[: max(limit - 20, 8)]
    cut = repr(head + "…") if isinstance(value, str) else " ".join(head.split()) + "…"
    return f"{cut} ({len(text):,} characters)"


def shown_list(values: Iterable[object], limit: int = 10) -> str:
    """Items for a message: each :func:`shown`, at most ``limit`` of them, then
    ``and N more``."""
    items = list(values)
    head = ", ".join(shown(item, 40) for item in items[:limit])
    rest = len(items) - limit
    return f"{head} and {rest:,} more" if rest > 0 else head


class VouchedError(Exception):
    """Base class of every error vouched raises on purpose."""


class ConfigError(VouchedError, ValueError):
    """A configuration value that cannot be used: a ``Policy``, ``OnFail``,
    ``Grounder`` or source setting.

    ``setting`` names it (``"Policy.cardinal_confidence"``), ``accepted`` says
    what it takes (``"a number between 0 and 1"``); ``str(error)`` is one line,
    with the wrong value echoed, cut short.
    """

    def __init__(self, setting: str, accepted: str | None = None, *, got: object = ...) -> None:
        self.setting = setting
        self.accepted = accepted
        # without ``accepted``, ``setting`` is the whole message (sensitive settings
        # without a redaction_key, say)
        text = setting if accepted is None else f"{setting} must be {accepted}"
        if got is not ...:
            text += f", got {shown(got)}"
        super().__init__(printable(text))


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
        head = ":".join(_cut(w) for w in where)
        body = one_line(f"{_cut(self.field)}: {self.message}" if self.field else self.message)
        return one_line(f"{head}: {body}", _LINE_MAX, cut_words=False) if head else body

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


def _cut(text: str) -> str:
    """A file name or field for the head of a message: escaped, on one line,
    and cut when long (naming its length)."""
    text = " ".join(printable(text).split())
    return text if len(text) <= _SHOWN else _cut_word(text)


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

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        body: str = "",
        retry_after: str | None = None,
    ) -> None:
        self.status = status
        self.body = body
        self.retry_after = retry_after  # the server's Retry-After header, as sent
        super().__init__(message)


class PhraserConnectionError(PhraserError):
    """The model server could not be reached (refused, reset, DNS)."""


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

    ``retry_after``: seconds the source asked callers to wait (an HTTP 429 or
    503 with ``Retry-After``); the guarded source's breaker then opens at once
    for at least that long.
    """

    def __init__(self, *args: object, retry_after: float | None = None) -> None:
        super().__init__(*args)
        if retry_after is not None and not retry_after >= 0:
            raise ConfigError("SourceError.retry_after", "seconds >= 0 (or None)", got=retry_after)
        self.retry_after = retry_after


class MalformedPayloadError(SourceError):
    """The source answered, but what it sent did not parse or had the wrong shape.

    :class:`vouched.GuardedSource` maps it to a ``malformed`` silence.
    """


class StoreError(VouchedError):
    """A snapshot store cannot be opened, read or written (the message says why)."""


class QueryError(VouchedError, ValueError):
    """A query a source cannot ask (no ``latitude``, a ``null`` where a number
    belongs): the caller's mistake, found before the source is called.

    ``field`` names the query's key (``"latitude"``); ``str(error)`` is one
    line, with the wrong value echoed, cut short. :class:`vouched.GuardedSource`
    answers it with ``malformed_query`` silences and never counts it toward the
    breaker: a caller cannot take a source down for everyone.
    """

    def __init__(self, field: str, accepted: str, *, got: object = ...) -> None:
        self.field = field
        self.accepted = accepted
        text = f"query field {field!r} must be {accepted}"
        if got is not ...:
            text += f", got {shown(got)}"
        super().__init__(printable(text))
