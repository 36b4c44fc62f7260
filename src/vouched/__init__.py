"""vouched: only vouched facts reach the model; everything else is typed silence.

The public face of the library. Everything is implemented in private modules and
re-exported here. Importing vouched does no I/O and loads nothing but this file: each
name is imported from its home the first time it is used (PEP 562), so ``import
vouched`` and ``vouched --version`` never pay for the scanner, the stores, the breaker
(pybreaker imports redis when it is installed) or an optional extra. Type checkers read
the imports under ``TYPE_CHECKING``; ``_HOMES`` says the same to the interpreter, and
tests/test_public_api.py holds the two to each other.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
        QueryError,
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
    from vouched._replay._jsonl import export_jsonl, import_jsonl
    from vouched._replay._metrics import (
        PopulationMetrics,
        abstention_rate,
        citation_precision,
        measure,
    )
    from vouched._replay._open import open_snapshot_store
    from vouched._replay._postgres import PostgresSnapshotStore
    from vouched._replay._queued import QueuedSnapshotStore
    from vouched._replay._snapshot import Snapshot
    from vouched._replay._store import SnapshotStore, SqliteSnapshotStore
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

# Each public name and the module it lives in (imported on first use).
_HOMES: dict[str, str] = {
    "Answer": "vouched._answer._result",
    "AnswerEvent": "vouched._answer._events",
    "AnswerEventKind": "vouched._answer._events",
    "AnswerObserver": "vouched._answer._grounder",
    "AnswerRefusedError": "vouched._exceptions",
    "AnswerStatus": "vouched._answer._result",
    "AnswerTracing": "vouched._answer._tracing",
    "AttemptAction": "vouched._replay._attempts",
    "BreakerEvent": "vouched._sources._breaker",
    "BreakerEventKind": "vouched._sources._breaker",
    "BreakerSettings": "vouched._sources._breaker",
    "BreakerState": "vouched._sources._breaker",
    "BreakerStore": "vouched._sources._breaker",
    "CacheSettings": "vouched._sources._guarded",
    "Catalog": "vouched._claims._catalog",
    "ClaimResult": "vouched._claims._verify",
    "ClaimStatus": "vouched._claims._verify",
    "Clock": "vouched._time",
    "ConfigError": "vouched._exceptions",
    "Contract": "vouched._claims._contract",
    "Fact": "vouched._fact",
    "FactValue": "vouched._fact",
    "Finding": "vouched._scan._scanner",
    "FindingKind": "vouched._scan._scanner",
    "GateResult": "vouched._gate",
    "GradeReport": "vouched._replay._grade",
    "Grounder": "vouched._answer._grounder",
    "GuardedSource": "vouched._sources._guarded",
    "InputError": "vouched._exceptions",
    "Lexicon": "vouched._scan._facts._lexicon",
    "LocalBreakerStore": "vouched._sources._breaker",
    "MalformedPayloadError": "vouched._exceptions",
    "MissingExtraError": "vouched._exceptions",
    "OnFail": "vouched._answer._onfail",
    "OpenAIChatPhraser": "vouched._answer._phrasers",
    "OpenTelemetryTracing": "vouched._answer._tracing",
    "Phraser": "vouched._answer._phrasers",
    "PhraserConnectionError": "vouched._exceptions",
    "PhraserError": "vouched._exceptions",
    "PhraserHTTPError": "vouched._exceptions",
    "PhraserResponseError": "vouched._exceptions",
    "PhraserStreamError": "vouched._exceptions",
    "PhraserTimeoutError": "vouched._exceptions",
    "Policy": "vouched._policy",
    "PopulationMetrics": "vouched._replay._metrics",
    "PostgresSnapshotStore": "vouched._replay._postgres",
    "PrometheusMetrics": "vouched._answer._prometheus",
    "Prompt": "vouched._answer._prompt",
    "Query": "vouched._sources._source",
    "QueryError": "vouched._exceptions",
    "QueuedSnapshotStore": "vouched._replay._queued",
    "RecordedAttempt": "vouched._replay._attempts",
    "RedisBreakerStore": "vouched._sources._redis",
    "RedisLastGood": "vouched._sources._redislastgood",
    "ScanReport": "vouched._scan._scanner",
    "ScannedSentence": "vouched._scan._stream",
    "Scanner": "vouched._scan._scanner",
    "SharedLastGood": "vouched._sources._lastgood",
    "SilenceReason": "vouched._fact",
    "Snapshot": "vouched._replay._snapshot",
    "SnapshotStore": "vouched._replay._store",
    "Source": "vouched._sources._source",
    "SourceError": "vouched._exceptions",
    "SqliteSnapshotStore": "vouched._replay._store",
    "StoreError": "vouched._exceptions",
    "StreamEnd": "vouched._answer._chatstream",
    "StreamScanner": "vouched._scan._stream",
    "StreamingPhraser": "vouched._answer._phrasers",
    "SystemClock": "vouched._time",
    "TemplatePhraser": "vouched._answer._phrasers",
    "TraceSpan": "vouched._answer._tracing",
    "Verdict": "vouched._gate",
    "VerdictKind": "vouched._gate",
    "VerdictReason": "vouched._gate",
    "VouchedError": "vouched._exceptions",
    "abstention_rate": "vouched._replay._metrics",
    "build_prompt": "vouched._answer._prompt",
    "citation_precision": "vouched._replay._metrics",
    "classify": "vouched._gate",
    "dump_facts": "vouched._factio",
    "export_jsonl": "vouched._replay._jsonl",
    "fetch_sync": "vouched._sources._source",
    "gather": "vouched._sources._source",
    "gather_sync": "vouched._sources._source",
    "grounding_rate": "vouched._gate",
    "import_jsonl": "vouched._replay._jsonl",
    "load_facts": "vouched._factio",
    "measure": "vouched._replay._metrics",
    "open_snapshot_store": "vouched._replay._open",
    "partition": "vouched._gate",
    "replay": "vouched._replay._grade",
    "scan": "vouched._scan._scanner",
    "unsupported_quotes": "vouched._scan._lex._quotes",
    "verify_answer": "vouched._claims._verify",
    "verify_output": "vouched._claims._verify",
}

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
    "QueryError",
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


def __getattr__(name: str) -> Any:
    try:
        home = _HOMES[name]
    except KeyError:
        raise AttributeError(f"module 'vouched' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next use is a plain module attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
