"""Breaker state shared by every worker, in Redis (the optional ``redis`` extra).

``GuardedSource(..., breaker_store=RedisBreakerStore(client, prefix="shop"))``
gives every process that uses the same prefix one breaker per source name:

- **one state for the fleet**: state, failure count, opened-at, open-until and
  the half-open probe live in one Redis hash per source; every transition is
  one server-side script (atomic, one round trip);
- **one probe for the fleet**: in half-open the probe is a lease with an
  expiry (``lease`` seconds), so a worker that dies mid-probe does not wedge
  the breaker: the next caller after the expiry probes;
- **no round trip on a closed breaker's happy path**: each process keeps a
  view of the state and reads it again at most every ``sync_every`` seconds
  (one script call). Only failures, probes and transitions go to Redis, and an
  open breaker rejects from the view until its time is up;
- **a failing source is tried at most fail_max times by the fleet**: once a
  failure has been counted, calls are admitted through Redis as trials, and
  only while failures plus trials in flight stay under ``fail_max`` (trials
  are leases too; a failure's reply reserves the same worker's next call as
  a trial for ``sync_every`` seconds, so a failing call costs one round
  trip). Calls admitted before a process learns of the first failure are
  the only extra ones: at most one per concurrent caller.
- **first calls go through Redis too**: a process that has not yet seen the
  source answer (it just started, or the breaker opened since) is *cold*: its
  calls are admitted as trials until one succeeds (or the fleet saw a success
  in the last ``lease`` seconds), and its other callers wait for that first
  call's outcome instead of calling too. So a source that is down from the
  start is called at most ``fail_max`` times by the whole fleet before it
  opens, plus one probe per reset window, whatever the number of workers and
  of concurrent callers each has. A cold caller the fleet has no trial place
  for is refused (``circuit_open``) while the fleet finds out.
- **Redis failing** (down, slow, refusing) costs a call at most ``timeout``
  seconds and never makes a value appear: the breaker decides alone with this
  process's own :class:`~vouched._sources._breaker.Breaker`, says so once (a
  warning on logger ``vouched.sources`` and a ``local_fallback`` event, which
  :class:`vouched.PrometheusMetrics` counts) and asks Redis again after
  ``retry_every`` seconds (``shared_restored`` when it answers).

Times in Redis are the injected clock's wall time in milliseconds (processes
of one fleet share wall time, not monotonic time), so a ``FakeClock`` drives
a shared breaker in tests as it drives a local one. The client is a
``redis.asyncio.Redis``; use the store from one event loop (the worker's).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from vouched._exceptions import ConfigError, MissingExtraError
from vouched._sources._breaker import (
    Breaker,
    BreakerEventKind,
    BreakerListener,
    BreakerSettings,
    BreakerState,
    Ticket,
)
from vouched._time import Clock

__all__ = ["RedisBreaker", "RedisBreakerStore", "redis_errors", "require_redis"]

_log = logging.getLogger("vouched.sources")

# Defaults, named once.
SYNC_EVERY = 0.5
LEASE = 10.0
TIMEOUT = 0.25  # loopback answers in ~0.1 ms; a loaded host stalls a process far longer
RETRY_EVERY = 1.0


def require_redis() -> Any:
    """The ``redis`` package, or :class:`MissingExtraError` naming the install."""
    try:
        import redis.asyncio  # noqa: PLC0415 - the optional extra, loaded on use
    except ImportError:
        raise MissingExtraError("redis", "redis") from None
    return redis


def redis_errors() -> tuple[type[BaseException], ...]:
    """What a Redis call raises when Redis is down, slow or refuses."""
    redis = require_redis()
    return (redis.RedisError, OSError, TimeoutError)


# One script per transition. The hash holds: state (closed|open|half_open),
# failures, epoch (moves on at every transition), open_until, probe (the
# lease's token), probe_until, successes; times in ms. KEYS[2] is a sorted set
# of trial leases (member: token, score: expiry). Each script answers the view:
# {granted, state, failures, epoch, open_until, probe_until}.
_READ = """
local h = redis.call('HMGET', KEYS[1], 'state', 'failures', 'epoch', 'open_until',
                     'probe', 'probe_until', 'successes')
return {h[1] or 'closed', tonumber(h[2] or '0'), tonumber(h[3] or '0'),
        tonumber(h[4] or '0'), h[5] or '', tonumber(h[6] or '0'), tonumber(h[7] or '0')}
