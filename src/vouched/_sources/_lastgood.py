"""Last good facts shared by every worker: the protocol, and the rule they follow.

A :class:`vouched.GuardedSource` keeps its own last good answer per query in
this process. A :class:`SharedLastGood` (``RedisLastGood`` in
:mod:`vouched._sources._redis`) keeps one for every worker, so a worker that
never saw the source up can still stand in with what another worker saw.

The rule, per (subject, attribute) of one source and one query
(:func:`advance`): a live fact replaces the kept one only if it was observed
at the same time or later (the last good facts only move forward), a live
silence evicts the kept fact (the source is up and says there is no value),
and every fact keeps its original ``observed_at`` (the gate, not the cache,
decides freshness). A shared store that fails answers ``None`` and writes
nothing: it never makes a value appear.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, runtime_checkable

from vouched._fact import Fact
from vouched._sources._source import Key, Query

__all__ = ["SharedLastGood", "advance", "keep_and_state"]


@runtime_checkable
class SharedLastGood(Protocol):
    """Last good facts every worker of a fleet reads and writes."""

    async def load(self, source: str, query: Query) -> tuple[Fact, ...] | None:
        """The fleet's last good facts for ``query`` (None: none, or unreachable)."""
        ...

    async def save(self, source: str, query: Query, answer: Sequence[Fact]) -> None:
        """Fold a live answer in (see :func:`advance`); never raises."""
        ...


def advance(kept: Mapping[Key, Fact], answer: Iterable[Fact]) -> dict[Key, Fact]:
    """The last good facts after a live ``answer`` (the rule of this module).

    A fact without ``observed_at`` never replaces one that has it.
    """
    out = dict(kept)
    for fact in answer:
        key = (fact.subject, fact.attribute)
        if fact.is_silent:
            out.pop(key, None)
            continue
        old = out.get(key)
        if old is None or _not_older(fact, old):
            out[key] = fact
    return out


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
    before = {(f.subject, f.attribute): f for f in kept or () if not f.is_silent}
    after = advance(before, answer)
    stated = [
        fact
        if fact.is_silent or (newer := after.get((fact.subject, fact.attribute))) is None
        else newer
        for fact in answer
    ]
    return tuple(after.values()), tuple(stated)
