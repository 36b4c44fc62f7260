"""The service's CPU pool: a few threads for scans, verification and big
bodies, apart from the snapshot writes (which have their own thread), with a
bound on the requests waiting for it.

:meth:`WorkPool.admit` is asked before a request starts its work: when more
than ``queue_limit`` pieces of work already wait, the request is answered 503
at once instead of joining a queue it would time out in. Work whose request
passed its deadline before a thread took it is dropped unstarted (asyncio
cancels the future); work already running finishes, its result unused.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

__all__ = ["PoolFullError", "WorkPool"]

_P = ParamSpec("_P")
_T = TypeVar("_T")


class PoolFullError(Exception):
    """The pool's queue is full: the request is answered 503."""


class WorkPool(ThreadPoolExecutor):
    """A :class:`ThreadPoolExecutor` that counts the work it holds."""

    def __init__(self, workers: int, queue_limit: int) -> None:
        super().__init__(max_workers=workers, thread_name_prefix="vouched-work")
        self.workers = workers
        self.queue_limit = queue_limit
        self._held = 0
        self._lock = threading.Lock()
        self.refused = 0  # requests answered 503
        self.started = 0  # pieces of work a thread took (dropped ones never start)

    @property
    def waiting(self) -> int:
        """Pieces of work submitted and not yet taken by a thread (about)."""
        return max(self._held - self.workers, 0)

    def admit(self) -> None:
        """Raise :class:`PoolFullError` when the queue is full."""
        if self.waiting >= self.queue_limit:
            with self._lock:
                self.refused += 1
            raise PoolFullError(f"{self.waiting} requests are waiting for the work pool")

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        with self._lock:
            self._held += 1

        def run() -> _T:
            with self._lock:
                self.started += 1
            return fn(*args, **kwargs)

        future = super().submit(run)
        future.add_done_callback(self._release)
        return future

    def _release(self, _future: Future[Any]) -> None:
        with self._lock:
            self._held -= 1