"""

_VIEW = (
    "local function read()"
    + _READ
    + "end\nlocal v = read()\nreturn {'', v[1], v[2], v[3], v[4], v[6]}"
)

_ADMIT = (
    "local function read()"
    + _READ
    + """end
local now, token, lease, fail_max = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]),
                                    tonumber(ARGV[4])
local cold = ARGV[5] == '1'
local v = read()
local state, failures, epoch, open_until, probe_until = v[1], v[2], v[3], v[4], v[6]
local granted = 'no'
if state == 'closed' then
  local proven = tonumber(redis.call('HGET', KEYS[1], 'proven_until') or '0') > now
  if failures == 0 and (proven or not cold) then
    granted = 'call'
  else
    redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
    if failures + redis.call('ZCARD', KEYS[2]) < fail_max then
      redis.call('ZADD', KEYS[2], now + lease, token)
      granted = 'trial'
    end
  end
else
  if state == 'open' and now >= open_until then
    state = 'half_open'
    epoch = epoch + 1
    probe_until = 0
    redis.call('HSET', KEYS[1], 'state', state, 'epoch', epoch, 'successes', 0,
               'probe', '', 'probe_until', 0)
  end
  if state == 'half_open' and probe_until <= now then
    probe_until = now + lease
    redis.call('HSET', KEYS[1], 'probe', token, 'probe_until', probe_until)
    granted = 'probe'
  end
end
return {granted, state, failures, epoch, open_until, probe_until}
"""
)

_FAILURE = (
    "local function read()"
    + _READ
    + """end
local now, token, kind, fail_max, open_for, asked = tonumber(ARGV[1]), ARGV[2], ARGV[3],
      tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6] == '1'
local next_token, lease = ARGV[7], tonumber(ARGV[8])
local granted = ''
local v = read()
local state, failures, epoch, open_until, probe, probe_until = v[1], v[2], v[3], v[4], v[5], v[6]
if kind == 'trial' then redis.call('ZREM', KEYS[2], token) end
local function trip()
  state = 'open'
  epoch = epoch + 1
  open_until = now + open_for
  probe_until = 0
  redis.call('HSET', KEYS[1], 'state', state, 'epoch', epoch, 'open_until', open_until,
             'failures', failures, 'probe', '', 'probe_until', 0, 'successes', 0,
             'proven_until', 0)
  redis.call('DEL', KEYS[2])
end
if state == 'closed' then
  failures = failures + 1
  if failures >= fail_max or asked then
    trip()
  else
    redis.call('HSET', KEYS[1], 'failures', failures)
    -- The caller's next call is admitted now, as a trial, if there is room:
    -- a failing worker then costs one round trip per failure, not two.
    redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
    if failures + redis.call('ZCARD', KEYS[2]) < fail_max then
      redis.call('ZADD', KEYS[2], now + lease, next_token)
      granted = 'trial'
    end
  end
elseif state == 'half_open' then
  if (kind == 'probe' and probe == token) or asked then trip() end
elseif asked and now + open_for > open_until then
  open_until = now + open_for
  redis.call('HSET', KEYS[1], 'open_until', open_until)
end
return {granted, state, failures, epoch, open_until, probe_until}
"""
)

_SUCCESS = (
    "local function read()"
    + _READ
    + """end
local now, token, kind, threshold = tonumber(ARGV[1]), ARGV[2], ARGV[3], tonumber(ARGV[4])
local lease = tonumber(ARGV[5])
local v = read()
local state, failures, epoch, open_until, probe, probe_until, successes =
      v[1], v[2], v[3], v[4], v[5], v[6], v[7]
if kind == 'trial' then redis.call('ZREM', KEYS[2], token) end
if state == 'closed' then
  redis.call('HSET', KEYS[1], 'proven_until', now + lease)  -- the fleet saw it answer
  if failures > 0 then
    failures = 0
    redis.call('HSET', KEYS[1], 'failures', 0)
    redis.call('DEL', KEYS[2])
  end
elseif state == 'half_open' and kind == 'probe' and probe == token then
  successes = successes + 1
  probe_until = 0
  if successes >= threshold then
    state = 'closed'
    failures = 0
    epoch = epoch + 1
    redis.call('HSET', KEYS[1], 'state', state, 'epoch', epoch, 'failures', 0,
               'successes', 0, 'probe', '', 'probe_until', 0, 'proven_until', now + lease)
  else
    redis.call('HSET', KEYS[1], 'successes', successes, 'probe', '', 'probe_until', 0)
  end
