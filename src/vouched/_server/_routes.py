"""The one route table: each path, its handler, its models and its summary,
written once. It feeds the app (:mod:`vouched._server._app`), the OpenAPI
document (:mod:`vouched._server._openapi`) and the tests."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from pydantic import BaseModel

from vouched._server._http import CHAT_PATH, MODELS_PATH
from vouched._server._models import (
    AnswerRequest,
    AnswerResponse,
    ChatCompletion,
    ChatRequest,
    ErrorResponse,
    GateRequest,
    GateResponse,
    HealthResponse,
    ModelList,
    OpenAIErrorResponse,
    ScanRequest,
    ScanResponse,
    StreamEventBody,
    VerifyRequest,
    VerifyResponse,
)

__all__ = ["ANSWER_ERRORS", "ERRORS", "ROUTES", "UPSTREAM_ERRORS", "Endpoint"]

SSE: Final = "text/event-stream"

ERRORS: Final[Mapping[str, str]] = {
    "400": "The body is not JSON (invalid_json), or the Host header is not the service's "
    "(host_not_allowed)",
    "401": "A bearer token is required (unauthorized)",
    "413": "The body is larger than the service takes (body_too_large)",
    "415": "A POST body must be application/json (unsupported_media_type)",
    "422": "A field is wrong (invalid_input; field names it)",
    "503": "The work pool's queue is full, or the service is shutting down "
    "(overloaded, shutting_down)",
    "504": "No answer within the request deadline (deadline_exceeded)",
}
"""The errors every POST can answer, with their codes."""

ANSWER_ERRORS: Final[Mapping[str, str]] = {
    "403": "The request chose a policy the config does not let it choose "
    "(override_not_allowed; answer.allow_request_overrides)",
}
"""The errors of the routes that answer, besides :data:`ERRORS`."""

UPSTREAM_ERRORS: Final[Mapping[str, str]] = {
    "429": "The upstream model is rate limited; Retry-After as it sent (upstream_rate_limited)",
    "500": "The checks themselves failed, on_guard_error = closed (guard_error)",
    "502": "The upstream model could not be reached, answered 5xx or an unreadable answer "
    "(upstream_unreachable, upstream_error, upstream_bad_response, upstream_stream_broken)",
    "504": "No answer within the request deadline, or the upstream model did not answer in "
    "time (deadline_exceeded, upstream_timeout)",
}
"""The errors of the OpenAI-compatible route, besides :data:`ERRORS`: the
upstream's failures, each one a client retries on."""


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One route: ``handler`` names the service's method that serves it."""

    path: str
    method: str
    handler: str
    summary: str
    request: type[BaseModel] | None = None
    response: type[BaseModel] | None = None
    media: str = "application/json"
    error: type[BaseModel] = ErrorResponse
    alternatives: tuple[str, ...] = field(default=())  # other media types of the 200 answer
    errors: Mapping[str, str] = field(default_factory=dict)  # besides ERRORS


ROUTES: Final = (
    Endpoint("/v1/gate", "POST", "gate", "Classify facts: grounded, silent or violation",
             GateRequest, GateResponse),
    Endpoint("/v1/scan", "POST", "scan", "Scan a model's output against gated facts",
             ScanRequest, ScanResponse),
    Endpoint("/v1/verify", "POST", "verify",
             "Check structured claims against a catalog of the config",
             VerifyRequest, VerifyResponse),
    Endpoint("/v1/answer", "POST", "answer",
             "Answer a question from the config's sources and phraser",
             AnswerRequest, AnswerResponse, errors=ANSWER_ERRORS),
    Endpoint("/v1/answer/stream", "POST", "stream",
             "The answer as server-sent events, each sentence after it passed",
             AnswerRequest, StreamEventBody, SSE, errors=ANSWER_ERRORS),
    Endpoint(CHAT_PATH, "POST", "chat",
             "OpenAI-compatible chat completions, grounded in vouched facts and scanned",
             ChatRequest, ChatCompletion, error=OpenAIErrorResponse, alternatives=(SSE,),
             errors={**ANSWER_ERRORS, **UPSTREAM_ERRORS}),
    Endpoint(MODELS_PATH, "GET", "models", "OpenAI-compatible: the configured upstream model",
             response=ModelList, error=OpenAIErrorResponse),
    Endpoint("/healthz", "GET", "healthz", "What the service loaded at start",
             response=HealthResponse),
    Endpoint("/metrics", "GET", "metrics", "Prometheus metrics", media="text/plain"),
    Endpoint("/openapi.json", "GET", "openapi", "This document"),
)  # fmt: skip
"""Every route of ``vouched serve``."""
