"""Virtual event-loop time: deadlines and timeouts tested without waiting for them.

looptime (the ``testing`` extra) is imported when :func:`virtual_time` is
entered, never when ``vouched.testing`` is imported.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from vouched._exceptions import MissingExtraError

__all__ = ["VirtualTime", "virtual_time"]

T = TypeVar("T")


class VirtualTime:
    """An event loop whose clock jumps to the next timer whenever every task waits.

    Made by :func:`virtual_time`. ``run(coroutine)`` runs one coroutine to its
    end on the loop (as ``asyncio.run`` does, on the same loop each time);
    ``elapsed`` is the loop seconds that passed since the loop started, read at
    the end of the last ``run``: exact, however loaded the machine.

    >>> import asyncio
    >>> from vouched.testing import virtual_time
    >>> with virtual_time() as loop:
    ...     loop.run(asyncio.sleep(2))
    ...     loop.run(asyncio.wait_for(asyncio.Event().wait(), timeout=0.5))
    Traceback (most recent call last):
    ...
    TimeoutError
    >>> loop.elapsed
    2.5
    """

    def __init__(self, runner: asyncio.Runner) -> None:
        self._runner = runner
        self._start = runner.get_loop().time()
        self.elapsed = 0.0

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` on virtual time and return its result."""
        try:
            return self._runner.run(coroutine)
        finally:
            self.elapsed = self._runner.get_loop().time() - self._start

    def __repr__(self) -> str:
        return f"VirtualTime(elapsed={self.elapsed!r})"


@contextmanager
def virtual_time(start: float = 0.0) -> Iterator[VirtualTime]:
    """A looptime event loop for code whose waiting is all on the loop.

    A 30-second timeout takes no real time, and the seconds the loop saw pass
    are exact, so a test can say "refused at exactly 5 s" without racing the
    wall clock. Leaving the block cancels what is still running and closes
    the loop; the thread's event loop is not touched. Only timers and futures
    are virtual: real sockets and threads keep real time (a test of a real
    server must not use this). ``start`` is the loop's clock at the start.

    >>> import asyncio
    >>> from vouched.testing import virtual_time
    >>> async def patient() -> str:
    ...     await asyncio.sleep(3600)
    ...     return "an hour later"
    >>> with virtual_time() as loop:
    ...     said = loop.run(patient())
    >>> said, loop.elapsed
    ('an hour later', 3600.0)

    Needs looptime: ``pip install 'vouched[testing]'`` (else a
    :class:`vouched.MissingExtraError` naming that install).
    """
    try:
        import looptime  # noqa: PLC0415 - the optional extra, loaded on use
    except ImportError:
        raise MissingExtraError("testing", "looptime") from None
    with asyncio.Runner(loop_factory=lambda: looptime.new_event_loop(start=start)) as runner:
        yield VirtualTime(runner)
