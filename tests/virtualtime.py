"""Deadline tests on virtual event-loop time, so no test races the wall clock.

``run(coroutine)`` runs it on a looptime event loop: the loop's clock starts at
0 and jumps straight to the next timer whenever every task is waiting, so a
2-second deadline takes no real time and "elapsed" is exact, however loaded
the machine. It returns the coroutine's result and the loop seconds that
passed. Only for code whose waiting is all on the loop (timers, futures): real
sockets and threads keep real time, and their tests must not use this.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import looptime

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> tuple[T, float]:
    """``asyncio.run(main)`` on virtual time: (its result, loop seconds elapsed)."""
    with asyncio.Runner(loop_factory=lambda: looptime.new_event_loop(start=0)) as runner:
        result = runner.run(main)
        return result, runner.get_loop().time()
