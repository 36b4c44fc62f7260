"""One answer about several subjects: one query per subject, fanned out to
every source."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import pytest

from vouched import AnswerStatus, Fact, Grounder
from vouched.testing import FakeClock, MemorySnapshotStore

NOW = "2026-11-29T12:10:00Z"
TEMPERATURES = {"Berlin": Decimal("21.4"), "Munich": Decimal("17.8")}


class _PerSubject:
    """An adapter that, like the real ones, takes one subject per query."""

    name = "open-meteo"

    def __init__(self) -> None:
        self.queries: list[Any] = []

    async def fetch(self, query: Any) -> Sequence[Fact]:
        self.queries.append(query)
        subject = query["subject"]
        return [
            Fact(
                subject=subject,
                attribute="temperature",
                value=TEMPERATURES[subject],
                unit="degC",
                source=self.name,
                observed_at="2026-11-29T12:00:00Z",
                ttl=900,
            )
        ]


def _grounder(source: _PerSubject, store: Any = None) -> Grounder:
    return Grounder([source], clock=FakeClock(NOW), store=store)


def test_each_query_reaches_every_source_and_both_subjects_are_answered() -> None:
    source = _PerSubject()
    answer = _grounder(source).answer_sync(
        "How warm is it in Berlin and Munich?", [{"subject": "Berlin"}, {"subject": "Munich"}]
    )
    assert answer.status is AnswerStatus.OK
    assert sorted(q["subject"] for q in source.queries) == ["Berlin", "Munich"]
    assert [f.subject for f in answer.grounded] == ["Berlin", "Munich"]
    assert "21.4" in answer.text
    assert "17.8" in answer.text


def test_a_single_query_is_still_sent_as_it_was_given() -> None:
    source = _PerSubject()
    _grounder(source).answer_sync("How warm is it in Berlin?", {"subject": "Berlin"})
    assert source.queries == [{"subject": "Berlin"}]


def test_the_snapshot_records_every_query() -> None:
    store = MemorySnapshotStore()
    queries = [{"subject": "Berlin"}, {"subject": "Munich"}]
    _grounder(_PerSubject(), store).answer_sync("Berlin and Munich?", queries)
    (snapshot,) = store.iter()
    assert snapshot.to_json()["query"] == {"queries": queries}


@pytest.mark.parametrize("bad", [[], ["Berlin"], "Berlin"])
def test_a_query_that_is_not_mappings_is_a_type_error(bad: Any) -> None:
    with pytest.raises(TypeError, match="mapping"):
        _grounder(_PerSubject()).answer_sync("?", bad)
