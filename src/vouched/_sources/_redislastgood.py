"""Last good facts shared by every worker, in Redis (the optional ``redis`` extra).

``GuardedSource(..., last_good=RedisLastGood(client, prefix="shop"))``: when a
source fails, a worker serves the fleet's last good facts for the query, even
if it never saw the source up itself; the gate still decides freshness, since
every fact keeps its original ``observed_at``.

One Redis hash per (source, query): a field per (subject, attribute) holding
``"<observed ms> <expires ms> <position> <stated ms> <fact JSON>"``, the position
being the fact's place in the last answer that wrote or kept it (stated: that
answer's time; after an outage of its own, a process serves only facts stated
since Redis answered it again): ``load`` returns the
facts in that order (a Redis hash has no order of its own once it outgrows its
compact encoding). Writes follow the rule of
:func:`vouched._sources._lastgood.advance`, in one server-side script (two
workers writing at once cannot move a fact backwards): a fact replaces the
kept one only if observed at the same time or later, a live silence evicts
it, and a live answer with no facts evicts them all (the hash is deleted).
:class:`~vouched._sources._lastgood.MemoryLastGood` is its in-memory twin; one
contract test runs the same interleavings against both. A fact expires with
its own TTL (``observed_at + ttl``; ``keep_for`` for a fact without one, and
never later than ``keep_for`` from the write); the hash expires with its last
fact.

Only a changed answer is written: each process remembers what it wrote last
per query, so a source whose values stay put costs no round trip after the
first (an empty answer or a silence is always written: another worker may
have written a value since). Redis failing costs at most ``timeout`` seconds per call and answers
``None``: the guarded source then serves no last good fact at all (it cannot
prove another worker did not see the value withdrawn), never an invented value.
A withdrawal (an empty answer, a live silence) that could not be written is
kept in this process and written first, before anything else, once Redis
answers again; it removes only facts observed before it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Sequence
from typing import Any

from vouched._exceptions import ConfigError
from vouched._fact import Fact
from vouched._jsonio import dumps, loads
from vouched._sources._lastgood import KEEP_FOR, REMEMBER, Unchanged, expires_ms, field_of, ms
from vouched._sources._redis import TIMEOUT, redis_errors
from vouched._sources._source import Query
from vouched._time import Clock, SystemClock

__all__ = ["RedisLastGood"]

_log = logging.getLogger("vouched.sources")

_NO_TIME = -1  # a fact without observed_at

_SAVE = """
local function withdraw(key, field)  -- the pair's field and every period of it
  local prefix = string.sub(field, 1, -2) .. ','
  for _, other in ipairs(redis.call('HKEYS', key)) do
    if other == field or string.sub(other, 1, #prefix) == prefix then
      redis.call('HDEL', key, other)
    end
  end
end
local now = tonumber(ARGV[1])
if #ARGV == 1 then  -- a live answer with no facts: the source has nothing, keep nothing
  redis.call('DEL', KEYS[1])
  return 1
end
for i = 2, #ARGV, 5 do
  local field, observed, expires, position, payload = ARGV[i], tonumber(ARGV[i + 1]),
        tonumber(ARGV[i + 2]), ARGV[i + 3], ARGV[i + 4]
  if payload == '' then
    withdraw(KEYS[1], field)
  else
    local keep = false
    local old = redis.call('HGET', KEYS[1], field)
    if old then
      local seen_text, gone_text, rest = string.match(old, '^(-?%d+) (%d+) (.*)$')
      local seen, gone = tonumber(seen_text), tonumber(gone_text)
      keep = gone > now and seen ~= -1 and (observed == -1 or observed < seen)
      if keep then  -- the newer fact stays, at its place in this answer, stated now
        -- a fact's JSON starts with '{': strip the old position and stamp before it
        local kept = string.match(rest, '^%d+ %d+ ({.*)$') or string.match(rest, '^%d+ ({.*)$')
                     or rest
        redis.call('HSET', KEYS[1], field, seen_text .. ' ' .. gone_text .. ' ' .. position
                   .. ' ' .. ARGV[1] .. ' ' .. kept)
      end
    end
    if not keep and expires > now then
      redis.call('HSET', KEYS[1], field, ARGV[i + 1] .. ' ' .. ARGV[i + 2] .. ' ' .. position
                 .. ' ' .. ARGV[1] .. ' ' .. payload)
    end
  end
end
local last = 0
for _, value in ipairs(redis.call('HVALS', KEYS[1])) do
  local gone = tonumber(string.match(value, '^-?%d+ (%d+) '))
  if gone > last then last = gone end
end
if last > now then
  redis.call('PEXPIRE', KEYS[1], last - now)  -- relative: the caller's clock, not Redis's
else
  redis.call('DEL', KEYS[1])
end
return 1
"""


_WITHDRAW = """
local at = tonumber(ARGV[1])
local fields = {}
if #ARGV == 1 then  -- the whole answer was withdrawn
  fields = redis.call('HKEYS', KEYS[1])
else
  local names = redis.call('HKEYS', KEYS[1])
  for i = 2, #ARGV do  -- a silence's pair: its own field and every period of it
    local prefix = string.sub(ARGV[i], 1, -2) .. ','
    for _, other in ipairs(names) do
      if other == ARGV[i] or string.sub(other, 1, #prefix) == prefix then
        fields[#fields + 1] = other
      end
    end
  end
end
for _, field in ipairs(fields) do
  local old = redis.call('HGET', KEYS[1], field)
  if old then
    local seen = tonumber(string.match(old, '^(-?%d+) '))
    if seen == nil or seen <= at then redis.call('HDEL', KEYS[1], field) end
  end
end
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('DEL', KEYS[1]) end
return 1
"""


class _Withdrawals:
    """Withdrawals this process saw while Redis could not take them, per Redis key:
    ``(when, fields)`` (fields ``None``: the whole answer). Written before anything
    else once Redis answers again; a fact observed after the withdrawal stays.

    Bounded: past ``remember`` keys, every last good entry under the prefix is
    deleted on recovery instead (the fleet forgets, it never revives)."""

    def __init__(self, remember: int) -> None:
        self.remember = remember
        self.pending: dict[str, tuple[int, frozenset[str] | None]] = {}
        self.forget_all = False

    def add(self, key: str, at: int, fields: frozenset[str] | None) -> None:
        if key not in self.pending and len(self.pending) >= self.remember:
            self.forget_all = True
            self.pending.clear()
        if self.forget_all:
            return
        old = self.pending.get(key)
        if old is not None:
            at = max(at, old[0])
            fields = None if fields is None or old[1] is None else fields | old[1]
        self.pending[key] = (at, fields)

    def __bool__(self) -> bool:
        return self.forget_all or bool(self.pending)


def _withdrawn(answer: Sequence[Fact]) -> frozenset[str] | None:
    """What ``answer`` withdraws: ``None`` every field (an empty answer), else the
    fields of its silences (none: nothing)."""
    if not answer:
        return None
    return frozenset(field_of(f) for f in answer if f.is_silent)


def _query_digest(query: Query) -> str:
    try:
        text = dumps(dict(query), canonical=True)
    except (TypeError, ValueError):
        text = repr(sorted((str(k), repr(v)) for k, v in query.items()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _entry(text: str) -> tuple[int, int, int, str]:
    """``(position, expires ms, stated ms, fact JSON)`` of a stored entry; ``ValueError``
    if unreadable.

    An entry written before positions were kept (``"<observed> <expires> <JSON>"``)
    reads at position 0; one written before stamps were kept was stated at 0.
    """
    _observed, expires, rest = text.split(" ", 2)
    if rest.startswith("{"):
        return 0, int(expires), 0, rest
    position, _, tail = rest.partition(" ")
    if tail.startswith("{"):
        return int(position), int(expires), 0, tail
    stated, _, payload = tail.partition(" ")
    if not payload.startswith("{"):
        raise ValueError(text[:40])
    return int(position), int(expires), int(stated), payload


class RedisLastGood:
    """Last good facts shared by every process using the same Redis and ``prefix``.

    - ``client``: a ``redis.asyncio.Redis``.
    - ``keep_for``: the longest a fact is kept (seconds), and how long one
      without a TTL is kept.
    - ``timeout``: seconds a Redis call may take before it counts as failed.
    - ``clock``: wall time for expiries (``FakeClock`` in tests).
    - ``remember``: queries whose last written answer this process remembers
      (to skip writing an answer that did not change).

    ``failures`` counts Redis calls that failed (logged once until one works).
    """

    def __init__(
        self,
        client: Any,
        *,
        prefix: str = "vouched",
        keep_for: float = KEEP_FOR,
        timeout: float = TIMEOUT,
        clock: Clock | None = None,
        remember: int = REMEMBER,
    ) -> None:
        self._errors = redis_errors()
        for name, value in (("keep_for", keep_for), ("timeout", timeout)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise ConfigError(f"RedisLastGood.{name}", "seconds > 0", got=value)
        if not prefix or not isinstance(prefix, str):
            raise ConfigError("RedisLastGood.prefix", "a non-empty string", got=prefix)
        if type(remember) is not int or remember < 1:
            raise ConfigError("RedisLastGood.remember", "a whole number >= 1", got=remember)
        self.client = client
        self.prefix = prefix
        self.keep_for = float(keep_for)
        self.timeout = float(timeout)
        self.failures = 0
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._save = client.register_script(_SAVE)
        self._withdraw = client.register_script(_WITHDRAW)
        self._remember = remember
        self._unchanged = Unchanged(remember)
        self._withdrawals = _Withdrawals(remember)
        self._failing = False
        # After an outage, facts last stated before Redis answered again are not
        # served: a worker may have seen one withdrawn while Redis was away.
        self._trust_from = 0

    def key(self, source: str, query: Query) -> str:
        """The Redis key holding ``source``'s last good facts for ``query``."""
        return f"{self.prefix}:lastgood:{source}:{_query_digest(query)}"

    async def load(self, source: str, query: Query) -> tuple[Fact, ...] | None:
        asked = ms(self._clock.now())
        try:
            async with asyncio.timeout(self.timeout):
                await self._settle()
                stored = await self.client.hgetall(self.key(source, query))
        except self._errors as error:
            self._failed("read", error)
            return None
        self._answered(asked)
        now = ms(self._clock.now())
        facts: list[tuple[int, str, Fact]] = []
        for field, value in stored.items():
            text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
            try:
                position, expires, stated, payload = _entry(text)
                if expires <= now or stated < self._trust_from:
                    continue  # gone, or stated before this process lost Redis
                facts.append((position, str(field), Fact.model_validate(loads(payload))))
            except ValueError:  # not what save() writes: never served
                _log.warning("last good facts: an unreadable entry in %s skipped", source)
        facts.sort(key=lambda entry: entry[:2])  # the saved order (field breaks ties)
        return tuple(fact for _, _, fact in facts)  # () : the fleet keeps none

    async def save(self, source: str, query: Query, answer: Sequence[Fact]) -> None:
        key = self.key(source, query)
        if self._unchanged.skip(key, answer) and not self._withdrawals:
            return  # nothing moved since this process last wrote it
        now = ms(self._clock.now())
        args: list[Any] = [now]
        for position, fact in enumerate(answer):
            field = field_of(fact)
            if fact.is_silent:
                args.extend((field, _NO_TIME, 0, position, ""))
                continue
            observed = _NO_TIME if fact.observed_at is None else ms(fact.observed_at)
            limit = expires_ms(fact, now, self.keep_for)
            args.extend((field, observed, limit, position, dumps(fact.to_json())))
        try:
            async with asyncio.timeout(self.timeout):
                await self._settle()
                await self._save(keys=[key], args=args)
        except self._errors as error:
            self._failed("write", error)
            withdrawn = _withdrawn(answer)
            if withdrawn is None or withdrawn:  # kept; written first when Redis answers
                self._withdrawals.add(key, now, withdrawn)
            return
        self._answered(now)
        self._unchanged.wrote(key, answer)

    async def _settle(self) -> None:
        """Write the withdrawals kept while Redis could not take them (raises as a
        Redis call does; what is not written stays kept)."""
        pending = self._withdrawals
        if pending.forget_all:
            async for key in self.client.scan_iter(match=f"{self.prefix}:lastgood:*"):
                await self.client.delete(key)
            pending.forget_all = False
        for key, (at, fields) in list(pending.pending.items()):
            await self._withdraw(keys=[key], args=[at, *sorted(fields or ())])
            del pending.pending[key]

    @property
    def withdrawals_pending(self) -> int:
        """Queries whose withdrawal waits for Redis to answer again."""
        return len(self._withdrawals.pending) + int(self._withdrawals.forget_all)

    def _failed(self, what: str, error: BaseException) -> None:
        self.failures += 1
        # Redis may come back empty (restarted): write unchanged answers again.
        self._unchanged = Unchanged(self._remember)
        if not self._failing:
            self._failing = True
            _log.warning(
                "last good facts: Redis %s failed (%s); no last good fact served until it answers",
                what,
                type(error).__name__,
            )

    def _answered(self, at: int) -> None:
        """Redis answered a call made at ``at`` (ms)."""
        if self._failing:
            self._failing = False
            self._trust_from = at
            _log.warning("last good facts: Redis answers again")

    def __repr__(self) -> str:
        return f"RedisLastGood(prefix={self.prefix!r})"
