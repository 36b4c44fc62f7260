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
==========================  =======================================================

Last good facts are served **with their original observed_at**: the gate, not
the cache, decides whether they are still fresh. Keys the cached answer does
not cover get silences with the failure's reason.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache, TTLCache

from vouched._fact import Fact, SilenceReason
from vouched._sources._breaker import (
    DEFAULT_BREAKER,
    Breaker,
    BreakerListener,
    BreakerSettings,
    BreakerState,
    Ticket,
)
from vouched._sources._source import (
    ANY_ATTRIBUTE,
    Key,
    Query,
    Source,
    budget,
    catch_all_key,
    declared_keys,
    describe_failure,
    log_failure,
    query_key,
    settle,
    silences,
)
from vouched._time import Clock, SystemClock

__all__ = ["CacheSettings", "GuardedSource"]

_log = logging.getLogger("vouched.sources")

# Defaults, named once.
DEADLINE = 2.0
KEEP_FOR = 24 * 3600.0
FRESH_FOR = 0.0
MAXSIZE = 256

_UNGUARDED = Ticket(probe=False, generation=-1)
_NO_LIMIT: AbstractAsyncContextManager[object] = nullcontext()


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
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
                raise ValueError(f"CacheSettings.{name} must be seconds >= 0")
        if isinstance(self.maxsize, bool) or not isinstance(self.maxsize, int) or self.maxsize < 1:
            raise ValueError("CacheSettings.maxsize must be a whole number >= 1")


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
    ) -> None:
        if deadline is not None and not deadline > 0:
            raise ValueError("deadline must be positive seconds (or None for no deadline)")
        limit = max_in_flight
        if limit is not None and (type(limit) is not int or limit < 1):
            raise ValueError("max_in_flight must be a whole number >= 1 (or None for no limit)")
        self.max_in_flight = max_in_flight
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        self.source = source
        self.name: str = name if name is not None else source.name
        self.deadline = deadline
        self.cache_settings = cache
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._breaker = (
            Breaker(self.name, breaker, self._clock, listeners) if breaker is not None else None
        )
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
    def breaker(self) -> Breaker | None:
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

    async def fetch(self, query: Query) -> list[Fact]:
        key = query_key(query)
        reusable = self._reusable(key)
        if reusable is not None:
            return list(reusable.facts)
        ticket = self._breaker.admit() if self._breaker is not None else _UNGUARDED
        if ticket is None:
            return self._degrade(key, query, SilenceReason.CIRCUIT_OPEN)
        called = False
        try:
            async with asyncio.timeout_at(self._deadline_at()), self._slot():
                called = True
                raw: object = await self.source.fetch(query)
            facts = settle(raw)
        except Exception as error:  # noqa: BLE001 - every failure becomes a silence, by design
            if not called:
                # The deadline passed while waiting for a slot: the source was
                # never asked, so this is no failure of the source.
                if self._breaker is not None:
                    self._breaker.released(ticket)
                return self._degrade(key, query, SilenceReason.TIMEOUT)
            reason, detail = describe_failure(error)
            log_failure(self.name, reason, detail, error)
            if self._breaker is not None:
                self._breaker.failed(ticket, reason, detail)
            return self._degrade(key, query, reason)
        except BaseException:  # cancellation (or interpreter exit): not the source's failure
            if self._breaker is not None:
                self._breaker.released(ticket)
            raise
        if self._breaker is not None:
            self._breaker.succeeded(ticket)
        if not facts:
            return self._silence(query, SilenceReason.NO_DATA)
        self._remember(key, facts)
        return facts

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

    def _remember(self, key: Any, facts: Sequence[Fact]) -> None:
        answer = tuple(facts)
        self._known[key] = answer
        if self._last_good is None:
            return
        if any(f.silent_reason is not None or f.value is None for f in answer):
            answer = tuple(f for f in answer if not f.is_silent)
        if answer:
            self._last_good[key] = _Answer(answer, self._clock.monotonic())

    def _silence(self, query: Query, reason: SilenceReason) -> list[Fact]:
        return silences(
            self.expects(query), reason, source=self.name, observed_at=self._clock.now()
        )

    def _degrade(self, key: Any, query: Query, reason: SilenceReason) -> list[Fact]:
        answer = self._last_good.get(key) if self._last_good is not None else None
        if answer is None:
            return self._silence(query, reason)
        covered = {(f.subject, f.attribute) for f in answer.facts}
        missing = [k for k in self.expects(query) if k not in covered and k[1] != ANY_ATTRIBUTE]
        out = list(answer.facts)
        if missing:
            out.extend(silences(missing, reason, source=self.name, observed_at=self._clock.now()))
        return out

    def __repr__(self) -> str:
        return f"GuardedSource({self.name!r}, state={self.state!s}, deadline={self.deadline})"
