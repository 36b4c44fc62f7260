"""Benchmark: write synthetic snapshots into SQLite, then replay them.

    python bench/replay.py            # 100,000 snapshots (about a minute)
    python bench/replay.py --full     # 1,000,000 snapshots (the issue's size)
    python bench/replay.py --n 20000  # any size
    python bench/replay.py --scan-all # re-scan the whole population too (slow)

Figures, each beside what it is measured against in the same run:

- write: rows/s through ``SqliteSnapshotStore.write_many`` (batches of 5,000)
  and through ``write`` (one commit per snapshot, the answer path);
- replay: snapshots/s re-graded (gate + scanner when this build has one, and
  gate only) against the floor of just reading and parsing the rows, and
  against the target of 20,000 snapshots/s;
- peak memory (max RSS of a fresh process per run) for a tenth, a quarter and
  all of the population side by side, against the 200 MB target. The scanner
  costs about ten times the gate, so gate+scan runs on a tenth and a quarter
  unless ``--scan-all``;
- PostgreSQL (the real server on 127.0.0.1, when it is up): the same rows
  read and parsed, and graded, beside SQLite's; the store size per snapshot in
  both;
- engines: gate+scan on a quarter with ``--engine local`` and ``--engine ray``
  (a local Ray of 1 and of 2 CPUs), the scaling efficiency from 1 to 2 Ray
  workers and the time it projects for 10 million snapshots on 64 cores.

Synthetic population: 64 template generations built with ``Snapshot.build``
(3 to 6 facts from 4 sources, 3 prompt versions, some facts old enough to be
stale under the stricter replay policy), each row a template shifted in time
with its own question, re-hashed so every row is a distinct valid snapshot.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from vouched import Fact, Policy, Snapshot, SqliteSnapshotStore, open_snapshot_store, replay
from vouched._jsonio import dumps, loads
from vouched._replay._snapshot import FORMAT_VERSION
from vouched._time import format_instant

TARGET_RATE = 20_000
TARGET_MB = 200
BATCH = 5_000
T0 = datetime(2026, 11, 17, 0, 0, tzinfo=UTC)
STRICT = Policy(default_ttl=timedelta(minutes=30), demoted=frozenset({"uv_index"}))
SOURCES = ("open-meteo", "ecb", "catalog", "timetable")
ATTRIBUTES = (
    ("temperature", "degC"),
    ("humidity", "%"),
    ("wind_speed", "km/h"),
    ("uv_index", None),
    ("rate", None),
    ("departure", None),
)
SUBJECTS = ("Berlin", "Munich", "Hamburg", "EUR/USD", "ICE 597")


# -- the synthetic population -------------------------------------------------------


def _template(rng: random.Random, index: int) -> tuple[str, list[str]]:
    """One generation's canonical JSON with its instants as placeholders."""
    at = T0
    facts = []
    parts = []
    for _ in range(rng.randint(3, 6)):
        attribute, unit = rng.choice(ATTRIBUTES)
        subject = rng.choice(SUBJECTS)
        if rng.random() < 0.1:
            facts.append(Fact.silence(subject, attribute, "timeout", source=rng.choice(SOURCES)))
            parts.append(f"{attribute} is unavailable right now")
            continue
        value = Decimal(rng.randint(0, 4000)) / 10
        age = timedelta(minutes=rng.choice((2, 5, 10, 45, 90)))
        facts.append(
            Fact(
                subject=subject,
                attribute=attribute,
                value=value,
                unit=unit,
                source=rng.choice(SOURCES),
                observed_at=at - age,
                confidence=0.9,
                ttl=rng.choice((None, 900, 7200)),
                citation=f"row-{rng.randint(1, 999)}",
            )
        )
        parts.append(f"{subject} {attribute.replace('_', ' ')} {value}{' ' + unit if unit else ''}")
    snapshot = Snapshot.build(
        created_at=at,
        question="QUESTION",
        query={"subjects": sorted({f.subject for f in facts})},
        facts=facts,
        policy=Policy(),
        prompt_version=f"p{index % 3 + 1}",
        phraser="template",
        output="; ".join(parts) + ".",
        status="ok",
        timings={"total": 0.05 + rng.random() / 10, "phrase": 0.01},
    )
    data = snapshot.to_json()
    del data["id"]
    body = dumps(data, canonical=True)
    instants = sorted(
        {data["created_at"], data["judged_at"]}
        | {f["observed_at"] for f in data["facts"] if f["observed_at"]}
    )
    for number, text in enumerate(instants):
        body = body.replace(f'"{text}"', f'"\x00{number}\x00"')
    return body, instants


