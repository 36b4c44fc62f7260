"""Benchmark: ``vouched serve`` beside the same service built from ``main``, in one run.

Run ``python bench/serve.py`` (about 2 minutes) or ``--full`` (more requests).

Two services run as child processes, ``vouched serve --config
examples/serve.toml --port 0``: this branch, and the ``main`` branch's source
(``git archive main``, the same interpreter and dependencies) as the
baseline. This process is the load generator (httpx).

1. ``/v1/gate``, ``/v1/scan``, ``/v1/answer`` and ``/v1/chat/completions``
   (this branch only: main has no such route) at 1, 50 and 300 connections:
   p50/p99 latency, requests per second, non-200 answers.
2. In-process vs HTTP: the same gate and scan called in this process, beside
   one keep-alive connection: the service's overhead per request.
3. ``/v1/gate`` p99 while 8 clients send 32 KB scans, and the 504s it got.
4. Hostile load, each beside main's answer: a huge exponent, 1,100 idle
   connections, a runaway stream, SIGTERM at full load (snapshots written vs
   answers given), a dead source behind 20 answers (calls that reached it).
5. The gateway (``--gateway`` runs only this): both services in front of a
   local OpenAI-compatible upstream (its own process) that answers a
   500-character text in 3 ms. ``/v1/chat/completions`` answers/s and p99 at
   20 connections, ``/healthz`` p99 meanwhile, and the gateway's overhead
   (p50, one keep-alive connection) over calling the upstream directly.
   Targets: >= 300 answers/s, p99 < 150 ms, /healthz p99 < 20 ms, overhead
   p50 <= 3 ms. Then ``/v1/gate`` p99 alone and beside 8 clients' 32 KB
   scans (target: beside <= 1.5x alone).

``--against REF`` builds the baseline from another ref than ``main`` (the
commit a branch started from, say). ``--processes N`` adds a row: the branch's
gateway under ``vouched serve --processes N``. CPU per answer counts the service's
server processes too. ``--snapshots`` has the gateway keep a snapshot of every
answer in SQLite, as a deployment would. ``--scan-processes N`` adds a row: the
branch's gateway with ``server.scan_processes = N`` (``/v1/scan`` in processes)
and a ``server.health_port`` (its /healthz probed there, answered by a thread).

Figures on a shared 2-core machine are noisy: read the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from vouched import Fact, Grounder, Policy, Prompt, SqliteSnapshotStore, partition, scan
from vouched._jsonio import dumps, loads
from vouched.testing import FakeClock

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
NODELAY = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
NOW = "2026-11-29T12:10:00Z"
FACTS = loads((EXAMPLES / "facts.json").read_text(encoding="utf-8"))
TEXT = (EXAMPLES / "answer.txt").read_text(encoding="utf-8")
ASK = [{"role": "user", "content": "How is the weather in Berlin?"}]
BODIES: dict[str, dict[str, Any]] = {
    "/v1/gate": {"facts": FACTS, "now": NOW},
    "/v1/scan": {"text": TEXT, "facts": FACTS, "lexicon": "weather", "now": NOW},
    "/v1/answer": {"question": "How is Berlin?", "query": {"subject": "Berlin"}},
    "/v1/chat/completions": {
        "model": "m", "messages": ASK, "vouched": {"query": {"subject": "Berlin"}}
    },
}  # fmt: skip
JSON = {"content-type": "application/json"}


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


# -- the two services ------------------------------------------------------------


class Service:
    """One ``vouched serve`` child process; ``source`` is None for this branch,
    or the folder holding main's ``src``."""

    # the branch's name in the tables
    HERE = "branch"

    def __init__(self, name: str, config: Path, source: Path | None, *extra: str) -> None:
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        if source is not None:
            env["PYTHONPATH"] = str(source / "src")
        self.name = name
        self.process = subprocess.Popen(
            [sys.executable, "-m", "vouched", "serve", "--config", str(config), "--port", "0",
             *extra],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env,
        )  # fmt: skip
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        if " on " not in line:
            self.process.kill()
            raise SystemExit(f"{name}: server did not start: {line}")
        self.url = line.split(" on ", 1)[1].strip()
        self.health: str | None = None  # a health port's /healthz, when the config has one
        if "health_port" in config.read_text(encoding="utf-8"):
            self.health = self.process.stderr.readline().split(" on ", 1)[1].strip()

    def cpu_seconds(self) -> float:
        """The CPU time the service process has used (user + system): a figure
        a busy machine slows down far less than wall-clock latency."""
        ticks = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):  # the service and its server processes
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if self.process.pid in (int(stat.parent.name), int(fields[1])):
                ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            code = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()  # a frozen event loop ignores SIGTERM
            code = self.process.wait(timeout=30)
        if self.process.stderr is not None:
            self.process.stderr.close()
        return code


