"""Fault runs: the stores and the fleet while their servers go away mid-run.

Needs the real Redis (127.0.0.1:6379) and PostgreSQL (127.0.0.1:5432, database
``test``). Each server is reached through a TCP proxy on 127.0.0.1 that this
run cuts and mends: to the store it is the server restarting (every connection
reset, new ones refused for a while), and the real server, which other users
share, keeps running. Each figure is printed beside the target it is held to:

1. PostgreSQL away for ``--outage`` seconds (6) in the middle of 1,000 answers'
   snapshots, written straight to ``PostgresSnapshotStore`` and through
   ``QueuedSnapshotStore``: snapshots lost and stored twice (target 0 and 0),
   against the rows every answer should have left.
2. Redis emptied and away in the middle of a fleet of workers sharing last good
   facts (``RedisLastGood``) for a source whose value changes and is withdrawn:
   facts served that no source gave, or that the source had withdrawn before
   the fleet served them while Redis answered (target 0), against the facts
   served. (While Redis is away a worker that missed the withdrawal serves its
   own last good facts: local state, as designed.)

    python bench/faults.py                # 6 s outages
    python bench/faults.py --outage 2     # shorter
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import sys
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import redis
import redis.asyncio

from vouched import (
    Fact,
    GuardedSource,
    Policy,
    PostgresSnapshotStore,
    QueuedSnapshotStore,
    RedisLastGood,
    Snapshot,
    SourceError,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from fleet.services import Proxy  # the tests' proxy: cut() and mend()

POSTGRES = ("127.0.0.1", 5432)
REDIS = ("127.0.0.1", 6379)
ANSWERS = 1_000


# -- 1. PostgreSQL ----------------------------------------------------------------------


def _snapshot(i: int) -> Snapshot:
    now = datetime(2026, 11, 29, 12, tzinfo=UTC) + timedelta(seconds=i)
    fact = Fact(
        subject="Berlin", attribute="temperature", value=4.3, unit="degC", source="w",
        observed_at=now, ttl=900,
    )  # fmt: skip
    return Snapshot.build(
        created_at=now, question=f"weather? #{i}", facts=[fact], policy=Policy(),
        prompt_version="p1", phraser="template", output="Berlin: 4.3 degC.", status="ok",
    )  # fmt: skip


def _rows(schema: str) -> tuple[int, int]:
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/test") as connection:
        row = connection.execute(
            psycopg.sql.SQL("SELECT count(*), count(DISTINCT id) FROM {}.snapshots").format(
                psycopg.sql.Identifier(schema)
            )
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def _drop(schema: str) -> None:
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/test") as connection:
        connection.execute(
            psycopg.sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                psycopg.sql.Identifier(schema)
            )
        )


def postgres_outage(outage: float, *, queued: bool) -> dict[str, Any]:
    proxy = Proxy(*POSTGRES)
    schema = f"bench_faults_{uuid.uuid4().hex[:8]}"
    url = f"postgresql://postgres@127.0.0.1:{proxy.port}/test"
    options: dict[str, Any] = {"connect_timeout": 2}
    if "retry_for" in inspect.signature(PostgresSnapshotStore).parameters:
        options["retry_for"] = outage + 30  # (a vouched without retries is measured as it is)
    store = PostgresSnapshotStore(url, schema=schema, **options)
    writer: Any = QueuedSnapshotStore(store) if queued else store
    lost = 0
    mended = threading.Event()
    start = time.perf_counter()
    try:
        for i in range(ANSWERS):
            if i == ANSWERS // 3:
                proxy.cut()  # the server goes away mid-run
                threading.Timer(outage, lambda: (proxy.mend(), mended.set())).start()
            try:
                writer.write(_snapshot(i))
            except Exception:  # noqa: BLE001 - counted: what a direct writer would lose
                lost += 1
            time.sleep(0.005)  # about 200 answers a second
        mended.wait(outage + 5)
        if queued:
            writer.close()
            lost += writer.dropped + writer.failed
        seconds = time.perf_counter() - start
        store.close()
        count, distinct = _rows(schema)
    finally:
        proxy.close()
        _drop(schema)
    return {
        "count": count, "distinct": distinct, "lost": lost,
        "retries": getattr(store, "retries", 0),
        "seconds": seconds,
    }  # fmt: skip


def bench_postgres(outage: float) -> None:
    for queued in (False, True):
        r = postgres_outage(outage, queued=queued)
        how = "QueuedSnapshotStore" if queued else "PostgresSnapshotStore"
        print(
            f"fault  PostgreSQL away {outage:.0f} s in {ANSWERS:,} answers, {how}: "
            f"stored {r['distinct']:,} of {ANSWERS:,}, lost {ANSWERS - r['distinct']} "
            f"(target 0; counted by the writer: {r['lost']}), stored twice "
            f"{r['count'] - r['distinct']} (target 0); {r['retries']} retries, "
            f"{r['seconds']:.1f} s"
        )


# -- 2. Redis ---------------------------------------------------------------------------


class _Changing:
    """A source whose value moves forward every call, withdrawn (empty) every 7th,
    down every 5th: it records every fact it ever gave."""

    name = "weather"

    def __init__(
        self, given: set[tuple[str, str]], log: list[tuple[int, str]], base: datetime
    ) -> None:
        self.step = 0  # set by the run: one query, whose answer moves with the step
        self.given = given
        self.log = log
        self.base = base  # step 0's observed_at: recent, so Redis keeps the facts
        self.calls = 0

    async def fetch(self, query: Any) -> list[Fact]:
        self.calls += 1
        step = self.step
        if self.calls % 5 == 0:
            raise SourceError("HTTP 503")
        if step % 7 == 0:
            self.log.append((step, "withdrawn"))
            return []
        observed = self.base + timedelta(minutes=step)
        fact = Fact(
            subject="Berlin", attribute="temperature", value=step / 10, unit="degC",
            source="weather", observed_at=observed, ttl=3600,
        )  # fmt: skip
        self.given.add((str(fact.value), fact.observed_at.isoformat()))  # type: ignore[union-attr]
        return [fact]


async def _fleet_run(url: str, prefix: str, proxy: Proxy, steps: int) -> tuple[int, int, int]:
    given: set[tuple[str, str]] = set()
    log: list[tuple[int, str]] = []
    base = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=steps)
    clients = [redis.asyncio.Redis.from_url(url, socket_timeout=0.5) for _ in range(4)]
    workers = [
        GuardedSource(
            _Changing(given, log, base),
            breaker=None,
            last_good=RedisLastGood(client, prefix=prefix, timeout=0.5),
        )
        for client in clients
    ]
    served = invented = revived = 0
    away = False
    for step in range(1, steps):
        if step == steps // 3:
            away = True
            proxy.cut()  # Redis restarts: gone, and empty when it is back
            with redis.Redis(*REDIS) as direct:
                keys = list(direct.scan_iter(match=f"{prefix}:*"))
                if keys:
                    direct.delete(*keys)
        if step == steps // 3 + steps // 6:
            proxy.mend()
            away = False
        withdrawn_at = max((s for s, what in log if what == "withdrawn"), default=-1)
        for worker in workers:
            worker.source.step = step  # type: ignore[attr-defined]
            for fact in await worker.fetch({"subject": "Berlin"}):
                if fact.is_silent:
                    continue
                served += 1
                seen = (str(fact.value), fact.observed_at.isoformat())  # type: ignore[union-attr]
                if seen not in given:
                    invented += 1
                minutes = int((fact.observed_at - base).total_seconds() // 60)  # type: ignore[operator]
                if minutes < withdrawn_at and not away:  # withdrawn, and the fleet knew
                    revived += 1
    for client in clients:
        await client.aclose()
    return served, invented, revived


def bench_redis() -> None:
    proxy = Proxy(*REDIS)
    prefix = f"bench-faults-{uuid.uuid4().hex[:8]}"
    try:
        served, invented, revived = asyncio.run(
            _fleet_run(f"redis://127.0.0.1:{proxy.port}/0", prefix, proxy, 300)
        )
    finally:
        proxy.close()
        with redis.Redis(*REDIS) as direct:
            keys = list(direct.scan_iter(match=f"{prefix}:*"))
            if keys:
                direct.delete(*keys)
    print(
        f"fault  Redis emptied and away for a sixth of a 4-worker run: facts served "
        f"{served:,}; a value no source gave: {invented} (target 0); a value served after "
        f"the source withdrew it: {revived} (target 0)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outage", type=float, default=6.0, help="seconds away (default 6)")
    args = parser.parse_args()
    bench_postgres(args.outage)
    bench_redis()


if __name__ == "__main__":
    main()
