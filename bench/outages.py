"""Outages the snapshot writer must survive, each run in a process of its own
(for its own peak RSS), against the vouched on ``PYTHONPATH`` (run it again
with another checkout's ``src`` first on the path for a before/after pair):

1. ``pg``: answers at ``--rate`` (280/s) for ``--seconds`` (60) through
   ``QueuedSnapshotStore`` (queue 5,000, batches of 500, a spill file) into
   PostgreSQL behind a TCP proxy this run cuts for ``--outage`` seconds (30)
   in the middle (the shared server keeps running): snapshots lost and stored
   twice (target 0 and 0), peak RSS beside the same run without an outage
   (target <= 1.5x), and the seconds from the end of the load until the spill
   file is replayed (target <= 30).
2. ``kill``: the same answers while another process holds the SQLite store's
   lock; SIGKILL after ``--kill-after`` seconds (6): snapshots lost (after the
   next start replays the spill file) against those given (target: at most
   one second of answers).
3. ``two``: two processes, one spill path, one PostgreSQL schema, the proxy
   cut and mended every 2 s: snapshots lost (target 0) of those given.

    PYTHONPATH=src:adapters/src python bench/outages.py --seconds 150 --outage 150
    PYTHONPATH=/tmp/before/src:src python bench/outages.py   # the figures before
"""

from __future__ import annotations

import argparse
import inspect
import json
import resource
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import vouched
from vouched import PostgresSnapshotStore, QueuedSnapshotStore, SqliteSnapshotStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from faults import _drop, _rows, _snapshot  # the fault bench's snapshot and row counts
from fleet.services import Proxy

POSTGRES = ("127.0.0.1", 5432)
PG = "postgresql://postgres@127.0.0.1:5432/test"


def _queued(store: Any, spill: Path) -> QueuedSnapshotStore:
    options: dict[str, Any] = {"maxsize": 5_000, "batch": 500, "spill": spill}
    if "store_timeout" in inspect.signature(QueuedSnapshotStore).parameters:
        options["store_timeout"] = 1.0  # (a vouched without it is measured as it is)
    return QueuedSnapshotStore(store, **options)


def _pg_store(port: int, schema: str) -> PostgresSnapshotStore:
    return PostgresSnapshotStore(
        f"postgresql://postgres@127.0.0.1:{port}/test", schema=schema, connect_timeout=1
    )


def _paced(rate: float, seconds: float, write: Any, first: int = 0, tick: Any = None) -> int:
    """Call ``write(i)`` ``rate`` times a second for ``seconds``; returns how many."""
    start, n = time.monotonic(), int(rate * seconds)
    for i in range(n):
        wait = start + i / rate - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        if tick is not None:
            tick(time.monotonic() - start)
        write(_snapshot(first + i))
    return n


def child_pg(rate: float, seconds: float, outage: float) -> dict[str, Any]:
    proxy, schema = Proxy(*POSTGRES), f"bench_outage_{uuid.uuid4().hex[:8]}"
    spill = Path(tempfile.mkdtemp(prefix="vouched-outage-")) / "spill.jsonl"
    store = _pg_store(proxy.port, schema)
    queued = _queued(store, spill)
    cut_at = (seconds - outage) / 2
    state = {"cut": False, "mended": outage <= 0}

    def tick(at: float) -> None:
        if outage > 0 and not state["cut"] and at >= cut_at:
            state["cut"] = True
            proxy.cut()
        if state["cut"] and not state["mended"] and at >= cut_at + outage:
            state["mended"] = True
            proxy.mend()

    given = _paced(rate, seconds, queued.write, tick=tick)
    if not state["mended"]:
        proxy.mend()
    ended = time.monotonic()
    queued.flush()
    while queued.spill is not None and queued.spill.waiting() and time.monotonic() - ended < 600:
        time.sleep(0.1)  # the queue's thread replays the spill file
    replayed_in = time.monotonic() - ended
    queued.close(timeout=60)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    store.close()
    proxy.close()
    count, distinct = _rows(schema)
    _drop(schema)
    return {
        "given": given,
        "lost": given - distinct,
        "twice": count - distinct,
        "peak_mb": peak,
        "replayed_in": replayed_in,
        "spilled": queued.spilled,
    }


