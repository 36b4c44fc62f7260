"""The service's request and response bodies, as pydantic models.

Requests take exactly the JSON of the CLI contracts (facts as in FACTS.json,
a lexicon as in LEXICON.json, claims as the lines of CLAIMS.jsonl); responses
are the documents ``--json`` prints. The OpenAPI document is generated from
these models (:mod:`vouched._server._openapi`), so the two cannot drift.
"""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
)

from vouched import Fact

__all__ = [
    "AnswerRequest",
    "AnswerResponse",
    "ChatCompletion",
    "ChatMessage",
    "ChatRequest",
    "ClaimLine",
    "ErrorCode",
    "ErrorResponse",
    "GateRequest",
    "GateResponse",
    "HealthResponse",
    "LexiconBody",
    "ModelList",
    "OpenAIErrorResponse",
    "ScanRequest",
    "ScanResponse",
    "StreamEventBody",
    "UpstreamHealth",
    "VerifyRequest",
    "VerifyResponse",
    "VouchedOptions",
]


class ErrorCode(enum.StrEnum):
    """Stable codes of the service's errors (the CLI's exit 2 cases, and HTTP's own)."""

    INVALID_JSON = "invalid_json"  # the body is not JSON
    INVALID_INPUT = "invalid_input"  # a field is wrong: the CLI's one-line message
    BODY_TOO_LARGE = "body_too_large"  # past server.max_body_bytes
    DEADLINE_EXCEEDED = "deadline_exceeded"  # past server.request_timeout
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"  # a POST body that is not application/json
    HOST_NOT_ALLOWED = "host_not_allowed"  # a Host header the service does not answer to
    HEADERS_TOO_LARGE = "headers_too_large"  # a request head over 16 KiB (431)
    UNAUTHORIZED = "unauthorized"  # no or a wrong bearer token (server.token_env)
    OVERLOADED = "overloaded"  # the work pool's queue is full (server.queue_limit)
    OVERRIDE_NOT_ALLOWED = "override_not_allowed"  # not in answer.allow_request_overrides
    MODEL_NOT_FOUND = "model_not_found"  # the request's model is no [[upstream]]'s (404)
    UNSUPPORTED_PARAMETER = "unsupported_parameter"  # a parameter the gateway cannot honour
    UPSTREAM_TIMEOUT = "upstream_timeout"  # the model did not answer in time (504)
    UPSTREAM_UNREACHABLE = "upstream_unreachable"  # the model could not be reached (502)
    UPSTREAM_ERROR = "upstream_error"  # the model answered 5xx (502)
    UPSTREAM_RATE_LIMITED = "upstream_rate_limited"  # the model answered 429 (429)
    UPSTREAM_REJECTED = "upstream_rejected"  # the model rejected the request (400)
    UPSTREAM_BAD_RESPONSE = "upstream_bad_response"  # the model's answer was unreadable (502)
    UPSTREAM_STREAM_BROKEN = "upstream_stream_broken"  # the model's stream broke off (502)
    PHRASER_FAILED = "phraser_failed"  # a phraser that is no model server raised (502)
    GUARD_ERROR = "guard_error"  # the checks failed, on_guard_error = closed (500)
    SHUTTING_DOWN = "shutting_down"  # SIGTERM came: no new work is started
    INTERNAL = "internal"  # a bug: logged, never with the request


_NOW = "the instant to judge freshness at: ISO 8601 with a timezone (default: now)"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


_Phrase = Annotated[str, Field(min_length=1)]


class LexiconBody(_Strict):
    """A lexicon, as in LEXICON.json (a phrase is never empty)."""

    attributes: dict[str, list[_Phrase]] = Field(default_factory=dict)
    subjects: dict[str, list[_Phrase]] = Field(default_factory=dict)
    internal: list[_Phrase] = Field(default_factory=list)


class GateRequest(_Strict):
    """``vouched gate FACTS.json [--now]``: the facts (at least one, as the
    CLI wants), and the instant to judge at."""

    facts: list[Fact] = Field(min_length=1)
    now: str | None = Field(None, description=_NOW, json_schema_extra={"format": "date-time"})


class ScanRequest(_Strict):
    """``vouched scan --facts ... [--lexicon] [--sources] [--question] [--now] OUTPUT``."""

    text: str = Field(description="the model output to scan")
    facts: list[Fact]
    lexicon: str | LexiconBody | None = Field(
        None, description="a lexicon, or the name of one in the service's config"
    )
    sources: list[str] = Field(default_factory=list, description="texts quotes may come from")
    question: str | None = None
    now: str | None = Field(None, description=_NOW, json_schema_extra={"format": "date-time"})


class ClaimLine(_Open):
    """One line of CLAIMS.jsonl: ``model_output``, optional ``id``; other keys carried."""

    model_output: str
    id: Any = None
    prompt_version: StrictStr | StrictInt | None = None


class VerifyRequest(_Strict):
    """``vouched verify --catalog --contract CLAIMS.jsonl``, with the catalog
    (and its contract) named in the service's config."""

    catalog: str = Field(description="a catalog name from the service's config")
    claims: list[ClaimLine] = Field(min_length=1)


_ON_FAIL = "the on-fail plan of this answer: retry, partial, refuse, or a list of steps"
_MODE = "enforce, or audit: the model's text passed through, the verdict beside it"


