"""Scans in processes of their own (``server.scan_processes = N``), so a
``/v1/scan`` never holds the GIL the event loop needs.

In threads (the default), the pool's scans share the server process's GIL
with its event loop: a cheap ``/v1/gate`` or ``/healthz`` waits for the GIL
once per system call while scans run (bench/serve.py: gate p99 beside 8
clients' 32 KB scans). In processes, the loop only hands the request over
(the text, the facts, the lexicon's name) and reads the report back.

The processes start from a clean forkserver (never a fork of the running
server with its threads and sockets), each with the config's lexicons
(as JSON, rebuilt once) and policy; a request's own lexicon travels as JSON
with it. They run at a lower CPU priority (``nice`` +10): on a busy machine
the kernel gives the event loop's short requests the CPU first. At most
``queue_limit`` requests wait (503 past it, as for the thread pool); a
request past its deadline before a process took its work drops it unstarted.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from vouched import Fact, Lexicon, Policy, partition, scan
from vouched._jsonio import dumps
from vouched._server._pool import PoolFullError

__all__ = ["ScanProcesses", "ScanWork"]

_LEXICONS: dict[str, Lexicon] = {}  # in a scan process only: the config's, built once
_POLICY: list[Policy] = []


NICENESS = 10
"""How much lower a scan process's CPU priority is than the server's: on a
busy machine the kernel runs the event loop's short work first."""


def _start(lexicons: Mapping[str, Any], policy: Policy) -> None:
    """A scan process's start: a lower CPU priority, and the config's lexicons
    and policy, kept for its life."""
    os.nice(NICENESS)
    _LEXICONS.update({name: Lexicon.from_json(data) for name, data in lexicons.items()})
    _POLICY[:] = [policy]


@dataclass(frozen=True, slots=True)
class ScanWork:
    """One ``/v1/scan`` as it travels to a scan process: ``lexicon`` is a
    name from the config, a request's own lexicon as JSON, or None."""

    text: str
    facts: list[Fact]
    lexicon: str | dict[str, Any] | None
    sources: list[str]
    question: str | None
    now: datetime


def _scan(work: ScanWork) -> bytes:
    """One ``/v1/scan``, in a scan process: the report, encoded here (a long
    text's report takes milliseconds to encode: never on the event loop)."""
    policy = _POLICY[0]
    lexicon = work.lexicon
    chosen = (
        None
        if lexicon is None
        else _LEXICONS[lexicon]
        if isinstance(lexicon, str)
        else Lexicon.from_json(lexicon)
    )
    gated = partition(work.facts, policy, work.now)
    report = scan(
        work.text, gated, chosen, sources=work.sources, question=work.question, policy=policy
    )
    return dumps(report.to_json()).encode("utf-8")


def _ready() -> int:
    """A task that makes the pool start a process: its niceness."""
    return os.nice(0)


class ScanProcesses:
    """``count`` scan processes and the bound on the requests waiting for them."""

    def __init__(
        self, count: int, queue_limit: int, lexicons: Mapping[str, Lexicon], policy: Policy
    ) -> None:
        self.count = count
        self.queue_limit = queue_limit
        self._held = 0
        self._lock = threading.Lock()
        self._pool = ProcessPoolExecutor(
            max_workers=count,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=_start,
            initargs=({name: lexicon.to_json() for name, lexicon in lexicons.items()}, policy),
        )

    def warm(self) -> list[int]:
        """Start every scan process now (they start on demand: one per waiting
        task); the niceness of the processes that answered."""
        return [
            future.result() for future in [self._pool.submit(_ready) for _ in range(self.count)]
        ]

    def admit(self) -> None:
        """Raise :class:`PoolFullError` when ``queue_limit`` scans already wait."""
        if self._held - self.count >= self.queue_limit:
            raise PoolFullError(f"{self._held - self.count} scans are waiting for a process")

    async def scan(self, work: ScanWork) -> bytes:
        """The report of ``work`` as JSON (503 when too many wait)."""
        self.admit()
        with self._lock:
            self._held += 1
        future = self._pool.submit(_scan, work)
        future.add_done_callback(self._release)
        return await asyncio.wrap_future(future)

    def _release(self, _future: Future[Any]) -> None:
        with self._lock:
            self._held -= 1

    def shutdown(self, *, wait: bool = False) -> None:
        """Stop the scan processes (``wait``: until they have ended)."""
        self._pool.shutdown(wait=wait, cancel_futures=True)
