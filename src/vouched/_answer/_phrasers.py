"""Phrasers turn a :class:`~vouched.Prompt` into text; they never add facts.

A phraser is anything with ``async phrase(prompt) -> str``, or a plain
callable ``prompt -> str`` (sync or async). Two ship with vouched:

- :class:`TemplatePhraser`: deterministic and offline (the default). One
  sentence per fact from per-attribute templates, values exactly as given
  with their unit ("21.4 °C"), silences in plain words ("The wind speed in
  Berlin is unavailable right now (the source is not responding).").
- :class:`OpenAIChatPhraser`: any OpenAI-compatible chat-completions server
  (OpenAI, vLLM, Ollama, llama.cpp's server) over httpx or aiohttp, temperature 0 by
  default, with a total timeout and typed errors (:class:`PhraserError`).
  Its :meth:`~OpenAIChatPhraser.phrase_stream` streams the answer (server-sent
  events) with a stall timeout as well.

A phraser that can stream has ``phrase_stream(prompt)``, an async iterator of
text pieces (:class:`StreamingPhraser`); :func:`stream_of` streams any phraser
(one that cannot gives its whole text as one piece).
"""

from __future__ import annotations

import asyncio
import inspect
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AsyncExitStack
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, Literal, Protocol, runtime_checkable

import httpx

from vouched._answer._chatstream import StreamEnd, deltas
from vouched._answer._prompt import Prompt, plain_reason
from vouched._answer._wires import (
    AiohttpWire,
    HttpxWire,
    Wire,
    aiohttp_module,
    capped_body,
    capped_lines,
    content_of,
)
from vouched._exceptions import (
    ConfigError,
    PhraserConnectionError,
    PhraserError,
    PhraserResponseError,
    PhraserStreamError,
    PhraserTimeoutError,
)
from vouched._fact import Fact, FactValue
from vouched._jsonio import dumps
from vouched._sources._source import ANY_ATTRIBUTE
from vouched._time import seconds_setting

__all__ = [
    "ACRONYMS",
    "DEFAULT_TEMPLATES",
    "DEFAULT_UNITS",
    "MAX_RESPONSE_BYTES",
    "OpenAIChatPhraser",
    "Phraser",
    "PhraserLike",
    "StreamingPhraser",
    "TellingPhraser",
    "TemplatePhraser",
    "as_phraser",
    "attribute_words",
    "phrase_of",
    "phraser_name",
    "stream_of",
]


@runtime_checkable
class Phraser(Protocol):
    """Turns a prompt into the answer's text."""

    async def phrase(self, prompt: Prompt) -> str: ...


@runtime_checkable
class StreamingPhraser(Protocol):
    """A phraser that can hand its text over piece by piece as it is made."""

    def phrase_stream(self, prompt: Prompt) -> AsyncIterator[str]: ...


@runtime_checkable
class TellingPhraser(Protocol):
    """A phraser that tells what its model server said about an answer (the
    model's name, token counts, finish reason) into a :class:`StreamEnd`."""

    async def phrase_told(self, prompt: Prompt, end: StreamEnd) -> str: ...

    def phrase_stream(self, prompt: Prompt, end: StreamEnd | None = None) -> AsyncIterator[str]: ...


async def _whole(phraser: Phraser, prompt: Prompt, end: StreamEnd) -> AsyncIterator[str]:
    yield await phrase_of(phraser, prompt, end)


def phrase_of(phraser: Phraser, prompt: Prompt, end: StreamEnd) -> Awaitable[str]:
    """The phraser's text for ``prompt``; ``end`` filled in when it can tell."""
    if isinstance(phraser, TellingPhraser):
        return phraser.phrase_told(prompt, end)
    return phraser.phrase(prompt)


def stream_of(phraser: Phraser, prompt: Prompt, end: StreamEnd | None = None) -> AsyncIterator[str]:
    """The phraser's text for ``prompt`` as pieces: streamed when it can
    stream, else its whole text as one piece; ``end`` filled in when it can tell."""
    end = StreamEnd() if end is None else end
    if isinstance(phraser, TellingPhraser):
        return phraser.phrase_stream(prompt, end)
    if isinstance(phraser, StreamingPhraser):
        return phraser.phrase_stream(prompt)
    return _whole(phraser, prompt, end)


