"""Sources: anything with a name that returns facts for a query.

A :class:`Source` is async (``await source.fetch(query)``); :func:`gather`
asks several at once under one deadline; :func:`fetch_sync` and
:func:`gather_sync` run the same async path for synchronous callers (one
implementation, not two).

A source may also offer ``expects(query) -> Sequence[tuple[subject, attribute]]``
(see :class:`DescribedSource`): the keys it would answer for. When it fails,
its silences then name exactly those keys instead of the catch-all ``"*"``.

And ``check_query(query)`` (see :class:`CheckedSource`): raises
:class:`vouched.QueryError` for a query it cannot ask, before any call. A
query it refuses is the caller's mistake, answered with ``malformed_query``
silences and never counted as a failure of the source (nor is a
``QueryError`` raised by ``fetch`` itself).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Coroutine, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from datetime import datetime
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

import httpx

from vouched._exceptions import MalformedPayloadError, QueryError, SourceError
from vouched._fact import Fact, SilenceReason
from vouched._time import Clock, SystemClock, seconds_setting

__all__ = [
    "ANY_ATTRIBUTE",
    "GATHER_DEADLINE",
    "CheckedSource",
    "DescribedSource",
    "Key",
    "Query",
    "Source",
    "budget",
    "catch_all_key",
    "check_query",
    "checked_facts",
    "declared_keys",
    "describe_failure",
    "expected_keys",
    "fetch_sync",
    "gather",
    "gather_sync",
    "log_failure",
    "query_key",
    "retry_after_of",
    "silences",
]

_log = logging.getLogger("vouched.sources")

Query = Mapping[str, Any]
"""What a caller asks a source: ``{"subject": "Berlin", "latitude": 52.52, ...}``."""

Key = tuple[str, str]
"""A ``(subject, attribute)`` pair."""

ANY_ATTRIBUTE = "*"
"""The attribute a silence names when a source cannot say what it would have answered."""

_T = TypeVar("_T")


@runtime_checkable
class Source(Protocol):
    """Anything with a ``name`` that returns facts for a query.

    ``fetch`` may raise (:class:`vouched.SourceError`, ``TimeoutError``, anything);
    wrap the source in :class:`vouched.GuardedSource` to turn every failure into
    a silence fact with a reason.
    """

    name: str

    async def fetch(self, query: Query) -> Sequence[Fact]: ...


@runtime_checkable
class DescribedSource(Source, Protocol):
    """A source that can say which (subject, attribute) pairs it answers."""

    def expects(self, query: Query) -> Sequence[Key]: ...


@runtime_checkable
class CheckedSource(Source, Protocol):
    """A source that checks a query before it is asked: ``check_query`` raises
    :class:`vouched.QueryError` naming the field it cannot use."""

    def check_query(self, query: Query) -> None: ...


def check_query(source: Source, query: Query) -> None:
    """Raise :class:`vouched.QueryError` when ``source`` says it cannot ask
    ``query`` (a source without ``check_query`` takes any query)."""
    if isinstance(source, CheckedSource):
        source.check_query(query)


def declared_keys(source: Source, query: Query) -> tuple[Key, ...]:
    """What the source's own ``expects(query)`` says; empty when it has none."""
    expects = getattr(source, "expects", None)
    if not callable(expects):
        return ()
    try:
        return tuple((str(s), str(a)) for s, a in expects(query))
    except Exception:  # noqa: BLE001 - describing a failure must never fail itself
        _log.warning("source %r: expects() raised; using the catch-all key", source.name)
        return ()


def catch_all_key(source: Source, query: Query) -> Key:
    """The query's ``subject`` (or the source's name) with the attribute ``"*"``."""
    subject = query.get("subject")
    return (str(subject) if subject else source.name, ANY_ATTRIBUTE)


def expected_keys(source: Source, query: Query) -> tuple[Key, ...]:
    """The (subject, attribute) pairs ``source`` would answer for ``query``.

    Uses the source's ``expects(query)`` when it has one; otherwise the query's
    ``subject`` (or the source's name) with the catch-all attribute ``"*"``.
    """
    return declared_keys(source, query) or (catch_all_key(source, query),)


def silences(
    keys: Iterable[Key], reason: SilenceReason | str, *, source: str, observed_at: datetime
) -> list[Fact]:
    """One silence fact per key, all with the same reason."""
    return [
        Fact(
            subject=subject,
            attribute=attribute,
            silent_reason=reason,
            source=source,
            observed_at=observed_at,
        )
        for subject, attribute in keys
    ]


