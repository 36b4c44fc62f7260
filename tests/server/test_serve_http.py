"""vouched serve as users run it: the command, a real uvicorn on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from vouched.testing import run_cli

from ._serving import EXAMPLES

# -- the command -----------------------------------------------------------------


def _serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "vouched", "serve", *args],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )


def test_vouched_serve_listens_on_127_0_0_1_and_answers() -> None:
    process = _serve("--config", str(EXAMPLES / "serve.toml"), "--port", "0")
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert line.startswith("vouched serve: listening on http://127.0.0.1:")
        url = line.split(" on ", 1)[1].strip()
        assert httpx.get(f"{url}/healthz", timeout=30).json()["status"] == "ok"
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()


def test_a_clean_drain_after_sigterm_exits_0_as_with_processes() -> None:
    process = _serve("--config", str(EXAMPLES / "serve.toml"), "--port", "0")
    try:
        assert process.stderr is not None
        url = process.stderr.readline().split(" on ", 1)[1].strip()
        assert httpx.get(f"{url}/healthz", timeout=30).status_code == 200
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0  # not -15 (143 in a shell): all went well
    finally:
        if process.poll() is None:  # pragma: no cover - only when the assertion failed
            process.kill()
            process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()


# What stops the start is said before anything listens: in this process through
# main() (a run that started serving instead would fail at the timeout).


def test_a_bad_config_stops_the_start_with_one_line_and_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "serve.toml"
    config.write_text('[answer]\non_fail = "shrug"\n', encoding="utf-8")
    run = run_cli(["serve", "--config", str(config)], timeout=60)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1
    assert f"{config}: answer.on_fail: on_fail must be one of retry, partial, refuse" in run.stderr


def test_without_the_server_extra_the_command_names_the_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as on a machine without vouched[server]
    run = run_cli(["serve", "--config", str(EXAMPLES / "serve.toml")], timeout=60)
    assert run.returncode == 2
    assert run.stderr == (
        "vouched serve: this feature needs uvicorn: pip install 'vouched[server]'\n"
    )


def test_an_empty_host_on_the_command_line_is_exit_2_not_every_interface() -> None:
    run = run_cli(["serve", "--config", str(EXAMPLES / "serve.toml"), "--host", ""], timeout=60)
    assert run.returncode == 2
    assert run.stderr == (
        "vouched serve: --host: must name an address: an empty host would bind every interface\n"
    )


def _children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def test_processes_serve_one_socket_and_a_dead_one_is_replaced() -> None:
    process = _serve("--config", str(EXAMPLES / "serve.toml"), "--port", "0", "--processes", "2")
    try:
        assert process.stderr is not None
        url = process.stderr.readline().split(" on ", 1)[1].strip()
        for _ in range(6):  # a new connection each time: either process may take it
            assert httpx.get(f"{url}/healthz", timeout=30).json()["status"] == "ok"
        servers = _children(process.pid)
        assert len(servers) == 2
        victim = min(servers)
        os.kill(victim, signal.SIGKILL)
        line = process.stderr.readline()  # written once the replacement is forked
        assert line.startswith(f"vouched serve: server process {victim} ended (-9); ")
        replacement = int(line.split("; ", 1)[1].split()[0])
        assert _children(process.pid) == (servers - {victim}) | {replacement}
        assert httpx.get(f"{url}/healthz", timeout=30).json()["status"] == "ok"
    finally:
        process.terminate()  # passed on to every server process, which drain and exit
        assert process.wait(timeout=60) == 0
        if process.stderr is not None:
            process.stderr.close()
    assert not _children(process.pid)


def test_processes_outside_1_to_64_are_exit_2() -> None:
    run = run_cli(["serve", "--config", str(EXAMPLES / "serve.toml"), "--processes", "0"])
    assert run.returncode == 2
    assert run.stderr == "vouched serve: --processes: must be between 1 and 64\n"


def _scraped(url: str) -> tuple[float, list[str]]:
    """/v1/gate answers with 200 as /metrics says (a new connection: either
    process), and the breaker gauge's lines."""
    lines = httpx.get(f"{url}/metrics", timeout=30).text.splitlines()
    wanted = 'vouched_http_requests_total{endpoint="/v1/gate",status="200"}'
    gates = sum(float(line.split()[-1]) for line in lines if line.startswith(wanted))
    return gates, [line for line in lines if line.startswith("vouched_breaker_state{")]


def test_metrics_count_every_process_whichever_answers_the_scrape() -> None:
    process = _serve("--config", str(EXAMPLES / "serve.toml"), "--port", "0", "--processes", "2")
    body = {"facts": [{"subject": "Berlin", "attribute": "t", "value": 1, "source": "s",
                       "observed_at": "2026-11-29T12:00:00Z"}]}  # fmt: skip
    try:
        assert process.stderr is not None
        url = process.stderr.readline().split(" on ", 1)[1].strip()
        assert httpx.get(f"{url}/healthz", timeout=30).status_code == 200
        first, second = sorted(_children(process.pid))
        # One process stopped at a time: the other takes every new connection.
        for stopped, count in ((first, 3), (second, 4)):
            os.kill(stopped, signal.SIGSTOP)
            try:
                for _ in range(count):
                    response = httpx.post(f"{url}/v1/gate", json=body, timeout=30)
                    assert response.status_code == 200
            finally:
                os.kill(stopped, signal.SIGCONT)
        for stopped in (first, second):  # each process answers a scrape in turn
            os.kill(stopped, signal.SIGSTOP)
            try:
                # one sample per source: the worst state among the live processes
                assert _scraped(url) == (7, ['vouched_breaker_state{source="weather"} 0.0'])
            finally:
                os.kill(stopped, signal.SIGCONT)
    finally:
        process.terminate()
        assert process.wait(timeout=60) == 0
        if process.stderr is not None:
            process.stderr.close()


def test_a_health_port_is_bound_named_and_answers(tmp_path: Path) -> None:
    text = (EXAMPLES / "serve.toml").read_text(encoding="utf-8")
    text = text.replace("[server]\n", "[server]\nhealth_port = 0\n")
    for name in ("facts.json", "lexicon.json", "catalog.csv", "contract.toml"):
        (tmp_path / name).write_bytes((EXAMPLES / name).read_bytes())
    (tmp_path / "serve.toml").write_text(text, encoding="utf-8")
    process = _serve("--config", str(tmp_path / "serve.toml"), "--port", "0")
    try:
        assert process.stderr is not None
        assert process.stderr.readline().startswith("vouched serve: listening on ")
        line = process.stderr.readline()
        assert line.startswith("vouched serve: health on http://127.0.0.1:")
        health = line.split(" on ", 1)[1].strip()
        assert health.endswith("/healthz")
        assert httpx.get(health, timeout=30).json()["status"] == "ok"
    finally:
        process.terminate()
        process.wait(timeout=60)
        if process.stderr is not None:
            process.stderr.close()
