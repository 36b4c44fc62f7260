"""One app worker of a fleet, as its own process (run by test_fleet_processes.py).

    python worker_main.py SOURCE_URL REDIS_URL|- PREFIX CALLS FAIL_MAX [CALLERS]

Prints "ready", waits for a line on standard input (so every worker starts
together), makes CALLS fetches of an Open-Meteo source behind a GuardedSource
(its breaker in Redis, or in this process when REDIS_URL is "-"), by CALLERS
concurrent callers (default 1) each fetching in turn, then prints one JSON
object: silence reasons counted.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter

import redis.asyncio

from vouched import (
    BreakerSettings,
    BreakerStore,
    GuardedSource,
    LocalBreakerStore,
    RedisBreakerStore,
)
from vouched_adapters import OpenMeteoSource, make_client


async def main(
    source_url: str, redis_url: str, prefix: str, *, calls: int, fail_max: int, callers: int
) -> None:
    client = None if redis_url == "-" else redis.asyncio.Redis.from_url(redis_url)
    store: BreakerStore = (
        LocalBreakerStore()
        if client is None
        else RedisBreakerStore(client, prefix=prefix, timeout=2.0)
    )
    async with make_client() as http:
        source = GuardedSource(
            OpenMeteoSource(base_url=source_url, client=http),
            breaker=BreakerSettings(fail_max=fail_max, reset_timeout=3600),
            breaker_store=store,
            cache=None,
            deadline=5.0,
        )
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        reasons: Counter[str] = Counter()

        async def caller(first: int) -> None:
            for n in range(first, calls, callers):
                query = {"subject": "Berlin", "latitude": 52.52, "longitude": 13.41, "n": n}
                for fact in (await source.fetch(query))[:1]:
                    reasons[str(fact.silent_reason)] += 1

        await asyncio.gather(*(caller(k) for k in range(callers)))
    if client is not None:
        await client.aclose()
    print(json.dumps(reasons), flush=True)


if __name__ == "__main__":
    url, redis_url, prefix, calls, fail_max = sys.argv[1:6]
    callers = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    asyncio.run(
        main(url, redis_url, prefix, calls=int(calls), fail_max=int(fail_max), callers=callers)
    )
