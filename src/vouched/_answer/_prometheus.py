"""A Prometheus exporter (the optional ``prometheus`` extra: prometheus-client).

``prometheus_client`` is imported when a :class:`PrometheusMetrics` is made,
never when vouched is imported; without it the constructor raises
:class:`MissingExtraError` naming ``pip install 'vouched[prometheus]'``.

Metrics (label values are the stable codes, never prose: a caller-defined
silence reason, or any other value outside the known codes, is counted under
``reason="custom"`` / ``kind="custom"``, so free text cannot grow the series)::

    vouched_verdicts_total{kind, reason}          counter
    vouched_findings_total{kind}                  counter
    vouched_answers_total{status}                 counter
    vouched_snapshot_write_failures_total         counter
    vouched_breaker_state{source}                 gauge: 0 closed, 1 half_open, 2 open
    vouched_breaker_store_fallbacks_total{source} counter: a shared breaker store
                                                  (Redis) stopped answering
    vouched_answer_latency_seconds                histogram
    vouched_first_sentence_seconds                histogram: question to first sentence (streams)

Each instance has its own registry (no global state): serve it with
:meth:`PrometheusMetrics.serve`, or read :meth:`exposition` from your own
HTTP handler.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from vouched._exceptions import MissingExtraError
from vouched._fact import SilenceReason
from vouched._gate import VerdictKind, VerdictReason
from vouched._scan._scanner import FindingKind

if TYPE_CHECKING:
    from vouched._answer._result import Answer
    from vouched._gate import Verdict
    from vouched._replay._snapshot import Snapshot
    from vouched._sources._breaker import BreakerEvent

__all__ = ["BREAKER_STATES", "CUSTOM", "LATENCY_BUCKETS", "PrometheusMetrics"]

BREAKER_STATES: Mapping[str, int] = {"closed": 0, "half_open": 1, "open": 2}
LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)


def _client() -> Any:
    try:
        import prometheus_client  # noqa: PLC0415 - the optional extra, loaded on use
    except ImportError:
        raise MissingExtraError("prometheus", "prometheus-client") from None
    return prometheus_client


CUSTOM = "custom"
_KNOWN: Mapping[str, frozenset[str]] = {
    "reason": frozenset({*(m.value for m in VerdictReason), *(m.value for m in SilenceReason)}),
    "kind": frozenset({*(m.value for m in VerdictKind), *(m.value for m in FindingKind)}),
}


def _code(item: Any, name: str) -> str:
    """The item's code for a label: a known code, else ``custom``."""
    value = item.get(name) if isinstance(item, Mapping) else getattr(item, name)
    code = str(getattr(value, "value", value))
    return code if code in _KNOWN[name] else CUSTOM


class PrometheusMetrics:
    """Counters, a gauge and a histogram for one vouched deployment.

    Feed it what the answer path produces: verdicts (gate ``Verdict`` or a
    snapshot's recorded ones), findings (scanner ``Finding`` or their JSON),
    an answer's status and latency, a breaker's state; or a whole
    :class:`~vouched.Snapshot` with :meth:`observe_snapshot`.
    """

    def __init__(
        self, *, registry: Any = None, latency_buckets: Iterable[float] = LATENCY_BUCKETS
    ) -> None:
        client = _client()
        self._client = client
        self.registry = registry if registry is not None else client.CollectorRegistry()
        self._verdicts = client.Counter(
            "vouched_verdicts",
            "Gate verdicts by kind and reason.",
            ["kind", "reason"],
            registry=self.registry,
        )
        self._findings = client.Counter(
            "vouched_findings",
            "Scanner findings in model output by kind.",
            ["kind"],
            registry=self.registry,
        )
        self._answers = client.Counter(
            "vouched_answers", "Answers by status.", ["status"], registry=self.registry
        )
        self._write_failures = client.Counter(
            "vouched_snapshot_write_failures",
            "Snapshots a store failed to write (the answers went out).",
            registry=self.registry,
        )
        self._breakers = client.Gauge(
            "vouched_breaker_state",
            "Circuit breaker state per source: 0 closed, 1 half_open, 2 open.",
            ["source"],
            registry=self.registry,
            multiprocess_mode="livemax",  # several processes: the worst state among the live ones
        )
        self._fallbacks = client.Counter(
            "vouched_breaker_store_fallbacks",
            "Times a source's shared breaker store stopped answering (local state used).",
            ["source"],
            registry=self.registry,
        )
        self._latency = client.Histogram(
            "vouched_answer_latency_seconds",
            "Time to produce an answer.",
            buckets=tuple(latency_buckets),
            registry=self.registry,
        )
        self._first_sentence = client.Histogram(
            "vouched_first_sentence_seconds",
            "Time from the question to the first sentence released (streamed answers).",
            buckets=tuple(latency_buckets),
            registry=self.registry,
        )

    # -- feeding --------------------------------------------------------------

    def observe_verdicts(self, verdicts: Iterable[Any]) -> None:
        for verdict in verdicts:
            self._verdicts.labels(_code(verdict, "kind"), _code(verdict, "reason")).inc()

    def observe_findings(self, findings: Iterable[Any]) -> None:
        for finding in findings:
            self._findings.labels(_code(finding, "kind")).inc()

    def observe_answer(self, status: str, latency_seconds: float | None = None) -> None:
        self._answers.labels(str(status)).inc()
        if latency_seconds is not None:
            self._latency.observe(latency_seconds)

    def observe_snapshot(self, snapshot: Snapshot) -> None:
        """Verdicts, findings, status and ``timings["total"]`` of one snapshot."""
        self.observe_verdicts(snapshot.verdicts)
        self.observe_findings(snapshot.findings)
        self.observe_answer(snapshot.status, snapshot.timings.get("total"))

    def observe(self, answer: Answer, verdicts: Iterable[Verdict]) -> None:
        """One answer and its gate verdicts: pass this exporter to
        ``Grounder(..., observers=[metrics])``."""
        self.observe_verdicts(verdicts)
        self.observe_findings(answer.findings)
        self.observe_answer(str(answer.status), answer.timings.get("total"))
        first = answer.timings.get("first_sentence")
        if first is not None:
            self._first_sentence.observe(first)

    def on_breaker_event(self, event: BreakerEvent) -> None:
        """A breaker listener: ``GuardedSource(..., listeners=[metrics.on_breaker_event])``
        keeps the state gauge current and counts shared-store fallbacks."""
        if str(event.kind) == "local_fallback":
            self._fallbacks.labels(event.name).inc()
        self.set_breaker_state(event.name, str(event.new_state))

    def snapshot_write_failed(self) -> None:
        self._write_failures.inc()

    def set_breaker_state(self, source: str, state: str) -> None:
        """Record a breaker's state ("closed", "half_open" or "open")."""
        try:
            number = BREAKER_STATES[str(state)]
        except KeyError:
            raise ValueError(
                f"unknown breaker state {state!r} (expected {', '.join(BREAKER_STATES)})"
            ) from None
        self._breakers.labels(source).set(number)

    # -- reading --------------------------------------------------------------

    def exposition(self) -> bytes:
        """The text exposition format, as a scrape would see it."""
        data: bytes = self._client.generate_latest(self.registry)
        return data

    def serve(self, port: int = 0, addr: str = "127.0.0.1") -> tuple[Any, int]:
        """Serve ``/metrics`` over HTTP in a daemon thread; returns (server, port).

        Stop it with ``server.shutdown(); server.server_close()``.
        """
        server, _thread = self._client.start_http_server(port, addr=addr, registry=self.registry)
        return server, int(server.server_port)