def synthetic(n: int, seed: int = 7) -> Iterator[str]:
    """Yield ``n`` canonical snapshot texts (distinct ids, valid content hashes)."""
    rng = random.Random(seed)
    templates = [_template(rng, i) for i in range(64)]
    parsed = [[datetime.fromisoformat(t) for t in instants] for _, instants in templates]
    marker = f'"format":{FORMAT_VERSION},"judged_at"'
    for i in range(n):
        body = templates[i % len(templates)][0]
        shift = timedelta(seconds=i * 6)  # 100k rows cover about a week
        for number, instant in enumerate(parsed[i % len(templates)]):
            body = body.replace(f'"\x00{number}\x00"', f'"{format_instant(instant + shift)}"')
        body = body.replace('"QUESTION"', json.dumps(f"What is it like right now? #{i}"), 1)
        snapshot_id = hashlib.sha256(body.encode()).hexdigest()[:32]
        yield body.replace(marker, f'"format":{FORMAT_VERSION},"id":"{snapshot_id}","judged_at"', 1)


# -- phases -------------------------------------------------------------------------


def write_phase(path: Path, n: int) -> dict[str, float]:
    texts = synthetic(n)
    first = next(iter(synthetic(1)))
    assert Snapshot.from_json(loads(first)).canonical_json() == first  # ids are honest
    written = 0
    seconds = 0.0
    with SqliteSnapshotStore(path) as store:
        batch: list[Snapshot] = []
        for text in texts:
            batch.append(Snapshot.from_canonical(text))
            if len(batch) == BATCH:
                start = time.perf_counter()
                written += store.write_many(batch)
                seconds += time.perf_counter() - start
                batch = []
        if batch:
            start = time.perf_counter()
            written += store.write_many(batch)
            seconds += time.perf_counter() - start
    assert written == n, (written, n)
    # The answer path: Snapshot.build + one commit per write, on a small sample.
    sample = [Snapshot.from_canonical(t) for t in synthetic(2_000, seed=99)]
    with SqliteSnapshotStore(path.with_suffix(".single.db")) as single:
        start = time.perf_counter()
        for snapshot in sample:
            single.write(snapshot)
        single_seconds = time.perf_counter() - start
    return {"batched": n / seconds, "single": len(sample) / single_seconds}


