"""Benchmark of a fleet of workers: breakers shared in Redis, snapshots in PostgreSQL.

Needs the real Redis (127.0.0.1:6379) and PostgreSQL (127.0.0.1:5432, database
``test``) and the ``redis`` and ``postgres`` extras. Every figure is printed
beside its baseline, measured in the same run:

1. 8 worker processes x 4 concurrent callers x 200 calls against a dead local
   HTTP source, ``fail_max`` 3 and 5: calls that reach the source in the first
   reset window and in the next one (the probes), Redis store vs per-process
   breakers (aim: fail_max + 1 for the fleet, whatever the callers).
2. Redis round trips per call, read from the server's own command statistics:
   a closed breaker's happy path, and a failing source.
3. Breaker overhead per call: local store vs Redis store vs pybreaker's own
   ``CircuitRedisStorage`` (each minus the bare call it wraps).
4. Snapshot writes/s (``write_many``, batches of 5,000) and replay rows/s
   (read and parse; and gate-only replay), SQLite vs PostgreSQL, 100,000
   snapshots; replay peak memory at a tenth and at all of them.
5. Fault runs (bench/faults.py): PostgreSQL unreachable mid-run, Redis emptied
   and unreachable mid-run.
6. Redis restarted mid-run, again and again (a redis-server of this run's own
   on a free port, stopped for a second every ``--restart-every`` seconds of a
   ``--restarts-for`` second run): 2 workers x 4 callers sharing last good
   facts for a source whose value is withdrawn and comes back, and a breaker
   for a dead source. Revived values (a value served after a worker saw the
   source withdraw it; target 0) and the most calls to the dead source in one
   reset window (target fail_max + 1, while Redis answers), RedisLastGood and
   RedisBreakerStore vs per-process caches and breakers in the same run.

    python bench/fleet.py             # the sizes above
    python bench/fleet.py --n 20000   # fewer snapshots
    python bench/fleet.py --only restarts --restarts-for 60 --restart-every 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pybreaker
import redis
import redis.asyncio

from vouched import (
    BreakerSettings,
    BreakerStore,
    Fact,
    GuardedSource,
    LocalBreakerStore,
    PostgresSnapshotStore,
    Query,
    RedisBreakerStore,
    RedisLastGood,
    Snapshot,
    SourceError,
    SqliteSnapshotStore,
    replay,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from replay import STRICT, peak_rss_mb, synthetic

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from fleet.services import OwnRedis  # the tests' own redis-server on a free port

REDIS_URL = "redis://127.0.0.1:6379/0"
POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"
WORKERS, CALLERS, CALLS, RESET = 8, 4, 200, 2.0
FACT = Fact(
    subject="Berlin",
    attribute="temperature",
    value="4.3",
    unit="degC",
    source="bench",
    observed_at="2026-11-29T12:00:00Z",
    ttl=900,
)


# -- 1. a fleet against a dead source -------------------------------------------------


class _Dead(BaseHTTPRequestHandler):
    hits = 0
    lock = threading.Lock()

    def do_GET(self) -> None:
        with _Dead.lock:
            _Dead.hits += 1
        self.send_response(503)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


class DeadHttp:
    """A source calling the dead server over real HTTP."""

    name = "dead"

    def __init__(self, url: str, client: httpx.AsyncClient) -> None:
        self.url = url
        self.client = client

    async def fetch(self, query: Query) -> Sequence[Fact]:
        response = await self.client.get(self.url)
        raise SourceError(f"HTTP {response.status_code}")


async def worker_main(url: str, redis_url: str, prefix: str, fail_max: str) -> None:
    client = None if redis_url == "-" else redis.asyncio.Redis.from_url(redis_url)
    store: BreakerStore = (
        LocalBreakerStore() if client is None else RedisBreakerStore(client, prefix=prefix)
    )
    async with httpx.AsyncClient() as http:
        source = GuardedSource(
            DeadHttp(url, http),
            breaker=BreakerSettings(fail_max=int(fail_max), reset_timeout=RESET),
            breaker_store=store,
            cache=None,
            deadline=5.0,
        )
        loop = asyncio.get_running_loop()

        async def caller(first: int, phase: int) -> None:
            for n in range(first, CALLS // 2, CALLERS):
                await source.fetch({"n": n, "phase": phase})

        for phase in range(2):
            print("ready" if phase == 0 else "half", flush=True)
            await loop.run_in_executor(None, sys.stdin.readline)
            await asyncio.gather(*(caller(k, phase) for k in range(CALLERS)))
    if client is not None:
        await client.aclose()
    print("done", flush=True)


def fleet(url: str, redis_url: str, fail_max: int) -> tuple[int, int]:
    """Calls reaching the dead source in the first reset window, then in the next."""
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    command = [sys.executable, __file__, "--worker", url, redis_url, prefix, str(fail_max)]
    workers = [
        subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for _ in range(WORKERS)
    ]

    def read(expect: str) -> None:
        for w in workers:
            assert w.stdout is not None
            line = w.stdout.readline().strip()
            assert line == expect, line

    def go() -> None:
        for w in workers:
            assert w.stdin is not None
            w.stdin.write("go\n")
            w.stdin.flush()

    start = _Dead.hits
    read("ready")
    go()
    read("half")  # every worker has made its first calls
    first = _Dead.hits - start
    time.sleep(RESET + 0.5)  # the reset window passes: the next calls may probe
    go()
    read("done")
    for w in workers:
        w.wait(timeout=60)
    _delete_prefix(prefix)
    return first, _Dead.hits - start - first


def _delete_prefix(prefix: str) -> None:
    with redis.Redis.from_url(REDIS_URL) as client:
        keys = list(client.scan_iter(match=f"{prefix}:*"))
        if keys:
            client.delete(*keys)


def bench_fleet() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Dead)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    for fail_max in (3, 5):
        shared = fleet(url, REDIS_URL, fail_max)
        local = fleet(url, "-", fail_max)
        print(
            f"fleet  {WORKERS} processes x {CALLERS} callers, dead source, fail_max={fail_max}: "
            f"calls reaching it in the first reset window: Redis store {shared[0]} "
            f"(aim <= {fail_max + 1}) vs per-process {local[0]} (~{WORKERS * fail_max}); "
            f"in the next window (probes): {shared[1]} vs {local[1]}"
        )
    server.shutdown()


# -- 2. round trips, from the server's command statistics ------------------------------

# Every round trip of the breaker is one script call (commands a script runs
# are counted under their own names, so they are left out here).
_CLIENT_COMMANDS = ("evalsha", "eval")


def _client_commands() -> int:
    with redis.Redis.from_url(REDIS_URL) as client:
        stats = client.info("commandstats")
    return sum(int(stats.get(f"cmdstat_{name}", {}).get("calls", 0)) for name in _CLIENT_COMMANDS)


class Instant:
    name = "instant"

    async def fetch(self, query: Query) -> Sequence[Fact]:
        return [FACT]


class Failing:
    name = "failing"

    async def fetch(self, query: Query) -> Sequence[Fact]:
        raise SourceError("HTTP 503")


async def _trips(source: Any, calls: int) -> float:
    async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
        prefix = f"bench-{uuid.uuid4().hex[:8]}"
        guarded = GuardedSource(
            source,
            breaker=BreakerSettings(fail_max=10**9, reset_timeout=30),
            breaker_store=RedisBreakerStore(client, prefix=prefix),
            cache=None,
        )
        await guarded.fetch({"warm": "up"})
        before = _client_commands()
        for n in range(calls):
            await guarded.fetch({"n": n})
        trips = _client_commands() - before
    _delete_prefix(prefix)
    return trips / calls


def bench_round_trips() -> None:
    happy = asyncio.run(_trips(Instant(), 20_000))
    failing = asyncio.run(_trips(Failing(), 2_000))
    print(
        f"trips  Redis round trips per call (server commandstats): closed happy path "
        f"{happy:.4f} (target 0 amortised; one read per 0.5 s) vs per failure {failing:.3f} "
        f"(target <= 1)"
    )


# -- 3. overhead per call -------------------------------------------------------------


def _median_us(run: Callable[[], float], repeats: int = 5) -> float:
    return statistics.median(run() for _ in range(repeats)) * 1e6


async def _ours(store: BreakerStore, n: int) -> float:
    bare = Instant()
    guarded = GuardedSource(bare, breaker_store=store, cache=None, deadline=None)
    query = {"subject": "Berlin"}
    await guarded.fetch(query)
    start = time.perf_counter()
    for _ in range(n):
        await bare.fetch(query)
    base = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(n):
        await guarded.fetch(query)
    return (time.perf_counter() - start - base) / n


def _redis_store_overhead(n: int) -> float:
    async def run() -> float:
        async with redis.asyncio.Redis.from_url(REDIS_URL) as client:
            prefix = f"bench-{uuid.uuid4().hex[:8]}"
            result = await _ours(RedisBreakerStore(client, prefix=prefix), n)
        _delete_prefix(prefix)
        return result

    return asyncio.run(run())


def _pybreaker_overhead(n: int) -> float:
    client = redis.Redis.from_url(REDIS_URL)
    namespace = f"bench-{uuid.uuid4().hex[:8]}"
    storage = pybreaker.CircuitRedisStorage(pybreaker.STATE_CLOSED, client, namespace=namespace)
    breaker = pybreaker.CircuitBreaker(fail_max=5, reset_timeout=30, state_storage=storage)

    def call() -> list[Fact]:
        return [FACT]

    start = time.perf_counter()
    for _ in range(n):
        call()
    base = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(n):
        breaker.call(call)
    took = (time.perf_counter() - start - base) / n
    keys = list(client.scan_iter(match=f"{namespace}*"))
    if keys:
        client.delete(*keys)
    client.close()
    return took


def bench_overhead() -> None:
    local = _median_us(lambda: asyncio.run(_ours(LocalBreakerStore(), 20_000)))
    shared = _median_us(lambda: _redis_store_overhead(20_000))
    theirs = _median_us(lambda: _pybreaker_overhead(2_000))
    print(
        f"cost   GuardedSource overhead per call, closed breaker (median of 5): local store "
        f"{local:.2f} us vs Redis store {shared:.2f} us ({shared / local:.2f}x) vs "
        f"pybreaker CircuitRedisStorage {theirs:.1f} us ({theirs / shared:.0f}x ours)"
    )


# -- 4. snapshots: SQLite vs PostgreSQL ------------------------------------------------


def _write(store: Any, n: int) -> float:
    seconds = 0.0
    batch: list[Snapshot] = []
    for text in synthetic(n):
        batch.append(Snapshot.from_canonical(text))
        if len(batch) == 5_000:
            start = time.perf_counter()
            store.write_many(batch)
            seconds += time.perf_counter() - start
            batch = []
    if batch:
        start = time.perf_counter()
        store.write_many(batch)
        seconds += time.perf_counter() - start
    return n / seconds


def _child_read(target: str, schema: str | None, rows: int) -> None:
    store: Any = (
        SqliteSnapshotStore(target, read_only=True)
        if schema is None
        else PostgresSnapshotStore(target, schema=schema, read_only=True)
    )
    until = synthetic_until(rows)
    start = time.perf_counter()
    count = sum(1 for _ in store.iter(until=until))
    read = time.perf_counter() - start
    start = time.perf_counter()
    graded = replay(store, STRICT, until=until, rules=()).snapshots
    gate = time.perf_counter() - start
    store.close()
    print(json.dumps({"read": count / read, "gate": graded / gate, "peak_mb": peak_rss_mb()}))


def synthetic_until(rows: int) -> Any:
    from replay import T0  # noqa: PLC0415 - the population's start

    return T0 + timedelta(seconds=rows * 6)  # rows are 6 s apart


def _measure(target: str, schema: str | None, rows: int) -> dict[str, float]:
    command = [sys.executable, __file__, "--child", target, schema or "-", str(rows)]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def bench_snapshots(n: int) -> None:
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    with tempfile.TemporaryDirectory(prefix="vouched-fleet-") as directory:
        path = str(Path(directory) / "snapshots.db")
        with SqliteSnapshotStore(path) as sqlite:
            sqlite_writes = _write(sqlite, n)
        with PostgresSnapshotStore(POSTGRES_URL, schema=schema) as postgres:
            postgres_writes = _write(postgres, n)
        try:
            sq, sq_small = _measure(path, None, n), _measure(path, None, n // 10)
            pg, pg_small = (
                _measure(POSTGRES_URL, schema, n),
                _measure(POSTGRES_URL, schema, n // 10),
            )
        finally:
            import psycopg  # noqa: PLC0415

            with psycopg.connect(POSTGRES_URL) as connection:
                connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    print(
        f"write  {n:,} snapshots, write_many batches of 5,000: PostgreSQL (COPY) "
        f"{postgres_writes:,.0f} rows/s vs SQLite {sqlite_writes:,.0f} rows/s "
        f"({postgres_writes / sqlite_writes:.2f}x)"
    )
    print(
        f"replay read+parse: PostgreSQL {pg['read']:,.0f} rows/s vs SQLite {sq['read']:,.0f} "
        f"({pg['read'] / sq['read']:.2f}x); gate-only replay: {pg['gate']:,.0f} vs "
        f"{sq['gate']:,.0f} rows/s ({pg['gate'] / sq['gate']:.2f}x)"
    )
    print(
        f"memory replay peak RSS at {n // 10:,} vs {n:,} rows: PostgreSQL "
        f"{pg_small['peak_mb']:.0f} vs {pg['peak_mb']:.0f} MB, SQLite "
        f"{sq_small['peak_mb']:.0f} vs {sq['peak_mb']:.0f} MB (flat: the same at both sizes)"
    )


# -- 6. Redis restarted again and again -------------------------------------------------


class _World:
    """One source's truth, by the wall clock: in every 1.2 s cycle a value (new each
    0.4 s) for 0.8 s, then withdrawn for 0.4 s; each call fails one time in three (a
    flaky upstream), so workers see different things. ``withdrawn_cycle`` is the
    latest cycle whose withdrawal the fleet has recorded: a value of that cycle or
    an earlier one served after that is a revived value."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.calls = 0
        self.withdrawn_cycle = -1

    def phase(self, at: float) -> tuple[bool, int]:
        """(withdrawn now, the value's generation: three per cycle)."""
        elapsed = at - self.start
        return elapsed % 1.2 >= 0.8, int(elapsed / 0.4)

    def recorded(self, cycle: int) -> None:
        self.withdrawn_cycle = max(self.withdrawn_cycle, cycle)