def main_source(ref: str = "main") -> Path:
    """``ref``'s src (default ``main``), exported to a temporary folder (never a work tree)."""
    folder = Path(tempfile.mkdtemp(prefix="vouched-main-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"],  # noqa: S607
                             capture_output=True, check=True)  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)  # noqa: S607
    return folder


# -- load ----------------------------------------------------------------------


async def load(url: str, body: bytes, count: int, conns: int, budget: float) -> dict[str, Any]:
    """``count`` requests over ``conns`` connections (at most ``budget`` s)."""
    latencies: list[float] = []
    failures = 0
    left = count
    stop = time.perf_counter() + budget

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal left, failures
        while left > 0 and time.perf_counter() < stop:
            left -= 1
            began = time.perf_counter()
            try:
                response = await client.post(url, content=body, headers=JSON)
                ok = response.status_code == 200
            except httpx.HTTPError:
                ok = False
            latencies.append(time.perf_counter() - began)
            failures += not ok

    transport = httpx.AsyncHTTPTransport(socket_options=NODELAY,
                                         limits=httpx.Limits(max_connections=conns))  # fmt: skip
    async with httpx.AsyncClient(transport=transport, timeout=60) as client:
        began = time.perf_counter()
        await asyncio.gather(*(worker(client) for _ in range(conns)))
        spent = time.perf_counter() - began
    return {
        "n": len(latencies),
        "rps": len(latencies) / spent,
        "failures": failures,
        "p50": percentile(latencies, 0.5) * 1e3,
        "p99": percentile(latencies, 0.99) * 1e3,
    }


def bench_endpoints(services: Sequence[Service], count: int, budget: float) -> None:
    print("\n1. endpoints: p50/p99 ms, req/s, non-200 (baseline: main)")
    print(f"{'endpoint':22} {'conns':>5} {'service':8} {'n':>6} {'p50':>8} {'p99':>8} "
          f"{'req/s':>7} {'non-200':>7}")  # fmt: skip
    for path, body in BODIES.items():
        raw = dumps(body).encode()
        for conns in (1, 50, 300):
            rates = {}
            for service in services:
                if path == "/v1/chat/completions" and service.name == "main":
                    continue  # main has no OpenAI-compatible route
                asyncio.run(load(f"{service.url}{path}", raw, 20, 1, 5))  # warm up
                r = asyncio.run(load(f"{service.url}{path}", raw, count, conns, budget))
                rates[service.name] = r["rps"]
                print(f"{path:22} {conns:5} {service.name:8} {r['n']:6} {r['p50']:8.1f} "
                      f"{r['p99']:8.1f} {r['rps']:7.0f} {r['failures']:7}")  # fmt: skip
            if len(rates) == 2:
                ratio = rates[Service.HERE] / rates["main"]
                print(f"{'':22} {'':5} req/s {Service.HERE} / main: {ratio:.2f}")