_HOLD = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
connection.execute("COMMIT")
"""


def child_kill(rate: float, where: str) -> None:
    """Writes until killed, saying how many it gave after each."""
    store = SqliteSnapshotStore(where, timeout=3600)  # the lock outlasts the run
    queued = _queued(store, Path(f"{where}.spill.jsonl"))

    def write(snapshot: Any) -> None:
        queued.write(snapshot)  # given: the answer is out, its snapshot handed on
        counted["n"] += 1
        print(counted["n"], flush=True)

    counted = {"n": 0}
    _paced(rate, 3600, write)


def bench_kill(rate: float, kill_after: float) -> str:
    folder = Path(tempfile.mkdtemp(prefix="vouched-kill-"))
    where = str(folder / "snapshots.db")
    SqliteSnapshotStore(where).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, where],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdin is not None
    assert holder.stdout.readline().strip() == "locked"
    child = subprocess.Popen(
        [sys.executable, __file__, "--child", "kill", str(rate), where],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    given = int(child.stdout.readline())  # the first answer: the clock starts here
    began = time.monotonic()
    while time.monotonic() - began < kill_after:
        given = int(child.stdout.readline())
    child.send_signal(signal.SIGKILL)
    child.wait()
    given = max(given, *(int(line) for line in child.stdout.read().split() or ["0"]))
    holder.stdin.write("go\n")
    holder.stdin.close()
    holder.wait()
    with SqliteSnapshotStore(where) as store:
        QueuedSnapshotStore(store, spill=f"{where}.spill.jsonl").close(timeout=None)
        stored = len(store)
    lost = max(0, given - stored)
    return (
        f"kill   SIGKILL {kill_after:.0f} s into {rate:.0f} answers/s with SQLite locked: "
        f"lost {lost:,} of {given:,} given ({lost / rate:.2f} s of answers; target <= 1 s)"
    )


def child_two(
    rate: float, seconds: float, *, port: int, schema: str, spill: str, first: int
) -> None:
    store = _pg_store(port, schema)
    queued = _queued(store, Path(spill))
    print("ready", flush=True)
    given = _paced(rate, seconds, queued.write, first=first)
    queued.close(timeout=30)
    store.close()
    print(json.dumps({"given": given, "lost": queued.lost}))


def bench_two(rate: float, seconds: float) -> str:
    proxy, schema = Proxy(*POSTGRES), f"bench_two_{uuid.uuid4().hex[:8]}"
    spill = str(Path(tempfile.mkdtemp(prefix="vouched-two-")) / "spill.jsonl")
    PostgresSnapshotStore(PG, schema=schema).close()  # the schema, made once
    children = [
        subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--child",
                "two",
                str(rate),
                str(seconds),
                str(proxy.port),
                schema,
                spill,
                str(k * 10_000_000),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for k in range(2)
    ]
    for c in children:
        assert c.stdout is not None
        assert c.stdout.readline().strip() == "ready"
    began = time.monotonic()
    while any(c.poll() is None for c in children) and time.monotonic() - began < seconds + 120:
        time.sleep(2.0)
        proxy.cut()  # the store flaps: away 2 s, back 2 s
        time.sleep(2.0)
        proxy.mend()
    reports = [json.loads(c.communicate()[0].splitlines()[-1]) for c in children]
    with PostgresSnapshotStore(PG, schema=schema) as store:  # the next start, once for both
        QueuedSnapshotStore(store, spill=spill).close(timeout=None)
    proxy.close()
    count, distinct = _rows(schema)
    _drop(schema)
    given = sum(r["given"] for r in reports)
    counted = sum(r["lost"] for r in reports)
    return (
        f"two    2 processes, one spill path, PostgreSQL flapping every 2 s, {rate:.0f} "
        f"answers/s each for {seconds:.0f} s: lost {given - distinct:,} of {given:,} "
        f"(target 0; counted lost by the writers: {counted}), stored twice "
        f"{count - distinct}"
    )


def _child(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", *args], capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout.splitlines()[-1]))


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        mode, args = sys.argv[2], sys.argv[3:]
        if mode == "pg":
            print(json.dumps(child_pg(float(args[0]), float(args[1]), float(args[2]))))
        elif mode == "kill":
            child_kill(float(args[0]), args[1])
        else:
            child_two(
                float(args[0]),
                float(args[1]),
                port=int(args[2]),
                schema=args[3],
                spill=args[4],
                first=int(args[5]),
            )
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=280.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--outage", type=float, default=30.0)
    parser.add_argument("--kill-after", type=float, default=6.0)
    parser.add_argument("--only", choices=["pg", "kill", "two"])
    args = parser.parse_args()
    print(f"vouched from {Path(vouched.__file__).parent}")
    if args.only in (None, "pg"):
        calm = _child("pg", str(args.rate), str(args.seconds), "0")
        away = _child("pg", str(args.rate), str(args.seconds), str(args.outage))
        print(
            f"pg     PostgreSQL away {args.outage:.0f} s of {args.seconds:.0f} s at "
            f"{args.rate:.0f} answers/s: lost {away['lost']:,} of {away['given']:,}, stored "
            f"twice {away['twice']} (target 0, 0); peak RSS {away['peak_mb']:.0f} MB vs "
            f"{calm['peak_mb']:.0f} MB without the outage "
            f"({away['peak_mb'] / calm['peak_mb']:.2f}x; target <= 1.5x); spill replayed "
            f"{away['replayed_in']:.1f} s after the load "
            f"ended (target <= 30 s; {away['spilled']:,} spilled)"
        )
    if args.only in (None, "kill"):
        print(bench_kill(args.rate, args.kill_after))
    if args.only in (None, "two"):
        print(bench_two(args.rate / 2, min(args.seconds, 30.0)))


if __name__ == "__main__":
    main()
