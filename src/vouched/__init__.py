"""vouched: only vouched facts reach the model; everything else is typed silence.

The public face of the library. Everything is implemented in private modules
and re-exported here; importing vouched does no I/O and loads no optional
dependency.
"""

from vouched._breaker import BreakerEvent, BreakerEventKind, BreakerSettings, BreakerState
from vouched._exceptions import (
    InputError,
    MalformedPayloadError,
    MissingExtraError,
    SourceError,
    VouchedError,
)
from vouched._fact import Fact, FactValue, SilenceReason
from vouched._factio import load_facts
from vouched._gate import (
    GateResult,
    Verdict,
    VerdictKind,
    VerdictReason,
    classify,
    grounding_rate,
    partition,
)
from vouched._guarded import CacheSettings, GuardedSource
from vouched._policy import Policy
from vouched._sources import Query, Source, fetch_sync, gather, gather_sync
from vouched._time import Clock, SystemClock

__all__ = [
    "BreakerEvent",
    "BreakerEventKind",
    "BreakerSettings",
    "BreakerState",
    "CacheSettings",
    "Clock",
    "Fact",
    "FactValue",
    "GateResult",
    "GuardedSource",
    "InputError",
    "MalformedPayloadError",
    "MissingExtraError",
    "Policy",
    "Query",
    "SilenceReason",
    "Source",
    "SourceError",
    "SystemClock",
    "Verdict",
    "VerdictKind",
    "VerdictReason",
    "VouchedError",
    "classify",
    "fetch_sync",
    "gather",
    "gather_sync",
    "grounding_rate",
    "load_facts",
    "partition",
]

__version__ = "0.1.0"
