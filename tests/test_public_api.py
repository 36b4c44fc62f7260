"""The public face: names users import are pinned; importing does no I/O."""

from __future__ import annotations

import subprocess
import sys

import vouched

EXPECTED = [
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


def test_all_is_pinned_and_sorted() -> None:
    assert vouched.__all__ == EXPECTED
    assert vouched.__all__ == sorted(vouched.__all__)


def test_every_public_name_resolves() -> None:
    missing = [name for name in vouched.__all__ if not hasattr(vouched, name)]
    assert missing == []


def test_import_loads_no_optional_or_cli_dependency() -> None:
    # httpx (a core dependency) loads rich itself when click is installed
    # (schemathesis brings it): count only what importing vouched adds.
    code = (
        "import sys, httpx, pybreaker\n"
        # (redis is not listed: pybreaker itself imports it whenever it is installed,
        # and redis imports opentelemetry whenever that is installed)
        "before = set(sys.modules)\n"
        "import vouched\n"
        "heavy = [m for m in ('rich', 'matplotlib', 'prometheus_client', 'vouched._cli',"
        " 'psycopg', 'starlette', 'uvicorn', 'vouched._server', 'opentelemetry')"
        " if m in sys.modules and m not in before]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""
