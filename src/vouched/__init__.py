"""vouched: only vouched facts reach the model; everything else is typed silence.

The public face of the library. Everything is implemented in private modules
and re-exported here; importing vouched does no I/O and loads no optional
dependency.
"""

from vouched._answer._chatstream import StreamEnd
from vouched._answer._events import AnswerEvent, AnswerEventKind
from vouched._answer._grounder import AnswerObserver, Grounder
from vouched._answer._onfail import OnFail
from vouched._answer._phrasers import (
    OpenAIChatPhraser,
    Phraser,
    StreamingPhraser,
    TemplatePhraser,
)
from vouched._answer._prometheus import PrometheusMetrics
from vouched._answer._prompt import Prompt, build_prompt
from vouched._answer._result import Answer, AnswerStatus
from vouched._answer._tracing import AnswerTracing, OpenTelemetryTracing, TraceSpan
from vouched._claims._catalog import Catalog
from vouched._claims._contract import Contract
from vouched._claims._verify import ClaimResult, ClaimStatus, verify_answer, verify_output
from vouched._exceptions import (
    AnswerRefusedError,
    ConfigError,
    InputError,
    MalformedPayloadError,
    MissingExtraError,
    PhraserConnectionError,
    PhraserError,
    PhraserHTTPError,
    PhraserResponseError,
    PhraserStreamError,
    PhraserTimeoutError,
    SourceError,
    StoreError,
    VouchedError,
)
from vouched._fact import Fact, FactValue, SilenceReason
from vouched._factio import dump_facts, load_facts
from vouched._gate import (
    GateResult,
    Verdict,
    VerdictKind,
    VerdictReason,
    classify,
    grounding_rate,
    partition,
)
from vouched._policy import Policy
from vouched._replay._attempts import AttemptAction, RecordedAttempt
from vouched._replay._grade import GradeReport, replay
from vouched._replay._metrics import PopulationMetrics, abstention_rate, citation_precision, measure
from vouched._replay._open import open_snapshot_store
from vouched._replay._postgres import PostgresSnapshotStore
from vouched._replay._queued import QueuedSnapshotStore
from vouched._replay._snapshot import Snapshot
from vouched._replay._store import (
    SnapshotStore,
    SqliteSnapshotStore,
    export_jsonl,
    import_jsonl,
)
from vouched._scan._facts._lexicon import Lexicon
from vouched._scan._lex._quotes import unsupported_quotes
from vouched._scan._scanner import Finding, FindingKind, Scanner, ScanReport, scan
from vouched._scan._stream import ScannedSentence, StreamScanner
from vouched._sources._breaker import (
    BreakerEvent,
    BreakerEventKind,
    BreakerSettings,
    BreakerState,
    BreakerStore,
    LocalBreakerStore,
)
from vouched._sources._guarded import CacheSettings, GuardedSource
from vouched._sources._lastgood import SharedLastGood
from vouched._sources._redis import RedisBreakerStore
from vouched._sources._redislastgood import RedisLastGood
from vouched._sources._source import Query, Source, fetch_sync, gather, gather_sync
from vouched._time import Clock, SystemClock

__all__ = [
    "Answer",
    "AnswerEvent",
    "AnswerEventKind",
    "AnswerObserver",
    "AnswerRefusedError",
    "AnswerStatus",
    "AnswerTracing",
    "AttemptAction",
    "BreakerEvent",
    "BreakerEventKind",
    "BreakerSettings",
    "BreakerState",
    "BreakerStore",
    "CacheSettings",
    "Catalog",
    "ClaimResult",
    "ClaimStatus",
    "Clock",
    "ConfigError",
    "Contract",
    "Fact",
    "FactValue",
    "Finding",
    "FindingKind",
    "GateResult",
    "GradeReport",
    "Grounder",
    "GuardedSource",
    "InputError",
    "Lexicon",
    "LocalBreakerStore",
    "MalformedPayloadError",
    "MissingExtraError",
    "OnFail",
    "OpenAIChatPhraser",
    "OpenTelemetryTracing",
    "Phraser",
    "PhraserConnectionError",
    "PhraserError",
    "PhraserHTTPError",
    "PhraserResponseError",
    "PhraserStreamError",
    "PhraserTimeoutError",
    "Policy",
    "PopulationMetrics",
    "PostgresSnapshotStore",
    "PrometheusMetrics",
    "Prompt",
    "Query",
    "QueuedSnapshotStore",
    "RecordedAttempt",
    "RedisBreakerStore",
    "RedisLastGood",
    "ScanReport",
    "ScannedSentence",
    "Scanner",
    "SharedLastGood",
    "SilenceReason",
    "Snapshot",
    "SnapshotStore",
    "Source",
    "SourceError",
    "SqliteSnapshotStore",
    "StoreError",
    "StreamEnd",
    "StreamScanner",
    "StreamingPhraser",
    "SystemClock",
    "TemplatePhraser",
    "TraceSpan",
    "Verdict",
    "VerdictKind",
    "VerdictReason",
    "VouchedError",
    "abstention_rate",
    "build_prompt",
    "citation_precision",
    "classify",
    "dump_facts",
    "export_jsonl",
    "fetch_sync",
    "gather",
    "gather_sync",
    "grounding_rate",
    "import_jsonl",
    "load_facts",
    "measure",
    "open_snapshot_store",
    "partition",
    "replay",
    "scan",
    "unsupported_quotes",
    "verify_answer",
    "verify_output",
]

__version__ = "0.1.0"