PhraserLike = Phraser | Callable[[Prompt], str] | Callable[[Prompt], Awaitable[str]]
"""A phraser object, or a plain callable (sync or async) from prompt to text."""


class _CallablePhraser:
    __slots__ = ("_function", "name")

    def __init__(self, function: Callable[[Prompt], Any]) -> None:
        self._function = function
        self.name = getattr(function, "__name__", type(function).__name__)

    async def phrase(self, prompt: Prompt) -> str:
        result = self._function(prompt)
        if inspect.isawaitable(result):
            result = await result
        if not isinstance(result, str):
            raise PhraserResponseError(f"phraser returned {type(result).__name__}, not text")
        return result


def as_phraser(phraser: PhraserLike) -> Phraser:
    """A :class:`Phraser` for a phraser object or a plain callable."""
    if isinstance(phraser, Phraser):
        return phraser
    if callable(phraser):
        return _CallablePhraser(phraser)
    raise ConfigError("phraser", "an object with phrase() or a callable", got=phraser)


def phraser_name(phraser: object) -> str:
    """A short name for logs and snapshots (``name`` attribute or the class name)."""
    name = getattr(phraser, "name", None)
    return name if isinstance(name, str) and name else type(phraser).__name__


# -- the template phraser -----------------------------------------------------

DEFAULT_UNITS: Mapping[str, str] = {
    "degC": " °C",
    "°C": " °C",
    "celsius": " °C",
    "degF": " °F",
    "°F": " °F",
    "%": "%",
    "percent": "%",
    "km/h": " km/h",
    "m/s": " m/s",
    "mm": " mm",
    "hPa": " hPa",
}
"""How a fact's unit is written after its value (anything else: a space and the unit)."""

DEFAULT_TEMPLATES: Mapping[str, str] = {
    "temperature": "The temperature in {subject} is {value}.",
    "apparent_temperature": "The apparent temperature in {subject} is {value}.",
    "feels_like": "In {subject} it feels like {value}.",
    "wind_gust": "The wind gusts in {subject} reach {value}.",
    "relative_humidity": "The relative humidity in {subject} is {value}.",
    "humidity": "The humidity in {subject} is {value}.",
    "wind_speed": "The wind speed in {subject} is {value}.",
    "uv_index": "The UV index in {subject} is {value}.",
    "precipitation": "The precipitation in {subject} is {value}.",
    "temperature_max": "The high in {subject} is {value}.",
    "temperature_min": "The low in {subject} is {value}.",
    "condition": "The sky in {subject}: {value}.",
    "rate": "The {subject} exchange rate is {value}.",
}
"""Per-attribute sentences; ``{subject}``, ``{attribute}`` (in words),
``{value}`` (with its unit) and ``{verb}`` (``is``, or ``are`` for a plural
attribute such as "wind gusts") are filled in."""

ACRONYMS: Mapping[str, str] = {
    word.casefold(): word
    for word in ("UV", "AQI", "CO2", "NO2", "PM10", "PM2.5", "ID", "URL", "API", "ETA", "VAT")
}
"""Words of an attribute name written in capitals when it is said in words
(``uv_index`` -> "UV index", never "uv index")."""

_DEFAULT_TEMPLATE = "The {attribute} of {subject} {verb} {value}."
_SILENCE_TEMPLATE = "The {attribute} of {subject} {verb} {value}."
_NOT_PLURAL = ("ss", "us", "is", "ics")  # "pressure class", "status", "analysis", "statistics"
_ALL_SILENT = "Nothing about {subject} is available right now ({reason})."
_SOME_SILENT = "Some of the data is unavailable right now ({reason})."  # subject is a source id
_NOTHING = "Nothing can be said about this right now: no source gave any facts for it."


def _number_text(value: Decimal) -> str:
    text = str(value)
    if "E" in text or "e" in text:
        text = format(value, "f")
    return text


