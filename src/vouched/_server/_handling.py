"""The request side of the service: the body parse, the metrics registry,
the POST wrapper every JSON route runs in (deadline, body cap, parse,
admission, errors), HTTP errors from Starlette, and server-sent events."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from vouched import Answer, AnswerEvent, PrometheusMetrics
from vouched._factio import validation_message
from vouched._jsonio import NumberBoundsError, dumps, loads
from vouched._server._http import RequestError, error_response, read_body
from vouched._server._models import ErrorCode
from vouched._server._pool import PoolFullError
from vouched._server._routes import Endpoint

__all__ = [
    "Handler",
    "Metrics",
    "UpstreamMeter",
    "http_error",
    "parse_body",
    "post_handler",
    "sse_events",
]

_log = logging.getLogger("vouched.server")
_M = TypeVar("_M", bound=BaseModel)


def parse_body(model: type[_M], raw: bytes) -> _M:
    try:
        data = loads(raw)
    except NumberBoundsError as error:
        raise RequestError(422, ErrorCode.INVALID_INPUT, str(error)) from None
    except (ValueError, RecursionError) as error:
        message = " ".join(str(error).split())[:200]
        raise RequestError(400, ErrorCode.INVALID_JSON, f"invalid JSON: {message}") from None
    if not isinstance(data, dict):
        raise RequestError(422, ErrorCode.INVALID_INPUT, "expected a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        field, message = validation_message(error)
        raise RequestError(422, ErrorCode.INVALID_INPUT, message, field) from None


class Metrics:
    """The service's Prometheus registry: requests, latency, answers.

    With ``shared`` (a folder; ``vouched serve --processes N``), every server
    process keeps its values there (prometheus-client's multiprocess mode,
    switched on by ``PROMETHEUS_MULTIPROC_DIR`` before the client is imported)
    and :attr:`exposed`, which ``/metrics`` reads, sums them over the
    processes: whichever process answers a scrape, it counts them all. The
    breaker gauge shows the highest state among the live processes.
    """

    def __init__(self, shared: Path | None = None) -> None:
        from prometheus_client import CollectorRegistry, Counter, Histogram  # noqa: PLC0415

        self.registry = CollectorRegistry()
        self.exposed = self.registry
        if shared is not None:
            from prometheus_client import multiprocess, values  # noqa: PLC0415

            if values.ValueClass is values.MutexValue:  # pragma: no cover - a wiring bug
                raise RuntimeError("PROMETHEUS_MULTIPROC_DIR was not set before the import")
            self.exposed = CollectorRegistry()
            multiprocess.MultiProcessCollector(self.exposed, path=str(shared))  # type: ignore[no-untyped-call]  # prometheus-client has no types here
        self.answers = PrometheusMetrics(registry=self.registry)
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
        self.upstream_failures = Counter(
            "vouched_upstream_failures",
            "Failed calls of an upstream model server, by upstream and vouched's code.",
            ["upstream", "code"],
            registry=self.registry,
        )
        self.upstream_fallbacks = Counter(
            "vouched_upstream_fallbacks",
            "Answers phrased by a fallback in place of the upstream asked.",
            ["upstream", "fallback"],
            registry=self.registry,
        )

    def upstream(self, name: str) -> UpstreamMeter:
        """An answer observer counting upstream ``name``'s failures and fallbacks."""
        return UpstreamMeter(self, name)


class UpstreamMeter:
    """Told every answer of one upstream's grounder: counts each failed call
    in its trail (under the upstream that failed: this one, or the fallback
    when that failed too) and each answer a fallback gave in its place.
    ``name`` is ``""`` for the ``[answer.phraser]``: the phraser's name counts."""

    def __init__(self, metrics: Metrics, name: str) -> None:
        self._metrics = metrics
        self._name = name

    def observe(self, answer: Answer, verdicts: object) -> None:
        name = self._name or answer.phraser
        for attempt in answer.trail:
            if attempt.failure is not None:
                failed = attempt.failure.upstream or name
                self._metrics.upstream_failures.labels(failed, str(attempt.failure.code)).inc()
        if answer.upstream:
            self._metrics.upstream_fallbacks.labels(name, answer.upstream).inc()


async def sse_events(stream: AsyncIterator[AnswerEvent]) -> AsyncIterator[bytes]:
    try:
        async for event in stream:
            yield f"event: {event.kind}\ndata: {dumps(event.to_json())}\n\n".encode()
    finally:
        close = getattr(stream, "aclose", None)
        if close is not None:  # a reader that left: the answer still keeps its snapshot
            await close()


Handler = Callable[[Request], Awaitable[Response]]


def post_handler(service: Any, route: Endpoint) -> Handler:
    """A POST route: deadline, body cap, parse, admission, the handler; every
    failure as the route's JSON error."""
    config = service.config
    model = route.request
    work: Callable[[Any], Awaitable[Response]] = getattr(service, route.handler)
    if model is None:  # pragma: no cover - the route table gives every POST a model
        raise RuntimeError(f"{route.path} has no request model")

    async def handle(request: Request) -> Response:
        try:
            if service.draining:
                raise RequestError(503, ErrorCode.SHUTTING_DOWN, "the service is shutting down")
            async with asyncio.timeout(config.request_timeout):
                raw = await read_body(request, config.max_body_bytes)
                service.pool.admit()
                return await work(await service.parse(model, raw))
        except RequestError as problem:
            return error_response(route.path, problem)
        except PoolFullError as error:
            full = RequestError(503, ErrorCode.OVERLOADED, str(error), headers={"retry-after": "1"})
            return error_response(route.path, full)
        except ClientDisconnect:  # the client left before its body arrived: nobody to answer
            return Response(status_code=400)
        except TimeoutError:
            message = f"no answer within {config.request_timeout:g} s"
            return error_response(
                route.path, RequestError(504, ErrorCode.DEADLINE_EXCEEDED, message)
            )
        except Exception:  # noqa: BLE001 - a bug answers 500 with a code; the request is not logged
            _log.exception("%s failed", route.path)
            return error_response(
                route.path, RequestError(500, ErrorCode.INTERNAL, "internal error")
            )

    return handle


def http_error(request: Request, error: Exception) -> Response:
    status = getattr(error, "status_code", 500)
    code = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED}.get(
        status, ErrorCode.INTERNAL
    )
    detail = getattr(error, "detail", "") or code.value.replace("_", " ")
    headers = dict(getattr(error, "headers", None) or {})  # 405's Allow
    return error_response(request.url.path, RequestError(status, code, str(detail), None, headers))
