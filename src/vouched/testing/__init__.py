"""The test kit: what vouched's own suite uses, for users' own tests.

Every seam of vouched is a constructor parameter; these are the things to
pass in a test, so nothing needs patching:

- time: :class:`FakeClock` (wall and monotonic time that move when told) and
  :func:`virtual_time` (an event loop whose timers take no real time);
- the model and the sources: :class:`ScriptedPhraser`, :class:`KeyedPhraser` (answers
  keyed on the prompt's question), :class:`ScriptedSource`
  (with :class:`Delay` and ``ScriptedSource.HANG``), :class:`RecordedServer`
  (recorded HTTP answers on 127.0.0.1);
- the stores, each an in-memory twin run through its real store's contract
  tests: :class:`MemorySnapshotStore`, :class:`MemoryLastGood`,
  :class:`MemoryBreakerStore`;
- the command line: :func:`run_cli` runs ``vouched ...`` in this process and
  returns its :class:`CliResult` (exit status, stdout, stderr).

>>> from vouched.testing import FakeClock
>>> clock = FakeClock("2026-11-29T12:00:00Z")
>>> clock.advance(seconds=901).now().isoformat()
'2026-11-29T12:15:01+00:00'

Importing this module imports no optional dependency: :func:`virtual_time`
loads looptime when it is used (``pip install 'vouched[testing]'``), and
:func:`run_cli` loads the command line when it runs.
"""

from vouched._fakes._clock import FakeClock
from vouched._fakes._scripted import Delay, Outcome, ScriptedPhraser, ScriptedSource
from vouched._sources._lastgood import MemoryLastGood
from vouched._sources._recorded import RecordedServer
from vouched.testing._cli import CliResult, run_cli
from vouched.testing._keyed import KeyedPhraser
from vouched.testing._stores import MemoryBreakerStore, MemorySnapshotStore
from vouched.testing._virtual import VirtualTime, virtual_time

__all__ = [
    "CliResult",
    "Delay",
    "FakeClock",
    "KeyedPhraser",
    "MemoryBreakerStore",
    "MemoryLastGood",
    "MemorySnapshotStore",
    "Outcome",
    "RecordedServer",
    "ScriptedPhraser",
    "ScriptedSource",
    "VirtualTime",
    "run_cli",
    "virtual_time",
]
