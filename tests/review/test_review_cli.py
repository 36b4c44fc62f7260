"""``vouched review`` as a user runs it: a real process on 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

pytest.importorskip("jinja2", reason="the review pages need vouched[server]")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
VOUCHED = [sys.executable, "-m", "vouched"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*VOUCHED, "review", *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_binding_beyond_loopback_without_a_token_is_refused() -> None:
    done = _run(str(EXAMPLES / "demo-snapshots.jsonl"), "--host", "0.0.0.0")  # noqa: S104 - the refusal is the point
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "--token-env" in done.stderr


def test_a_missing_store_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = _run(str(tmp_path / "nothing.db"))
    assert (done.returncode, done.stderr.count("\n")) == (2, 1)
    assert "no such snapshot store" in done.stderr


def test_a_device_is_named_as_what_it_is_not_as_missing() -> None:
    # /dev/zero exists: "no such snapshot store" would send the user looking for a typo
    done = _run("/dev/zero")
    assert (done.returncode, done.stderr.count("\n")) == (2, 1)
    assert "/dev/zero: is not a regular file, not a snapshot store" in done.stderr


def test_the_demo_store_in_examples_is_served_on_loopback() -> None:
    with subprocess.Popen(
        [*VOUCHED, "review", str(EXAMPLES / "demo-snapshots.jsonl"), "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        try:
            assert process.stderr is not None
            line = process.stderr.readline()
            assert line.startswith("vouched review: listening on http://127.0.0.1:")
            url = line.rsplit(" ", 1)[1].strip()
            overview = httpx.get(url, timeout=30)
            refused = httpx.get(url + "answers?status=refused", timeout=30)
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert overview.status_code == 200
    assert "8 answers in the store" in overview.text
    assert "1 answer matches," in refused.text