class AnswerRequest(_Strict):
    """A question for the sources and phraser of the service's config;
    ``on_fail``, ``mode`` and ``lexicon`` only as ``answer.allow_request_overrides``
    allows."""

    question: str = Field(min_length=1, max_length=2000, pattern=r"\S")
    query: dict[str, Any] | list[dict[str, Any]] = Field(
        default_factory=dict,
        description="passed to every source; a list asks once per query (one per subject)",
    )
    on_fail: str | list[str] | None = Field(None, description=_ON_FAIL)
    mode: Literal["enforce", "audit"] | None = Field(None, description=_MODE)
    lexicon: str | None = Field(None, description="a lexicon name of the service's config")

    @field_validator("query")
    @classmethod
    def _some_query(cls, value: Any) -> Any:
        if isinstance(value, list) and not value:
            raise ValueError("a list of queries holds at least one")
        return value


class ChatMessage(_Open):
    """One chat message, as OpenAI's API takes it; passed on to the model as
    it was sent (``tool_calls``, ``tool_call_id``, ``name`` included)."""

    role: Literal["system", "user", "assistant", "developer", "tool"]
    content: str | list[dict[str, Any]] | None = None


class VouchedOptions(_Strict):
    """The ``vouched`` object of a chat-completions request: facts or a query;
    ``lexicon``, ``on_fail`` and ``mode`` as ``answer.allow_request_overrides`` allows."""

    facts: list[Fact] | None = Field(None, description="facts in the fact format, gated")
    query: dict[str, Any] | list[dict[str, Any]] | None = Field(
        None, description="facts gathered from the configured sources"
    )
    lexicon: str | None = Field(None, description="a lexicon name of the service's config")
    on_fail: str | list[str] | None = Field(None, description=_ON_FAIL)
    mode: Literal["enforce", "audit"] | None = Field(None, description=_MODE)


class ChatRequest(_Open):
    """An OpenAI chat-completions request, plus ``vouched``: ``model`` chooses
    the upstream, the parameters are forwarded as the config allows, and one
    this gateway cannot honour is a 400 naming it (never dropped)."""

    messages: list[ChatMessage] = Field(min_length=1)
    model: str | None = None
    stream: StrictBool = False
    vouched: VouchedOptions | None = None


class Verdict(_Strict):
    index: int
    subject: str
    attribute: str
    kind: str
    reason: str
    cardinal: bool


class GateResponse(_Strict):
    verdicts: list[Verdict]
    counts: dict[str, int]
    grounding_rate: float


class FindingBody(_Strict):
    kind: str
    start: int
    end: int
    text: str
    detail: str
    subject: str | None
    attribute: str | None


class ScanResponse(_Strict):
    passed: bool
    score: float
    findings: list[FindingBody]


class ClaimResultBody(_Open):
    id: Any
    line: int
    claim_index: int | None
    status: str
    reason: str
    entity: str | None
    attribute: str | None
    citation: str | None


class VerifyResponse(_Strict):
    catalog_version: str
    results: list[ClaimResultBody]
    summary: dict[str, int]
    metrics: dict[str, Any]


class AnswerResponse(_Open):
    """:meth:`vouched.Answer.to_json`."""

    text: str
    status: str
    question: str
    findings: list[dict[str, Any]]
    attempts: int
    counts: dict[str, int]
    grounding_rate: float


class StreamEventBody(_Strict):
    """The data of one server-sent event of ``/v1/answer/stream`` (its
    ``event:`` line is ``kind``)."""

    kind: str
    segment: int
    text: str | None = None
    reasons: list[str] | None = None
    provisional: bool | None = Field(
        None, description="a sentence a retry may still replace (the plan's step is retry)"
    )
    answer: AnswerResponse | None = None


class ErrorDetail(_Strict):
    """One shape on every route: OpenAI's keys (``message``, ``type``,
    ``param``, ``code``) and ``field`` (the same as ``param``)."""

    message: str
    type: str = Field(description="OpenAI's error type for the status")
    param: str | None = None
    code: ErrorCode
    field: str | None = Field(None, description="the field that is wrong (= param)")


class ErrorResponse(_Strict):
    error: ErrorDetail


OpenAIErrorResponse = ErrorResponse
"""The errors of ``/v1/chat/completions``: the one shape of every route."""


class ChatCompletion(_Open):
    """An OpenAI ``chat.completion`` with a top-level ``vouched`` object
    (``status``, ``findings`` as codes and spans, ``grounding_rate``, ``attempts``)."""

    id: str
    object: Literal["chat.completion"]
    created: int
    model: str
    choices: list[dict[str, Any]]
    usage: dict[str, int]
    vouched: dict[str, Any]


class ModelList(_Strict):
    """``GET /v1/models``: the configured upstream model, in OpenAI's shape."""

    object: Literal["list"]
    data: list[dict[str, Any]]


class UpstreamHealth(_Strict):
    """One ``[[upstream]]`` in ``/healthz``: it answers chat requests naming its models."""

    name: str
    models: list[str]
    fallback: str | None = None


class HealthResponse(_Strict):
    status: str
    version: str
    catalogs: list[str]
    lexicons: list[str]
    sources: list[str]
    phraser: str
    upstreams: list[UpstreamHealth] = Field(default_factory=list)
