"""Benchmark: ``vouched serve`` against the same calls in-process, and streaming's
time to the first safe sentence against the whole answer.

Run ``python bench/serve.py`` (about 30 s) or ``python bench/serve.py --full``.

1. The service runs as ``vouched serve --config examples/serve.toml --port 0``
   in a child process; this process is the load generator (httpx, one
   keep-alive connection, then 8 concurrent ones). Each endpoint gets a
   bounded number of requests (and at most 15 s). Baseline: the same call
   made in-process (``partition`` / ``scan`` on the same body, JSON parsed and
   printed as the service does), timed in the same run. Prints p50/p99
   latency, requests per second and the service overhead per request.
2. A phraser that emits 4-character tokens every 10 ms: time to the first
   sentence that passed the scan with ``Grounder.answer_stream``, beside the
   time to the whole answer with ``Grounder.answer``.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import httpx

from vouched import Fact, Grounder, Policy, Prompt, partition, scan
from vouched._jsonio import dumps, loads
from vouched.testing import FakeClock

NODELAY = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NOW = "2026-11-29T12:10:00Z"
FACTS = loads((EXAMPLES / "facts.json").read_text(encoding="utf-8"))
TEXT = (EXAMPLES / "answer.txt").read_text(encoding="utf-8")
BODIES = {
    "/v1/gate": {"facts": FACTS, "now": NOW},
    "/v1/scan": {"text": TEXT, "facts": FACTS, "lexicon": "weather", "now": NOW},
}


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def in_process(path: str) -> Callable[[], object]:
    from vouched import Lexicon  # noqa: PLC0415
    from vouched._time import parse_instant  # noqa: PLC0415

    lexicon = Lexicon.load(EXAMPLES / "lexicon.json")
    raw = dumps(BODIES[path]).encode()
    policy = Policy()

    def gate() -> object:
        body = loads(raw)
        facts = [Fact.model_validate(f) for f in body["facts"]]
        return dumps(partition(facts, policy, parse_instant(body["now"])).to_json())

    def scan_() -> object:
        body = loads(raw)
        facts = [Fact.model_validate(f) for f in body["facts"]]
        gated = partition(facts, policy, parse_instant(body["now"]))
        return dumps(scan(body["text"], gated, lexicon, policy=policy).to_json())

    return gate if path == "/v1/gate" else scan_


def timed_calls(call: Callable[[], object], count: int, budget: float) -> list[float]:
    samples: list[float] = []
    stop = time.perf_counter() + budget
    while len(samples) < count and time.perf_counter() < stop:
        began = time.perf_counter()
        call()
        samples.append((time.perf_counter() - began) * 1e6)
    return samples


async def concurrent(url: str, body: bytes, count: int, workers: int) -> float:
    """Requests per second with ``workers`` connections sharing ``count`` requests."""
    left = count
    headers = {"content-type": "application/json"}

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal left
        while left > 0:
            left -= 1
            response = await client.post(url, content=body, headers=headers)
            assert response.status_code == 200

    transport = httpx.AsyncHTTPTransport(
        socket_options=NODELAY, limits=httpx.Limits(max_connections=workers)
    )
    async with httpx.AsyncClient(transport=transport) as client:
        began = time.perf_counter()
        await asyncio.gather(*(worker(client) for _ in range(workers)))
        return count / (time.perf_counter() - began)


def start_server() -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "vouched", "serve", "--config", str(EXAMPLES / "serve.toml"),
         "--port", "0"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )  # fmt: skip
    assert process.stderr is not None
    line = process.stderr.readline()
    if " on " not in line:
        process.kill()
        raise SystemExit(f"server did not start: {line}")
    return process, line.split(" on ", 1)[1].strip()


def bench_service(count: int) -> None:
    process, base = start_server()
    try:
        print(f"service: {base} (child process); load generator: this process")
        print(f"{'endpoint':10} {'how':12} {'n':>5} {'p50 us':>9} {'p99 us':>9} {'req/s':>8}")
        # TCP_NODELAY as curl and most HTTP clients set it: httpx writes the
        # headers and the body separately, and Nagle would hold the body back
        # until the server's delayed ACK (40 ms), which measures the kernel.
        with httpx.Client(transport=httpx.HTTPTransport(socket_options=NODELAY)) as client:
            for path, body in BODIES.items():
                raw = dumps(body).encode()
                headers = {"content-type": "application/json"}

                def over_http(p: str = path, r: bytes = raw, h: dict[str, str] = headers) -> object:
                    response = client.post(f"{base}{p}", content=r, headers=h)
                    assert response.status_code == 200, response.text
                    return response

                timed_calls(over_http, 20, 5)  # warm up the connection and the server
                local = timed_calls(in_process(path), count, 15)
                http = timed_calls(over_http, count, 15)
                rps = asyncio.run(concurrent(f"{base}{path}", raw, count, 8))
                for how, samples, rate in (
                    ("in-process", local, 1e6 / statistics.mean(local)),
                    ("http 1 conn", http, 1e6 / statistics.mean(http)),
                ):
                    print(
                        f"{path:10} {how:12} {len(samples):5} {percentile(samples, 0.5):9.0f} "
                        f"{percentile(samples, 0.99):9.0f} {rate:8.0f}"
                    )
                print(f"{path:10} {'http 8 conns':12} {count:5} {'':>9} {'':>9} {rps:8.0f}")
                overhead = percentile(http, 0.5) - percentile(local, 0.5)
                print(
                    f"{path:10} service overhead per request (p50 http - p50 in-process): "
                    f"{overhead:.0f} us ({percentile(http, 0.5) / percentile(local, 0.5):.1f}x)"
                )
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()


class TokenPhraser:
    """Emits a fixed answer as 4-character tokens, one every ``interval`` seconds."""

    name = "tokens"

    def __init__(self, text: str, interval: float) -> None:
        self.text = text
        self.interval = interval

    async def phrase_stream(self, prompt: Prompt) -> AsyncIterator[str]:
        for start in range(0, len(self.text), 4):
            await asyncio.sleep(self.interval)
            yield self.text[start : start + 4]

    async def phrase(self, prompt: Prompt) -> str:
        return "".join([piece async for piece in self.phrase_stream(prompt)])


class FileFacts:
    name = "open-meteo"

    async def fetch(self, query: Any) -> Sequence[Fact]:
        return [Fact.model_validate(f) for f in FACTS if f["subject"] == "Berlin"]


def bench_first_sentence(runs: int) -> None:
    text = (
        "The temperature in Berlin is 21.4 °C. The relative humidity in Berlin is 63%. "
        "The wind speed in Berlin is unavailable right now (the source is not responding)."
    )
    interval = 0.010
    grounder = Grounder([FileFacts()], phraser=TokenPhraser(text, interval), clock=FakeClock(NOW))

    async def streamed() -> tuple[float, float]:
        began = time.perf_counter()
        first = None
        async for event in grounder.answer_stream("Weather in Berlin?"):
            if first is None and event.kind == "sentence":
                first = time.perf_counter() - began
        assert first is not None
        return first, time.perf_counter() - began

    async def whole() -> float:
        began = time.perf_counter()
        answer = await grounder.answer("Weather in Berlin?")
        assert answer.ok, answer.reasons
        return time.perf_counter() - began

    firsts, lasts, wholes = [], [], []
    for _ in range(runs):
        first, last = asyncio.run(streamed())
        firsts.append(first * 1000)
        lasts.append(last * 1000)
        wholes.append(asyncio.run(whole()) * 1000)
    tokens = (len(text) + 3) // 4
    print(
        f"\nstreaming: {tokens} tokens of 4 characters, one every {interval * 1000:.0f} ms; "
        f"median of {runs} runs"
    )
    print(f"  answer_stream, first safe sentence: {statistics.median(firsts):7.0f} ms")
    print(f"  answer_stream, last event:          {statistics.median(lasts):7.0f} ms")
    print(f"  answer (no streaming), whole answer: {statistics.median(wholes):6.0f} ms")
    print(
        f"  first sentence / whole answer: "
        f"{statistics.median(firsts) / statistics.median(wholes):.2f}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="more requests and runs")
    args = parser.parse_args(argv)
    count, runs = (3000, 9) if args.full else (600, 3)
    bench_service(count)
    bench_first_sentence(runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
