"""Last good facts shared by every worker: the protocol, and the rule they follow.

A :class:`vouched.GuardedSource` keeps its own last good answer per query in
this process. A :class:`SharedLastGood` (``RedisLastGood`` in
:mod:`vouched._sources._redis`) keeps one for every worker, so a worker that
never saw the source up can still stand in with what another worker saw.

The rule, per (subject, attribute) of one source and one query, and per period
for facts that have one (:func:`fact_key`: each day of a forecast is its own
fact) (:func:`advance`): a live fact replaces the kept one only if it was observed
at the same time or later (the last good facts only move forward), a live
silence evicts the kept fact (every period of its pair: the source is up and
says there is no value),
and every fact keeps its original ``observed_at`` (the gate, not the cache,
decides freshness). A live answer with no facts at all evicts every kept fact
of the query (:func:`after_live`). A shared store that fails answers ``None``
and writes nothing: it never makes a value appear, and the guarded source then
serves no last good fact (``store_unavailable``): a withdrawal another worker
saw may be missing from this process's cache.

Every store follows the same rule: this process's cache
(:func:`keep_and_state`), :class:`MemoryLastGood` (the in-memory twin, for
tests and one-process fleets) and ``RedisLastGood`` (the rule as a server-side
script); one contract test runs the same interleavings against the twin and
Redis. A shared entry expires with its fact's TTL (:func:`expires_ms`), and a
store writes only an answer that changed since it last wrote (:class:`Unchanged`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from cachetools import LRUCache

from vouched._fact import Fact
from vouched._jsonio import dumps
from vouched._sources._source import Query, query_key
from vouched._time import Clock, SystemClock

__all__ = [
    "KEEP_FOR",
    "MemoryLastGood",
    "SharedLastGood",
    "Unchanged",
    "advance",
    "after_live",
    "expires_ms",
    "fact_key",
    "field_of",
    "keep_and_state",
    "withdraws",
]

# Defaults, named once.
KEEP_FOR = 24 * 3600.0
REMEMBER = 1024


@runtime_checkable
class SharedLastGood(Protocol):
    """Last good facts every worker of a fleet reads and writes."""

    async def load(self, source: str, query: Query) -> tuple[Fact, ...] | None:
        """The fleet's last good facts for ``query``: ``()`` when it keeps none (then
        this process's own are not served either), ``None`` when it cannot answer
        (then nothing last-good is served: ``store_unavailable`` silences)."""
        ...

    async def save(self, source: str, query: Query, answer: Sequence[Fact]) -> None:
        """Fold a live answer in (see :func:`advance`); never raises."""
        ...


FactKey = tuple[str, str, tuple[datetime, datetime] | None]
"""What one kept fact stands for: (subject, attribute, period or ``None``)."""


def fact_key(fact: Fact) -> FactKey:
    """The key a fact is kept under: its (subject, attribute) and its period, so
    Friday's high and Saturday's are two facts, never one replacing the other."""
    return (fact.subject, fact.attribute, fact.period)


def advance(kept: Mapping[FactKey, Fact], answer: Iterable[Fact]) -> dict[FactKey, Fact]:
    """The last good facts after a live ``answer`` (the rule of this module).

    A fact without ``observed_at`` never replaces one that has it. A silence
    withdraws every period of its (subject, attribute).
    """
    out = dict(kept)
    for fact in answer:
        key = fact_key(fact)
        if fact.is_silent:
            for withdrawn in [k for k in out if k[:2] == key[:2]]:
                del out[withdrawn]
            continue
        old = out.get(key)
        if old is None or _not_older(fact, old):
            out[key] = fact
    return out


def after_live(kept: Mapping[FactKey, Fact], answer: Sequence[Fact]) -> dict[FactKey, Fact]:
    """The last good facts after a live ``answer``: none when the answer is empty
    (the source is up and has nothing), else :func:`advance`."""
    if not answer:
        return {}
    return advance(kept, answer)


def _not_older(new: Fact, old: Fact) -> bool:
    if old.observed_at is None:
        return True
    if new.observed_at is None:
        return False
    return new.observed_at >= old.observed_at


def keep_and_state(
    kept: Sequence[Fact] | None, answer: Sequence[Fact]
) -> tuple[tuple[Fact, ...], tuple[Fact, ...]]:
    """``(to keep, to state)`` for a cache in this process after a live ``answer``.

    To keep: :func:`advance` over the facts ``kept`` (empty: evict the entry). To
    state: the answer, with each fact replaced by the kept one for the same
    (subject, attribute) when that one was observed later: a slow call for an older
    reading that finishes after a newer one does not bring the older value back.
    """
    if not answer:  # the source is up and has nothing: nothing is kept
        return (), ()
    before = {fact_key(f): f for f in kept or () if not f.is_silent}
    after = after_live(before, answer)
    stated = [
        fact if fact.is_silent or (newer := after.get(fact_key(fact))) is None else newer
        for fact in answer
    ]
    return tuple(after.values()), tuple(stated)


# -- shared stores: the parts every one of them uses ----------------------------------


def ms(instant: datetime) -> int:
    """Wall time in whole milliseconds (how shared stores keep instants)."""
    return round(instant.timestamp() * 1000)


def expires_ms(fact: Fact, now: int, keep_for: float) -> int:
    """When a shared store lets ``fact`` go (ms): ``observed_at + ttl`` (``keep_for``
    for a fact without a TTL), never later than ``keep_for`` from ``now``."""
    limit = now + round(keep_for * 1000)
    if fact.observed_at is not None:
        ttl = fact.ttl.total_seconds() if fact.ttl is not None else keep_for
        limit = min(limit, ms(fact.observed_at) + round(ttl * 1000))
    return limit


def field_of(fact: Fact) -> str:
    """A fact's :func:`fact_key` as a store's field name (and its tie-break order):
    ``["Berlin", "temperature"]``, with the period's two ends after them when the
    fact has one. A silence names its pair alone: it withdraws every period of it
    (:func:`withdraws`)."""
    if fact.period is None or fact.is_silent:
        return dumps([fact.subject, fact.attribute])
    start, end = fact.period
    return dumps([fact.subject, fact.attribute, start.isoformat(), end.isoformat()])


def withdraws(silence_field: str, field: str) -> bool:
    """Whether a silence's field (its pair) withdraws a kept ``field``: the pair's
    own, or one of its periods (the same rule as the Redis script's)."""
    return field == silence_field or field.startswith(silence_field[:-1] + ",")


class Unchanged:
    """What one process wrote last per entry, to skip writing the same answer again.

    Only an answer of facts alone is skipped: an empty answer or a silence is
    always written, since another worker may have written a value since (skipping
    it would leave that value to be served after the source withdrew it).
    """

    def __init__(self, remember: int = REMEMBER) -> None:
        self._written: LRUCache[str, tuple[Any, ...]] = LRUCache(maxsize=remember)

    @staticmethod
    def _signature(answer: Sequence[Fact]) -> tuple[Any, ...] | None:
        if not answer or any(f.is_silent for f in answer):
            return None
        return tuple((f.subject, f.attribute, f.observed_at) for f in answer)

    def skip(self, key: str, answer: Sequence[Fact]) -> bool:
        signature = self._signature(answer)
        return signature is not None and self._written.get(key) == signature

    def wrote(self, key: str, answer: Sequence[Fact]) -> None:
        signature = self._signature(answer)
        if signature is None:
            self._written.pop(key, None)
        else:
            self._written[key] = signature


class MemoryLastGood:
    """The in-memory twin of ``RedisLastGood``: the same rule, entries and expiry,
    in a dict (pass one ``entries`` dict to several instances for several workers).

    Each entry holds ``(position, expires ms, fact)`` per field: ``load`` returns
    the live facts in their saved order, as Redis does. Exposed as
    :class:`vouched.testing.MemoryLastGood`. Two workers, the second of which
    never saw the source up:

    >>> from vouched import Fact, GuardedSource, fetch_sync
    >>> from vouched.testing import FakeClock, MemoryLastGood, ScriptedSource
    >>> clock, entries = FakeClock("2026-11-29T12:00:00Z"), {}
    >>> fact = Fact(subject="Berlin", attribute="temperature", value=4.3, source="weather",
    ...             observed_at="2026-11-29T11:58:00Z", ttl=900)
    >>> def worker(outcome: object) -> GuardedSource:
    ...     return GuardedSource(ScriptedSource("weather", [outcome]), clock=clock,
    ...                          last_good=MemoryLastGood(entries, clock=clock))
    >>> fetch_sync(worker([fact]), {"subject": "Berlin"}) == [fact]
    True
    >>> fetch_sync(worker(TimeoutError()), {"subject": "Berlin"}) == [fact]
    True
    """

    def __init__(
        self,
        entries: dict[tuple[str, str], dict[str, tuple[int, int, Fact]]] | None = None,
        *,
        keep_for: float = KEEP_FOR,
        clock: Clock | None = None,
    ) -> None:
        self.entries = entries if entries is not None else {}
        self.keep_for = keep_for
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._unchanged = Unchanged()

    def _key(self, source: str, query: Query) -> tuple[str, str]:
        return source, repr(query_key(query))

    async def load(self, source: str, query: Query) -> tuple[Fact, ...] | None:
        now = ms(self._clock.now())
        table = self.entries.get(self._key(source, query), {})
        live = sorted((p, field, f) for field, (p, gone, f) in table.items() if gone > now)
        return tuple(fact for _, _, fact in live)

    async def save(self, source: str, query: Query, answer: Sequence[Fact]) -> None:
        key = self._key(source, query)
        if self._unchanged.skip(repr(key), answer):
            return
        now = ms(self._clock.now())
        table = self.entries.setdefault(key, {})
        if not answer:
            table.clear()
        for position, fact in enumerate(answer):
            field = field_of(fact)
            old = table.get(field)
            if fact.is_silent:
                for withdrawn in [f for f in table if withdraws(field, f)]:
                    del table[withdrawn]
                continue
            kept = {fact_key(fact): old[2]} if old and old[1] > now else {}
            winner = advance(kept, (fact,))[fact_key(fact)]
            if old is not None and winner is old[2]:  # the newer kept fact, at its new place
                table[field] = (position, old[1], old[2])
            elif (gone := expires_ms(fact, now, self.keep_for)) > now:
                table[field] = (position, gone, fact)
        for field in [f for f, entry in table.items() if entry[1] <= now]:
            del table[field]
        if not table:
            del self.entries[key]
        self._unchanged.wrote(repr(key), answer)

    def __repr__(self) -> str:
        return f"MemoryLastGood({len(self.entries)} entries)"
