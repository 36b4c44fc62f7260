"""Circuit-breaker admission for async sources, on top of pybreaker's public state.

pybreaker keeps the counters and the state machine (closed -> open after
``fail_max`` failures; half-open -> closed after ``success_threshold``
successes; half-open -> open on a failed trial). It cannot await coroutines
and lets every concurrent caller through in half-open, so admission is ours:

- closed: every call is admitted;
- open: calls are rejected until ``reset_timeout`` seconds have passed on the
  injected clock's monotonic time; then the breaker goes half-open;
- half-open: exactly one probe at a time is admitted, every other caller is
  rejected until the probe's outcome is known;
- an outcome is replayed into pybreaker (``breaker.call`` with a function that
  returns or raises) only if the state it was admitted in still holds, so a
  straggler admitted before the breaker opened cannot close it;
- a cancelled call is released without counting (cancellation is not a failure);
- a failure that says how long to wait (HTTP ``Retry-After`` on a 429 or 503,
  :attr:`vouched.SourceError.retry_after`) opens the circuit at once, for at
  least that long (``reset_timeout`` when that is longer).

``admit``, ``succeeded`` and ``failed`` are coroutines because a breaker's
state may live elsewhere (:class:`BreakerStore`; Redis in
:mod:`vouched._sources._redis`); this in-process breaker never suspends in them.

State changes, failures and rejections are reported to listeners as
:class:`BreakerEvent` values. A listener that raises is logged and ignored.
"""

from __future__ import annotations

import contextlib
import enum
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

import pybreaker

from vouched._exceptions import ConfigError
from vouched._time import Clock, seconds_setting

__all__ = [
    "DEFAULT_BREAKER",
    "Breaker",
    "BreakerEvent",
    "BreakerEventKind",
    "BreakerListener",
    "BreakerSettings",
    "BreakerState",
    "BreakerStore",
    "LocalBreakerStore",
    "SourceBreaker",
    "Ticket",
]

_log = logging.getLogger("vouched.sources")

# Defaults, named once.
FAIL_MAX = 5
RESET_TIMEOUT = 30.0
SUCCESS_THRESHOLD = 1


class BreakerState(enum.StrEnum):
    """Where a breaker is: letting calls through, rejecting them, or probing."""

    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


_FROM_PYBREAKER = {
    pybreaker.STATE_CLOSED: BreakerState.CLOSED,
    pybreaker.STATE_OPEN: BreakerState.OPEN,
    pybreaker.STATE_HALF_OPEN: BreakerState.HALF_OPEN,
}


