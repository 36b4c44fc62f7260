"""The prompt speaks time: each fact's period and today's date in the place's zone,
and an answer about one day sends that day's facts only (issue 39, item 1)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from vouched import AnswerStatus, Fact, Grounder, InputError, Lexicon
from vouched._answer._prompt import SYSTEM_TEXT, build_prompt
from vouched._jsonio import loads
from vouched._server._app import create_app
from vouched._server._config import load_config
from vouched.testing import FakeClock, MemorySnapshotStore, ScriptedPhraser

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

VIENNA = timezone(timedelta(hours=1))
NOW = datetime(2026, 12, 6, 11, 30, tzinfo=UTC)  # Sunday 12:30 in Vienna
FIRST_DAY = datetime(2026, 12, 6, tzinfo=VIENNA)


def _fact(attribute: str, value: object, start: datetime, end: datetime) -> Fact:
    return Fact(subject="Vienna", attribute=attribute, value=value, unit="°C", source="om",
                observed_at=NOW, ttl=3600, valid_from=start, valid_until=end)  # fmt: skip


def _forecast(days: int = 5) -> list[Fact]:
    """Per day: two six-hour slots of temperature and the day's high."""
    facts = []
    for d in range(days):
        day = FIRST_DAY + timedelta(days=d)
        for h in (6, 12):
            slot = day + timedelta(hours=h)
            facts.append(_fact("temperature", Decimal(d + h), slot, slot + timedelta(hours=6)))
        facts.append(_fact("temperature_max", Decimal(d + 20), day, day + timedelta(days=1)))
    return facts


COUNTRY = Fact(subject="Vienna", attribute="country", value="Austria", source="om",
               observed_at=NOW, ttl=3600)  # fmt: skip


def _block(user: str) -> dict[str, Any]:
    match = re.search(r"<data>\n(.*)\n</data>", user, re.DOTALL)
    assert match is not None
    parsed = loads(match.group(1))
    assert isinstance(parsed, dict)
    return parsed


def test_a_whole_day_fact_says_its_weekday_and_date() -> None:
    day = _fact("temperature_max", 5, FIRST_DAY + timedelta(days=1), FIRST_DAY + timedelta(days=2))
    (entry,) = _block(build_prompt("?", [day], [], now=NOW).user)["facts"]
    assert entry["for"] == "Mon 2026-12-07"
    assert "from" not in entry


def test_a_slot_says_from_and_until_in_the_places_time() -> None:
    start = FIRST_DAY + timedelta(days=1, hours=12)
    slot = _fact("temperature", 5, start, start + timedelta(hours=3))
    (entry,) = _block(build_prompt("?", [slot], [], now=NOW).user)["facts"]
    assert (entry["from"], entry["until"]) == ("Mon 2026-12-07 12:00", "Mon 2026-12-07 15:00")


def test_the_block_states_now_in_the_places_zone() -> None:
    block = _block(build_prompt("?", _forecast(), [], now=NOW).user)
    assert block["now"] == "Sun 2026-12-06 12:30 UTC+01:00"


def test_a_block_of_facts_without_periods_states_no_date() -> None:
    assert "now" not in _block(build_prompt("?", [COUNTRY], [], now=NOW).user)


def test_the_system_text_asks_for_the_day_of_every_value() -> None:
    assert "Name the day" in SYSTEM_TEXT
    assert "never give one day's value for another day" in SYSTEM_TEXT


class _Source:
    name = "forecast"

    def __init__(self, facts: Sequence[Fact]) -> None:
        self.facts = facts
        self.queries: list[Any] = []

    async def fetch(self, query: Any) -> Sequence[Fact]:
        self.queries.append(dict(query))
        return self.facts


def _ask(question: str, query: Any = None, **options: Any) -> tuple[Any, Any, _Source]:
    source = _Source([*_forecast(), COUNTRY])
    phraser = ScriptedPhraser(["Nothing."])
    store = MemorySnapshotStore()
    grounder = Grounder([source], phraser=phraser, clock=FakeClock(NOW), store=store, **options)

    async def main() -> None:
        await grounder.answer(question, query if query is not None else {"subject": "Vienna"})
        await grounder.settle()

    asyncio.run(main())
    return phraser.prompts[0], next(store.iter()), source


