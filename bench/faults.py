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

3. Snapshot writes at ``--rate`` answers/s (300) for ``--writer-seconds``
   (10; the issue's run: 60), straight to the store writer, each run in a
   process of its own: PostgreSQL (a schema of this run's own), and SQLite
   while another process holds its lock for ``--lock-for`` seconds (12; the
   issue's: 20). The writer vouched serve uses now (``QueuedSnapshotStore``:
   batches, a bounded queue, a spill file) against the one it used before (one
   row per transaction on one thread, an unbounded backlog): snapshots stored
   after recovery vs answers given (target all), snapshots lost, peak RSS, and
   the time a shutdown takes against a ``--grace`` of 10 s (target: within it
   plus 1 s).
4. Redaction: written forms of a sensitive salary and name (every shape of
   tests/replay/forms.py in several scripts, widths and spellings) through
   ``Snapshot.build``: how many are found in clear in the stored JSON (target
   0; the issue counted 21 of 70 before this round, not measurable here).

5. A burst of 3,000 idle connections against the service (max_connections
   1000, in a process of its own): the most file descriptors it held, with the
   accept batch of now vs uvicorn's default backlog of 2,048 (before).

6. The outages of ``bench/outages.py`` (``--only outages``, a few minutes):
   PostgreSQL away a whole run at 280 answers/s (lost, stored twice, peak RSS
   against the calm run, replay time after recovery), SIGKILL with SQLite
   locked (what is lost), two processes on one spill path with the store
   flapping (what is lost).

    python bench/faults.py                # 6 s outages
    python bench/faults.py --outage 2     # shorter
    python bench/faults.py --only writes --writer-seconds 60 --lock-for 20
    python bench/faults.py --only outages # the issue-41 runs (150 s outage: see outages.py)
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import resource
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
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
    SqliteSnapshotStore,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from fleet.services import Proxy  # the tests' proxy: cut() and mend()
from replay.forms import NAME_SHAPES, NUMBER_SHAPES, digits_in, fullwidth

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


# -- 3. snapshot writes at a production rate ---------------------------------------------

_HOLD_LOCK = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
connection.execute("COMMIT")
"""
PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def _count(target: str, where: str) -> int:
    if target == "postgres":
        return _rows(where)[1]
    with SqliteSnapshotStore(where, read_only=True) as store:
        return len(store)


def _open_target(target: str, folder: Path, lock_for: float) -> tuple[Any, str, Any]:
    """(store, where it is, the lock holder or None)."""
    if target == "postgres":
        where = f"bench_writes_{uuid.uuid4().hex[:8]}"
        return PostgresSnapshotStore(PG_URL, schema=where), where, None
    where = str(folder / "snapshots.db")
    SqliteSnapshotStore(where).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, where, str(lock_for)], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "locked"
    return SqliteSnapshotStore(where), where, holder


def writer_child(
    kind: str, target: str, *, rate: float, seconds: float, grace: float, lock_for: float
) -> None:
    """One run (in a process of its own, for its own peak RSS); prints JSON."""
    folder = Path(tempfile.mkdtemp(prefix="vouched-bench-"))
    snapshots = [_snapshot(i) for i in range(int(rate * seconds))]
    store, where, holder = _open_target(target, folder, lock_for)
    lost = 0
    backlog = 0
    spill = folder / "spill.jsonl"
    if kind == "before":  # one row per transaction on one thread, as StoreHook did
        executor = ThreadPoolExecutor(1)

        def one(snapshot: Snapshot) -> None:
            nonlocal lost
            try:
                store.write(snapshot)
            except Exception:  # noqa: BLE001 - counted: what the answer path lost
                lost += 1

        def write(snapshot: Snapshot) -> None:
            executor.submit(one, snapshot)
    else:
        queued = QueuedSnapshotStore(store, maxsize=5_000, batch=500, spill=spill)
        write = queued.write
    start = time.monotonic()
    for i, snapshot in enumerate(snapshots):
        wait = start + i / rate - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        write(snapshot)
        if kind == "before" and i % 100 == 0:
            backlog = max(backlog, executor._work_queue.qsize())
    stopping = time.monotonic()  # SIGTERM: the drain starts
    if kind == "before":
        executor.shutdown(wait=True)  # the old drain waited for every write
    else:
        queued.close(timeout=grace)
    shutdown = time.monotonic() - stopping
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if holder is not None:
        holder.wait()
    spilled = 0 if kind == "before" else queued.spilled
    if kind != "before":  # the next start writes what was spilled
        QueuedSnapshotStore(store, spill=spill).close(timeout=None)
    left = spill.exists() or Path(f"{spill}.replaying").exists()
    store.close()
    stored = _count(target, where)
    if target == "postgres":
        _drop(where)
    print(json.dumps({"given": len(snapshots), "stored": stored, "lost": lost,
                      "shutdown": shutdown, "peak_mb": peak, "spilled": spilled,
                      "left": left, "backlog": backlog}))  # fmt: skip


def bench_writes(rate: float, seconds: float, grace: float, lock_for: float) -> None:
    def run(kind: str, target: str) -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, __file__, "--writer", kind, target, str(rate), str(seconds),
             str(grace), str(lock_for)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        return dict(json.loads(done.stdout.splitlines()[-1]))

    locked = f"SQLite locked {lock_for:.0f} s by another process"
    for target, what in (("postgres", "PostgreSQL"), ("sqlite", locked)):
        now, before = run("now", target), run("before", target)
        print(
            f"writes {rate:.0f} answers/s for {seconds:.0f} s, {what}: stored "
            f"{now['stored']:,} of {now['given']:,} (target all; {now['spilled']:,} went "
            f"through the spill file, {'some' if now['left'] else 'none'} left unreplayed), "
            f"peak RSS {now['peak_mb']:.0f} MB, shutdown {now['shutdown']:.1f} s (grace "
            f"{grace:.0f} s) | before: stored {before['stored']:,}, lost {before['lost']}, "
            f"backlog up to {before['backlog']:,}, peak RSS {before['peak_mb']:.0f} MB, "
            f"shutdown {before['shutdown']:.1f} s"
        )


# -- 4. redaction ---------------------------------------------------------------------


def _forms() -> list[str]:
    numbers = []
    for shape in NUMBER_SHAPES:
        separators = (",", "\u2009", "\uff0c", "'", "\u202f") if "{s}" in shape else ("",)
        for separator in separators:
            form = shape.replace("{s}", separator)
            numbers += [form, fullwidth(form)]
            if "0x" not in form.lower():
                numbers += [digits_in(form, "٠١٢٣٤٥٦٧٨٩"), digits_in(form, "⁰¹²³⁴⁵⁶⁷⁸⁹")]
    names = []
    for shape in NAME_SHAPES:
        names += [shape, shape.upper(), shape.lower(), fullwidth(shape),
                  shape.replace("e", "\u0435").replace("a", "\u0430"),
                  urllib.parse.quote(shape, safe=""), shape[:2] + "\u200b" + shape[2:]]  # fmt: skip
    return sorted(set(numbers)) + sorted(set(names))


def bench_redaction() -> None:
    from vouched import Fact as F  # noqa: PLC0415, N817 - short for the table below

    policy = Policy(sensitive_subjects=frozenset({"Alice Smith"}),
                    sensitive_attributes=frozenset({"salary"}))  # fmt: skip
    fact = F(subject="Alice Smith", attribute="salary", value=85000, unit="EUR",
             source="hr", observed_at="2026-11-29T12:00:00Z")  # fmt: skip
    forms = _forms()
    found = []
    for form in forms:
        snapshot = Snapshot.build(
            created_at=datetime(2026, 11, 29, 12, tzinfo=UTC), question=f"And {form}?",
            facts=[fact], policy=policy, prompt_version="p1", phraser="template",
            output=f"Per the record, {form} it is.", status="ok", redaction_key=b"bench key",
        )  # fmt: skip
        body = snapshot.canonical_json()
        escaped = json.dumps(form)[1:-1]
        if any(s.casefold() in body.casefold() for s in (form, escaped)):
            found.append(form)
    print(
        f"redact {len(forms)} written forms of a sensitive salary and name: {len(found)} "
        f"found in clear (target 0; before this round: 21 of the issue's 70)"
        + (f": {', '.join(map(repr, found[:8]))}" if found else "")
    )


# -- 5. a burst of idle connections ----------------------------------------------------

_SERVE = """
import socket, sys, uvicorn
from dataclasses import replace
from vouched._server._app import create_app
from vouched._server._config import load_config
from vouched._server._protocol import uvicorn_settings
config = replace(load_config(sys.argv[1]), header_timeout=600.0, max_connections=1000)
settings = uvicorn_settings(config)
if sys.argv[2] != "-":
    settings["backlog"] = int(sys.argv[2])  # before: uvicorn's default
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
sock.listen(settings["backlog"])
print(sock.getsockname()[1], flush=True)
uvicorn.Server(uvicorn.Config(create_app(config), **settings)).run(sockets=[sock])
"""
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _burst_peak(backlog: str, connections: int) -> int:
    """The most file descriptors the service holds while ``connections`` connect at once."""
    import os  # noqa: PLC0415
    import socket  # noqa: PLC0415

    service = subprocess.Popen([sys.executable, "-c", _SERVE, str(EXAMPLES / "serve.toml"),
                                backlog], stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert service.stdout is not None
    port = int(service.stdout.readline())
    time.sleep(1.0)  # uvicorn starts serving
    peak, done = 0, threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, len(os.listdir(f"/proc/{service.pid}/fd")))

    sampler = threading.Thread(target=sample)
    sampler.start()
    sockets = []
    for _ in range(connections):
        sock = socket.socket()
        sock.setblocking(False)
        with suppress(BlockingIOError):  # connecting: the burst does not wait
            sock.connect(("127.0.0.1", port))
        sockets.append(sock)
    time.sleep(3.0)  # the service accepts and closes what is past its limit
    done.set()
    sampler.join()
    for sock in sockets:
        sock.close()
    service.terminate()
    service.wait()
    return peak


def bench_burst(connections: int = 3_000) -> None:
    now, before = _burst_peak("-", connections), _burst_peak("2048", connections)
    print(
        f"burst  {connections:,} idle connections at once, max_connections 1,000: the "
        f"service held at most {now:,} file descriptors (before: {before:,})"
    )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--writer":
        kind, target, rate, seconds, grace, lock_for = sys.argv[2:8]
        writer_child(
            kind, target, rate=float(rate), seconds=float(seconds), grace=float(grace),
            lock_for=float(lock_for),
        )  # fmt: skip
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outage", type=float, default=6.0, help="seconds away (default 6)")
    parser.add_argument(
        "--only",
        choices=["writes", "redaction", "burst", "outages"],
        help="run one section only",
    )
    parser.add_argument("--rate", type=float, default=300.0, help="answers/s (default 300)")
    parser.add_argument(
        "--writer-seconds",
        type=float,
        default=10.0,
        help="seconds of each write run (default 10; the issue's: 60)",
    )
    parser.add_argument(
        "--lock-for",
        type=float,
        default=12.0,
        help="seconds another process holds SQLite's lock (default 12; issue: 20)",
    )
    parser.add_argument("--grace", type=float, default=10.0, help="shutdown grace (default 10)")
    args = parser.parse_args()
    if args.only in (None, "burst"):
        bench_burst()
    if args.only in (None, "redaction"):
        bench_redaction()
    if args.only in (None, "writes"):
        bench_writes(args.rate, args.writer_seconds, args.grace, args.lock_for)
    if args.only is None:
        bench_postgres(args.outage)
        bench_redis()
    if args.only in (None, "outages"):
        outages = Path(__file__).with_name("outages.py")
        subprocess.run([sys.executable, str(outages), "--seconds", "60", "--outage", "60"],
                       check=True)  # fmt: skip


if __name__ == "__main__":
    main()
