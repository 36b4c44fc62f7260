"""Replay in several workers: ranges of the store's order, each graded where it is read.

Two engines give the same report as one process:

- ``local``: ``workers`` processes on this machine (spawned, never forked, so a
  caller's threads are not copied into them);
- ``ray`` (the optional ``ray`` extra): one Ray task per range, on the cluster at
  ``ray_address``, or on a local Ray started for the replay (the embedded
  default) when there is none and none is running.

The driver cuts the store's order (``created_at``, then id) into consecutive
ranges of about equal row counts (``split``); nothing but the store's name
(:class:`StoreTarget`: a SQLite path, or a PostgreSQL URL and schema), the
range's bounds, the policy, the lexicon and the rules crosses to a worker. Each
worker opens the store read-only itself, streams its range (a server-side
cursor per range for PostgreSQL) and sends back its partial :class:`Tally`;
the driver merges them in range order, so ids stay in time order.
"""

from __future__ import annotations

import logging
import multiprocessing
import pickle
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from vouched._exceptions import ConfigError, MissingExtraError, StoreError, VouchedError
from vouched._policy import Policy
from vouched._replay._postgres import PostgresSnapshotStore
from vouched._replay._store import SnapshotStore, SqliteSnapshotStore
from vouched._replay._tally import OutputRule, Tally, grade_window, scanner_rule
from vouched._scan._facts._lexicon import Lexicon

__all__ = [
    "ENGINES",
    "Job",
    "StoreTarget",
    "grade_range",
    "require_ray",
    "store_target",
    "tally_in_workers",
]

ENGINES = ("local", "ray")
RANGES_PER_WORKER = 2  # ranges per Ray worker: a slow range is not the whole tail


@dataclass(frozen=True, slots=True)
class StoreTarget:
    """How a worker opens the store itself: ``kind`` "sqlite" (``location`` a
    path) or "postgres" (``location`` a URL, ``schema`` its schema)."""

    kind: str
    location: str
    schema: str | None = None

    def open(self) -> SqliteSnapshotStore | PostgresSnapshotStore:
        if self.kind == "sqlite":
            return SqliteSnapshotStore(self.location, read_only=True)
        return PostgresSnapshotStore(
            self.location, schema=self.schema or "vouched", read_only=True, pool_size=1
        )


def store_target(store: SnapshotStore) -> StoreTarget | None:
    """The target a worker can open for ``store`` (None: only this process can read it)."""
    if isinstance(store, SqliteSnapshotStore):
        return StoreTarget("sqlite", str(store.path.resolve()))
    if isinstance(store, PostgresSnapshotStore):
        return StoreTarget("postgres", store.url, store.schema)
    return None


@dataclass(frozen=True, slots=True)
class Job:
    """What every range of one replay shares (sent to each worker once)."""

    target: StoreTarget
    policy: Policy
    lexicon: Lexicon | None
    rules: tuple[OutputRule, ...] | None
    max_ids: int


def grade_range(job: Job, since: datetime | None, until: datetime | None) -> Tally:
    """One worker's part: open the store, grade one range, return its tally."""
    rules = job.rules if job.rules is not None else (scanner_rule(job.lexicon, policy=job.policy),)
    with job.target.open() as store:
        return grade_window(
            store, job.policy, since=since, until=until, rules=rules, max_ids=job.max_ids
        )


def tally_in_workers(
    store: SnapshotStore,
    policy: Policy,
    *,
    since: datetime | None,
    until: datetime | None,
    lexicon: Lexicon | None,
    rules: Sequence[OutputRule] | None,
    max_ids: int,
    workers: int,
    engine: str = "local",
    ray_address: str | None = None,
) -> Tally:
    """The merged tallies of the store's ranges graded by ``engine``'s workers."""
    target = store_target(store)
    splitter = getattr(store, "split", None)
    if target is None or not callable(splitter):
        raise ConfigError(
            "replay engine", f"a SQLite or PostgreSQL store for {engine!r} workers", got=store
        )
    job = Job(target, policy, lexicon, None if rules is None else tuple(rules), max_ids)
    if rules is not None and engine == "local":
        try:
            pickle.dumps(job.rules)
        except (pickle.PicklingError, AttributeError, TypeError) as error:
            raise ConfigError(
                f"rules must be picklable (module-level functions) to replay with workers: {error}"
            ) from None
    if engine == "ray":
        return _on_ray(
            job, splitter, since=since, until=until, workers=workers, address=ray_address
        )
    windows = splitter(workers, since=since, until=until)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=len(windows), mp_context=context) as pool:
        futures = [pool.submit(grade_range, job, start, end) for start, end in windows]
        return _merged((future.result() for future in futures), max_ids)


def _merged(tallies: Any, max_ids: int) -> Tally:
    tally = Tally(max_ids)
    for part in tallies:  # in range order: ids stay in time order
        tally.merge(part)
    return tally


# -- Ray ------------------------------------------------------------------------------


def require_ray() -> Any:
    """The ``ray`` package, or :class:`MissingExtraError` naming the install."""
    try:
        import ray  # noqa: PLC0415 - the optional extra, loaded on use
    except ImportError:
        raise MissingExtraError("ray", "ray") from None
    return ray


def _on_ray(
    job: Job,
    splitter: Any,
    *,
    since: datetime | None,
    until: datetime | None,
    workers: int,
    address: str | None,
) -> Tally:
    ray = require_ray()
    started = False
    if not ray.is_initialized():
        try:
            ray.init(
                address=address,
                include_dashboard=False,
                logging_level=logging.WARNING,
                log_to_driver=False,
                configure_logging=False,
            )
        except (ConnectionError, RuntimeError, ValueError) as error:
            where = address or "a local Ray"
            raise StoreError(f"cannot start or join Ray at {where} ({error})") from None
        started = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        parts = max(1, workers if workers > 1 else cpus) * RANGES_PER_WORKER
        windows = splitter(parts, since=since, until=until)
        task = ray.remote(num_cpus=1, max_retries=2)(grade_range)  # read-only: safe to retry
        shared = ray.put(job)  # sent once, not once per range
        refs = [task.remote(shared, start, end) for start, end in windows]
        try:
            return _merged(ray.get(refs), job.max_ids)
        except ray.exceptions.RayTaskError as error:
            cause = getattr(error, "cause", None)
            if isinstance(cause, VouchedError):
                raise cause from None
            raise StoreError(f"a Ray task failed ({type(cause or error).__name__})") from None
    finally:
        if started:
            ray.shutdown()
