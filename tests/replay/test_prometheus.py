"""The Prometheus exporter, scraped over real HTTP on 127.0.0.1."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import httpx
import pytest

from replay.population import SnapshotFactory
from vouched import MissingExtraError, PrometheusMetrics
from vouched._time import parse_instant

_NOW = parse_instant("2026-11-29T12:00:00Z")


@pytest.fixture
def served() -> Iterator[tuple[PrometheusMetrics, str]]:
    metrics = PrometheusMetrics()
    server, port = metrics.serve(0, "127.0.0.1")
    try:
        yield metrics, f"http://127.0.0.1:{port}/metrics"
    finally:
        server.shutdown()
        server.server_close()


def test_a_scrape_shows_verdicts_findings_answers_breakers_and_latency(
    served: tuple[PrometheusMetrics, str], make_snapshot: SnapshotFactory
) -> None:
    metrics, url = served
    metrics.observe_snapshot(
        make_snapshot(findings=[{"kind": "ungrounded_number"}], timings={"total": 0.3})
    )
    metrics.set_breaker_state("open-meteo", "open")
    metrics.set_breaker_state("ecb", "closed")
    metrics.snapshot_write_failed()
    text = httpx.get(url, timeout=5).text
    assert 'vouched_verdicts_total{kind="grounded",reason="grounded"} 2.0' in text
    assert 'vouched_verdicts_total{kind="silent",reason="circuit_open"} 1.0' in text
    assert 'vouched_findings_total{kind="ungrounded_number"} 1.0' in text
    assert 'vouched_answers_total{status="ok"} 1.0' in text
    assert 'vouched_breaker_state{source="open-meteo"} 2.0' in text
    assert 'vouched_breaker_state{source="ecb"} 0.0' in text
    assert 'vouched_answer_latency_seconds_bucket{le="0.5"} 1.0' in text
    assert 'vouched_answer_latency_seconds_bucket{le="0.25"} 0.0' in text
    assert "vouched_snapshot_write_failures_total 1.0" in text


def test_two_exporters_do_not_share_counts() -> None:
    one, two = PrometheusMetrics(), PrometheusMetrics()
    one.observe_answer("refused")
    assert b'vouched_answers_total{status="refused"} 1.0' in one.exposition()
    assert b"refused" not in two.exposition()


def test_an_unknown_breaker_state_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown breaker state"):
        PrometheusMetrics().set_breaker_state("ecb", "melted")


def test_without_the_extra_the_error_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "prometheus_client", None)  # as if not installed
    with pytest.raises(MissingExtraError, match=r"pip install 'vouched\[prometheus\]'"):
        PrometheusMetrics()


def test_a_grounder_feeds_the_exporter_and_breakers_move_the_gauge(
    served: tuple[PrometheusMetrics, str],
) -> None:
    from vouched import BreakerSettings, Fact, Grounder, GuardedSource  # noqa: PLC0415
    from vouched.testing import FakeClock, ScriptedSource  # noqa: PLC0415

    metrics, url = served
    clock = FakeClock("2026-11-29T12:00:00Z")
    reading = Fact(
        subject="Berlin",
        attribute="temperature",
        value=21.4,
        unit="degC",
        source="thermometer",
        observed_at="2026-11-29T12:00:00Z",
        ttl=900,
    )
    weather = GuardedSource(ScriptedSource("thermometer", [[reading]]), clock=clock)
    rates = GuardedSource(
        ScriptedSource("ecb", [ConnectionError("down")], expects=[("EUR/USD", "rate")]),
        breaker=BreakerSettings(fail_max=1),
        clock=clock,
        listeners=[metrics.on_breaker_event],
    )
    grounder = Grounder([weather, rates], clock=clock, observers=[metrics])
    answer = grounder.answer_sync("Weather and the euro?", {"subject": "Berlin"})
    text = httpx.get(url, timeout=5).text
    assert f'vouched_answers_total{{status="{answer.status}"}} 1.0' in text
    assert 'vouched_verdicts_total{kind="grounded",reason="grounded"} 1.0' in text
    assert 'vouched_verdicts_total{kind="silent",reason="source_error"} 1.0' in text
    assert 'vouched_breaker_state{source="ecb"} 2.0' in text
    assert "vouched_answer_latency_seconds_count 1.0" in text


def test_an_observer_that_raises_never_breaks_the_answer() -> None:
    from vouched import AnswerStatus, Grounder  # noqa: PLC0415

    class Broken:
        def observe(self, answer: object, verdicts: object) -> None:
            raise RuntimeError("exporter down")

    answer = Grounder([], observers=[Broken()]).answer_sync("Anything?")
    assert answer.status is AnswerStatus.OK
    assert answer.text.startswith("Nothing can be said about this right now")


def test_free_text_silence_reasons_share_one_custom_series() -> None:
    from vouched import Fact, Policy, classify  # noqa: PLC0415 - local to this test

    metrics = PrometheusMetrics()
    verdicts = [
        classify(Fact.silence("Berlin", "wind", f"upstream said no #{n}"), Policy(), _NOW)
        for n in range(5_000)
    ]
    metrics.observe_verdicts(verdicts)
    lines = [
        line
        for line in metrics.exposition().decode().splitlines()
        if line.startswith("vouched_verdicts_total{")
    ]
    assert lines == ['vouched_verdicts_total{kind="silent",reason="custom"} 5000.0']
