"""Stage 1 of the flow: sources, the only place a fact comes from.

Takes a :class:`~vouched._sources._source.Query` (a subject and the attributes
asked for); returns facts with provenance, never an exception: an outage, a
timeout or a malformed payload becomes a silence fact with its reason.

- ``_source``: the ``Source`` protocol, ``Query``, ``gather`` and the sync facade.
- ``_breaker``: the circuit breaker (pybreaker underneath; admission is ours).
- ``_guarded``: ``GuardedSource``: breaker, deadline, last-good cache and single
  flight around a source.
- ``_lastgood``: the ``SharedLastGood`` protocol and the rule last good facts follow.
- ``_redis``: ``RedisBreakerStore``: one breaker state and probe for a fleet (extra ``redis``).
- ``_redislastgood``: ``RedisLastGood``: last good facts shared through Redis.
- ``_recorded``: a real HTTP server on 127.0.0.1 serving recorded JSON (demos, tests).

Seams: the clock, the breaker's settings, store and events, the cache's timer,
the shared last good facts, the deadline, each a constructor parameter of
``GuardedSource``.
"""