def verb_for(attribute_words: str) -> str:
    """``are`` when the attribute's last word reads as an English plural
    ("wind gusts", "points"), else ``is`` ("humidity", "status")."""
    last = attribute_words.rsplit(" ", 1)[-1].casefold()
    plural = len(last) > 2 and last.endswith("s") and not last.endswith(_NOT_PLURAL)
    return "are" if plural else "is"


def attribute_words(attribute: str) -> str:
    """An attribute name as words: ``_`` as spaces, acronyms in capitals
    (:data:`ACRONYMS`): ``uv_index`` -> "UV index"; any other word written in capitals
    in lower case (a column code, "TEAM" -> "team")."""
    return " ".join(
        ACRONYMS.get(word.casefold(), word.lower() if word.isupper() else word)
        for word in attribute.split("_")
        if word
    )


_PARTS = ((0, "overnight"), (6, "in the morning"), (12, "in the afternoon"), (18, "in the evening"))


def period_words(start: datetime, end: datetime) -> str:
    """A period as a reader says it, in the place's own time: a whole day "On Friday
    4 December"; a slot within one part of a day "On Friday 4 December in the
    afternoon"; anything else from its first to its last day."""
    day = f"On {start:%A} {start.day} {start:%B}"
    if end - start == timedelta(days=1) and start.hour == 0 and start.minute == 0:
        return day
    last = end - timedelta(microseconds=1)
    if last.date() == start.date():
        part = [words for hour, words in _PARTS if hour <= start.hour][-1]
        first_hour = next(hour for hour, words in _PARTS if words == part)
        if last.hour < first_hour + 6:
            return f"{day} {part}"
        return day
    return f"From {start:%A} {start.day} {start:%B} to {last:%A} {last.day} {last:%B}"


def _value_text(value: FactValue) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return _number_text(value)
    return str(value)


class TemplatePhraser:
    """Deterministic, offline phrasing: one sentence per fact, then one per silence.

    Each (subject, attribute) is stated once (the first grounded fact wins),
    so two sources never make the answer contradict itself. Silences covered
    by a grounded fact for the same subject and attribute are not repeated.
    """

    name = "template"

    def __init__(
        self,
        templates: Mapping[str, str] | None = None,
        *,
        units: Mapping[str, str] | None = None,
        default_template: str = _DEFAULT_TEMPLATE,
        nothing: str = _NOTHING,
        words: Mapping[str, str] | None = None,
    ) -> None:
        self._templates = {**DEFAULT_TEMPLATES, **(templates or {})}
        self._units = {**DEFAULT_UNITS, **(units or {})}
        self._default = default_template
        self._nothing = nothing
        self._words = dict(words or {})  # attribute -> the words a reader uses for it

    def _words_for(self, attribute: str) -> str:
        """An attribute as words: the phrase given for it (a lexicon's first), else its
        name made readable ("PTS" is "points" with the basketball lexicon, never a code
        the scanner would flag as internal vocabulary)."""
        return self._words.get(attribute) or attribute_words(attribute)

    def _unit(self, unit: str | None) -> str:
        if not unit:
            return ""
        return self._units.get(unit, f" {unit}")

    def sentence(self, fact: Fact) -> str:
        """The sentence for one grounded fact; a fact with a period says its time
        first ("On Friday 4 December the high in Berlin is 12 °C.")."""
        template = self._templates.get(fact.attribute, self._default)
        words = self._words_for(fact.attribute)
        text = template.format(
            subject=fact.subject,
            attribute=words,
            verb=verb_for(words),
            value=_value_text(fact.value) + self._unit(fact.unit),
        )
        period = fact.period
        if period is None:
            return text
        return f"{period_words(*period)} {text[:1].lower()}{text[1:]}"

    def silence(self, fact: Fact) -> str:
        """The sentence for one silence, its reason in plain words (the
        attribute's template with "unavailable right now (why)" for its value)."""
        reason = None if fact.silent_reason is None else str(fact.silent_reason)
        if fact.attribute == ANY_ATTRIBUTE:  # a source that failed without naming keys
            template = _ALL_SILENT if fact.subject != fact.source else _SOME_SILENT
            return template.format(subject=fact.subject, reason=plain_reason(reason))
        template = self._templates.get(fact.attribute, self._default)
        if template.count("{value}") != 1 or "{reason}" in template:
            template = _SILENCE_TEMPLATE
        words = self._words_for(fact.attribute)
        return template.replace("{value}", "unavailable right now ({reason})").format(
            subject=fact.subject,
            attribute=words,
            verb=verb_for(words),
            reason=plain_reason(reason),
        )

    def render(self, prompt: Prompt) -> str:
        """The answer's text for ``prompt`` (synchronous; :meth:`phrase` awaits it)."""
        said: set[tuple[object, ...]] = set()  # one sentence per pair and period
        stated: set[tuple[str, str]] = set()
        sentences: list[str] = []
        for fact in prompt.grounded:
            key = (fact.subject, fact.attribute, fact.period)
            if key in said:
                continue
            said.add(key)
            stated.add((fact.subject, fact.attribute))
            sentences.append(self.sentence(fact))
        for fact in prompt.silences:
            pair = (fact.subject, fact.attribute)
            if pair in stated:
                continue
            stated.add(pair)
            sentences.append(self.silence(fact))
        return " ".join(sentences) if sentences else self._nothing

    async def phrase(self, prompt: Prompt) -> str:
        return self.render(prompt)

    def __repr__(self) -> str:
        return "TemplatePhraser()"