def peak_rss_mb() -> float:
    """This process's peak resident memory. VmHWM (Linux) belongs to this
    program image only; ru_maxrss would include the parent's size at fork."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(args: argparse.Namespace) -> None:
    """One measurement in a fresh process: throughput and peak RSS."""
    until = datetime.fromisoformat(args.until) if args.until else None
    store = open_snapshot_store(args.child, read_only=True)
    base_mb = peak_rss_mb()
    engine = "ray" if args.mode.startswith("ray") else "local"
    workers = int(args.mode.split(":")[1]) if ":" in args.mode else 1
    if engine == "ray":
        import ray  # noqa: PLC0415 - the ray extra, for this measurement only

        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    start = time.perf_counter()
    if args.mode == "read":
        count = sum(1 for _ in store.iter(until=until))  # read and parse
    else:
        rules = None if args.mode.startswith(("scan", "ray")) else ()
        options: dict[str, Any] = {"engine": engine} if engine == "ray" else {}  # older: local
        report = replay(store, STRICT, until=until, rules=rules, workers=workers, **options)
        count = report.snapshots
        assert report.to_fail.count > 0  # the stricter policy flips some: work was done
    seconds = time.perf_counter() - start
    peak_mb = peak_rss_mb()
    print(json.dumps({"count": count, "seconds": seconds, "base_mb": base_mb, "peak_mb": peak_mb}))


def measure(db: Path | str, mode: str, until: datetime | None = None) -> dict[str, float]:
    command = [sys.executable, __file__, "--child", str(db), "--mode", mode]
    if until is not None:
        command += ["--until", until.isoformat()]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    result: dict[str, float] = json.loads(out)
    result["rate"] = result["count"] / result["seconds"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--full", action="store_true", help="1,000,000 snapshots")
    parser.add_argument(
        "--scan-all", action="store_true", help="also re-scan the whole population (slow)"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="gate", help=argparse.SUPPRESS)
    parser.add_argument("--until", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    n = 1_000_000 if args.full else args.n
    small = max(1, n // 10)
    with tempfile.TemporaryDirectory(prefix="vouched-bench-") as directory:
        db = Path(directory) / "snapshots.db"
        print(f"replay benchmark: {n:,} synthetic snapshots, SQLite {db.name}")
        start = time.perf_counter()
        writes = write_phase(db, n)
        elapsed = time.perf_counter() - start
        print(f"  generated and wrote in {elapsed:.1f} s; file {db.stat().st_size / 1e6:,.0f} MB")
        print(
            f"write  write_many (batches of {BATCH:,}): {writes['batched']:>9,.0f} rows/s   "
            f"vs write() one commit each: {writes['single']:,.0f} rows/s "
            f"({writes['batched'] / writes['single']:.1f}x)"
        )
        sizes = (small, n // 4, n)
        cut = {size: T0 + timedelta(seconds=size * 6) for size in sizes}  # rows are 6 s apart
        read = measure(db, "read")
        gate_small = [measure(db, "gate", cut[small]) for _ in range(3)]
        gate = measure(db, "gate")
        median_small = statistics.median(r["rate"] for r in gate_small)
        print(
            f"replay gate only:  {gate['rate']:>9,.0f} snapshots/s   vs target {TARGET_RATE:,} "
            f"({gate['rate'] / TARGET_RATE:.2f}x); vs reading+parsing rows only "
            f"{read['rate']:,.0f}/s ({gate['rate'] / read['rate']:.2f}x); "
            f"median of 3 at {small:,}: {median_small:,.0f}/s"
        )
        # The scanner costs about ten times the gate: by default it is run on a
        # tenth and a quarter of the population (all of it with --scan-all).
        scan_sizes = sizes if args.scan_all else sizes[:2]
        scans = {size: measure(db, "scan", cut[size]) for size in scan_sizes}
        largest = scans[scan_sizes[-1]]
        print(
            f"replay gate+scan:  {largest['rate']:>9,.0f} snapshots/s   "
            f"vs target {TARGET_RATE:,} ({largest['rate'] / TARGET_RATE:.2f}x); "
            f"vs gate only {largest['rate'] / gate['rate']:.2f}x (at {scan_sizes[-1]:,})"
        )
        cores = os.cpu_count() or 1
        parallel = measure(db, f"scan:{cores}", cut[scan_sizes[-1]])
        print(
            f"  with workers={cores}: {parallel['rate']:>9,.0f} snapshots/s   "
            f"vs one process {parallel['rate'] / largest['rate']:.2f}x "
            f"(parent process peak {parallel['peak_mb']:.0f} MB)"
        )
        base = gate["base_mb"]
        print(f"peak memory (max RSS, fresh process each; after imports {base:.0f} MB):")
        print(f"  {'run':<12}" + "".join(f"{size:>12,}" for size in sizes) + "   target")
        rows = [
            ("read rows", {n: read}),
            ("gate only", {small: gate_small[0], n: gate}),
            ("gate+scan", scans),
        ]
        for label, runs in rows:
            cells = "".join(
                f"{runs[size]['peak_mb']:>9.0f} MB" if size in runs else f"{'-':>12}"
                for size in sizes
            )
            print(f"  {label:<12}{cells}   < {TARGET_MB} MB")
        size = sqlite_bytes(db) / n
        postgres(db, n, read=read, scan=scans[small], size=size, until=cut[small])
        quarter = scan_sizes[-1]  # Ray's start-up is a smaller share of a larger run
        engines(db, quarter, scans[quarter], cut[quarter])


# -- PostgreSQL and Ray -------------------------------------------------------------

POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"


def sqlite_bytes(db: Path) -> int:
    with SqliteSnapshotStore(db) as store:  # a writer: the WAL is checkpointed on close
        len(store)
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


def postgres(
    db: Path,
    n: int,
    *,
    read: dict[str, float],
    scan: dict[str, float],
    size: float,
    until: datetime,
) -> None:
    try:
        import psycopg  # noqa: PLC0415 - the postgres extra

        from vouched import PostgresSnapshotStore  # noqa: PLC0415

        psycopg.connect(POSTGRES_URL, connect_timeout=2).close()
    except Exception as error:  # noqa: BLE001 - a bench without the server says so and goes on
        print(f"postgres: skipped ({type(error).__name__}: the server on 127.0.0.1:5432)")
        return
    schema = f"bench_replay_{os.getpid()}"
    url = f"{POSTGRES_URL}?schema={schema}"
    try:
        with (
            SqliteSnapshotStore(db, read_only=True) as source,
            PostgresSnapshotStore(POSTGRES_URL, schema=schema) as target,
        ):
            batch: list[Snapshot] = []
            for snapshot in source.iter():
                batch.append(snapshot)
                if len(batch) == BATCH:
                    target.write_many(batch)
                    batch = []
            target.write_many(batch)
        with psycopg.connect(POSTGRES_URL) as connection:
            row = connection.execute(
                "SELECT pg_total_relation_size(%s)", (f'"{schema}".snapshots',)
            ).fetchone()
        pg_size = int(row[0]) / n if row else float("nan")
        pg_read = measure(url, "read")
        pg_scan = measure(url, "scan", until)
        print(
            f"postgres read+parse: {pg_read['rate']:>9,.0f} rows/s   vs SQLite "
            f"{read['rate']:,.0f} ({pg_read['rate'] / read['rate']:.2f}x, target >= 1); "
            f"gate+scan {pg_scan['rate']:,.0f}/s vs SQLite {scan['rate']:,.0f}/s "
            f"({pg_scan['rate'] / scan['rate']:.2f}x)"
        )
        print(
            f"size   per snapshot: SQLite {size:,.0f} bytes (file, -wal, -shm), "
            f"PostgreSQL {pg_size:,.0f} bytes (table, index, TOAST)"
        )
    finally:
        with psycopg.connect(POSTGRES_URL) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def engines(db: Path, rows: int, local: dict[str, float], until: datetime) -> None:
    try:
        import ray  # noqa: F401, PLC0415 - the ray extra
    except ImportError:
        print("engines: --engine ray skipped (pip install 'vouched[ray]')")
        return
    try:
        one = measure(db, "ray:1", until)
        two = measure(db, "ray:2", until)
    except subprocess.CalledProcessError:
        print("engines: --engine ray failed (not in this vouched?)")
        return
    efficiency = two["rate"] / (2 * one["rate"])
    projected = 10_000_000 / (one["rate"] * 64 * efficiency)
    print(
        f"engine gate+scan on {rows:,} (Ray start-up included): ray 1 worker "
        f"{one['rate']:,.0f}/s, 2 workers {two['rate']:,.0f}/s vs --engine local "
        f"{local['rate']:,.0f}/s ({two['rate'] / local['rate']:.2f}x)"
    )
    print(
        f"  scaling 1 -> 2 Ray workers: {two['rate'] / one['rate']:.2f}x, efficiency "
        f"{efficiency:.0%}; projected 10,000,000 snapshots on 64 cores at that efficiency: "
        f"{projected / 60:,.1f} min (one core: {10_000_000 / one['rate'] / 3600:,.1f} h)"
    )


if __name__ == "__main__":
    main()