def bench_overhead(service: Service, count: int) -> None:
    from vouched import Lexicon  # noqa: PLC0415
    from vouched._time import parse_instant  # noqa: PLC0415

    print("\n2. in-process vs HTTP (one keep-alive connection), p50 us")
    lexicon = Lexicon.load(EXAMPLES / "lexicon.json")
    policy = Policy()
    with httpx.Client(transport=httpx.HTTPTransport(socket_options=NODELAY)) as client:
        for path in ("/v1/gate", "/v1/scan"):
            raw = dumps(BODIES[path]).encode()

            def local(r: bytes = raw, p: str = path) -> object:
                body = loads(r)
                facts = [Fact.model_validate(f) for f in body["facts"]]
                gated = partition(facts, policy, parse_instant(body["now"]))
                if p == "/v1/gate":
                    return dumps(gated.to_json())
                return dumps(scan(body["text"], gated, lexicon, policy=policy).to_json())

            def remote(r: bytes = raw, p: str = path) -> object:
                return client.post(f"{service.url}{p}", content=r, headers=JSON)

            samples = {}
            for how, call in (("in-process", local), ("http", remote)):
                for _ in range(20):
                    call()
                times = []
                for _ in range(count):
                    began = time.perf_counter()
                    call()
                    times.append((time.perf_counter() - began) * 1e6)
                samples[how] = percentile(times, 0.5)
            here, there = samples["in-process"], samples["http"]
            print(f"  {path:10} in-process {here:7.0f}  http {there:7.0f}  overhead "
                  f"{there - here:6.0f} us ({there / here:.1f}x)")  # fmt: skip


async def gate_under_scans(url: str, seconds: float, scanners: int = 8) -> tuple[float, int, int]:
    """/v1/gate p99 (ms), its count and 504s while ``scanners`` clients send 32 KB scans."""
    text = (TEXT + " ") * (32 * 1024 // (len(TEXT) + 1))
    scan_body = dumps({"text": text, "facts": FACTS, "lexicon": "weather", "now": NOW}).encode()
    gate_body = dumps(BODIES["/v1/gate"]).encode()
    stop = time.perf_counter() + seconds
    latencies: list[float] = []
    timeouts = 0

    async def scanner(client: httpx.AsyncClient) -> None:
        while time.perf_counter() < stop:
            try:
                await client.post(f"{url}/v1/scan", content=scan_body, headers=JSON)
            except httpx.HTTPError:
                return

    async def gater(client: httpx.AsyncClient) -> None:
        nonlocal timeouts
        await asyncio.sleep(0.5)  # the scans are under way
        while time.perf_counter() < stop:
            began = time.perf_counter()
            response = await client.post(f"{url}/v1/gate", content=gate_body, headers=JSON)
            latencies.append((time.perf_counter() - began) * 1e3)
            timeouts += response.status_code == 504
            await asyncio.sleep(0.01)

    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=16)) as client:
        await asyncio.gather(gater(client), *(scanner(client) for _ in range(scanners)))
    return percentile(latencies, 0.99), len(latencies), timeouts


def bench_gate_under_scans(services: Sequence[Service], seconds: float) -> None:
    print("\n3. /v1/gate while 8 clients send 32 KB scans (target: p99 < 100 ms, no 504)")
    for service in services:
        p99, n, timeouts = asyncio.run(gate_under_scans(service.url, seconds))
        print(f"  {service.name:8} gate p99 {p99:8.1f} ms over {n} requests, 504s: {timeouts}")


# -- hostile load ------------------------------------------------------------------


def huge_exponent(service: Service) -> str:
    body = (b'{"facts": [{"subject": "Berlin", "attribute": "t", "value": 1e999999999,'
            b' "source": "s", "observed_at": "2026-11-29T12:00:00Z"}]}')  # fmt: skip
    times = []
    transport = httpx.HTTPTransport(socket_options=NODELAY)
    with httpx.Client(transport=transport, timeout=3) as client:
        for _ in range(20):
            began = time.perf_counter()
            try:
                response = client.post(f"{service.url}/v1/gate", content=body, headers=JSON)
            except httpx.TimeoutException:
                return "no answer within 3 s (the event loop is frozen)"
            times.append((time.perf_counter() - began) * 1e3)
    return f"HTTP {response.status_code} in {statistics.median(times):.2f} ms (median of 20)"


