"""GuardedSource: a source behind a circuit breaker, a deadline and a last-good cache.

Its ``fetch`` never raises (except ``CancelledError``, which it re-raises
without counting it as a failure). Every outcome becomes facts or silences:

==========================  =======================================================
outcome                     answer
==========================  =======================================================
facts                       the facts (and they become the last good answer)
empty result                ``no_data`` silences (the source is up: not a failure)
circuit open                last good facts, else ``circuit_open`` silences
deadline passed             last good facts, else ``timeout`` silences
payload did not parse       last good facts, else ``malformed`` silences
anything else raised        last good facts, else ``source_error`` silences
query the source refuses    ``malformed_query`` silences (the caller's mistake:
                            checked before admission, never a breaker failure)
==========================  =======================================================

A live silence evicts that fact from the last good answer, and the last good
answer only moves forward in observed_at (:mod:`vouched._sources._lastgood`).
Last good facts are served **with their original observed_at**: the gate, not
the cache, decides whether they are still fresh. Keys the cached answer does
not cover get silences with the failure's reason.

Identical concurrent fetches (one query, one event loop) are coalesced into
one call of the source (single flight): the others wait for its answer. If
the caller that made the call is cancelled, a waiting one makes it again.

Many workers: ``breaker_store=RedisBreakerStore(...)`` shares the breaker's
state and its half-open probe with every process, ``last_good=RedisLastGood(...)``
the last good facts (both in :mod:`vouched._sources._redis`). A shared last
good answer is read when the source fails and written when a fact moved
forward. While the shared store cannot answer, nothing last-good is served:
another worker may have seen the source withdraw a value, so the facts this
process kept become ``store_unavailable`` silences (fail closed).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache, TTLCache

from vouched._exceptions import ConfigError, QueryError
from vouched._fact import Fact, SilenceReason
from vouched._sources._breaker import (
    DEFAULT_BREAKER,
    BreakerListener,
    BreakerSettings,
    BreakerState,
    BreakerStore,
    LocalBreakerStore,
    SourceBreaker,
    Ticket,
)
from vouched._sources._lastgood import SharedLastGood, advance, fact_key, keep_and_state
from vouched._sources._source import (
    ANY_ATTRIBUTE,
    Key,
    Query,
    Source,
    budget,
    catch_all_key,
    check_query,
    checked_facts,
    declared_keys,
    describe_failure,
    log_failure,
    query_key,
    retry_after_of,
    silences,
)
from vouched._time import Clock, SystemClock, seconds_setting

__all__ = ["CacheSettings", "GuardedSource"]

_log = logging.getLogger("vouched.sources")

# Defaults, named once.
DEADLINE = 2.0
KEEP_FOR = 24 * 3600.0
FRESH_FOR = 0.0
MAXSIZE = 256

_UNGUARDED = Ticket(probe=False, generation=-1)
_NO_LIMIT: AbstractAsyncContextManager[object] = nullcontext()
_LOCAL_BREAKERS = LocalBreakerStore()


@dataclass(frozen=True, slots=True, kw_only=True)
class CacheSettings:
    """How a :class:`GuardedSource` remembers answers (a value; share it freely).

    - ``keep_for``: seconds a good answer is kept to stand in when the source
      fails (facts keep their observed_at; the gate judges freshness).
    - ``fresh_for``: seconds a good answer is reused *without* asking the source
      again (0 = always ask). Use the source's own update interval, e.g. 900 for
      Open-Meteo's 15-minute values. Never reused past a fact's own TTL.
    - ``maxsize``: distinct queries remembered.
    """

    keep_for: float = KEEP_FOR
    fresh_for: float = FRESH_FOR
    maxsize: int = MAXSIZE

    def __post_init__(self) -> None:
        for name in ("keep_for", "fresh_for"):
            seconds_setting(f"CacheSettings.{name}", getattr(self, name), zero_allowed=True)
        if isinstance(self.maxsize, bool) or not isinstance(self.maxsize, int) or self.maxsize < 1:
            raise ConfigError("CacheSettings.maxsize", "a whole number >= 1", got=self.maxsize)


class _Flight:
    """One call in flight; ``done`` is made only when a second caller waits for it
    (it ends with the facts, or None when the calling fetch was cancelled)."""

    __slots__ = ("done",)

    def __init__(self) -> None:
        self.done: asyncio.Future[tuple[Fact, ...] | None] | None = None


@dataclass(frozen=True, slots=True)
class _Answer:
    facts: tuple[Fact, ...]
    fetched_at: float  # the clock's monotonic time


class GuardedSource:
    """Wrap ``source`` so that no failure ever escapes as an exception.

    - ``breaker``: :class:`BreakerSettings` (default), or None for no breaker.
    - ``deadline``: seconds per call (asyncio timeout), or None for no deadline.
    - ``cache``: :class:`CacheSettings` (default), or None to remember nothing.
    - ``clock``: wall time for silences and events, monotonic time for the
      breaker's reset timeout and the cache's timer (``FakeClock`` in tests).
    - ``listeners``: callables receiving every :class:`BreakerEvent`.
    - ``max_in_flight``: at most this many calls reach the source at once (a
      bulkhead); the others wait for a place within their deadline. Waiting
      past it is a ``timeout`` silence but not a failure of the source. Set it
      to about the HTTP pool's size: queueing in the pool costs far more.
    - ``breaker_store``: where the breaker's state lives (:class:`LocalBreakerStore`,
      this process, by default; ``RedisBreakerStore`` to share it with every worker).
    - ``last_good``: a :class:`SharedLastGood` (``RedisLastGood``) every worker
      reads when its source fails, beside this process's own cache (which is
      never served alone: while the shared store cannot answer, a failure is
      a ``store_unavailable`` silence).
    - ``coalesce``: identical concurrent fetches make one call (default True).

    A GuardedSource is a :class:`Source` itself (same ``name``), so it composes
    with :func:`gather`. It is meant for one thread (any number of event loops
    in turn, e.g. through :func:`fetch_sync`).
    """

    def __init__(
        self,
        source: Source,
        *,
        breaker: BreakerSettings | None = DEFAULT_BREAKER,
        deadline: float | None = DEADLINE,
        cache: CacheSettings | None = CacheSettings(),
        clock: Clock | None = None,
        listeners: Iterable[BreakerListener] = (),
        name: str | None = None,
        max_in_flight: int | None = None,
        breaker_store: BreakerStore | None = None,
        last_good: SharedLastGood | None = None,
        coalesce: bool = True,
    ) -> None:
        if not callable(getattr(source, "fetch", None)):
            raise ConfigError(
                "GuardedSource source", "a Source: a name and an async fetch(query)", got=source
            )
        if name is None:
            name = getattr(source, "name", None)
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(
                "GuardedSource name", "a non-empty string (or the source's)", got=name
            )
        if deadline is not None:
            seconds_setting("GuardedSource deadline", deadline, none_means="no deadline")
        limit = max_in_flight
        if limit is not None and (type(limit) is not int or limit < 1):
            raise ConfigError(
                "GuardedSource max_in_flight", "a whole number >= 1 or None (no limit)", got=limit
            )
        self.max_in_flight = max_in_flight
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        self.source = source
        self.name: str = name
        self.deadline = deadline
        self.cache_settings = cache
        self._clock: Clock = clock if clock is not None else SystemClock()
        store = breaker_store if breaker_store is not None else _LOCAL_BREAKERS
        self._breaker: SourceBreaker | None = (
            store.breaker(self.name, breaker, self._clock, listeners)
            if breaker is not None
            else None
        )
        self.last_good = last_good
        self.coalesce = coalesce
        # Calls in flight per query, for this event loop: each ends with its facts,
        # or None when its caller was cancelled (a waiter then calls again).
        self._flights: tuple[asyncio.AbstractEventLoop, dict[Any, _Flight]] | None = None
        size = cache.maxsize if cache is not None else MAXSIZE
        self._last_good: TTLCache[Any, _Answer] | None = (
            TTLCache(maxsize=size, ttl=cache.keep_for, timer=self._clock.monotonic)
            if cache is not None and cache.keep_for > 0
            else None
        )
        # The last answer per query (silences included): what keys a failure silences.
        self._known: LRUCache[Any, tuple[Fact, ...]] = LRUCache(maxsize=size)

    # -- what callers look at --------------------------------------------------

    @property
    def state(self) -> BreakerState:
        """``closed``, ``open`` or ``half_open`` (always ``closed`` without a breaker)."""
        return self._breaker.state if self._breaker is not None else BreakerState.CLOSED

    @property
    def breaker(self) -> SourceBreaker | None:
        return self._breaker

    def add_listener(self, listener: BreakerListener) -> None:
        """Receive this source's :class:`BreakerEvent` values (no-op without a breaker)."""
        if self._breaker is not None:
            self._breaker.add_listener(listener)

    def expects(self, query: Query) -> tuple[Key, ...]:
        """The keys the wrapped source declares, else those of its last good answer."""
        declared = declared_keys(self.source, query)
        if declared:
            return declared
        known = self._known.get(query_key(query))
        if known:
            return tuple(dict.fromkeys((f.subject, f.attribute) for f in known))
        return (catch_all_key(self.source, query),)

    # -- the call --------------------------------------------------------------

    def check_query(self, query: Query) -> None:
        """What the wrapped source's ``check_query`` says (raises :class:`vouched.QueryError`)."""
        check_query(self.source, query)

    async def fetch(self, query: Query) -> list[Fact]:
        try:
            check_query(self.source, query)
        except QueryError as error:
            return self._refused(query, error)
        key = query_key(query)
        reusable = self._reusable(key)
        if reusable is not None:
            return list(reusable.facts)
        if not self.coalesce:
            return await self._call(key, query)
        loop = asyncio.get_running_loop()
        if self._flights is None or self._flights[0] is not loop:
            self._flights = (loop, {})
        flights = self._flights[1]
        while (flight := flights.get(key)) is not None:
            # Another caller is asking the source the same question: wait for its
            # answer (shielded: our cancellation must not cancel its call).
            if flight.done is None:
                flight.done = loop.create_future()
            outcome = await asyncio.shield(flight.done)
            if outcome is not None:
                return list(outcome)
        flight = flights[key] = _Flight()
        facts: list[Fact] | None = None
        try:
            facts = await self._call(key, query)
        finally:
            del flights[key]
            if flight.done is not None:
                flight.done.set_result(None if facts is None else tuple(facts))
        return facts

    async def _call(self, key: Any, query: Query) -> list[Fact]:
        """One call of the source behind the breaker and the deadline."""
        breaker = self._breaker
        ticket: Ticket | None = None
        called = False
        try:
            # Admission is inside the deadline too: a breaker whose state lives in
            # another process (Redis) never holds the answer past it.
            async with asyncio.timeout_at(self._deadline_at()):
                ticket = await breaker.admit() if breaker is not None else _UNGUARDED
                if ticket is not None:
                    async with self._slot():
                        called = True
                        raw: object = await self.source.fetch(query)
            if ticket is None:
                return await self._degrade(key, query, SilenceReason.CIRCUIT_OPEN)
            facts = checked_facts(raw)
        except QueryError as error:  # the caller's query, not the source: never counted
            if breaker is not None and ticket is not None:
                breaker.released(ticket)
            return self._refused(query, error)
        except Exception as error:  # noqa: BLE001 - every failure becomes a silence, by design
            if not called:
                # The deadline passed before the source was asked (admission, or
                # waiting for a slot): no failure of the source.
                if breaker is not None and ticket is not None:
                    breaker.released(ticket)
                return await self._degrade(key, query, SilenceReason.TIMEOUT)
            reason, detail = describe_failure(error)
            log_failure(self.name, reason, detail, error)
            if breaker is not None and ticket is not None:  # called: it was admitted
                await breaker.failed(ticket, reason, detail, retry_after=retry_after_of(error))
            return await self._degrade(key, query, reason)
        except BaseException:  # cancellation (or interpreter exit): not the source's failure
            if breaker is not None and ticket is not None:
                breaker.released(ticket)
            raise
        if breaker is not None and ticket is not None:
            await breaker.succeeded(ticket)
        if not facts:
            await self._remember(key, query, ())  # the source is up and has nothing: forget the old
            return self._silence(query, SilenceReason.NO_DATA)
        return await self._remember(key, query, facts)

    # -- internals -------------------------------------------------------------

    def _slot(self) -> AbstractAsyncContextManager[object]:
        """A place among ``max_in_flight`` calls (one semaphore per event loop)."""
        if self.max_in_flight is None:
            return _NO_LIMIT
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(self.max_in_flight))
        return self._slots[1]

    def _deadline_at(self) -> float | None:
        """Loop time when this call times out: its own deadline, or an enclosing gather's."""
        outer = budget()
        if self.deadline is None:
            return outer
        own = asyncio.get_running_loop().time() + self.deadline
        return own if outer is None else min(own, outer)

    def _reusable(self, key: Any) -> _Answer | None:
        settings = self.cache_settings
        if settings is None or settings.fresh_for <= 0 or self._last_good is None:
            return None
        answer = self._last_good.get(key)
        if answer is None or self._clock.monotonic() - answer.fetched_at >= settings.fresh_for:
            return None
        now = self._clock.now()
        for fact in answer.facts:
            expired = (
                fact.ttl is not None
                and fact.observed_at is not None
                and now - fact.observed_at > fact.ttl
            )
            if expired:
                return None  # never reuse past a fact's own TTL: ask again
        return answer

    async def _remember(self, key: Any, query: Query, facts: Sequence[Fact]) -> list[Fact]:
        """Keep a live answer (see :func:`keep_and_state`: silences evict, observed_at
        only moves forward), here and in the fleet's store; returns what it states."""
        if facts:
            self._known[key] = tuple(facts)
        if self.last_good is not None:
            try:
                await self.last_good.save(self.name, query, tuple(facts))
            except Exception:  # noqa: BLE001 - a broken shared store must not break the answer (logged)
                _log.exception("source %r: the shared last good store raised on save", self.name)
        if self._last_good is None:
            return list(facts)
        previous = self._last_good.get(key)
        keep, stated = keep_and_state(previous.facts if previous is not None else None, facts)
        if keep:
            self._last_good[key] = _Answer(keep, self._clock.monotonic())
        else:
            self._last_good.pop(key, None)
        return list(stated)

    def _refused(self, query: Query, error: QueryError) -> list[Fact]:
        """``malformed_query`` silences: the caller asked what the source cannot ask."""
        _log.info("source %r: query not asked: %s", self.name, error)
        return silences(
            [catch_all_key(self.source, query)],
            SilenceReason.MALFORMED_QUERY,
            source=self.name,
            observed_at=self._clock.now(),
        )

    def _silence(self, query: Query, reason: SilenceReason) -> list[Fact]:
        return silences(
            self.expects(query), reason, source=self.name, observed_at=self._clock.now()
        )

    async def _degrade(self, key: Any, query: Query, reason: SilenceReason) -> list[Fact]:
        answer = self._last_good.get(key) if self._last_good is not None else None
        stored: Sequence[Fact] = answer.facts if answer is not None else ()
        if self.last_good is not None:
            # The fleet's last good facts, each replaced by ours where ours is newer.
            # A fleet that answers says which facts still stand: one this process
            # kept but the fleet let go (withdrawn by a live answer another worker
            # saw, or gone with a restarted Redis) is not served.
            try:
                fleet = await self.last_good.load(self.name, query)
            except Exception:  # noqa: BLE001 - a broken shared store must not break the answer (logged)
                _log.exception("source %r: the shared last good store raised on load", self.name)
                fleet = None
            if fleet is None:
                # The fleet cannot say which facts still stand: another worker may
                # have seen the source withdraw one. Fail closed: what this process
                # kept is silenced as ``store_unavailable``, never served.
                return self._unproven(query, stored, reason)
            standing = {fact_key(f): f for f in fleet}
            kept = advance(standing, [f for f in stored if fact_key(f) in standing])
            stored = tuple(kept.values())
        if not stored:
            return self._silence(query, reason)
        covered = {(f.subject, f.attribute) for f in stored}
        missing = [k for k in self.expects(query) if k not in covered and k[1] != ANY_ATTRIBUTE]
        out = list(stored)
        if missing:
            out.extend(silences(missing, reason, source=self.name, observed_at=self._clock.now()))
        return out

    def _unproven(self, query: Query, stored: Sequence[Fact], reason: SilenceReason) -> list[Fact]:
        """Silences for a failure while the shared store cannot answer: the keys this
        process kept are ``store_unavailable``, the others get the failure's reason."""
        held = list(dict.fromkeys((f.subject, f.attribute) for f in stored))
        now = self._clock.now()
        rest = [k for k in self.expects(query) if k not in held]
        if held and rest:
            rest = [k for k in rest if k[1] != ANY_ATTRIBUTE]
        out = silences(held, SilenceReason.STORE_UNAVAILABLE, source=self.name, observed_at=now)
        out.extend(silences(rest, reason, source=self.name, observed_at=now))
        return out

    def __repr__(self) -> str:
        return f"GuardedSource({self.name!r}, state={self.state!s}, deadline={self.deadline})"
