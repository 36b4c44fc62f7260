"""SIGTERM at full load: vouched serve stops accepting, lets requests finish,
writes every queued snapshot, then exits: snapshots written = answers given."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

from chatstream import completion_events
from vouched import SqliteSnapshotStore

from ._serving import EXAMPLES

ANSWERS_BEFORE_SIGTERM = 150
CLIENTS = 16


def _config(tmp_path: Path) -> Path:
    for name in ("lexicon.json", "catalog.csv", "contract.toml", "facts.json"):
        (tmp_path / name).write_bytes((EXAMPLES / name).read_bytes())
    text = (EXAMPLES / "serve.toml").read_text(encoding="utf-8")
    text = text.replace("[answer]\n", '[answer]\nstore = "snapshots.db"\n')
    path = tmp_path / "serve.toml"
    path.write_text(text, encoding="utf-8")
    return path


async def _load(url: str, process: subprocess.Popen[str]) -> int:
    """Answers asked for by CLIENTS clients until the service stops; SIGTERM
    after ANSWERS_BEFORE_SIGTERM. Returns the answers given (200s)."""
    given = 0
    body = {"question": "How is Berlin?", "query": {"subject": "Berlin"}}

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal given
        while True:
            try:
                response = await http.post(f"{url}/v1/answer", json=body)
            except httpx.HTTPError:
                return  # the service stopped accepting
            if response.status_code != 200:
                return  # 503 shutting_down: no answer given, none recorded
            given += 1
            if given == ANSWERS_BEFORE_SIGTERM:
                process.send_signal(signal.SIGTERM)

    limits = httpx.Limits(max_connections=CLIENTS)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        await asyncio.gather(*(client(http) for _ in range(CLIENTS)))
    return given


def test_sigterm_under_load_writes_a_snapshot_for_every_answer_given(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "vouched", "serve", "--config", str(_config(tmp_path)),
         "--port", "0"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        url = process.stderr.readline().split(" on ", 1)[1].strip()
        given = asyncio.run(_load(url, process))
        assert process.wait(timeout=60) == 0  # a clean drain is a clean exit
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()
    with SqliteSnapshotStore(tmp_path / "snapshots.db", read_only=True) as store:
        written = sum(1 for _ in store.iter())
    assert given >= ANSWERS_BEFORE_SIGTERM
    assert written == given


STREAMS = 4


SAID = "The temperature in Berlin is unavailable right now. It"  # passes at any date


class _Stalling(BaseHTTPRequestHandler):
    """An OpenAI-compatible model that streams one sentence, then stalls
    until the test releases it (each request on its own thread)."""

    release = threading.Event()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["content-length"]))
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.end_headers()
        self.wfile.write(completion_events([SAID])[0])
        self.wfile.flush()
        type(self).release.wait(60)

    def log_message(self, *args: object) -> None:
        pass


def test_streams_cut_off_at_the_grace_end_with_shutting_down_and_keep_their_snapshots(
    tmp_path: Path,
) -> None:
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), _Stalling)
    upstream.daemon_threads = True
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{upstream.server_address[1]}/v1"
    config = _config(tmp_path)
    text = config.read_text(encoding="utf-8").replace(
        'kind = "template"',
        f'kind = "openai"\nbase_url = "{base}"\nmodel = "m"',
    )
    config.write_text(
        text.replace("[server]\n", "[server]\nshutdown_grace = 1.0\n"), encoding="utf-8"
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "vouched", "serve", "--config", str(config), "--port", "0"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        url = process.stderr.readline().split(" on ", 1)[1].strip()
        body = {
            "question": "How is Berlin?",
            "query": {"subject": "Berlin"},
        }

        async def stream_then_terminate() -> list[str]:
            async with httpx.AsyncClient(timeout=60) as http:

                async def one() -> str:
                    async with http.stream("POST", f"{url}/v1/answer/stream", json=body) as r:
                        said = ""
                        try:
                            async for piece in r.aiter_text():
                                said += piece
                                if "event: sentence" in said:
                                    started.release()
                        except httpx.HTTPError:
                            pass  # the server closed the stream at the grace
                        return said

                started = asyncio.Semaphore(0)
                tasks = [asyncio.create_task(one()) for _ in range(STREAMS)]
                for _ in range(STREAMS):
                    await started.acquire()
                process.send_signal(signal.SIGTERM)
                return await asyncio.gather(*tasks)

        said = asyncio.run(stream_then_terminate())
        assert process.wait(timeout=60) == 0
    finally:
        _Stalling.release.set()
        upstream.shutdown()
        upstream.server_close()
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()
    assert all("event: sentence" in s for s in said)
    assert all(s.rstrip().endswith('"reasons": ["shutting_down"]}') for s in said)
    with SqliteSnapshotStore(tmp_path / "snapshots.db", read_only=True) as store:
        snapshots = list(store.iter())
    assert len(snapshots) == STREAMS
    assert all(s.status == "partial" for s in snapshots)
    assert all([a.action for a in s.trail] == ["shutdown"] for s in snapshots)
