"""The public face: names users import are pinned; importing does no I/O."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_every_public_name_is_imported_from_the_home_type_checkers_read() -> None:
    # The TYPE_CHECKING imports are what mypy sees; _HOMES is what the interpreter
    # imports on first use: one table, written twice, held equal here.
    tree = ast.parse(Path(vouched.__file__).read_text(encoding="utf-8"))
    block = next(
        n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)
    )
    typed = {
        alias.name: node.module
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert typed == vouched._HOMES
    assert sorted(typed) == vouched.__all__


def test_import_loads_nothing_beyond_the_face_and_the_standard_library() -> None:
    # Every name resolves on first use, so `import vouched` (and `vouched --version`)
    # pays for no scanner, store, breaker (pybreaker imports redis), pydantic or extra.
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import vouched\n"
        "added = sorted(m.split('.')[0] for m in set(sys.modules) - before)\n"
        "print(','.join(sorted({m for m in added if m not in sys.stdlib_module_names})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "vouched"


def test_the_version_constant_is_the_installed_distributions() -> None:
    from importlib.metadata import version  # noqa: PLC0415

    assert vouched.__version__ == version("vouched")


def test_a_name_resolves_to_the_object_its_home_defines() -> None:
    from vouched._scan._scanner import scan  # noqa: PLC0415

    assert vouched.scan is scan


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        vouched.no_such_name  # noqa: B018


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
