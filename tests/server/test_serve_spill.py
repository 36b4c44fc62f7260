"""SIGTERM while another process holds the SQLite store's lock: vouched serve
exits without waiting for the lock, says in one log line how many snapshots it
spilled and where, and the next start writes them in: none is lost."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import httpx

from vouched import QueuedSnapshotStore, SqliteSnapshotStore

from ._serving import EXAMPLES

ANSWERS = 30
HOLD_LOCK = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
connection.execute("COMMIT")
"""


def _config(tmp_path: Path) -> Path:
    for name in ("lexicon.json", "catalog.csv", "contract.toml", "facts.json"):
        (tmp_path / name).write_bytes((EXAMPLES / name).read_bytes())
    text = (EXAMPLES / "serve.toml").read_text(encoding="utf-8")
    text = text.replace("[answer]\n", '[answer]\nstore = "snapshots.db"\n')
    text = text.replace("[server]\n", "[server]\nshutdown_grace = 1.0\n")
    path = tmp_path / "serve.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_sigterm_with_the_store_locked_spills_and_the_next_start_writes_every_snapshot(
    tmp_path: Path,
) -> None:
    serve = subprocess.Popen(
        [sys.executable, "-m", "vouched", "serve", "--config", str(_config(tmp_path)),
         "--port", "0"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert serve.stderr is not None
    url = serve.stderr.readline().split(" on ", 1)[1].strip()  # the store exists now
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(tmp_path / "snapshots.db")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert holder.stdout is not None
    assert holder.stdin is not None
    try:
        assert holder.stdout.readline().strip() == "locked"
        body = {"question": "How is Berlin?", "query": {"subject": "Berlin"}}
        with httpx.Client(timeout=30) as http:
            given = sum(
                http.post(f"{url}/v1/answer", json=body).status_code == 200 for _ in range(ANSWERS)
            )
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=60) in (0, -signal.SIGTERM)
        said = [line for line in serve.stderr.read().splitlines() if "spilled to" in line]
    finally:
        if serve.poll() is None:
            serve.kill()
        holder.stdin.write("release\n")
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()
        serve.stderr.close()
    spill = tmp_path / "snapshots.db.spill.jsonl"
    assert len(said) == 1
    assert str(spill) in said[0]
    with SqliteSnapshotStore(tmp_path / "snapshots.db") as store:
        QueuedSnapshotStore(store, spill=spill).close(timeout=None)  # the next start
        assert (given, len(store)) == (ANSWERS, ANSWERS)
