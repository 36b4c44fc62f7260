"""A finding of a time-bound value names the period it was checked against and the
fact's value there, in its detail and as fields (issue 39, item 10)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from vouched import Fact, FindingKind, Lexicon, Scanner, dump_facts, scan
from vouched.testing import run_cli

VIENNA = timezone(timedelta(hours=1))
NOW = datetime(2026, 12, 6, 12, tzinfo=UTC)  # Sunday
LEXICON = Lexicon.from_json({"attributes": {"temperature_max": ["high"]}})


def _high(value: int, day: int) -> Fact:
    start = datetime(2026, 12, day, tzinfo=VIENNA)
    return Fact(subject="Vienna", attribute="temperature_max", value=value, unit="°C",
                source="om", observed_at="2026-12-06T10:00:00Z", ttl=86400,
                valid_from=start, valid_until=start + timedelta(days=1))  # fmt: skip


FACTS = [_high(5, 7), _high(7, 8)]


def test_a_wrong_high_for_tomorrow_names_mondays_period_and_value() -> None:
    (finding,) = scan("Tomorrow the high in Vienna is 7 °C.", FACTS, LEXICON, now=NOW).findings
    assert finding.kind is FindingKind.VALUE_MISMATCH
    assert finding.period == (
        datetime(2026, 12, 7, tzinfo=VIENNA),
        datetime(2026, 12, 8, tzinfo=VIENNA),
    )
    assert finding.fact_value == 5
    assert "5 °C for Mon 2026-12-07" in finding.detail


def test_the_json_finding_carries_the_period_and_the_facts_value() -> None:
    (finding,) = scan("On Tuesday the high in Vienna is 5 °C.", FACTS, LEXICON, now=NOW).findings
    out = finding.to_json()
    assert out["period"] == {
        "from": "2026-12-08T00:00:00+01:00",
        "until": "2026-12-09T00:00:00+01:00",
    }
    assert out["fact_value"] == 7


def test_a_finding_against_a_fact_without_a_period_has_no_period_fields() -> None:
    now_fact = Fact(subject="Vienna", attribute="temperature_max", value=5, unit="°C",
                    source="om", observed_at="2026-12-06T10:00:00Z", ttl=86400)  # fmt: skip
    (finding,) = scan("The high in Vienna is 7 °C.", [now_fact], LEXICON, now=NOW).findings
    assert finding.period is None
    assert "period" not in finding.to_json()


def test_a_streamed_finding_keeps_its_period_when_moved_into_the_text() -> None:
    stream = Scanner(FACTS, LEXICON, now=NOW).stream()
    stream.feed("It is cold. Tomorrow the high in Vienna is 7 °C.")
    (finding,) = stream.close().findings
    assert (finding.start, finding.fact_value) == (43, 5)


def test_vouched_scan_json_names_the_period(tmp_path: Path) -> None:
    dump_facts(FACTS, tmp_path / "facts.json")
    (tmp_path / "lexicon.json").write_text(json.dumps(LEXICON.to_json()), encoding="utf-8")
    (tmp_path / "out.txt").write_text("Tomorrow the high in Vienna is 7 °C.", encoding="utf-8")
    done = run_cli(["scan", "--facts", tmp_path / "facts.json", "--lexicon",
                    tmp_path / "lexicon.json", "--now", "2026-12-06T12:00:00Z", "--json",
                    tmp_path / "out.txt"])  # fmt: skip
    (finding,) = json.loads(done.stdout)["findings"]
    assert finding["period"]["from"] == "2026-12-07T00:00:00+01:00"
    assert finding["fact_value"] == 5
