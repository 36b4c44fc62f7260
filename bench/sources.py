"""Benchmark of the sources layer; every figure is printed beside its baseline.

1. GuardedSource overhead over calling an in-process source directly (closed breaker).
2. The cost of a rejection while the circuit is open (target: under 20 us).
3. gather over 5 local sources, one hanging: wall time minus the deadline
   (target: under 5 ms), beside asyncio.sleep(deadline)'s own overshoot.
4. 1,000 concurrent gather calls (Open-Meteo + Frankfurter adapters, guarded)
   against a local HTTP server in another process: throughput and p99, beside
   the same calls on the bare adapters, and with a bulkhead (``max_in_flight``)
   that keeps the queue out of httpx's connection pool.

    python bench/sources.py          # the default sizes (well under 60 s)
    python bench/sources.py --full   # more repeats and 5,000 concurrent gathers
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from vouched import BreakerSettings, Fact, GuardedSource, Query, SourceError, gather

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
FACT = Fact(
    subject="Berlin",
    attribute="temperature",
    value="4.3",
    unit="degC",
    source="bench",
    observed_at="2026-11-29T12:00:00Z",
    ttl=900,
)
QUERY = {"subject": "Berlin", "latitude": 52.52, "longitude": 13.41}


class Instant:
    """An in-process source that answers at once."""

    name = "instant"

    def __init__(self, facts: Sequence[Fact]) -> None:
        self.facts = list(facts)

    async def fetch(self, query: Query) -> Sequence[Fact]:
        return self.facts


class Failing:
    name = "failing"

    async def fetch(self, query: Query) -> Sequence[Fact]:
        raise SourceError("HTTP 503")


class Hanging:
    name = "hanging"

    async def fetch(self, query: Query) -> Sequence[Fact]:
        await asyncio.get_running_loop().create_future()
        return []


def per_call_us(call: Callable[[], Awaitable[object]], calls: int, repeats: int) -> float:
    """Median over ``repeats`` of the mean microseconds per awaited call."""

    async def one_round() -> float:
        started = time.perf_counter()
        for _ in range(calls):
            await call()
        return (time.perf_counter() - started) / calls * 1e6

    async def rounds() -> list[float]:
        await one_round()  # warm-up
        return [await one_round() for _ in range(repeats)]

    return statistics.median(asyncio.run(rounds()))


def bench_overhead(calls: int, repeats: int) -> None:
    source = Instant([FACT] * 8)
    guarded = GuardedSource(source, deadline=2.0)

    async def timeout_only() -> Sequence[Fact]:
        async with asyncio.timeout(2.0):
            return await source.fetch(QUERY)

    direct = per_call_us(lambda: source.fetch(QUERY), calls, repeats)
    timed = per_call_us(timeout_only, calls, repeats)
    wrapped = per_call_us(lambda: guarded.fetch(QUERY), calls, repeats)
    print("1. GuardedSource overhead, closed breaker, in-process source (8 facts)")
    print(f"   direct call           {direct:8.2f} us/call   (baseline)")
    print(f"   asyncio.timeout only  {timed:8.2f} us/call   (the deadline alone)")
    print(f"   GuardedSource.fetch   {wrapped:8.2f} us/call   overhead {wrapped - direct:.2f} us")


def bench_rejection(calls: int, repeats: int) -> None:
    settings = BreakerSettings(fail_max=1, reset_timeout=3600)
    no_cache = GuardedSource(Failing(), breaker=settings, cache=None)
    asyncio.run(no_cache.fetch(QUERY))
    assert no_cache.state == "open"
    events: list[object] = []
    with_listener = GuardedSource(
        Failing(), breaker=settings, cache=None, listeners=[events.append]
    )
    asyncio.run(with_listener.fetch(QUERY))
    direct = per_call_us(lambda: Instant([FACT]).fetch(QUERY), calls, repeats)
    rejected = per_call_us(lambda: no_cache.fetch(QUERY), calls, repeats)
    listened = per_call_us(lambda: with_listener.fetch(QUERY), calls, repeats)
    verdict = "met" if rejected < 20 else "MISSED"
    print("2. Rejection while the circuit is open (answer: one circuit_open silence)")
    print(f"   direct call (baseline) {direct:7.2f} us/call")
    print(f"   rejection              {rejected:7.2f} us/call   target < 20 us: {verdict}")
    print(f"   rejection + listener   {listened:7.2f} us/call   (one BreakerEvent per call)")


def bench_gather_deadline(rounds: int, deadline: float) -> None:
    async def overshoot_sleep() -> float:
        started = time.perf_counter()
        await asyncio.sleep(deadline)
        return time.perf_counter() - started - deadline

    async def overshoot_gather() -> float:
        sources = [Instant([FACT]) for _ in range(4)] + [Hanging()]
        started = time.perf_counter()
        facts = await gather(sources, QUERY, deadline=deadline)
        elapsed = time.perf_counter() - started
        assert facts[-1].silent_reason == "timeout"
        return elapsed - deadline

    async def overshoot_guarded() -> float:
        sources = [GuardedSource(Instant([FACT])) for _ in range(4)]
        sources.append(GuardedSource(Hanging(), deadline=10.0))
        started = time.perf_counter()
        facts = await gather(sources, QUERY, deadline=deadline)
        elapsed = time.perf_counter() - started
        assert facts[-1].silent_reason == "timeout"
        return elapsed - deadline

    async def run() -> tuple[list[float], list[float], list[float]]:
        sleeps, gathers, guarded = [], [], []
        for _ in range(rounds):
            sleeps.append(await overshoot_sleep())
            gathers.append(await overshoot_gather())
            guarded.append(await overshoot_guarded())
        return sleeps, gathers, guarded

    sleeps, gathers, guarded = asyncio.run(run())
    ms = 1e3
    median, worst = statistics.median(gathers) * ms, max(gathers) * ms
    verdict = "met" if median < 5 else "MISSED"
    print(f"3. gather over 5 sources, one hanging, deadline {deadline * ms:.0f} ms ({rounds} runs)")
    print(
        f"   asyncio.sleep overshoot (baseline) median {statistics.median(sleeps) * ms:.2f} ms"
        f"  max {max(sleeps) * ms:.2f} ms"
    )
    print(
        f"   gather wall - deadline             median {median:.2f} ms  max {worst:.2f} ms"
        f"   target < 5 ms: {verdict}"
    )
    print(
        f"   same, all 5 guarded                median {statistics.median(guarded) * ms:.2f} ms"
        f"  max {max(guarded) * ms:.2f} ms   (the hanging one times out itself, 2 ms early)"
    )


# -- 4. concurrent gathers over HTTP ----------------------------------------------------


def serve(port_file: str) -> None:
    """A tiny keep-alive HTTP/1.1 server answering with the recorded fixtures."""
    bodies = {
        b"/v1/forecast": (FIXTURES / "open_meteo_current.json").read_bytes(),
        b"/latest": (FIXTURES / "frankfurter_latest.json").read_bytes(),
    }

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                path = head.split(b" ", 2)[1].split(b"?", 1)[0]
                body = bodies.get(path, b"{}")
                status = b"200 OK" if path in bodies else b"404 Not Found"
                writer.write(
                    b"HTTP/1.1 " + status + b"\r\nContent-Type: application/json\r\n"
                    b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=1024)
        port = server.sockets[0].getsockname()[1]
        Path(port_file).write_text(str(port))
        async with server:
            await server.serve_forever()

    asyncio.run(main())


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def bench_http(concurrent: int, tmp: Path, connections: int = 10) -> None:
    from vouched_adapters import FrankfurterRates, OpenMeteoSource, make_client  # noqa: PLC0415

    port_file = tmp / "port"
    port_file.unlink(missing_ok=True)
    process = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port_file)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            if port_file.exists() and port_file.read_text():
                break
            time.sleep(0.025)
        base = f"http://127.0.0.1:{port_file.read_text()}"
        budget = max(30.0, concurrent / 20)  # queueing is the point here, not deadlines

        async def run(guarded: bool, limit: int | None) -> tuple[float, list[float], int]:
            pool = make_client(max_connections=connections, max_keepalive=connections)
            async with pool as client:
                raw: list[Any] = [
                    OpenMeteoSource(base_url=base, client=client),
                    FrankfurterRates(base_url=base, client=client),
                ]
                sources = (
                    [GuardedSource(s, deadline=budget, max_in_flight=limit) for s in raw]
                    if guarded
                    else raw
                )
                latencies: list[float] = []

                async def one() -> list[Fact]:
                    started = time.perf_counter()
                    facts = await gather(sources, QUERY, deadline=budget)
                    latencies.append(time.perf_counter() - started)
                    return facts

                await asyncio.gather(*(one() for _ in range(50)))  # warm the pool
                latencies.clear()
                started = time.perf_counter()
                answers = await asyncio.gather(*(one() for _ in range(concurrent)))
                wall = time.perf_counter() - started
                silent = sum(f.is_silent for a in answers for f in a)
                return wall, latencies, silent

        print(
            f"4. {concurrent:,} concurrent gathers (2 HTTP sources each) against a local server"
            f" ({connections} pooled connections)"
        )
        half = max(1, connections // 2)
        for label, guarded, limit in (
            ("bare adapters (baseline)", False, None),
            ("guarded adapters", True, None),
            (f"guarded, max_in_flight={half}", True, half),
        ):
            wall, latencies, silent = asyncio.run(run(guarded, limit))
            print(
                f"   {label:25s} {concurrent / wall:8.0f} gathers/s   "
                f"p50 {percentile(latencies, 0.5) * 1e3:7.1f} ms   "
                f"p99 {percentile(latencies, 0.99) * 1e3:7.1f} ms   silences {silent}"
            )
    finally:
        process.terminate()
        process.wait(timeout=10)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--full", action="store_true", help="more repeats, 5,000 gathers")
    parser.add_argument("--serve", metavar="PORT_FILE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve)
        return 0
    import tempfile  # noqa: PLC0415

    calls, repeats = (50_000, 9) if args.full else (20_000, 5)
    print(f"python {sys.version.split()[0]}, sizes: {'full' if args.full else 'default'}")
    bench_overhead(calls, repeats)
    bench_rejection(calls, repeats)
    bench_gather_deadline(rounds=60 if args.full else 20, deadline=0.1)
    with tempfile.TemporaryDirectory() as tmp:
        bench_http(5_000 if args.full else 1_000, Path(tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