# -- a model behind an OpenAI-compatible HTTP API ---------------------------------

_BODY_EXCERPT = 200
MAX_RESPONSE_BYTES = 4 * 1024 * 1024
"""Default cap on what a model server may send for one answer (its body, or
its stream's events), counted as it is read: past it the answer is a
:class:`PhraserResponseError`, never a growing buffer."""
_OPENAI_BASE_URL = "https://api.openai.com/v1"


class OpenAIChatPhraser:
    """Phrases with any OpenAI-compatible chat-completions server.

    ``base_url`` is the API root (``https://api.openai.com/v1``,
    ``http://127.0.0.1:11434/v1`` for Ollama, ...); the phraser posts to
    ``{base_url}/chat/completions``. ``timeout`` bounds the whole call
    (connect, send, wait, read), in seconds; a streamed answer is bounded by
    it too, and by ``stall_timeout`` seconds between two pieces (default:
    ``timeout``). ``stream_usage`` asks a streaming server for token counts
    (``stream_options.include_usage``). Pass ``transport`` (an
    ``httpx.AsyncBaseTransport``) or a ready ``client`` to control the HTTP
    layer; without a client, the phraser builds one pooled
    ``httpx.AsyncClient`` (HTTP/1.1 keep-alive, at most ``max_connections``)
    on first use and keeps it for every later call on that event loop
    (building a client costs tens of milliseconds; reusing one, nothing).
    :meth:`aclose` closes it (``vouched serve`` does at shutdown); a call
    from another event loop (``Grounder.answer_sync``) gets a client of its own.
    ``http_client="aiohttp"`` builds an ``aiohttp.ClientSession`` instead
    (the ``server`` extra; ``vouched serve``'s choice: 13.8x less CPU per
    call, bench/upstream_client.py), with the same timeouts, caps and errors;
    ``transport`` and ``client`` are httpx's, so they go with ``"httpx"`` only.
    aiohttp suits one long-lived event loop (a server): call :meth:`aclose`
    on that loop before it ends, as ``vouched serve`` does (a session left on
    a finished loop leaves its sockets to the garbage collector's warnings).

    As the OpenAI SDK does, ``api_key=None`` reads ``OPENAI_API_KEY`` and
    ``base_url=None`` reads ``OPENAI_BASE_URL`` (else ``https://api.openai.com/v1``),
    from ``environ`` (default: ``os.environ``), once, here; ``api_key=""`` sends
    no key (local servers).

    Raises :class:`PhraserTimeoutError`, :class:`PhraserHTTPError` (with the
    status and the server's ``Retry-After``), :class:`PhraserConnectionError`,
    :class:`PhraserResponseError` or, for a stream that breaks off,
    :class:`PhraserStreamError` (all :class:`PhraserError`), each naming the
    URL; an HTTP error keeps the server's own message (``model 'x' not
    found``) from its body. These messages are for logs: ``vouched serve``
    tells its clients codes only.

    ``phrase_told(prompt, end)`` and ``phrase_stream(prompt, end)`` fill in ``end``
    (a :class:`StreamEnd`) with what the server said about its answer: the
    model that answered, the token counts and the finish reason.
    """

    def __init__(
        self,
        base_url: str | None,
        model: str,
        api_key: str | None = None,
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        timeout: float = 30.0,
        stall_timeout: float | None = None,
        stream_usage: bool = True,
        extra_body: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        client: httpx.AsyncClient | None = None,
        environ: Mapping[str, str] | None = None,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
        max_connections: int = 100,
        http_client: Literal["httpx", "aiohttp"] = "httpx",
    ) -> None:
        seconds_setting("OpenAIChatPhraser timeout", timeout)
        if http_client not in ("httpx", "aiohttp"):
            raise ConfigError("http_client", "'httpx' or 'aiohttp'", got=http_client)
        if http_client == "aiohttp" and (transport is not None or client is not None):
            raise ConfigError(
                "http_client", "'httpx' when a transport or client is given", got=http_client
            )
        self.http_client = http_client
        if http_client == "aiohttp":
            aiohttp_module()  # imported now (a missing extra fails here), not on a first call
        if type(max_connections) is not int or max_connections < 1:
            raise ConfigError("max_connections", "a whole number >= 1", got=max_connections)
        self.max_connections = max_connections
        if type(max_response_bytes) is not int or max_response_bytes < 1:
            raise ConfigError("max_response_bytes", "a whole number >= 1", got=max_response_bytes)
        self.max_response_bytes = max_response_bytes
        if stall_timeout is not None:
            seconds_setting("OpenAIChatPhraser stall_timeout", stall_timeout)
        env = os.environ if environ is None else environ
        if base_url is None:
            base_url = env.get("OPENAI_BASE_URL") or _OPENAI_BASE_URL
        if api_key is None:
            api_key = env.get("OPENAI_API_KEY")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.stall_timeout = timeout if stall_timeout is None else stall_timeout
        self.stream_usage = stream_usage
        self._api_key = api_key
        self._extra_body = dict(extra_body or {})
        self._headers = dict(headers or {})
        self._transport = transport
        self._given = None if client is None else HttpxWire(client, owned=False)
        self._owned: Wire | None = None  # built on first use, on this loop
        self._owned_loop: asyncio.AbstractEventLoop | None = None
        self.name = f"openai-chat:{model}"

    def _wire(self) -> Wire:
        """The client of this event loop: the given one, or the phraser's own,
        built once per loop (a pool of keep-alive connections)."""
        if self._given is not None:
            return self._given
        loop = asyncio.get_running_loop()
        if self._owned is None or self._owned_loop is not loop or self._owned.closed:
            if self.http_client == "aiohttp":
                self._owned = AiohttpWire(self.timeout, self.max_connections)
            else:
                self._owned = HttpxWire.pooled(self.timeout, self.max_connections, self._transport)
            self._owned_loop = loop
        return self._owned

    async def aclose(self) -> None:
        """Close the phraser's own client (a given ``client`` is the caller's to close)."""
        owned, self._owned, self._owned_loop = self._owned, None, None
        if owned is not None:
            await owned.aclose()

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def request_body(self, prompt: Prompt) -> dict[str, Any]:
        """The JSON body sent for ``prompt``. A caller's conversation (the
        OpenAI-compatible route) is sent with the caller's own parameters and
        no ``temperature`` of ours; ``max_tokens`` goes when the caller set no
        limit of its own (the gateway caps the caller's at it)."""
        body: dict[str, Any] = {"model": self.model, "messages": prompt.messages()}
        if not prompt.conversation:
            body["temperature"] = self.temperature
        limited = "max_tokens" in prompt.sampling or "max_completion_tokens" in prompt.sampling
        if self.max_tokens is not None and not limited:
            body["max_tokens"] = self.max_tokens
        body.update(self._extra_body)
        body.update(prompt.sampling)  # the caller's own (temperature, stop, seed, ...)
        return body

    def _request_headers(self) -> dict[str, str]:
        headers = {"content-type": "application/json", **self._headers}
        if self._api_key:
            headers["authorization"] = f"Bearer {self._api_key}"
        return headers

    async def phrase(self, prompt: Prompt) -> str:
        return await self.phrase_told(prompt, StreamEnd())

    async def phrase_told(self, prompt: Prompt, end: StreamEnd) -> str:
        """:meth:`phrase`, with ``end`` filled in from the completion (model, usage)."""
        content = dumps(self.request_body(prompt)).encode("utf-8")
        wire = self._wire()
        try:
            async with (
                asyncio.timeout(self.timeout),
                wire.post(self.url, content, self._request_headers(), self.timeout) as opened,
            ):
                # The body as read (capped); of the headers, only its type and
                # Retry-After are kept.
                response = await capped_body(opened, self.max_response_bytes, self.url)
        except wire.timeouts:
            raise PhraserTimeoutError(
                f"model server at {self.url} did not answer within {self.timeout:g} s",
                seconds=self.timeout,
            ) from None
        except wire.failures as error:
            raise self._unreachable(error) from error
        return content_of(response, self.url, end)

    def _unreachable(self, error: BaseException) -> PhraserError:
        detail = " ".join(str(error).split())[:_BODY_EXCERPT]
        return PhraserConnectionError(
            f"model server unreachable at {self.url}: {type(error).__name__}"
            + (f": {detail}" if detail else "")
        )

    def stream_body(self, prompt: Prompt) -> dict[str, Any]:
        """The JSON body sent for a streamed answer to ``prompt``."""
        body = self.request_body(prompt)
        body["stream"] = True
        if self.stream_usage:
            body.setdefault("stream_options", {"include_usage": True})
        return body

    async def phrase_stream(
        self, prompt: Prompt, end: StreamEnd | None = None
    ) -> AsyncIterator[str]:
        """The answer to ``prompt`` piece by piece, as the server streams it.

        ``end``, when given, is filled in with the finish reason and the
        token counts the server reports. A server that sends nothing for
        ``stall_timeout`` seconds, or has not finished within ``timeout``,
        raises :class:`PhraserTimeoutError`; a stream that breaks off raises
        :class:`PhraserStreamError`; an empty answer :class:`PhraserResponseError`.
        """
        end = StreamEnd() if end is None else end
        content = dumps(self.stream_body(prompt)).encode("utf-8")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        said = False
        wire = self._wire()
        try:
            async with AsyncExitStack() as stack:
                async with asyncio.timeout_at(deadline):
                    opened = await stack.enter_async_context(
                        wire.post(self.url, content, self._request_headers(), self.timeout)
                    )
                    if opened.status >= 400:
                        error = await capped_body(opened, self.max_response_bytes, self.url)
                        content_of(error, self.url, end)  # raises PhraserHTTPError
                lines = capped_lines(opened, self.max_response_bytes, self.url)
                pieces = deltas(lines, end)
                stack.push_async_callback(pieces.aclose)
                while True:
                    async with asyncio.timeout_at(min(deadline, loop.time() + self.stall_timeout)):
                        try:
                            piece = await anext(pieces)
                        except StopAsyncIteration:
                            break
                    said = True
                    yield piece
        except wire.timeouts:
            if loop.time() >= deadline:
                message = f"model server at {self.url} did not finish within {self.timeout:g} s"
                seconds = self.timeout
            else:
                message = (
                    f"model server's stream at {self.url} stalled for {self.stall_timeout:g} s"
                )
                seconds = self.stall_timeout
            raise PhraserTimeoutError(message, seconds=seconds) from None
        except wire.failures as error:
            if said:
                raise PhraserStreamError(
                    f"model server's stream broke off: {type(error).__name__}"
                ) from error
            raise self._unreachable(error) from error
        if not said:
            raise PhraserResponseError("model server's answer is empty")

    def __repr__(self) -> str:
        return f"OpenAIChatPhraser(base_url={self.base_url!r}, model={self.model!r})"
