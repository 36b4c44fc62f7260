"""Benchmark: the gateway's upstream call, httpx against aiohttp, CPU per request.

The gateway spends CPU on the event loop for every upstream call; this measures
that part alone. Both clients post the same chat request to the same local
upstream (bench/serve.py's: its own process, a 500-character answer after 3 ms)
over 20 keep-alive connections, read the JSON answer, and the client's CPU time
(``time.process_time``: this process only, the upstream is another) is divided
by the requests. The two alternate for ``--rounds`` rounds; the medians and
their ratio are printed. The issue's rule: keep one client unless the other
measures more than 10% better.

    python bench/upstream_client.py [--requests N] [--rounds R]

aiohttp is in the server extra (the gateway calls its upstreams through it since this
measure); without it, this prints one line and stops.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve import UPSTREAM, gateway_answer  # bench/serve.py beside this file

BODY = json.dumps(
    {"model": "upstream-3ms", "messages": [{"role": "user", "content": "Weather in Berlin?"}]}
).encode()
CONNECTIONS = 20


async def with_httpx(url: str, count: int) -> float:
    limits = httpx.Limits(max_connections=CONNECTIONS, max_keepalive_connections=CONNECTIONS)
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        return await _timed(count, lambda: _httpx_call(client, url))


async def _httpx_call(client: httpx.AsyncClient, url: str) -> None:
    response = await client.post(url, content=BODY, headers={"content-type": "application/json"})
    response.raise_for_status()
    json.loads(response.content)


async def with_aiohttp(url: str, count: int) -> float:
    import aiohttp  # noqa: PLC0415 - measured only where installed

    connector = aiohttp.TCPConnector(limit=CONNECTIONS)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:

        async def call() -> None:
            async with session.post(
                url, data=BODY, headers={"content-type": "application/json"}
            ) as response:
                response.raise_for_status()
                json.loads(await response.read())

        return await _timed(count, call)


async def _timed(count: int, call: object) -> float:
    """CPU seconds per request for ``count`` calls on CONNECTIONS tasks."""
    left = count

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            await call()  # type: ignore[operator]

    await asyncio.gather(*(worker() for _ in range(CONNECTIONS)))  # warm: connections open
    left = count
    began = time.process_time()
    await asyncio.gather(*(worker() for _ in range(CONNECTIONS)))
    return (time.process_time() - began) / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    try:
        import aiohttp  # noqa: F401, PLC0415 - only asked whether it is there
    except ImportError:
        print("aiohttp is not installed: nothing to compare httpx with")
        return 0
    upstream = subprocess.Popen(
        [sys.executable, "-c", UPSTREAM, gateway_answer()], stdout=subprocess.PIPE, text=True
    )
    assert upstream.stdout is not None
    url = f"http://127.0.0.1:{upstream.stdout.readline().strip()}/v1/chat/completions"
    figures: dict[str, list[float]] = {"httpx": [], "aiohttp": []}
    try:
        for _ in range(args.rounds):
            figures["httpx"].append(asyncio.run(with_httpx(url, args.requests)))
            figures["aiohttp"].append(asyncio.run(with_aiohttp(url, args.requests)))
    finally:
        upstream.terminate()
        upstream.wait(timeout=30)
    medians = {name: statistics.median(values) * 1e3 for name, values in figures.items()}
    print(f"upstream call, CPU ms per request ({args.requests} requests x {args.rounds} rounds, "
          f"{CONNECTIONS} connections, median)")  # fmt: skip
    for name, value in medians.items():
        print(f"  {name:8}: {value:.3f} ms")
    print(f"  httpx / aiohttp: {medians['httpx'] / medians['aiohttp']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
