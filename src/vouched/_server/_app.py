"""The HTTP service: a Starlette app over the library, built from a :class:`ServeConfig`.

Every route comes from the one table in :mod:`vouched._server._routes`
(``/openapi.json`` says the same). A POST is read under the request's
deadline (504 past ``request_timeout``, body read included), capped (413 past
``max_body_bytes``, counted as it is read), parsed with numbers bounded (a
huge exponent is a 422 in microseconds), admitted to the CPU pool (503 when
its queue is full) and served; the host, token and content-type checks and
the metrics are middleware (:mod:`vouched._server._middleware`). Errors are
JSON ``{"error": {"code", "message", "field"}}`` with an :class:`ErrorCode`
(on ``/v1/chat/completions`` OpenAI's shape); the message is the line the
CLI would print.

CPU work (scans, verification, the gate of many facts, the parse of a big
body) runs in the bounded pool (:mod:`vouched._server._pool`); snapshot
writes have their own thread and a bounded queue written in batches (one
transaction each), spilling to a local file when the store falls behind. On
shutdown (SIGTERM) uvicorn stops accepting and lets requests finish within
``shutdown_grace``; then queued snapshots are written for what is left of the
grace (what is not, waits in the spill file, said in one log line) and the
stores are closed.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route

import vouched
from vouched import (
    Clock,
    ConfigError,
    Grounder,
    GuardedSource,
    InputError,
    Lexicon,
    QueryError,
    SystemClock,
    partition,
    scan,
)
from vouched._answer._onfail import plan
from vouched._answer._when import WHEN, check_when
from vouched._jsonio import dumps
from vouched._replay._queued import QueuedSnapshotStore
from vouched._replay._store import ReadableStore
from vouched._server import _openai
from vouched._server._config import ServeConfig, retries
from vouched._server._handling import Metrics, http_error, parse_body, post_handler, sse_events
from vouched._server._health import HealthListener
from vouched._server._http import RequestError, json_bytes, json_response
from vouched._server._middleware import Guard
from vouched._server._models import (
    AnswerRequest,
    ChatRequest,
    ErrorCode,
    GateRequest,
    ScanRequest,
    VerifyRequest,
)
from vouched._server._openapi import openapi_document
from vouched._server._pool import WorkPool
from vouched._server._protocol import AcceptErrors
from vouched._server._requestid import FILTER, current_request_id
from vouched._server._routes import ROUTES
from vouched._server._scanpool import ScanProcesses, ScanWork
from vouched._server._verify import verify_claims
from vouched._sources._source import check_query
from vouched._time import parse_instant

__all__ = ["Service", "create_app"]

_log = logging.getLogger("vouched.server")
_M = TypeVar("_M", bound=BaseModel)
_T = TypeVar("_T")
_PARSE_INLINE_BYTES = 64 * 1024  # a bigger body is parsed and validated in the pool
_GATE_INLINE_FACTS = 256  # the gate of more facts runs in the pool
SNAPSHOT_QUEUE = 5_000  # snapshots waiting for the store before they spill
SNAPSHOT_BATCH = 500  # snapshots per store transaction
MIN_DRAIN = 0.5  # seconds the snapshot queue gets on shutdown, whatever the grace left
_SSE_HEADERS = {"cache-control": "no-store", "x-accel-buffering": "no"}
_STREAMS_SETTLE = 5.0  # seconds cut-off streams get at shutdown to record their answers


class Service:
    """The handlers, with the config, the grounders, the pool and the metrics they share."""

    def __init__(self, config: ServeConfig, clock: Clock, grounder: Grounder | None) -> None:
        self.config = config
        self.clock = clock
        self.meters = Metrics(config.metrics_dir)
        for source in config.sources:  # a sample per source from the start, kept current
            if isinstance(source, GuardedSource):
                self.meters.answers.set_breaker_state(source.name, str(source.state))
                source.add_listener(self.meters.answers.on_breaker_event)
        self.pool = WorkPool(config.workers, config.queue_limit)
        self.scans = (
            ScanProcesses(config.scan_processes, config.queue_limit, config.lexicons, config.policy)
            if config.scan_processes
            else None
        )
        self.draining = False
        self._stop_asked: float | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the serving loop (lifespan)
        self._waits: set[asyncio.Timeout] = set()  # the streams' waits for their next chunk
        self._cut = False  # the grace is nearly over: streams end with shutting_down
        # Snapshots reach the store in batches off the answer path; a store that
        # falls behind spills to a local file (config.spill), never drops.
        self.snapshots = (
            QueuedSnapshotStore(
                config.store,
                maxsize=SNAPSHOT_QUEUE,
                batch=SNAPSHOT_BATCH,
                spill=config.spill,
                on_lost=self.meters.answers.snapshot_write_failed,
            )
            if config.store is not None and config.spill is not None
            else None
        )
        self.grounder = grounder or self._grounder(config.answer_lexicon)
        self._grounders: dict[tuple[str, str | None], Grounder] = {}
        self._upstreams = {u.name: u for u in config.upstreams}
        self._routes = {m: u for u in config.upstreams for m in u.models}
        self._streams = 0  # streamed answers under way
        self._streams_done = asyncio.Event()
        self._streams_done.set()

    def _grounder(
        self, lexicon: Lexicon | None, phraser: Any = None, upstream: str = ""
    ) -> Grounder:
        config = self.config
        return Grounder(
            config.sources,
            policy=config.policy,
            phraser=config.phraser if phraser is None else phraser,
            lexicon=lexicon,
            on_fail=config.on_fail,
            clock=self.clock,
            deadline=config.deadline,
            phrase_timeout=config.phrase_timeout,
            store=self.snapshots if self.snapshots is not None else config.store,
            observers=[self.meters.answers, self.meters.upstream(upstream)],
            redaction_key=config.redaction_key,
            max_output_chars=config.max_output_chars,
            executor=self.pool,
            tracing=config.tracing,
            mode=config.mode,
            on_guard_error=config.on_guard_error,
        )

    def grounder_for(
        self, lexicon: str | None, field: str = "vouched.lexicon", upstream: str = ""
    ) -> Grounder:
        """The grounder of the config, or one scanning with a named lexicon,
        or phrasing with a named ``[[upstream]]`` (built once each)."""
        if lexicon is None and not upstream:
            return self.grounder
        key = (upstream, lexicon)
        if key not in self._grounders:
            scanning = (
                self.config.answer_lexicon if lexicon is None else self.lexicon(lexicon, field)
            )
            phraser = self._upstreams[upstream].phraser if upstream else None
            self._grounders[key] = self._grounder(scanning, phraser, upstream)
        return self._grounders[key]

    def route(self, model: str | None) -> tuple[str, int | None]:
        """The ``[[upstream]]`` the request's ``model`` names (its name and
        ``max_tokens`` ceiling); without any, ``""`` and the phraser's ceiling:
        the ``[answer.phraser]`` answers every model. An unknown model is a 404."""
        if not self._routes:
            ceiling = getattr(self.grounder.phraser, "max_tokens", None)
            return "", ceiling if isinstance(ceiling, int) else None
        found = self._routes.get(model or "")
        if found is None:
            raise RequestError(404, ErrorCode.MODEL_NOT_FOUND,
                               f"the model {str(model)[:100]!r} does not exist on this gateway "
                               "(GET /v1/models lists them)", "model")  # fmt: skip
        return found.name, found.max_tokens

    def model_names(self) -> list[str]:
        """The models a chat request may name: every ``[[upstream]]``'s, or
        the ``[answer.phraser]``'s one ([] for the template phraser)."""
        if self._routes:
            return list(self._routes)
        model = getattr(self.grounder.phraser, "model", "")
        return [model] if isinstance(model, str) and model else []

    def grounders(self) -> list[Grounder]:
        return [self.grounder, *self._grounders.values()]

    async def in_pool(self, work: Callable[[], _T]) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self.pool, work)

    async def parse(self, model: type[_M], raw: bytes) -> _M:
        if len(raw) <= _PARSE_INLINE_BYTES:
            return parse_body(model, raw)
        return await self.in_pool(lambda: parse_body(model, raw))

    def now(self, now: str | None) -> datetime:
        if now is None:
            return self.clock.now()
        try:
            return parse_instant(now)
        except ValueError as error:
            message = " ".join(str(error).split())
            raise RequestError(422, ErrorCode.INVALID_INPUT, message, "now") from None

    def lexicon(self, lexicon: Any, field: str = "lexicon") -> Lexicon:
        if isinstance(lexicon, str):
            found = self.config.lexicons.get(lexicon)
            if found is None:
                names = ", ".join(sorted(self.config.lexicons)) or "none"
                raise RequestError(
                    422,
                    ErrorCode.INVALID_INPUT,
                    f"names no lexicon of this service ({names})",
                    field,
                )
            return found
        try:
            return Lexicon.from_json(lexicon.model_dump())
        except InputError as error:
            where = field if error.field is None else f"{field}.{error.field}"
            raise RequestError(422, ErrorCode.INVALID_INPUT, error.message, where) from None

    def overrides(self, options: Any, where: str) -> dict[str, Any]:
        """The policy a request chose (``lexicon``, ``on_fail``, ``mode``), each
        checked against ``answer.allow_request_overrides`` (403 otherwise)."""
        chosen: dict[str, Any] = {}
        for key in ("lexicon", "on_fail", "mode"):
            value = getattr(options, key, None)
            if value is None:
                continue
            if key not in self.config.allow_request_overrides:
                allowed = ", ".join(self.config.allow_request_overrides) or "none"
                raise RequestError(
                    403,
                    ErrorCode.OVERRIDE_NOT_ALLOWED,
                    f"this service does not let a request choose {key} "
                    f"(answer.allow_request_overrides: {allowed})",
                    f"{where}.{key}" if where else key,
                )
            chosen[key] = value
        if "on_fail" in chosen:
            field = f"{where}.on_fail" if where else "on_fail"
            try:
                chosen["on_fail"] = plan(chosen["on_fail"])
            except ConfigError as error:
                raise RequestError(422, ErrorCode.INVALID_INPUT, str(error), field) from None
            if retries(chosen["on_fail"]) > self.config.max_retries:
                raise RequestError(
                    422,
                    ErrorCode.INVALID_INPUT,
                    f"holds {retries(chosen['on_fail']):,} retries; at most "
                    f"{self.config.max_retries} (answer.max_retries)",
                    field,
                )
        return chosen

    def deadline(self) -> float:
        """When a request started now must be answered (the loop's clock)."""
        return asyncio.get_running_loop().time() + self.config.request_timeout

    def cut_reason(self) -> str:
        """Why a whole answer was cancelled: only the request's deadline or a
        shutdown cancel one (a client that leaves does not)."""
        return "shutdown" if self.draining else "deadline"

    def interruption(self, deadline: float) -> Callable[[], str]:
        """Why a stream was cut short, asked when it is: the deadline passed,
        the service is shutting down, or the reader left."""

        def reason() -> str:
            if asyncio.get_running_loop().time() >= deadline:
                return "deadline"
            return "shutdown" if self.draining else "disconnected"

        return reason

    async def bounded(
        self,
        chunks: AsyncIterator[bytes],
        deadline: float,
        on_deadline: bytes,
        on_shutdown: bytes | None = None,
    ) -> AsyncIterator[bytes]:
        """A stream's bytes until ``deadline`` (then ``on_deadline``, and the
        stream is closed: its answer recorded with the reason ``deadline``),
        counted among the streams the drain waits for. Shortly before the
        shutdown grace ends it is closed with ``on_shutdown`` (its answer
        recorded with the reason ``shutdown``): a client gets a last event,
        never a connection cut mid-stream."""
        self._streams += 1
        self._streams_done.clear()
        try:
            while True:
                try:
                    async with asyncio.timeout_at(deadline) as waiting:
                        self._waits.add(waiting)
                        try:
                            chunk = await anext(chunks)
                        finally:
                            self._waits.discard(waiting)
                except StopAsyncIteration:
                    return
                except TimeoutError:
                    yield on_shutdown if self._cut and on_shutdown else on_deadline
                    return
                yield chunk
        finally:
            try:
                await chunks.aclose()  # type: ignore[attr-defined]
            finally:
                self._streams -= 1
                if not self._streams:
                    self._streams_done.set()

    def stop_asked(self) -> None:
        """SIGTERM arrived: the shutdown grace counts from now."""
        if self._stop_asked is None:
            self._stop_asked = self.clock.monotonic()
            if self._loop is not None:  # a signal handler: hand the timer to the loop
                self._loop.call_soon_threadsafe(self._cut_later)

    def started(self) -> None:
        """The service runs on this event loop (its lifespan began)."""
        self._loop = asyncio.get_running_loop()
        self._loop.set_exception_handler(AcceptErrors(self.clock))

    def _shutdown_pools(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        if self.scans is not None:
            self.scans.shutdown()

    def _cut_later(self) -> None:
        grace = self.config.shutdown_grace
        asyncio.get_running_loop().call_later(max(grace - min(1.0, grace / 4), 0), self.cut)

    def cut(self) -> None:
        """End every stream now with its closing ``shutting_down`` event."""
        self._cut = True
        now = asyncio.get_running_loop().time()
        for waiting in list(self._waits):
            waiting.reschedule(now)

    async def settle(self) -> None:
        """Wait until every snapshot scheduled so far is in the store (tests)."""
        for grounder in self.grounders():
            await grounder.settle()
        if self.snapshots is not None:
            await asyncio.to_thread(self.snapshots.flush)

    def _grace_left(self) -> float:
        left = self.config.shutdown_grace
        if self._stop_asked is not None:
            left -= self.clock.monotonic() - self._stop_asked
        return left

    async def drain(self) -> None:
        """After the last request: let cut-off streams record their answers, write
        queued snapshots for what is left of the shutdown grace (the rest waits in
        the spill file), close the upstream clients and the stores."""
        self.draining = True
        try:  # uvicorn cancels the streams past the grace and goes on at once
            async with asyncio.timeout(min(_STREAMS_SETTLE, max(self._grace_left(), MIN_DRAIN))):
                await self._streams_done.wait()
        except TimeoutError:
            _log.warning("%d streams did not close at shutdown", self._streams)
        for grounder in self.grounders():
            await grounder.settle()
        for grounder in self.grounders():
            try:
                await grounder.aclose()
            except Exception:  # noqa: BLE001 - a client that fails to close must not stop the drain
                _log.warning("closing the upstream client failed", exc_info=True)
        if self.scans is not None:  # no request is left: the scan processes end before we do
            await asyncio.to_thread(self.scans.shutdown, wait=True)
        if self.snapshots is not None:
            await asyncio.to_thread(self.snapshots.close, max(self._grace_left(), MIN_DRAIN))
            if not self.snapshots.drained:
                self._shutdown_pools()
                return  # the store still holds a batch: closing it would wait for it
        close = getattr(self.config.store, "close", None)
        if callable(close):
            close()
        self._shutdown_pools()

    # -- handlers (named in the route table) --------------------------------------

    async def gate(self, body: GateRequest) -> Response:
        now = self.now(body.now)
        if len(body.facts) <= _GATE_INLINE_FACTS:
            result = partition(body.facts, self.config.policy, now)
        else:
            result = await self.in_pool(lambda: partition(body.facts, self.config.policy, now))
        return json_response(result.to_json())

    async def scan(self, body: ScanRequest) -> Response:
        lexicon = None if body.lexicon is None else self.lexicon(body.lexicon)
        now = self.now(body.now)
        if self.scans is not None:  # in a scan process: the loop keeps its GIL
            sent = (
                body.lexicon
                if isinstance(body.lexicon, str)
                else None
                if lexicon is None
                else lexicon.to_json()
            )
            asked = ScanWork(body.text, body.facts, sent, body.sources, body.question, now)
            return json_bytes(await self.scans.scan(asked))

        def work() -> bytes:  # encoded in the thread: a long report takes ms to encode
            gated = partition(body.facts, self.config.policy, now)
            report = scan(
                body.text,
                gated,
                lexicon,
                sources=body.sources,
                question=body.question,
                policy=self.config.policy,
            )
            return dumps(report.to_json()).encode("utf-8")

        return json_bytes(await self.in_pool(work))

    async def verify(self, body: VerifyRequest) -> Response:
        entry = self.config.catalogs.get(body.catalog)
        if entry is None:
            names = ", ".join(sorted(self.config.catalogs)) or "none"
            raise RequestError(
                422,
                ErrorCode.INVALID_INPUT,
                f"names no catalog of this service ({names})",
                "catalog",
            )
        claims = body.claims
        return json_response(
            await self.in_pool(lambda: verify_claims(claims, entry.catalog, entry.contract))
        )

    def _answering(self, body: AnswerRequest) -> tuple[Grounder, dict[str, Any]]:
        chosen = self.overrides(body, "")
        grounder = self.grounder_for(chosen.pop("lexicon", None), "lexicon")
        self.check_queries(body.query, "query")
        return grounder, chosen

    def check_queries(self, query: Any, field: str) -> None:
        """At most ``answer.max_queries`` queries in a list (422 past it)."""
        if isinstance(query, list) and len(query) > self.config.max_queries:
            raise RequestError(
                422,
                ErrorCode.INVALID_INPUT,
                f"holds {len(query):,} queries; at most {self.config.max_queries} "
                "(answer.max_queries)",
                field,
            )
        # Each query as every source checks it: a caller's mistake is a 422 here,
        # never a failure counted toward a source's breaker.
        for index, one in enumerate(query if isinstance(query, list) else [query]):
            if not isinstance(one, dict):
                continue
            if WHEN in one:  # the periods asked about (issue 39)
                try:
                    check_when(one[WHEN])
                except InputError as error:
                    raise RequestError(422, ErrorCode.INVALID_INPUT, error.message,
                                       f"{field}.{WHEN}") from None  # fmt: skip
            where = f"{field}[{index}]" if isinstance(query, list) else field
            for source in self.config.sources:
                try:
                    check_query(source, one)
                except QueryError as error:
                    raise RequestError(
                        422, ErrorCode.INVALID_INPUT, str(error), f"{where}.{error.field}"
                    ) from None

    async def answer(self, body: AnswerRequest) -> Response:
        grounder, chosen = self._answering(body)
        answer = await grounder.answer(body.question, body.query, **chosen,
                                       request={"id": current_request_id()},
                                       interruption=self.cut_reason)  # fmt: skip
        return json_response(answer.client_json())

    async def stream(self, body: AnswerRequest) -> Response:
        grounder, chosen = self._answering(body)
        deadline = self.deadline()
        events = grounder.answer_stream(body.question, body.query, **chosen,
                                        interruption=self.interruption(deadline))  # fmt: skip
        timeout = {"kind": "error", "segment": 0, "reasons": [str(ErrorCode.DEADLINE_EXCEEDED)]}
        on_deadline = f"event: error\ndata: {dumps(timeout)}\n\n".encode()
        closing = {**timeout, "reasons": [str(ErrorCode.SHUTTING_DOWN)]}
        on_shutdown = f"event: error\ndata: {dumps(closing)}\n\n".encode()
        chunks = self.bounded(sse_events(events), deadline, on_deadline, on_shutdown)
        return StreamingResponse(chunks, media_type="text/event-stream", headers=_SSE_HEADERS)

    async def chat(self, body: ChatRequest) -> Response:
        if body.vouched is not None:
            self.check_queries(body.vouched.query, "vouched.query")
        return await _openai.complete(self, body)

    async def models(self, request: Request) -> Response:
        return await _openai.models(self, request)

    async def metrics(self, request: Request) -> Response:
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest  # noqa: PLC0415

        return Response(generate_latest(self.meters.exposed), media_type=CONTENT_TYPE_LATEST)

    async def healthz(self, request: Request) -> Response:
        return json_response(self.health())

    def health(self) -> dict[str, Any]:
        """The ``/healthz`` document (read from any thread: the health listener's too)."""
        return {
            "status": "draining" if self.draining else "ok",
            "version": vouched.__version__,
            "catalogs": sorted(self.config.catalogs),
            "lexicons": sorted(self.config.lexicons),
            "sources": [str(getattr(s, "name", type(s).__name__)) for s in self.config.sources],
            "phraser": str(getattr(self.config.phraser, "name", "")),
            "upstreams": [  # what answers chat requests by model (the phraser: /v1/answer)
                {"name": u.name, "models": list(u.models), "fallback": _fallback_of(u.phraser)}
                for u in self.config.upstreams
            ],
        }

    async def openapi(self, request: Request) -> Response:
        return json_response(
            openapi_document(
                catalogs=list(self.config.catalogs), lexicons=list(self.config.lexicons)
            )
        )


def _fallback_of(phraser: object) -> str | None:
    name = getattr(phraser, "fallback_name", None)
    return name if isinstance(name, str) else None


def _review_pages(config: ServeConfig) -> list[Mount]:
    """The review pages under ``/review`` when a store is configured (read-only;
    the Host and token checks are this service's own guard's)."""
    store: Any = config.store
    if store is None or not isinstance(store, ReadableStore):
        return []
    try:
        from vouched._review import create_review_app  # noqa: PLC0415 - jinja2, on use
    except ImportError:
        _log.warning("no /review pages: pip install 'vouched[server]' brings jinja2")
        return []
    return [Mount("/review", app=create_review_app(store, host=None, token=None))]


def create_app(
    config: ServeConfig,
    *,
    clock: Clock | None = None,
    grounder: Grounder | None = None,
    health: socket.socket | None = None,
) -> Guard:
    """The service for ``config`` (an ASGI app); ``clock`` (default: the
    system's) is where time is read, ``grounder`` replaces the one the config
    describes (tests); ``health``, a listening socket, is answered ``/healthz``
    by a thread of its own while the app runs (``server.health_port``).
    ``app.service`` is the :class:`Service` behind it."""
    service = Service(config, clock or SystemClock(), grounder)
    listener = (
        None if health is None else HealthListener(health, service.health, config.host_names())
    )
    for name in ("vouched.server", "vouched.grounder", "vouched.sources", "vouched.snapshots"):
        logging.getLogger(name).addFilter(FILTER)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        service.started()
        if service.scans is not None:  # started before the first scan, off the loop
            await asyncio.to_thread(service.scans.warm)
        if listener is not None:
            listener.start()
        try:
            yield
            service.draining = True
            await service.drain()
        finally:
            if listener is not None:
                await asyncio.to_thread(listener.stop)

    routes: list[BaseRoute] = [
        Route(
            r.path,
            post_handler(service, r) if r.method == "POST" else getattr(service, r.handler),
            methods=[r.method],
        )
        for r in ROUTES
    ]
    routes.extend(_review_pages(config))
    app = Starlette(
        routes=routes, exception_handlers={HTTPException: http_error}, lifespan=lifespan
    )
    return Guard(
        app,
        hosts=config.host_names(),
        token=config.token,
        metrics=service.meters,
        endpoints=[r.path for r in ROUTES],
        posts=[r.path for r in ROUTES if r.method == "POST"],
        log_requests=config.log_requests,
        service=service,
    )