def _sent(prompt: Any) -> list[tuple[str, str]]:
    return [
        (e["attribute"], e.get("for") or e.get("from") or "-") for e in _block(prompt.user)["facts"]
    ]


def test_a_question_about_tomorrow_sends_only_tomorrows_facts() -> None:
    prompt, _, _ = _ask("What's the high in Vienna tomorrow?")
    assert _sent(prompt) == [
        ("temperature", "Mon 2026-12-07 06:00"),
        ("temperature", "Mon 2026-12-07 12:00"),
        ("temperature_max", "Mon 2026-12-07"),
        ("country", "-"),
    ]


def test_the_snapshot_stores_only_the_facts_sent() -> None:
    prompt, snapshot, _ = _ask("What's the high in Vienna tomorrow?")
    assert len(snapshot.facts) == len(_block(prompt.user)["facts"]) == 4


def test_a_weekday_in_the_question_sends_that_days_facts() -> None:
    prompt, _, _ = _ask("How warm will Wednesday afternoon be?")
    assert {when[:14] for _, when in _sent(prompt) if when != "-"} == {"Wed 2026-12-09"}


def test_when_in_the_query_narrows_and_the_sources_never_see_it() -> None:
    prompt, snapshot, source = _ask("And the high?", {"subject": "Vienna", "when": "2026-12-08"})
    assert {when[:14] for _, when in _sent(prompt) if when != "-"} == {"Tue 2026-12-08"}
    assert source.queries == [{"subject": "Vienna"}]
    assert snapshot.query["when"] == "2026-12-08"


def test_an_iso_range_keeps_both_end_days() -> None:
    prompt, _, _ = _ask("Highs?", {"subject": "Vienna", "when": "2026-12-07/2026-12-08"})
    days = {e["for"] for e in _block(prompt.user)["facts"] if "for" in e}
    assert days == {"Mon 2026-12-07", "Tue 2026-12-08"}


def test_a_question_naming_no_time_sends_every_fact() -> None:
    prompt, _, _ = _ask("How warm is Vienna?")
    assert len(_block(prompt.user)["facts"]) == 16


def test_when_all_sends_every_fact_whatever_the_question_says() -> None:
    prompt, _, _ = _ask("Tomorrow?", {"subject": "Vienna", "when": "all"})
    assert len(_block(prompt.user)["facts"]) == 16


def test_a_when_that_names_no_time_is_an_input_error() -> None:
    with pytest.raises(InputError, match="when"):
        _ask("?", {"subject": "Vienna", "when": "soonish"})


def test_max_facts_keeps_facts_without_a_period_then_the_earliest() -> None:
    prompt, snapshot, _ = _ask("How warm is Vienna?", max_facts=4)
    assert _sent(prompt)[0][0] == "temperature"  # the sources' order is kept
    assert {a for a, _ in _sent(prompt)} == {"temperature", "temperature_max", "country"}
    assert [when for _, when in _sent(prompt) if when.startswith("Sun")] == [
        "Sun 2026-12-06 06:00",
        "Sun 2026-12-06 12:00",
        "Sun 2026-12-06",
    ]
    assert len(snapshot.facts) == 4


def test_the_service_refuses_a_when_that_names_no_time_with_a_422() -> None:
    app = create_app(load_config(EXAMPLES / "serve.toml"), clock=FakeClock(NOW))

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            body = {"question": "Berlin?", "query": {"subject": "Berlin", "when": "soonish"}}
            return await client.post("/v1/answer", json=body)

    response = asyncio.run(ask())
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "query.when"


def test_the_answers_scan_reads_tomorrow_from_the_answers_now_not_the_first_fact() -> None:
    # Narrowed to tomorrow, the first fact the scanner sees is tomorrow's: "tomorrow"
    # must still be Monday (the clock's), not the day after the first fact.
    source = _Source([*_forecast(), COUNTRY])
    phraser = ScriptedPhraser(["Tomorrow the high in Vienna is 21 °C."])
    grounder = Grounder([source], phraser=phraser, lexicon=Lexicon.load("weather"),
                        clock=FakeClock(NOW), on_fail="refuse")  # fmt: skip
    answer = asyncio.run(grounder.answer("What's the high in Vienna tomorrow?", {}))
    assert (answer.status, answer.findings) == (AnswerStatus.OK, ())
