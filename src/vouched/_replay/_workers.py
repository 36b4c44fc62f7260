"""Replay in several processes: each grades one time window of a SQLite store.

Each worker opens the store read-only itself (nothing but the window's
bounds, the policy, the lexicon and the rules crosses the process boundary)
and sends back its tallies, which are merged in time order. Workers are
spawned, never forked, so a caller's threads (a queued store, an HTTP
exporter) are not copied into them.
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime
from pathlib import Path

from vouched._policy import Policy
from vouched._replay._store import SqliteSnapshotStore
from vouched._replay._tally import OutputRule, Tally, grade_window, scanner_rule
from vouched._scan._lexicon import Lexicon

__all__ = ["tally_in_processes"]


def _grade(
    path: Path,
    policy: Policy,
    *,
    since: datetime | None,
    until: datetime | None,
    lexicon: Lexicon | None,
    rules: Sequence[OutputRule] | None,
    max_ids: int,
) -> Tally:
    chosen = rules if rules is not None else (scanner_rule(lexicon, policy=policy),)
    with SqliteSnapshotStore(path, read_only=True) as store:
        return grade_window(store, policy, since=since, until=until, rules=chosen, max_ids=max_ids)


def tally_in_processes(
    store: SqliteSnapshotStore,
    policy: Policy,
    *,
    since: datetime | None,
    until: datetime | None,
    lexicon: Lexicon | None,
    rules: Sequence[OutputRule] | None,
    max_ids: int,
    workers: int,
) -> Tally:
    """The merged tallies of ``workers`` windows graded in parallel."""
    if rules is not None:
        try:
            pickle.dumps(tuple(rules))
        except (pickle.PicklingError, AttributeError, TypeError) as error:
            raise ValueError(
                f"rules must be picklable (module-level functions) to replay with workers: {error}"
            ) from None
    windows = store.split(workers, since=since, until=until)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=len(windows), mp_context=context) as pool:
        futures = [
            pool.submit(
                _grade,
                store.path,
                policy,
                since=start,
                until=end,
                lexicon=lexicon,
                rules=rules,
                max_ids=max_ids,
            )
            for start, end in windows
        ]
        tally = Tally(max_ids)
        for future in futures:  # in time order
            tally.merge(future.result())
    return tally
