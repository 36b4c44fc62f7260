"""SIGTERM at full load: vouched serve stops accepting, lets requests finish,
writes every queued snapshot, then exits: snapshots written = answers given."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import httpx

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
        # uvicorn raises the caught SIGTERM again once it has shut down: the
        # status says "ended by SIGTERM", after the drain.
        assert process.wait(timeout=60) in (0, -signal.SIGTERM)
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
