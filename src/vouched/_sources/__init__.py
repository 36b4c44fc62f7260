"""Stage 1 of the flow: sources, the only place a fact comes from.

Takes a :class:`~vouched._sources._source.Query` (a subject and the attributes
asked for); returns facts with provenance, never an exception: an outage, a
timeout or a malformed payload becomes a silence fact with its reason.

- ``_source``: the ``Source`` protocol, ``Query``, ``gather`` and the sync facade.
- ``_breaker``: the circuit breaker (pybreaker underneath; admission is ours).
- ``_guarded``: ``GuardedSource``: breaker, deadline and last-good cache around a source.
- ``_recorded``: a real HTTP server on 127.0.0.1 serving recorded JSON (demos, tests).

Seams: the clock, the breaker's settings and events, the cache's timer, the
deadline, each a constructor parameter of ``GuardedSource``.
"""
