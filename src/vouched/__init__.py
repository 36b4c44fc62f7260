"""vouched: only vouched facts reach the model; everything else is typed silence.

The public face of the library. Everything is implemented in private modules
and re-exported here; importing vouched does no I/O and loads no optional
dependency.
"""

from vouched._catalog import Catalog
from vouched._claims import ClaimResult, ClaimStatus, verify_answer, verify_output
from vouched._contract import Contract
from vouched._exceptions import InputError, MissingExtraError, StoreError, VouchedError
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
from vouched._lexicon import Lexicon
from vouched._metrics import PopulationMetrics, abstention_rate, citation_precision, measure
from vouched._policy import Policy
from vouched._prometheus import PrometheusMetrics
from vouched._quotes import unsupported_quotes
from vouched._replay import GradeReport, replay
from vouched._scan import Finding, FindingKind, ScanReport, scan
from vouched._snapshot import Snapshot
from vouched._store import QueuedSnapshotStore, SnapshotStore, SqliteSnapshotStore
from vouched._time import Clock, SystemClock

__all__ = [
    "Catalog",
    "ClaimResult",
    "ClaimStatus",
    "Clock",
    "Contract",
    "Fact",
    "FactValue",
    "Finding",
    "FindingKind",
    "GateResult",
    "GradeReport",
    "InputError",
    "Lexicon",
    "MissingExtraError",
    "Policy",
    "PopulationMetrics",
    "PrometheusMetrics",
    "QueuedSnapshotStore",
    "ScanReport",
    "SilenceReason",
    "Snapshot",
    "SnapshotStore",
    "SqliteSnapshotStore",
    "StoreError",
    "SystemClock",
    "Verdict",
    "VerdictKind",
    "VerdictReason",
    "VouchedError",
    "abstention_rate",
    "citation_precision",
    "classify",
    "grounding_rate",
    "load_facts",
    "measure",
    "partition",
    "replay",
    "scan",
    "unsupported_quotes",
    "verify_answer",
    "verify_output",
]

__version__ = "0.1.0"
