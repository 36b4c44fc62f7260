"""The spill folder is checked when serve starts (a folder that takes no file
is one line and exit 2, not lost snapshots at the first outage), and a
snapshot lost for good feeds ``vouched_snapshot_write_failures_total``."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import httpx

from vouched import Snapshot
from vouched._server._app import create_app
from vouched._server._config import load_config
from vouched.testing import FakeClock, MemorySnapshotStore

from ._serving import EXAMPLES, NOW


def _config(tmp_path: Path, answer: str) -> Path:
    for name in ("lexicon.json", "catalog.csv", "contract.toml", "facts.json", "serve.toml"):
        (tmp_path / name).write_bytes((EXAMPLES / name).read_bytes())
    path = tmp_path / "serve.toml"
    text = path.read_text(encoding="utf-8").replace("[answer]\n", f"[answer]\n{answer}\n")
    path.write_text(text, encoding="utf-8")
    return path


def test_serve_refuses_to_start_when_the_spill_folder_takes_no_file(tmp_path: Path) -> None:
    folder = Path("/sys") if os.geteuid() == 0 else tmp_path / "read-only"  # root writes anywhere
    if folder != Path("/sys"):
        folder.mkdir()
        folder.chmod(0o555)
    config = _config(tmp_path, f'store = "s.db"\nspill = "{folder}/spill.jsonl"')
    done = subprocess.run(
        [sys.executable, "-m", "vouched", "serve", "--config", str(config), "--port", "0"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "answer.spill" in line
    assert "takes no spill file" in line


class _Broken(MemorySnapshotStore):
    def write_many(self, snapshots: Iterable[Snapshot]) -> int:
        if snapshots:
            raise OSError("disk gone")
        return 0


def test_a_snapshot_lost_for_good_is_counted_in_the_metric(tmp_path: Path) -> None:
    spill = tmp_path / "spill.jsonl"
    config = replace(load_config(_config(tmp_path, "")), store=_Broken(), spill=spill)
    app = create_app(config, clock=FakeClock(NOW))
    spill.mkdir()  # after the start check: the spill file cannot be written now

    async def ask() -> str:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            body = {"question": "How is Berlin?", "query": {"subject": "Berlin"}}
            assert (await client.post("/v1/answer", json=body)).status_code == 200
            await app.service.settle()
            return (await client.get("/metrics")).text

    metrics = asyncio.run(ask())
    assert "vouched_snapshot_write_failures_total 1.0" in metrics