class _Flaky:
    name = "weather"

    def __init__(self, world: _World, *, shared: bool) -> None:
        self.world = world
        self.shared = shared  # a shared store records the withdrawal; else the answer does
        self.withdrew_in = -1  # the cycle of this worker's last live withdrawal

    async def fetch(self, query: Query) -> Sequence[Fact]:
        world = self.world
        world.calls += 1
        if world.calls % 3 == 0:
            raise SourceError("HTTP 503")
        withdrawn, generation = world.phase(time.monotonic())
        if withdrawn:
            self.withdrew_in = generation // 3
            if not self.shared:
                world.recorded(generation // 3)
            return []
        observed = datetime.now(UTC).replace(microsecond=0)
        return [Fact(subject="Berlin", attribute="temperature", value=generation,
                     unit="degC", source="weather", observed_at=observed, ttl=3600)]  # fmt: skip


class _Recording(RedisLastGood):
    """RedisLastGood that notes when a withdrawal is in Redis (the fleet knows it)."""

    def __init__(self, client: Any, source: _Flaky, **options: Any) -> None:
        super().__init__(client, **options)
        self.source = source

    async def save(self, source: str, query: Query, answer: Sequence[Fact]) -> None:
        failures = self.failures
        await super().save(source, query, answer)
        if not answer and self.failures == failures:
            self.source.world.recorded(self.source.withdrew_in)


class _DeadCounted:
    name = "dead"

    def __init__(self, calls: list[float]) -> None:
        self.calls = calls

    async def fetch(self, query: Query) -> Sequence[Fact]:
        self.calls.append(time.monotonic())
        raise SourceError("HTTP 503")


async def _restart_run(
    server: OwnRedis, shared: bool, seconds: float, every: float
) -> dict[str, Any]:
    world, dead_calls = _World(), list[float]()
    fail_max, reset = 3, 2.0
    clients = [redis.asyncio.Redis.from_url(server.url, socket_timeout=0.25) for _ in range(2)]
    prefix = f"bench-restarts-{uuid.uuid4().hex[:8]}"
    workers = []
    for client in clients:
        breakers: BreakerStore = (
            RedisBreakerStore(client, prefix=prefix) if shared else LocalBreakerStore()
        )
        flaky = _Flaky(world, shared=shared)
        last_good = _Recording(client, flaky, prefix=prefix, timeout=0.25) if shared else None
        workers.append((
            GuardedSource(flaky, breaker=None, last_good=last_good, deadline=1.0),
            GuardedSource(_DeadCounted(dead_calls), deadline=1.0, breaker_store=breakers,
                          breaker=BreakerSettings(fail_max=fail_max, reset_timeout=reset)),
        ))  # fmt: skip
    served = revived = 0
    end = time.monotonic() + seconds

    async def caller(weather: GuardedSource, dead: GuardedSource) -> None:
        nonlocal served, revived
        while time.monotonic() < end:
            known = world.withdrawn_cycle  # withdrawals the fleet knew when asked
            for fact in await weather.fetch({"subject": "Berlin"}):
                if not fact.is_silent:
                    served += 1
                    revived += int(fact.value) // 3 <= known  # type: ignore[arg-type]
            await dead.fetch({"subject": "Berlin"})
            await asyncio.sleep(0.01)

    async def restarts() -> int:
        count = 0
        while time.monotonic() + every < end:
            await asyncio.sleep(every)
            server.stop()  # Redis restarts: away for a second, empty when back
            await asyncio.sleep(1.0)
            await asyncio.to_thread(server.start)
            count += 1
        return count

    tasks = [caller(w, d) for w, d in workers for _ in range(CALLERS_PER_WORKER)]
    results = await asyncio.gather(restarts(), *tasks)
    for client in clients:
        await client.aclose()
    start = min(dead_calls, default=0.0)
    windows: dict[int, int] = {}
    for at in dead_calls:
        windows[int((at - start) / reset)] = windows.get(int((at - start) / reset), 0) + 1
    return {"served": served, "revived": revived, "restarts": results[0],
            "dead_max": max(windows.values(), default=0), "fail_max": fail_max,
            "windows": len(windows)}  # fmt: skip


CALLERS_PER_WORKER = 4


def bench_restarts(seconds: float, every: float) -> None:
    server = OwnRedis()
    server.start()
    try:
        shared = asyncio.run(_restart_run(server, True, seconds, every))
        local = asyncio.run(_restart_run(server, False, seconds, every))
    finally:
        server.stop()
    print(
        f"fleet  2 workers x {CALLERS_PER_WORKER} callers, {seconds:.0f} s, Redis restarted "
        f"{shared['restarts']} times: values served after a worker saw them withdrawn "
        f"{shared['revived']} of {shared['served']:,} served (target 0) with RedisLastGood, "
        f"vs {local['revived']} of {local['served']:,} with per-process caches"
    )
    print(
        f"fleet  same run, dead source (fail_max={shared['fail_max']}): most calls in one "
        f"reset window {shared['dead_max']} with RedisBreakerStore (target "
        f"{shared['fail_max'] + 1} while Redis answers; each worker on its own while it is "
        f"away) vs {local['dead_max']} with per-process breakers"
    )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        asyncio.run(worker_main(*sys.argv[2:6]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        target, schema, rows = sys.argv[2:5]
        _child_read(target, None if schema == "-" else schema, int(rows))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="snapshots (default 100,000)")
    parser.add_argument("--only", choices=["restarts"], help="run one section only")
    parser.add_argument(
        "--restarts-for",
        type=float,
        default=20.0,
        help="seconds of the Redis restart run (default 20; the issue's: 60)",
    )
    parser.add_argument(
        "--restart-every",
        type=float,
        default=5.0,
        help="seconds between Redis restarts (default 5; the issue's: 10)",
    )
    args = parser.parse_args()
    bench_restarts(args.restarts_for, args.restart_every)
    if args.only == "restarts":
        return
    bench_fleet()
    bench_round_trips()
    bench_overhead()
    bench_snapshots(args.n)


if __name__ == "__main__":
    main()