def idle_connections(service: Service, count: int = 1100) -> str:
    socks = []
    try:
        for _ in range(count):
            socks.append(
                socket.create_connection(("127.0.0.1", int(service.url.rsplit(":", 1)[1])))
            )
        began = time.perf_counter()
        try:
            response = httpx.get(f"{service.url}/healthz", timeout=5)
            spent = (time.perf_counter() - began) * 1e3
            health = f"/healthz HTTP {response.status_code} in {spent:.0f} ms"
        except httpx.HTTPError as error:
            health = f"/healthz unreachable ({type(error).__name__})"
        closed = 0
        for sock in socks:
            sock.setblocking(False)
            try:
                closed += sock.recv(1) == b""
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        return f"{health}; {closed} of {count} idle connections closed by the server at once"
    finally:
        for sock in socks:
            sock.close()


class _Runaway:
    """A model that streams text with no sentence end, for ever."""

    name = "runaway"

    async def phrase_stream(self, prompt: Prompt) -> AsyncIterator[str]:
        while True:
            yield "and on " * 100
            await asyncio.sleep(0)

    async def phrase(self, prompt: Prompt) -> str:
        return "".join([p async for p in self.phrase_stream(prompt)])  # never ends


class _Berlin:
    name = "open-meteo"

    async def fetch(self, query: Any) -> Sequence[Fact]:
        return [Fact.model_validate(f) for f in FACTS if f["subject"] == "Berlin"]


def runaway_stream() -> str:
    grounder = Grounder([_Berlin()], phraser=_Runaway(), clock=FakeClock(NOW))

    async def run() -> tuple[str, float, int]:
        began = time.perf_counter()
        events = [e async for e in grounder.answer_stream("Berlin?")]
        done = events[-1]
        assert done.kind == "done"
        return str(done.answer.refusal), time.perf_counter() - began, len(done.answer.text)

    refusal, seconds, _ = asyncio.run(asyncio.wait_for(run(), 60))
    return f"refused ({refusal}) after {seconds * 1e3:.0f} ms (the cap: 20,000 characters)"


def sigterm_at_load(source: Path | None, name: str, seconds: float) -> str:
    folder = Path(tempfile.mkdtemp(prefix="vouched-drain-"))
    for file in ("lexicon.json", "catalog.csv", "contract.toml", "facts.json"):
        (folder / file).write_bytes((EXAMPLES / file).read_bytes())
    text = (EXAMPLES / "serve.toml").read_text(encoding="utf-8")
    (folder / "serve.toml").write_text(text.replace("[answer]\n", '[answer]\nstore = "s.db"\n'))
    service = Service(name, folder / "serve.toml", source)
    given = 0
    body = dumps(BODIES["/v1/answer"]).encode()

    async def client(http: httpx.AsyncClient, stop: float) -> None:
        nonlocal given
        while True:
            try:
                response = await http.post(f"{service.url}/v1/answer", content=body, headers=JSON)
            except httpx.HTTPError:
                return
            if response.status_code != 200:
                return
            given += 1
            if time.perf_counter() > stop and service.process.poll() is None:
                service.process.terminate()

    async def run() -> None:
        stop = time.perf_counter() + seconds
        async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=50)) as http:
            await asyncio.gather(*(client(http, stop) for _ in range(50)))

    asyncio.run(run())
    service.stop()
    with SqliteSnapshotStore(folder / "s.db", read_only=True) as store:
        written = sum(1 for _ in store.iter())
    return f"answers given {given}, snapshots written {written}"


class _Dead(BaseHTTPRequestHandler):
    hits = 0

    def do_GET(self) -> None:
        type(self).hits += 1
        self.send_response(503)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"error": true}')

    def log_message(self, *args: object) -> None:
        pass


