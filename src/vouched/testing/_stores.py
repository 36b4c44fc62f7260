"""In-memory twins of the stores: snapshots and shared breakers, in a dict.

The snapshot twin lives in :mod:`vouched._replay._memory` (the command line
reads a JSON Lines export into it, and the command line sits below this kit);
it is re-exported here. Each follows the contract of its real store (the same contract tests run
against both), so a test that passes with the twin passes with the store.
"""

from __future__ import annotations

from collections.abc import Iterable

from vouched._exceptions import ConfigError
from vouched._replay._memory import MemorySnapshotStore
from vouched._sources._breaker import Breaker, BreakerListener, BreakerSettings
from vouched._time import Clock

__all__ = ["MemoryBreakerStore", "MemorySnapshotStore"]


class MemoryBreakerStore:
    """The in-memory twin of :class:`vouched.RedisBreakerStore`: breakers shared
    by every :class:`vouched.GuardedSource` given this store, in this process.

    Sources of the same name share one state and one half-open probe, as the
    workers of a fleet do through Redis: failures seen by one add up, a circuit
    one opens rejects in all, and after the reset timeout exactly one of them
    probes. The first source of a name sets its settings and clock (give the
    "workers" one clock, as a fleet shares wall time); a later one with other
    settings is a :class:`vouched.ConfigError`. Every source's listeners hear
    every event of the shared breaker. Use it from one event loop.

    >>> from vouched import BreakerSettings, GuardedSource, SourceError, fetch_sync
    >>> from vouched.testing import FakeClock, MemoryBreakerStore, ScriptedSource
    >>> store, clock = MemoryBreakerStore(), FakeClock("2026-11-29T12:00:00Z")
    >>> def worker(script: ScriptedSource) -> GuardedSource:
    ...     return GuardedSource(script, clock=clock, breaker=BreakerSettings(fail_max=2),
    ...                          breaker_store=store)
    >>> down = ScriptedSource("weather", [SourceError("HTTP 500")])
    >>> up = ScriptedSource("weather", [[]])
    >>> first, second = worker(down), worker(up)
    >>> for _ in range(2):
    ...     _ = fetch_sync(first, {"subject": "Berlin"})
    >>> second.state, up.calls
    (<BreakerState.OPEN: 'open'>, 0)
    """

    def __init__(self) -> None:
        self._breakers: dict[str, Breaker] = {}

    def breaker(
        self,
        name: str,
        settings: BreakerSettings,
        clock: Clock,
        listeners: Iterable[BreakerListener] = (),
    ) -> Breaker:
        shared = self._breakers.get(name)
        if shared is None:
            shared = self._breakers[name] = Breaker(name, settings, clock, listeners)
            return shared
        if shared.settings != settings:
            raise ConfigError(
                f"MemoryBreakerStore: breaker {name!r}",
                f"given the settings it was made with ({shared.settings})",
                got=settings,
            )
        for listener in listeners:
            shared.add_listener(listener)
        return shared

    def __repr__(self) -> str:
        return f"MemoryBreakerStore({sorted(self._breakers)})"