end
return {'', state, failures, epoch, open_until, probe_until}
"""
)

_RELEASE = """
if ARGV[2] == 'trial' then redis.call('ZREM', KEYS[2], ARGV[1]) end
if ARGV[2] == 'probe' and redis.call('HGET', KEYS[1], 'probe') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'probe', '', 'probe_until', 0)
end
return 1
"""

_STATES = {member.value: member for member in BreakerState}


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


@dataclass(slots=True)
class _View:
    """What this process last learned of the fleet's breaker (times in wall ms)."""

    state: BreakerState = BreakerState.CLOSED
    failures: int = 0
    epoch: int = -1
    open_until: int = 0
    probe_until: int = 0


class RedisBreakerStore:
    """Breakers shared by every process using the same Redis and ``prefix``.

    - ``client``: a ``redis.asyncio.Redis`` (``redis.asyncio.Redis.from_url(...)``).
    - ``prefix``: the key prefix; processes that share it share breakers.
    - ``sync_every``: seconds between two reads of the fleet's state on a
      closed breaker's happy path (the only round trips it makes).
    - ``lease``: seconds a probe or trial holds its place (set it above the
      source's deadline); a worker that dies mid-probe frees it by expiry.
    - ``timeout``: seconds a Redis call may take before this process decides alone.
    - ``retry_every``: seconds before asking Redis again after it failed.

    ``fallbacks`` counts the times a breaker of this store fell back to local state.
    """

    def __init__(
        self,
        client: Any,
        *,
        prefix: str = "vouched",
        sync_every: float = SYNC_EVERY,
        lease: float = LEASE,
        timeout: float = TIMEOUT,
        retry_every: float = RETRY_EVERY,
    ) -> None:
        self._errors = redis_errors()
        for name, value in (
            ("sync_every", sync_every),
            ("lease", lease),
            ("timeout", timeout),
            ("retry_every", retry_every),
        ):
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise ConfigError(f"RedisBreakerStore.{name}", "seconds > 0", got=value)
        if not prefix or not isinstance(prefix, str):
            raise ConfigError("RedisBreakerStore.prefix", "a non-empty string", got=prefix)
        self.client = client
        self.prefix = prefix
        self.sync_every = float(sync_every)
        self.lease = float(lease)
        self.timeout = float(timeout)
        self.retry_every = float(retry_every)
        self.fallbacks = 0
        self._view = client.register_script(_VIEW)
        self._admit = client.register_script(_ADMIT)
        self._failure = client.register_script(_FAILURE)
        self._success = client.register_script(_SUCCESS)
        self._release = client.register_script(_RELEASE)

    def keys(self, name: str) -> tuple[str, str]:
        """The Redis keys of one source's breaker: its hash and its trial leases."""
        key = f"{self.prefix}:breaker:{name}"
        return key, f"{key}:trials"

    def breaker(
        self,
        name: str,
        settings: BreakerSettings,
        clock: Clock,
        listeners: Iterable[BreakerListener] = (),
    ) -> RedisBreaker:
        return RedisBreaker(self, name, settings, clock, listeners)

    def __repr__(self) -> str:
        return f"RedisBreakerStore(prefix={self.prefix!r})"