def dead_source(source: Path | None, name: str) -> str:
    _Dead.hits = 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Dead)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    folder = Path(tempfile.mkdtemp(prefix="vouched-dead-"))
    base = f"http://127.0.0.1:{server.server_address[1]}"
    (folder / "serve.toml").write_text(
        f'[[answer.sources]]\nadapter = "open-meteo"\noptions = {{ base_url = "{base}" }}\n'
    )
    service = Service(name, folder / "serve.toml", source)
    query = {"subject": "Berlin", "latitude": 52.52, "longitude": 13.41}
    try:
        for _ in range(20):
            httpx.post(f"{service.url}/v1/answer", json={"question": "Berlin?", "query": query},
                       timeout=30)  # fmt: skip
    finally:
        service.stop()
        server.shutdown()
    return f"{_Dead.hits} of 20 answers reached the dead source (fail_max 5: target <= 6)"


def bench_hostile(services: Sequence[Service], source: Path, seconds: float) -> None:
    print("\n4. hostile load")
    ours = services[-1]
    print(f"  huge exponent       {Service.HERE}: {huge_exponent(ours)}")
    print(f"  1,100 idle conns    {Service.HERE}: {idle_connections(ours)}")
    print(f"  1,100 idle conns    main:    {idle_connections(services[0])}")
    print(f"  runaway stream      {Service.HERE}: {runaway_stream()}")
    print(f"  SIGTERM at load     {Service.HERE}: {sigterm_at_load(None, Service.HERE, seconds)}")
    print(f"  SIGTERM at load     main:    {sigterm_at_load(source, 'main', seconds)}")
    print(f"  dead source         {Service.HERE}: {dead_source(None, Service.HERE)}")
    print(f"  dead source         main:    {dead_source(source, 'main')}")
    # Last: main never answers it, and its frozen loop ignores SIGTERM (killed).
    print(f"  huge exponent       main:    {huge_exponent(services[0])}")


# -- the gateway ----------------------------------------------------------------

# A minimal OpenAI-compatible upstream, in its own process (so the load
# generator and the services do not share its GIL): HTTP/1.1 keep-alive,
# every POST answered after 3 ms with ANSWER.
UPSTREAM = r"""
import asyncio, json, sys
ANSWER = sys.argv[1]
BODY = json.dumps({"id": "u", "object": "chat.completion", "created": 0, "model": "upstream-3ms",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": ANSWER},
                 "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 150, "completion_tokens": 120, "total_tokens": 270}}).encode()
HEAD = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
        + str(len(BODY)).encode() + b"\r\n\r\n")

async def serve(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            await reader.readexactly(length)
            await asyncio.sleep(0.003)
            writer.write(HEAD + BODY)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        writer.close()

async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", 0, backlog=1024)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()

asyncio.run(main())
"""


def gateway_answer() -> str:
    """A text of about 500 characters that passes the scan (Berlin's facts)."""
    sentences = ["The temperature in Berlin is 21.4 °C.",
                 "The relative humidity in Berlin is 63%."]  # fmt: skip
    said: list[str] = []
    while sum(len(s) + 1 for s in said) < 500:
        said.append(sentences[len(said) % 2])
    return " ".join(said)


def gateway_folder(upstream: str, snapshots: bool = False) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="vouched-gateway-"))
    for file in ("lexicon.json", "catalog.csv", "contract.toml"):
        (folder / file).write_bytes((EXAMPLES / file).read_bytes())
    # The facts observed now (the services judge freshness on the system clock).
    observed = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    fresh = [{**fact, "observed_at": observed, "ttl": 86400} for fact in FACTS]
    (folder / "facts.json").write_text(dumps(fresh), encoding="utf-8")
    text = (EXAMPLES / "serve.toml").read_text(encoding="utf-8")
    phraser = f'kind = "openai"\nbase_url = "{upstream}/v1"\nmodel = "upstream-3ms"'
    text = text.replace('kind = "template"', phraser)
    if snapshots:  # a fresh SQLite file for each service (they run one after the other)
        text = text.replace('on_fail = "retry"', 'on_fail = "retry"\nstore = "snapshots.db"')
    (folder / "serve.toml").write_text(text, encoding="utf-8")
    return folder