class BreakerEventKind(enum.StrEnum):
    """What a :class:`BreakerEvent` reports."""

    STATE_CHANGE = "state_change"
    FAILURE = "failure"
    REJECTED = "rejected"
    LOCAL_FALLBACK = "local_fallback"
    """A shared breaker store stopped answering: this process decides alone for now."""
    SHARED_RESTORED = "shared_restored"
    """The shared breaker store answers again: the fleet's state is used again."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BreakerSettings:
    """How a source's circuit breaker behaves (a value; share it freely).

    - ``fail_max``: consecutive failures (errors, timeouts, malformed payloads)
      that open the circuit.
    - ``reset_timeout``: seconds the circuit stays open before one probe is let through.
    - ``success_threshold``: successful probes in a row that close it again.
    """

    fail_max: int = FAIL_MAX
    reset_timeout: float = RESET_TIMEOUT
    success_threshold: int = SUCCESS_THRESHOLD

    def __post_init__(self) -> None:
        for name in ("fail_max", "success_threshold"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"BreakerSettings.{name}", "a whole number >= 1", got=value)
        seconds_setting("BreakerSettings.reset_timeout", self.reset_timeout, zero_allowed=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class BreakerEvent:
    """One thing a breaker did: changed state, counted a failure, or rejected a call.

    ``old_state == new_state`` for failures and rejections. ``reason`` is a
    silence reason code for failures and rejections; ``detail`` names the
    exception class (never a secret).
    """

    name: str
    kind: BreakerEventKind
    old_state: BreakerState
    new_state: BreakerState
    at: datetime
    reason: str | None = None
    detail: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "kind": str(self.kind),
            "old_state": str(self.old_state),
            "new_state": str(self.new_state),
            "at": self.at,
            "reason": self.reason,
            "detail": self.detail,
        }


DEFAULT_BREAKER = BreakerSettings()

BreakerListener = Callable[[BreakerEvent], object]
"""Receives every :class:`BreakerEvent`; return value ignored, exceptions logged."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """Admission to call the source once. ``probe`` marks the single half-open trial.

    ``lease`` names the admission in a shared store (a probe's or a trial's
    lease); ``shared`` says the shared store's state admitted it (else this
    process's own breaker did).
    """

    probe: bool
    generation: int
    lease: str | None = None
    shared: bool = False


@runtime_checkable
class SourceBreaker(Protocol):
    """What :class:`vouched.GuardedSource` asks of a breaker (see :class:`Breaker`)."""

    name: str
    settings: BreakerSettings

    @property
    def state(self) -> BreakerState: ...

    @property
    def fail_counter(self) -> int: ...

    def add_listener(self, listener: BreakerListener) -> None: ...

    async def admit(self) -> Ticket | None: ...

    async def succeeded(self, ticket: Ticket) -> None: ...

    async def failed(
        self, ticket: Ticket, reason: str, detail: str, *, retry_after: float | None = None
    ) -> None: ...

    def released(self, ticket: Ticket) -> None: ...


@runtime_checkable
class BreakerStore(Protocol):
    """Where breakers keep their state: this process (:class:`LocalBreakerStore`,
    the default) or a store every worker shares (``RedisBreakerStore``)."""

    def breaker(
        self,
        name: str,
        settings: BreakerSettings,
        clock: Clock,
        listeners: Iterable[BreakerListener] = (),
    ) -> SourceBreaker: ...


class _Failed(Exception):  # noqa: N818 - internal signal passed on to pybreaker, never raised to users
    pass


class _Relay(pybreaker.CircuitBreakerListener):
    def __init__(self, owner: Breaker) -> None:
        self._owner = owner

    def state_change(
        self,
        cb: pybreaker.CircuitBreaker,
        old_state: pybreaker.CircuitBreakerState | None,
        new_state: pybreaker.CircuitBreakerState,
    ) -> None:
        old = _FROM_PYBREAKER[old_state.name] if old_state is not None else BreakerState.CLOSED
        self._owner._changed(old, _FROM_PYBREAKER[new_state.name])


class Breaker:
    """A named circuit breaker for one async source (see the module docstring)."""

    def __init__(
        self,
        name: str,
        settings: BreakerSettings,
        clock: Clock,
        listeners: Iterable[BreakerListener] = (),
    ) -> None:
        self.name = name
        self.settings = settings
        self._clock = clock
        self._listeners: list[BreakerListener] = list(listeners)
        self._opened_at = 0.0
        self._open_for = settings.reset_timeout
        self._probing = False
        self._generation = 0
        self._breaker = pybreaker.CircuitBreaker(
            fail_max=settings.fail_max,
            reset_timeout=settings.reset_timeout,
            success_threshold=settings.success_threshold,
            name=name,
            listeners=[_Relay(self)],
        )

    @property
    def state(self) -> BreakerState:
        """``closed``, ``open`` or ``half_open``; an open circuit whose timeout has
        passed reads ``half_open`` (the next call is the probe)."""
        state = _FROM_PYBREAKER[self._breaker.current_state]
        if state is BreakerState.OPEN and self._timed_out():
            return BreakerState.HALF_OPEN
        return state

    @property
    def retry_at(self) -> float | None:
        """The clock's monotonic time when an open circuit lets a probe through."""
        if _FROM_PYBREAKER[self._breaker.current_state] is not BreakerState.OPEN:
            return None
        return self._opened_at + self._open_for

    @property
    def fail_counter(self) -> int:
        return self._breaker.fail_counter

    @property
    def generation(self) -> int:
        """Moves on at every state change: a ticket of an older one is a straggler's."""
        return self._generation

    def add_listener(self, listener: BreakerListener) -> None:
        self._listeners.append(listener)

    # -- admission -------------------------------------------------------------

    async def admit(self) -> Ticket | None:
        """A ticket to call the source, or None: rejected (the caller answers silence)."""
        state = _FROM_PYBREAKER[self._breaker.current_state]
        if state is BreakerState.CLOSED:
            return Ticket(probe=False, generation=self._generation)
        if state is BreakerState.OPEN:
            if not self._timed_out():
                self._reject(state)
                return None
            self._breaker.half_open()  # notifies: generation moves on
        if self._probing:
            self._reject(BreakerState.HALF_OPEN)
            return None
        self._probing = True
        return Ticket(probe=True, generation=self._generation)

    async def succeeded(self, ticket: Ticket) -> None:
        """The admitted call returned an answer."""
        if ticket.probe:
            self._probing = False
        if ticket.generation != self._generation:
            return  # admitted under another state: a straggler does not steer the breaker
        if not ticket.probe and self._breaker.fail_counter == 0:
            return  # closed and nothing to reset: skip pybreaker's lock
        self._tell_pybreaker(None)

    async def failed(
        self, ticket: Ticket, reason: str, detail: str, *, retry_after: float | None = None
    ) -> None:
        """The admitted call failed (error, timeout, malformed payload).

        ``retry_after``: seconds the source asked callers to wait; the circuit
        opens at once for at least that long.
        """
        if ticket.probe:
            self._probing = False
        state = _FROM_PYBREAKER[self._breaker.current_state]
        self.announce(BreakerEventKind.FAILURE, state, state, reason=reason, detail=detail)
        if retry_after is not None:
            self.trip(retry_after)
            return
        if ticket.generation != self._generation:
            return
        self._tell_pybreaker(_Failed(reason))

    def trip(self, seconds: float) -> None:
        """Open the circuit now (or keep it open) for at least ``seconds``."""
        wait = max(float(seconds), self.settings.reset_timeout)
        if _FROM_PYBREAKER[self._breaker.current_state] is not BreakerState.OPEN:
            self._breaker.open()  # notifies: opened_at is now
            self._open_for = wait
            return
        left = self._opened_at + self._open_for - self._clock.monotonic()
        if wait > left:
            self._open_for += wait - left

    def released(self, ticket: Ticket) -> None:
        """The admitted call was cancelled: not a failure, not a success."""
        if ticket.probe:
            self._probing = False

    # -- internals -------------------------------------------------------------

    def _timed_out(self) -> bool:
        return self._clock.monotonic() - self._opened_at >= self._open_for

    def _tell_pybreaker(self, error: _Failed | None) -> None:
        def outcome() -> None:
            if error is not None:
                raise error

        # A failure is counted, then pybreaker re-raises it (or its trip error).
        with contextlib.suppress(_Failed, pybreaker.CircuitBreakerError):
            self._breaker.call(outcome)

    def _changed(self, old: BreakerState, new: BreakerState) -> None:
        self._generation += 1
        if new is BreakerState.OPEN:
            self._opened_at = self._clock.monotonic()
            self._open_for = self.settings.reset_timeout
        if new is not BreakerState.HALF_OPEN:
            self._probing = False
        self.announce(BreakerEventKind.STATE_CHANGE, old, new)

    def _reject(self, state: BreakerState) -> None:
        if self._listeners:
            self.announce(BreakerEventKind.REJECTED, state, state, reason="circuit_open")

    def announce(
        self,
        kind: BreakerEventKind,
        old: BreakerState,
        new: BreakerState,
        *,
        reason: str | None = None,
        detail: str | None = None,
    ) -> None:
        """Report an event to the listeners (also what a shared store's breaker,
        which sees transitions made by other processes, reports through)."""
        if not self._listeners:
            return
        event = BreakerEvent(
            name=self.name,
            kind=kind,
            old_state=old,
            new_state=new,
            at=self._clock.now(),
            reason=reason,
            detail=detail,
        )
        for listener in tuple(self._listeners):
            try:
                listener(event)
            except Exception:  # noqa: BLE001 - a broken listener must not break the answer path
                _log.exception("breaker %r: listener %r raised", self.name, listener)

    def __repr__(self) -> str:
        return f"Breaker({self.name!r}, state={self.state!s})"


class LocalBreakerStore:
    """Breakers whose state lives in this process (the default :class:`BreakerStore`)."""

    __slots__ = ()

    def breaker(
        self,
        name: str,
        settings: BreakerSettings,
        clock: Clock,
        listeners: Iterable[BreakerListener] = (),
    ) -> Breaker:
        return Breaker(name, settings, clock, listeners)

    def __repr__(self) -> str:
        return "LocalBreakerStore()"