# What an outage looks like: the source's own error, a timeout, the network.
_OUTAGES = (SourceError, TimeoutError, OSError, httpx.HTTPError)


def describe_failure(error: BaseException) -> tuple[SilenceReason, str]:
    """The silence reason for an exception and a detail safe to log.

    ``source_bug`` for an exception that is no outage (a ``KeyError`` in the
    source's code, a sync ``fetch`` where an async one is expected): a
    dashboard must not count a bug as the provider being down. The detail
    names the exception class; only our own :class:`SourceError` messages
    (written by adapters to be safe) are included.
    """
    if isinstance(error, MalformedPayloadError):
        reason = SilenceReason.MALFORMED
    elif isinstance(error, TimeoutError):
        reason = SilenceReason.TIMEOUT
    elif isinstance(error, _OUTAGES):
        reason = SilenceReason.SOURCE_ERROR
    else:
        reason = SilenceReason.SOURCE_BUG
    name = type(error).__name__
    if isinstance(error, SourceError) and str(error):
        return reason, f"{name}: {' '.join(str(error).split())}"
    return reason, name


def retry_after_of(error: BaseException) -> float | None:
    """Seconds a failed source asked callers to wait (:attr:`SourceError.retry_after`)."""
    if isinstance(error, SourceError):
        return error.retry_after
    return None


def log_failure(name: str, reason: SilenceReason, detail: str, error: BaseException) -> None:
    """One log record per failure: an outage at INFO; a source bug at WARNING
    with its traceback, since only its owner can fix it."""
    if reason is SilenceReason.SOURCE_BUG:
        _log.warning(
            "source %r raised %s: a bug in the source, answered as a source_bug silence",
            name,
            detail,
            exc_info=error,
        )
    else:
        _log.info("source %r failed: %s (%s)", name, reason, detail)


def checked_facts(result: object) -> list[Fact]:
    """Check what a source returned: a sequence of facts, or the payload is malformed."""
    if not isinstance(result, Sequence) or isinstance(result, str | bytes):
        raise MalformedPayloadError(f"fetch returned {type(result).__name__}, not facts")
    facts = list(result)
    for item in facts:
        if not isinstance(item, Fact):
            raise MalformedPayloadError(f"fetch returned a {type(item).__name__} among facts")
    return facts


_SCALARS = (str, int, float, bool, type(None))


def _leaf(value: Any) -> Any:
    if isinstance(value, _SCALARS):
        return value
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _nested(value: Any) -> bool:
    return isinstance(value, Mapping | list | tuple | set | frozenset)


def _entries(value: Any) -> Iterator[tuple[str | None, Any]]:
    if isinstance(value, Mapping):
        return ((k if isinstance(k, str) else repr(k), v) for k, v in value.items())
    return ((None, v) for v in value)


def _closed(value: Any, built: list[tuple[str | None, Any]]) -> Any:
    if isinstance(value, Mapping):
        built.sort(key=lambda item: item[0] or "")
        return tuple(built)
    if isinstance(value, set | frozenset):
        return frozenset(v for _, v in built)
    return tuple(v for _, v in built)


def _hashable(value: Any) -> Any:
    """A hashable form of plain data, built without recursion: a query nested
    thousands of levels deep costs its size, never the interpreter's stack."""
    if not _nested(value):
        return _leaf(value)
    stack: list[tuple[Any, str | None, Iterator[tuple[str | None, Any]], list[Any]]] = [
        (value, None, _entries(value), [])
    ]
    while True:
        node, label, pending, built = stack[-1]
        for name, child in pending:
            if _nested(child):
                stack.append((child, name, _entries(child), []))
                break
            built.append((name, _leaf(child)))
        else:
            stack.pop()
            done = _closed(node, built)
            if not stack:
                return done
            stack[-1][3].append((label, done))


def query_key(query: Query) -> Any:
    """A hashable key for a query: equal queries (in any key order) give equal keys."""
    return _hashable(query)