async def gateway_load(
    url: str, seconds: float, conns: int = 20, health_url: str | None = None
) -> dict[str, float]:
    """Chat completions over ``conns`` connections for ``seconds``, and
    /healthz every 10 ms meanwhile on its own connection (at ``health_url``, a
    health port's, when given)."""
    body = dumps({"model": "m", "messages": ASK,
                  "vouched": {"query": {"subject": "Berlin"}}}).encode()  # fmt: skip
    latencies: list[float] = []
    health: list[float] = []
    failures = 0
    stop = time.perf_counter() + seconds

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal failures
        while time.perf_counter() < stop:
            began = time.perf_counter()
            try:
                response = await client.post(f"{url}/v1/chat/completions", content=body,
                                             headers=JSON)  # fmt: skip
                document = response.json() if response.status_code == 200 else {}
                ok = document.get("vouched", {}).get("status") == "ok"
            except (httpx.HTTPError, ValueError):
                ok = False
            latencies.append(time.perf_counter() - began)
            failures += not ok

    async def prober() -> None:
        transport = httpx.AsyncHTTPTransport(socket_options=NODELAY)
        async with httpx.AsyncClient(transport=transport, timeout=30) as client:
            await asyncio.sleep(0.2)
            while time.perf_counter() < stop:
                began = time.perf_counter()
                await client.get(health_url or f"{url}/healthz")
                health.append(time.perf_counter() - began)
                await asyncio.sleep(0.01)

    transport = httpx.AsyncHTTPTransport(socket_options=NODELAY,
                                         limits=httpx.Limits(max_connections=conns))  # fmt: skip
    async with httpx.AsyncClient(transport=transport, timeout=60) as client:
        began = time.perf_counter()
        await asyncio.gather(prober(), *(worker(client) for _ in range(conns)))
        spent = time.perf_counter() - began
    return {"n": len(latencies), "rps": (len(latencies) - failures) / spent,
            "failures": failures, "p50": percentile(latencies, 0.5) * 1e3,
            "p99": percentile(latencies, 0.99) * 1e3,
            "health_p99": percentile(health, 0.99) * 1e3}  # fmt: skip


def gateway_overhead(url: str, upstream: str, count: int) -> tuple[float, float]:
    """p50 ms of one keep-alive connection: the upstream directly, and the gateway."""
    direct = dumps({"model": "upstream-3ms", "messages": ASK}).encode()
    through = dumps({"model": "m", "messages": ASK,
                     "vouched": {"query": {"subject": "Berlin"}}}).encode()  # fmt: skip
    results = []
    with httpx.Client(transport=httpx.HTTPTransport(socket_options=NODELAY)) as client:
        for target, body in ((f"{upstream}/v1/chat/completions", direct),
                             (f"{url}/v1/chat/completions", through)):  # fmt: skip
            times = []
            for index in range(count + 20):
                began = time.perf_counter()
                client.post(target, content=body, headers=JSON).raise_for_status()
                if index >= 20:  # warmed up
                    times.append((time.perf_counter() - began) * 1e3)
            results.append(percentile(times, 0.5))
    return results[0], results[1]


