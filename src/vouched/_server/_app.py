"""The HTTP service: a Starlette app over the library, built from a :class:`ServeConfig`.

Endpoints (the OpenAPI document at ``/openapi.json`` says the same):

- ``POST /v1/gate``, ``/v1/scan``, ``/v1/verify``: the CLI's contracts as JSON;
- ``POST /v1/answer``: one :class:`vouched.Answer`; ``/v1/answer/stream``: the
  same as server-sent events, one per :class:`vouched.AnswerEvent`;
- ``GET /metrics`` (Prometheus text), ``GET /healthz``.

Every request body is capped (413 past ``max_body_bytes``, counted as it is
read, whatever the Content-Length says) and every request has a deadline
(504 past ``request_timeout``; a stream is bounded by the answer's own
deadlines). Errors are JSON ``{"error": {"code", "message", "field"}}`` with
an :class:`ErrorCode`; the message is the line the CLI would print. Nothing
of a request is logged unless ``log_requests`` is set, and then only the
method, path, status and time. The pure work (gate, scan, verify) runs on a
worker thread, so one long scan does not hold up the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

import vouched
from vouched import (
    AnswerEvent,
    Clock,
    Grounder,
    InputError,
    Lexicon,
    PrometheusMetrics,
    SystemClock,
    partition,
    scan,
    verify_answer,
)
from vouched._claims._metrics import ClaimTally
from vouched._factio import validation_message
from vouched._jsonio import dumps, loads
from vouched._server._config import ServeConfig
from vouched._server._models import (
    AnswerRequest,
    ClaimLine,
    ErrorCode,
    GateRequest,
    ScanRequest,
    VerifyRequest,
)
from vouched._server._openapi import openapi_document
from vouched._time import parse_instant

__all__ = ["create_app"]

_log = logging.getLogger("vouched.server")
_M = TypeVar("_M", bound=BaseModel)
# As the CLI's verify: keys of a claim line that are not result fields are carried.
_RESULT_KEYS = ("id", "line", "claim_index", "status", "reason", "entity", "attribute", "citation")
_NOT_CARRIED = frozenset({*_RESULT_KEYS, "model_output"})


class _RequestError(Exception):
    """A request that cannot be served, as the JSON error it becomes."""

    def __init__(self, status: int, code: ErrorCode, message: str, field: str | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field


def _error(status: int, code: ErrorCode, message: str, field: str | None = None) -> JSONResponse:
    body = {"error": {"code": str(code), "message": message, "field": field}}
    return JSONResponse(body, status_code=status)


def _json(document: Any, status: int = 200) -> Response:
    # vouched's own encoder: Decimals exact, datetimes as ISO 8601.
    return Response(dumps(document), status_code=status, media_type="application/json")


async def _body(request: Request, cap: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > cap:
        raise _RequestError(413, ErrorCode.BODY_TOO_LARGE, f"request body over {cap} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise _RequestError(413, ErrorCode.BODY_TOO_LARGE, f"request body over {cap} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _parse(model: type[_M], raw: bytes) -> _M:
    try:
        data = loads(raw)
    except (ValueError, RecursionError) as error:
        message = " ".join(str(error).split())[:200]
        raise _RequestError(400, ErrorCode.INVALID_JSON, f"invalid JSON: {message}") from None
    if not isinstance(data, dict):
        raise _RequestError(422, ErrorCode.INVALID_INPUT, "expected a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        field, message = validation_message(error)
        raise _RequestError(422, ErrorCode.INVALID_INPUT, message, field) from None


class _Service:
    """The endpoints, with the config, the grounder and the metrics they share."""

    def __init__(self, config: ServeConfig, clock: Clock, grounder: Grounder | None) -> None:
        from prometheus_client import CollectorRegistry, Counter, Histogram  # noqa: PLC0415

        self.config = config
        self.clock = clock
        self.registry = CollectorRegistry()
        self.answer_metrics = PrometheusMetrics(registry=self.registry)
        self.requests = Counter(
            "vouched_http_requests",
            "HTTP requests by endpoint and status.",
            ["endpoint", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "vouched_http_request_seconds",
            "Time to serve a request (a stream: to its last event).",
            ["endpoint"],
            registry=self.registry,
        )
        self.grounder = grounder or Grounder(
            config.sources,
            policy=config.policy,
            phraser=config.phraser,
            lexicon=config.answer_lexicon,
            on_fail=config.on_fail,
            clock=clock,
            deadline=config.deadline,
            phrase_timeout=config.phrase_timeout,
            store=config.store,
            observers=[self.answer_metrics],
        )

    def _now(self, now: str | None) -> datetime:
        if now is None:
            return self.clock.now()
        try:
            return parse_instant(now)
        except ValueError as error:
            message = " ".join(str(error).split())
            raise _RequestError(422, ErrorCode.INVALID_INPUT, message, "now") from None

    def _lexicon(self, lexicon: Any) -> Lexicon | None:
        if lexicon is None:
            return None
        if isinstance(lexicon, str):
            found = self.config.lexicons.get(lexicon)
            if found is None:
                names = ", ".join(sorted(self.config.lexicons)) or "none"
                raise _RequestError(
                    422,
                    ErrorCode.INVALID_INPUT,
                    f"names no lexicon of this service ({names})",
                    "lexicon",
                )
            return found
        try:
            return Lexicon.from_json(lexicon.model_dump())
        except InputError as error:
            field = "lexicon" if error.field is None else f"lexicon.{error.field}"
            raise _RequestError(422, ErrorCode.INVALID_INPUT, error.message, field) from None

    # -- endpoints ---------------------------------------------------------------

    async def gate(self, raw: bytes) -> Response:
        body = _parse(GateRequest, raw)
        now = self._now(body.now)
        result = await asyncio.to_thread(partition, body.facts, self.config.policy, now)
        return _json(result.to_json())

    async def scan(self, raw: bytes) -> Response:
        body = _parse(ScanRequest, raw)
        lexicon = self._lexicon(body.lexicon)
        gated = partition(body.facts, self.config.policy, self._now(body.now))

        def work() -> dict[str, Any]:
            report = scan(
                body.text,
                gated,
                lexicon,
                sources=body.sources,
                question=body.question,
                policy=self.config.policy,
            )
            return report.to_json()

        return _json(await asyncio.to_thread(work))

    async def verify(self, raw: bytes) -> Response:
        body = _parse(VerifyRequest, raw)
        entry = self.config.catalogs.get(body.catalog)
        if entry is None:
            names = ", ".join(sorted(self.config.catalogs)) or "none"
            raise _RequestError(
                422,
                ErrorCode.INVALID_INPUT,
                f"names no catalog of this service ({names})",
                "catalog",
            )
        return _json(await asyncio.to_thread(_verify, body.claims, entry.catalog, entry.contract))

    async def answer(self, raw: bytes) -> Response:
        body = _parse(AnswerRequest, raw)
        answer = await self.grounder.answer(body.question, body.query)
        return _json(answer.to_json())

    def stream(self, raw: bytes) -> AsyncIterator[bytes]:
        body = _parse(AnswerRequest, raw)
        return _events(self.grounder.answer_stream(body.question, body.query))

    async def metrics(self) -> Response:
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest  # noqa: PLC0415

        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)

    async def healthz(self) -> Response:
        return _json(
            {
                "status": "ok",
                "version": vouched.__version__,
                "catalogs": sorted(self.config.catalogs),
                "lexicons": sorted(self.config.lexicons),
                "sources": [str(getattr(s, "name", type(s).__name__)) for s in self.config.sources],
                "phraser": str(getattr(self.config.phraser, "name", "")),
            }
        )


async def _events(stream: AsyncIterator[AnswerEvent]) -> AsyncIterator[bytes]:
    async for event in stream:
        yield f"event: {event.kind}\ndata: {dumps(event.to_json())}\n\n".encode()


def _verify(claims: list[ClaimLine], catalog: Any, contract: Any) -> dict[str, Any]:
    """The document ``vouched verify --json`` prints, for claim lines given as JSON."""
    tally = ClaimTally()
    results = []
    for number, line in enumerate(claims, start=1):
        version = None if line.prompt_version is None else str(line.prompt_version)
        given = line.model_dump(exclude_unset=True)
        carried = {k: v for k, v in given.items() if k not in _NOT_CARRIED}
        for result in verify_answer(line.model_output, catalog, contract):
            tally.add(result, version)
            results.append(
                {
                    "id": line.id,
                    "line": number,
                    "claim_index": result.claim_index,
                    "status": result.status.value,
                    "reason": result.reason,
                    "entity": result.entity,
                    "attribute": result.attribute,
                    "citation": result.citation,
                    **carried,
                }
            )
    metrics = tally.metrics()
    return {
        "catalog_version": catalog.version,
        "results": results,
        "summary": {status.value: count for status, count in metrics.counts.items()},
        "metrics": metrics.to_json(),
    }


Handler = Callable[[Request], Awaitable[Response]]


def _endpoint(
    service: _Service, name: str, work: Callable[[bytes], Awaitable[Response]]
) -> Handler:
    config = service.config

    async def handle(request: Request) -> Response:
        began = time.perf_counter()
        try:
            async with asyncio.timeout(config.request_timeout):
                response = await work(await _body(request, config.max_body_bytes))
        except _RequestError as problem:
            response = _error(problem.status, problem.code, problem.message, problem.field)
        except TimeoutError:
            message = f"no answer within {config.request_timeout:g} s"
            response = _error(504, ErrorCode.DEADLINE_EXCEEDED, message)
        except Exception:  # noqa: BLE001 - a bug answers 500 with a code; the request is not logged
            _log.exception("%s failed", name)
            response = _error(500, ErrorCode.INTERNAL, "internal error")
        _account(service, name, request, response, began)
        return response

    return handle


def _stream_endpoint(service: _Service) -> Handler:
    config = service.config
    name = "/v1/answer/stream"

    async def handle(request: Request) -> Response:
        began = time.perf_counter()
        try:
            async with asyncio.timeout(config.request_timeout):
                events = service.stream(await _body(request, config.max_body_bytes))
        except _RequestError as problem:
            response: Response = _error(
                problem.status, problem.code, problem.message, problem.field
            )
            _account(service, name, request, response, began)
            return response
        except TimeoutError:
            response = _error(504, ErrorCode.DEADLINE_EXCEEDED, "request body did not arrive")
            _account(service, name, request, response, began)
            return response

        async def body() -> AsyncIterator[bytes]:
            try:
                async for chunk in events:
                    yield chunk
            finally:
                _account(service, name, request, response, began)

        response = StreamingResponse(
            body(),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )
        return response

    return handle


def _account(
    service: _Service, name: str, request: Request, response: Response, began: float
) -> None:
    spent = time.perf_counter() - began
    service.requests.labels(name, str(response.status_code)).inc()
    service.latency.labels(name).observe(spent)
    if service.config.log_requests:
        _log.info("%s %s %d %.1f ms", request.method, name, response.status_code, spent * 1000)


def _http_error(request: Request, error: Exception) -> Response:
    status = getattr(error, "status_code", 500)
    code = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED}.get(
        status, ErrorCode.INTERNAL
    )
    detail = getattr(error, "detail", "") or code.value.replace("_", " ")
    response = _error(status, code, str(detail))
    response.headers.update(getattr(error, "headers", None) or {})  # 405's Allow
    return response


def create_app(
    config: ServeConfig, *, clock: Clock | None = None, grounder: Grounder | None = None
) -> Starlette:
    """The service for ``config``; ``clock`` (default: the system's) is where
    ``now`` comes from when a request gives none, ``grounder`` replaces the
    one the config describes (tests pass a scripted one)."""
    service = _Service(config, clock or SystemClock(), grounder)
    document = openapi_document(catalogs=list(config.catalogs), lexicons=list(config.lexicons))

    async def openapi(request: Request) -> Response:
        return _json(document)

    async def metrics(request: Request) -> Response:
        return await service.metrics()

    async def healthz(request: Request) -> Response:
        return await service.healthz()

    routes = [
        Route("/v1/gate", _endpoint(service, "/v1/gate", service.gate), methods=["POST"]),
        Route("/v1/scan", _endpoint(service, "/v1/scan", service.scan), methods=["POST"]),
        Route("/v1/verify", _endpoint(service, "/v1/verify", service.verify), methods=["POST"]),
        Route("/v1/answer", _endpoint(service, "/v1/answer", service.answer), methods=["POST"]),
        Route("/v1/answer/stream", _stream_endpoint(service), methods=["POST"]),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error})
    app.state.service = service
    return app