async def _fetch_safely(source: Source, query: Query, clock: Clock) -> list[Fact]:
    """One source's answer in gather: facts, or silences for whatever went wrong."""
    try:
        check_query(source, query)
        facts = checked_facts(await source.fetch(query))
    except asyncio.CancelledError:
        raise
    except QueryError as error:
        _log.info("source %r: query not asked: %s", source.name, error)
        return silences(
            [catch_all_key(source, query)],
            SilenceReason.MALFORMED_QUERY,
            source=source.name,
            observed_at=clock.now(),
        )
    except Exception as error:  # noqa: BLE001 - every failure becomes a silence, by design
        reason, detail = describe_failure(error)
        log_failure(source.name, reason, detail, error)
        return silences(
            expected_keys(source, query), reason, source=source.name, observed_at=clock.now()
        )
    if not facts:
        return silences(
            expected_keys(source, query),
            SilenceReason.NO_DATA,
            source=source.name,
            observed_at=clock.now(),
        )
    return facts


DEADLINE_MARGIN = 0.002
"""Seconds before a gather's deadline at which the guarded sources inside it time out."""

GATHER_DEADLINE: Final = 2.0
"""Seconds :func:`gather` waits for all sources together when no ``deadline``
is given: a hanging source never costs its caller more."""

_BUDGET: ContextVar[float | None] = ContextVar("vouched_gather_budget", default=None)


def budget() -> float | None:
    """The event-loop time by which the enclosing :func:`gather` needs an answer, if any."""
    return _BUDGET.get()


def _discard_outcome(task: asyncio.Task[Any]) -> None:
    # A cancelled straggler may still end with an exception; retrieve it so
    # asyncio does not log "exception was never retrieved".
    if not task.cancelled():
        task.exception()


async def gather(
    sources: Iterable[Source],
    query: Query,
    *,
    deadline: float = GATHER_DEADLINE,
    clock: Clock | None = None,
) -> list[Fact]:
    """Ask every source at once; facts and silences in the order of ``sources``.

    Returns within ``deadline`` seconds (:data:`GATHER_DEADLINE`, 2 s, when not
    given) even if several sources hang: a source
    still running then is cancelled and answers with ``timeout`` silences. A
    :class:`~vouched.GuardedSource` shortens its own deadline to the gather's
    (minus :data:`DEADLINE_MARGIN`), so its timeout counts against its breaker and its
    last good facts stand in. A source that raises answers with silences too;
    nothing escapes but cancellation of the caller.
    """
    seconds_setting("gather deadline", deadline)
    clock = clock if clock is not None else SystemClock()
    listed = list(sources)
    if not listed:
        return []
    loop = asyncio.get_running_loop()
    # Guarded sources see the gather's end (a little early) as their budget, so
    # they time out themselves: counted by their breaker, served from their
    # last-good cache. Tasks copy the context when they are created.
    budget = loop.time() + deadline - min(DEADLINE_MARGIN, deadline / 10)
    outer = _BUDGET.get()
    token = _BUDGET.set(budget if outer is None else min(outer, budget))
    try:
        tasks = [asyncio.ensure_future(_fetch_safely(s, query, clock)) for s in listed]
    finally:
        _BUDGET.reset(token)
    try:
        await asyncio.wait(tasks, timeout=deadline)
    finally:
        for task in tasks:
            if not task.done():
                task.cancel()
                task.add_done_callback(_discard_outcome)
    out: list[Fact] = []
    now: datetime | None = None
    for source, task in zip(listed, tasks, strict=True):
        if task.cancelled() or not task.done() or task.exception() is not None:
            now = now or clock.now()
            out.extend(
                silences(
                    expected_keys(source, query),
                    SilenceReason.TIMEOUT,
                    source=source.name,
                    observed_at=now,
                )
            )
        else:
            out.extend(task.result())
    return out


def _run(coroutine: Coroutine[Any, Any, _T], what: str) -> _T:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    coroutine.close()
    raise RuntimeError(f"{what}() cannot run inside a running event loop; await the async API")


async def _fetch_list(source: Source, query: Query) -> list[Fact]:
    result: Awaitable[Sequence[Fact]] = source.fetch(query)
    return list(await result)


def fetch_sync(source: Source, query: Query) -> list[Fact]:
    """``await source.fetch(query)`` for synchronous callers (runs its own event loop)."""
    return _run(_fetch_list(source, query), "fetch_sync")


def gather_sync(
    sources: Iterable[Source],
    query: Query,
    *,
    deadline: float = GATHER_DEADLINE,
    clock: Clock | None = None,
) -> list[Fact]:
    """:func:`gather` for synchronous callers (runs its own event loop)."""
    return _run(gather(sources, query, deadline=deadline, clock=clock), "gather_sync")
