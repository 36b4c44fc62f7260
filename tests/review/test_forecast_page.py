"""One forecast answer's page: what the model said first, then the facts with their
periods, narrowed to those the findings name (issue 39, item 10)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jinja2", reason="the review pages need vouched[server]")

from server._serving import InProcess
from vouched import Fact, Grounder, Lexicon, SqliteSnapshotStore
from vouched._review import create_review_app
from vouched.testing import FakeClock, ScriptedPhraser

VIENNA = timezone(timedelta(hours=1))
NOW = datetime(2026, 12, 6, 11, tzinfo=UTC)  # Sunday


def _high(value: int, day: int) -> Fact:
    start = datetime(2026, 12, day, tzinfo=VIENNA)
    return Fact(subject="Vienna", attribute="temperature_max", value=value, unit="°C",
                source="om", observed_at=NOW, ttl=3600,
                valid_from=start, valid_until=start + timedelta(days=1))  # fmt: skip


class _Forecast:
    name = "om"

    async def fetch(self, query: Any) -> Sequence[Fact]:
        return [_high(4, 6), _high(5, 7), _high(7, 8), _high(6, 9)]


@pytest.fixture
def page(tmp_path: Path) -> tuple[InProcess, str]:
    store = SqliteSnapshotStore(tmp_path / "s.db")
    phraser = ScriptedPhraser(["The high in Vienna on Monday is 7 °C.",
                               "The high in Vienna on Monday is 5 °C."])  # fmt: skip
    grounder = Grounder([_Forecast()], phraser=phraser, lexicon=Lexicon.load("weather"),
                        clock=FakeClock(NOW), store=store)  # fmt: skip

    async def main() -> None:
        await grounder.answer("Highs this week in Vienna?", {})
        await grounder.settle()

    asyncio.run(main())
    (snapshot,) = store.iter()
    snapshot_id = snapshot.id
    return InProcess(create_review_app(store, clock=FakeClock(NOW))), snapshot_id


def _rows(html: str) -> list[str]:
    table = html[html.index('<table class="facts">') :]
    return [row for row in table.split("<tr")[2:] if "</td>" in row]


def test_what_the_model_said_comes_before_the_facts(page: tuple[InProcess, str]) -> None:
    pages, snapshot_id = page
    html = pages.get(f"/answers/{snapshot_id}").text
    assert html.index("What the model said") < html.index("Facts and the gate's verdicts")


def test_the_facts_are_narrowed_to_the_one_the_finding_names(page: tuple[InProcess, str]) -> None:
    pages, snapshot_id = page
    html = pages.get(f"/answers/{snapshot_id}").text
    (row,) = _rows(html)
    assert "Mon 2026-12-07" in row
    assert "Show all 4 facts" in html


def test_every_fact_is_behind_the_link_with_its_period(page: tuple[InProcess, str]) -> None:
    pages, snapshot_id = page
    html = pages.get(f"/answers/{snapshot_id}?facts=all").text
    rows = _rows(html)
    assert len(rows) == 4
    assert ["Sun 2026-12-06" in rows[0], "Wed 2026-12-09" in rows[3]] == [True, True]
    assert "Show all" not in html