def bench_gateway(
    source: Path,
    seconds: float,
    processes: int = 1,
    snapshots: bool = False,
    scan_processes: int = 0,
) -> None:
    answer = gateway_answer()
    upstream_process = subprocess.Popen([sys.executable, "-c", UPSTREAM, answer],
                                        stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert upstream_process.stdout is not None
    upstream = f"http://127.0.0.1:{upstream_process.stdout.readline().strip()}"
    folder = gateway_folder(upstream, snapshots)
    print(f"\n5. gateway: /v1/chat/completions in front of an upstream answering "
          f"{len(answer)} characters in 3 ms (20 connections, {seconds:g} s)")  # fmt: skip
    print("   targets: >= 300 answers/s, p99 < 150 ms, /healthz p99 < 20 ms, overhead p50 <= 3 ms")
    print(f"  {'service':8} {'answers':>7} {'ans/s':>7} {'p50 ms':>8} {'p99 ms':>8} {'not ok':>6} "
          f"{'healthz p99':>11} {'direct p50':>10} {'gw p50':>8} {'overhead':>8}")  # fmt: skip
    try:
        rows: list[tuple[str, Path | None, tuple[str, ...]]] = [
            ("main", source, ()), (Service.HERE, None, ())]  # fmt: skip
        if processes > 1:
            rows.append((f"x{processes}", None, ("--processes", str(processes))))
        if scan_processes:  # the branch with scan_processes and health_port (main has neither)
            text = (folder / "serve.toml").read_text(encoding="utf-8")
            text = text.replace(
                "[server]\n", f"[server]\nscan_processes = {scan_processes}\nhealth_port = 0\n"
            )
            (folder / "serve-scans.toml").write_text(text, encoding="utf-8")
            rows.append((f"sp{scan_processes}+hp", None, ("--config-file", "serve-scans.toml")))
        for name, where, extra in rows:
            for leftover in folder.glob("snapshots.db*"):
                leftover.unlink()
            own = extra[:1] == ("--config-file",)
            config = folder / (extra[1] if own else "serve.toml")
            service = Service(name, config, where, *(() if own else extra))
            try:
                asyncio.run(gateway_load(service.url, 1.0, 4))  # warm up
                cpu = service.cpu_seconds()
                r = asyncio.run(gateway_load(service.url, seconds, health_url=service.health))
                cpu = (service.cpu_seconds() - cpu) / max(r["n"], 1) * 1e3
                direct, through = gateway_overhead(service.url, upstream, 200)
                alone, _, _ = asyncio.run(gate_under_scans(service.url, seconds / 2, 0))
                beside, _, _ = asyncio.run(gate_under_scans(service.url, seconds / 2))
            finally:
                service.stop()
            print(f"  {name:8} {r['n']:7.0f} {r['rps']:7.1f} {r['p50']:8.1f} {r['p99']:8.1f} "
                  f"{r['failures']:6.0f} {r['health_p99']:9.1f}ms {direct:8.2f}ms "
                  f"{through:6.2f}ms {through - direct:6.2f}ms "
                  f"gate p99 {alone:.1f} ms alone, {beside:.1f} ms beside 8 scans "
                  f"({beside / alone:.1f}x); CPU {cpu:.2f} ms/answer")  # fmt: skip
    finally:
        upstream_process.terminate()
        upstream_process.wait(timeout=30)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="more requests, longer runs")
    parser.add_argument("--gateway", action="store_true", help="only the gateway section (5)")
    parser.add_argument("--against", default="main", metavar="REF",
                        help="the git ref of the baseline service (default: main)")  # fmt: skip
    parser.add_argument("--processes", type=int, default=1, metavar="N",
                        help="also run the branch's gateway with serve --processes N")  # fmt: skip
    parser.add_argument("--scan-processes", type=int, default=0, metavar="N",
                        help="also the branch with server.scan_processes = N")  # fmt: skip
    parser.add_argument("--snapshots", action="store_true",
                        help="the gateway keeps a snapshot of every answer (SQLite)")  # fmt: skip
    args = parser.parse_args(argv)
    count, budget, seconds = (3000, 15.0, 10.0) if args.full else (600, 4.0, 4.0)
    source = main_source(args.against)
    if args.gateway:
        bench_gateway(source, seconds * 2, args.processes, args.snapshots, args.scan_processes)
        return 0
    services = [Service("main", EXAMPLES / "serve.toml", source),
                Service(Service.HERE, EXAMPLES / "serve.toml", None)]  # fmt: skip
    try:
        bench_endpoints(services, count, budget)
        bench_overhead(services[-1], 200)
        bench_gate_under_scans(services, seconds)
        bench_hostile(services, source, seconds)
    finally:
        for service in services:
            service.stop()
    bench_gateway(source, seconds * 2, args.processes, args.snapshots, args.scan_processes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