class RedisBreaker:
    """One source's breaker as the fleet holds it (see the module docstring)."""

    def __init__(
        self,
        store: RedisBreakerStore,
        name: str,
        settings: BreakerSettings,
        clock: Clock,
        listeners: Iterable[BreakerListener] = (),
    ) -> None:
        self.name = name
        self.settings = settings
        self._store = store
        self._clock = clock
        self._keys = store.keys(name)
        # Decides alone while Redis cannot answer; also announces events.
        self._local = Breaker(name, settings, clock, listeners)
        self._view = _View()
        self._synced_at: float | None = None  # monotonic time of the last fleet read
        self._quiet_until = 0.0  # monotonic: a refused half-open admission is not re-asked
        self._down_until: float | None = None  # monotonic: Redis failed; local until then
        self._pending: set[asyncio.Task[Any]] = set()
        # A trial the fleet granted with this process's last failure: (token, until ms).
        self._granted: tuple[str, int] | None = None
        # Cold until this process sees the source answer (or learns the fleet did):
        # first calls go through Redis, and one at a time (the others wait for it).
        self._warm = False
        self._first: tuple[str, asyncio.Future[None]] | None = None

    # -- what callers look at ----------------------------------------------------

    @property
    def shared(self) -> bool:
        """False while Redis is not answering and this process decides alone."""
        return self._down_until is None

    @property
    def state(self) -> BreakerState:
        if not self.shared:
            return self._local.state
        view = self._view
        if view.state is BreakerState.OPEN and self._now_ms() >= view.open_until:
            return BreakerState.HALF_OPEN
        return view.state

    @property
    def fail_counter(self) -> int:
        return self._view.failures if self.shared else self._local.fail_counter

    def add_listener(self, listener: BreakerListener) -> None:
        self._local.add_listener(listener)

    # -- admission ---------------------------------------------------------------

    async def admit(self) -> Ticket | None:
        if not await self._reachable():
            return await self._local.admit()
        view = self._view
        now = self._now_ms()
        if view.state is BreakerState.OPEN and now < view.open_until:
            self._local.announce(BreakerEventKind.REJECTED, view.state, view.state, reason=_OPEN)
            return None
        if self._warm and self._due() and not await self._sync():  # cold: the admission reads it
            return await self._local.admit()
        view = self._view
        if view.state is BreakerState.CLOSED and view.failures == 0:
            if self._warm:
                return Ticket(probe=False, generation=view.epoch, shared=True)  # the happy path
            first = self._first
            if first is not None and first[1].get_loop() is asyncio.get_running_loop():
                # This process's first call is out: wait for its outcome, then ask again.
                await asyncio.shield(first[1])
                return await self.admit()
        if view.state is BreakerState.HALF_OPEN and self._clock.monotonic() < self._quiet_until:
            self._local.announce(BreakerEventKind.REJECTED, view.state, view.state, reason=_OPEN)
            return None
        reserved, self._granted = self._granted, None
        if view.state is BreakerState.CLOSED and reserved is not None and now < reserved[1]:
            return Ticket(probe=False, generation=view.epoch, lease=reserved[0], shared=True)
        token = secrets.token_hex(8)
        cold = "0" if self._warm else "1"
        if not self._warm and self._first is None and view.state is BreakerState.CLOSED:
            # This caller is the process's first: the others wait for its outcome.
            self._first = (token, asyncio.get_running_loop().create_future())
        args = (now, token, _ms(self._store.lease), self.settings.fail_max, cold)
        try:
            reply = await self._call(self._store._admit, args)
        except BaseException:
            self._first_done(Ticket(probe=False, generation=-1, lease=token, shared=True))
            raise
        granted = "" if reply is None else self._learn(reply)
        if granted != "trial":  # no call of ours is out: the waiting callers ask again
            self._first_done(Ticket(probe=False, generation=-1, lease=token, shared=True))
        if reply is None:
            return await self._local.admit()
        if granted == "call":
            self._warm = True  # the fleet saw the source answer recently
            return Ticket(probe=False, generation=self._view.epoch, shared=True)
        if granted == "trial":
            return Ticket(probe=False, generation=self._view.epoch, lease=token, shared=True)
        if granted == "probe":
            return Ticket(probe=True, generation=self._view.epoch, lease=token, shared=True)
        self._quiet_until = self._clock.monotonic() + self._store.sync_every
        state = self._view.state
        self._local.announce(BreakerEventKind.REJECTED, state, state, reason=_OPEN)
        return None

    async def succeeded(self, ticket: Ticket) -> None:
        if not ticket.shared:
            await self._local.succeeded(ticket)
            return
        if ticket.lease is None and self._view.failures == 0:
            return  # closed, nothing to reset: no round trip
        args = (
            self._now_ms(),
            ticket.lease or "",
            _kind(ticket),
            self.settings.success_threshold,
            _ms(self._store.lease),
        )
        reply = await self._call(self._store._success, args)
        if reply is not None:
            self._learn(reply)
            if self._view.state is BreakerState.CLOSED:
                self._warm = True
        self._first_done(ticket)

    async def failed(
        self, ticket: Ticket, reason: str, detail: str, *, retry_after: float | None = None
    ) -> None:
        if not ticket.shared:
            await self._local.failed(ticket, reason, detail, retry_after=retry_after)
            return
        state = self.state
        self._local.announce(BreakerEventKind.FAILURE, state, state, reason=reason, detail=detail)
        open_for = max(self.settings.reset_timeout, retry_after or 0.0)
        now = self._now_ms()
        next_token = secrets.token_hex(8)
        lease = _ms(self._store.sync_every)  # held briefly: an unused one soon frees its place
        args = (
            now,
            ticket.lease or "",
            _kind(ticket),
            self.settings.fail_max,
            _ms(open_for),
            "1" if retry_after is not None else "0",
            next_token,
            lease,
        )
        reply = await self._call(self._store._failure, args)
        self._first_done(ticket)
        if reply is not None:
            if self._learn(reply) == "trial":
                self._granted = (next_token, now + lease)
            return
        # Redis did not hear of it: this process counts it on its own.
        local = Ticket(probe=False, generation=self._local.generation)
        await self._local.failed(local, reason, detail, retry_after=retry_after)

    def released(self, ticket: Ticket) -> None:
        if not ticket.shared:
            self._local.released(ticket)
            return
        self._first_done(ticket)
        if ticket.lease is None:
            return
        # Called while being cancelled: free the lease from a task of its own
        # (best effort; the lease's expiry frees it otherwise).
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = loop.create_task(self._call(self._store._release, (ticket.lease, _kind(ticket))))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    # -- internals ---------------------------------------------------------------

    def _first_done(self, ticket: Ticket) -> None:
        """The first call of a cold process ended: its waiting callers ask again."""
        first = self._first
        if first is not None and ticket.lease == first[0]:
            self._first = None
            if not first[1].done():
                first[1].set_result(None)

    def _now_ms(self) -> int:
        return _ms(self._clock.now().timestamp())

    def _due(self) -> bool:
        synced = self._synced_at
        return synced is None or self._clock.monotonic() - synced >= self._store.sync_every

    async def _reachable(self) -> bool:
        """False while Redis is resting after a failure (this process decides alone)."""
        down = self._down_until
        if down is None:
            return True
        if self._clock.monotonic() < down:
            return False
        return await self._sync()

    async def _sync(self) -> bool:
        """Read the fleet's state (one round trip); False when Redis did not answer."""
        reply = await self._call(self._store._view, ())
        if reply is None:
            return False
        self._learn(reply)
        return True

    async def _call(self, script: Any, args: Sequence[Any]) -> Any:
        """One round trip (one script), or None when Redis is down, slow or
        refuses: then this process decides alone."""
        try:
            async with asyncio.timeout(self._store.timeout):
                reply = await script(keys=list(self._keys), args=list(args))
        except self._store._errors as error:
            self._fall_back(error)
            return None
        if self._down_until is not None:
            self._down_until = None
            _log.warning("breaker %r: Redis answers again; using the fleet's state", self.name)
            state = self._local.state
            self._local.announce(BreakerEventKind.SHARED_RESTORED, state, state)
        return reply

    def _fall_back(self, error: BaseException) -> None:
        first = self._down_until is None
        self._down_until = self._clock.monotonic() + self._store.retry_every
        if not first:
            return
        self._store.fallbacks += 1
        _log.warning(
            "breaker %r: Redis did not answer (%s); this process decides alone until it does",
            self.name,
            type(error).__name__,
        )
        view = self._view
        if view.state is not BreakerState.CLOSED:
            # Keep the fleet's verdict: an open circuit stays open here too.
            left = (view.open_until - self._now_ms()) / 1000
            self._local.trip(max(0.0, left))
        state = self._local.state
        self._local.announce(
            BreakerEventKind.LOCAL_FALLBACK, state, state, detail=type(error).__name__
        )

    def _learn(self, reply: Sequence[Any]) -> str:
        """Take the fleet's state from a script's reply; announce a change. Returns
        what the script granted ("call", "trial", "probe", or "no"/"")."""
        granted = _text(reply[0])
        view = _View(
            state=_STATES.get(_text(reply[1]), BreakerState.CLOSED),
            failures=int(reply[2]),
            epoch=int(reply[3]),
            open_until=int(reply[4]),
            probe_until=int(reply[5]),
        )
        old = self._view
        self._view = view
        self._synced_at = self._clock.monotonic()
        if view.state is not old.state:
            self._quiet_until = 0.0
            if view.state is not BreakerState.CLOSED:
                self._warm = False  # once it closes again, first calls go through Redis
            self._local.announce(BreakerEventKind.STATE_CHANGE, old.state, view.state)
        return granted

    def __repr__(self) -> str:
        return f"RedisBreaker({self.name!r}, state={self.state!s}, shared={self.shared})"


_OPEN = "circuit_open"


def _kind(ticket: Ticket) -> str:
    if ticket.probe:
        return "probe"
    return "trial" if ticket.lease is not None else "call"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
