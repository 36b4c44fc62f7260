"""Real worker processes (not threads) against a local HTTP source that is down
from the start: with the Redis store the whole fleet calls it at most
fail_max + 1 times in the window, however many concurrent callers each worker
has (first calls are admitted through Redis); with per-process breakers each
worker calls it fail_max times."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from fleet.services import REDIS_URL

WORKER = Path(__file__).with_name("worker_main.py")
WORKERS = 4
CALLS = 50
FAIL_MAX = 3


class Down:
    """An HTTP source that answers 503 to everything, counting requests."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def __call__(self, request: Request) -> Response:
        with self._lock:
            self.count += 1
        return Response('{"error": "down"}', status=503, content_type="application/json")


@pytest.fixture
def down() -> Iterator[tuple[HTTPServer, Down]]:
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    handler = Down()
    server.expect_request("/v1/forecast").respond_with_handler(handler)
    server.start()
    yield server, handler
    server.clear()
    server.stop()


def run_fleet(source_url: str, redis_url: str, prefix: str, callers: int = 1) -> Counter[str]:
    """Start WORKERS processes, let them go at once, add up their answers."""
    argv = [source_url, redis_url, prefix, str(CALLS), str(FAIL_MAX), str(callers)]
    processes = [
        subprocess.Popen(
            [sys.executable, str(WORKER), *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(WORKERS)
    ]
    try:
        for process in processes:
            assert process.stdout is not None
            assert process.stdout.readline().strip() == "ready"
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        total: Counter[str] = Counter()
        for process in processes:
            out, _ = process.communicate(timeout=120)
            assert process.returncode == 0
            total.update(json.loads(out.strip().splitlines()[-1]))
        return total
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()


def test_with_the_redis_store_the_fleet_stops_calling_a_dead_source_together(
    down: tuple[HTTPServer, Down], prefix: str
) -> None:
    server, handler = down
    answers = run_fleet(server.url_for(""), REDIS_URL, prefix)
    assert handler.count <= FAIL_MAX + 1
    assert answers["source_error"] == handler.count
    assert answers["circuit_open"] == WORKERS * CALLS - handler.count


def test_concurrent_callers_in_every_worker_still_call_a_dead_source_at_most_fail_max_plus_one(
    down: tuple[HTTPServer, Down], prefix: str
) -> None:
    server, handler = down
    answers = run_fleet(server.url_for(""), REDIS_URL, prefix, callers=4)
    assert handler.count <= FAIL_MAX + 1
    assert answers["source_error"] == handler.count


def test_with_per_process_breakers_each_worker_calls_a_dead_source_fail_max_times(
    down: tuple[HTTPServer, Down],
) -> None:
    server, handler = down
    run_fleet(server.url_for(""), "-", "unused")
    assert handler.count == WORKERS * FAIL_MAX
