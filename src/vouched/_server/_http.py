"""The small HTTP vocabulary of the service: request errors, JSON answers,
the capped body read, and the one error shape every route answers with
(OpenAI's keys and vouched's side by side: ``message``, ``type``, ``param``,
``code``, and ``field``, the same as ``param``)."""

from __future__ import annotations

from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response

from vouched._jsonio import dumps
from vouched._server._models import ErrorCode

__all__ = [
    "CHAT_PATH",
    "MODELS_PATH",
    "OPENAI_PREFIX",
    "RequestError",
    "error_detail",
    "error_response",
    "error_type",
    "json_bytes",
    "json_response",
    "read_body",
]

CHAT_PATH: Final = "/v1/chat/completions"
"""The OpenAI-compatible route: its errors are in OpenAI's shape."""
MODELS_PATH: Final = "/v1/models"
"""The OpenAI-compatible list of models."""
OPENAI_PREFIX: Final = (CHAT_PATH, MODELS_PATH)
"""Paths whose errors are in OpenAI's shape."""

# OpenAI's error "type" per status family, as its SDK reads them.
_OPENAI_TYPES: Final = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    405: "invalid_request_error",
    413: "invalid_request_error",
    415: "invalid_request_error",
    422: "invalid_request_error",
    429: "rate_limit_error",
    500: "server_error",
    502: "server_error",
    503: "overloaded_error",
    504: "timeout_error",
}


class RequestError(Exception):
    """A request that cannot be served, as the JSON error it becomes."""

    def __init__(
        self,
        status: int,
        code: ErrorCode,
        message: str,
        field: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field if field is None or len(field) <= _FIELD_LIMIT else _cut(field)
        self.headers = headers or {}


_FIELD_LIMIT = 200  # characters of a field path echoed back (a request's key can be 1 MB)


def _cut(field: str) -> str:
    """A long field path cut short, its full length named (one line, never the key whole)."""
    return f"{field[: _FIELD_LIMIT - 40]}… ({len(field):,} characters)"


def json_response(document: Any, status: int = 200) -> Response:
    """vouched's own encoder: Decimals exact, datetimes as ISO 8601."""
    return Response(dumps(document), status_code=status, media_type="application/json")


def json_bytes(body: bytes, status: int = 200) -> Response:
    """A JSON document already encoded (by :func:`json_response`'s encoder)."""
    return Response(body, status_code=status, media_type="application/json")


def error_type(status: int) -> str:
    """OpenAI's error ``type`` for an HTTP status, as its SDK reads them."""
    return _OPENAI_TYPES.get(status, "server_error" if status >= 500 else "invalid_request_error")


def error_detail(problem: RequestError) -> dict[str, Any]:
    """The error object: ``{"message", "type", "param", "code", "field"}``."""
    return {
        "message": problem.message,
        "type": error_type(problem.status),
        "param": problem.field,
        "code": str(problem.code),
        "field": problem.field,
    }


def error_response(path: str, problem: RequestError) -> Response:
    """The error as JSON, one shape on every route (``path`` is kept for the
    callers that name it): ``{"error": {"message", "type", "param", "code",
    "field"}}``, which an OpenAI SDK and vouched's own clients both read."""
    response = json_response({"error": error_detail(problem)}, problem.status)
    response.headers.update(problem.headers)
    return response


async def read_body(request: Request, cap: int) -> bytes:
    """The body, counted as it is read (413 past ``cap``, whatever the
    Content-Length says)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > cap:
        raise RequestError(413, ErrorCode.BODY_TOO_LARGE, f"request body over {cap} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise RequestError(413, ErrorCode.BODY_TOO_LARGE, f"request body over {cap} bytes")
        chunks.append(chunk)
    return b"".join(chunks)
