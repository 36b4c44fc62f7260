"""Beside the flow: snapshots of every generation, stored and re-graded under new rules.

Takes ``Snapshot``\\ s (written by the ``Grounder`` or by hand) and a
``SnapshotStore``; ``replay(store, policy)`` returns a ``GradeReport``
comparing then with now.

- ``_snapshot``: the ``Snapshot`` value and its JSON document.
- ``_redaction``: tokens for sensitive values before anything is stored.
- ``_lexicons``: the lexicons snapshots were checked with, kept once per store.
- ``_verdicts``: reviewers' verdicts on findings, kept beside the snapshots.
- ``_memory``: the in-memory store, and a JSON Lines export read into it.
- ``_regressions``: verdicts graded as a regression suite (``replay --verdicts``).
- ``_store``: the store Protocols (``SnapshotStore``, ``BatchStore``, ...), the SQLite store.
- ``_jsonl``: JSON Lines export, reading and import, through the input layer.
- ``_spill``: ``SpillFile``, snapshots waiting for their store (quarantine, flock).
- ``_queued``: ``QueuedSnapshotStore``, writes off the answer path (bounded, counted).
- ``_postgres``: ``PostgresSnapshotStore`` (extra ``postgres``), the same document in PostgreSQL.
- ``_urls``: store URLs in messages (no password) and their ``?schema=`` parameter.
- ``_open``: ``open_snapshot_store``: a path, ``sqlite:///`` or ``postgresql://`` URL.
- ``_tally``: the counters one replay adds up, and the output rules it re-runs.
- ``_workers``: the same tally graded by several workers: local processes or Ray tasks.
- ``_grade``: ``replay`` and the report types.
- ``_metrics``: population rates (grounding, abstention, citation precision).

Seams: the store, the policy, the lexicon and the output rules, all passed in.
"""
