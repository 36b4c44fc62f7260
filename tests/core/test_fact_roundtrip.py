"""A fact dumped and loaded again is the same fact, whatever its value type."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from vouched import Fact, SilenceReason, dump_facts, load_facts

_TEXT = st.text(min_size=1, max_size=12).filter(lambda s: s.strip() != "")
_VALUES: st.SearchStrategy[Any] = st.one_of(
    st.text(max_size=20),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.decimals(allow_nan=False, allow_infinity=False, places=None),
)
_INSTANTS = st.datetimes(
    min_value=datetime(1970, 1, 2),
    max_value=datetime(2200, 1, 1),
    timezones=st.just(UTC),
)
_TTLS = st.one_of(st.none(), st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=400)))


@st.composite
def facts(draw: st.DrawFn) -> Fact:
    silent = draw(st.booleans())
    return Fact(
        subject=draw(_TEXT),
        attribute=draw(_TEXT),
        value=None if silent else draw(_VALUES),
        unit=draw(st.one_of(st.none(), _TEXT)),
        source=draw(st.one_of(st.none(), _TEXT)),
        observed_at=draw(st.one_of(st.none(), _INSTANTS)),
        confidence=draw(st.one_of(st.none(), st.floats(min_value=0.0, max_value=1.0))),
        ttl=draw(_TTLS),
        citation=draw(st.one_of(st.none(), _TEXT)),
        silent_reason=draw(st.sampled_from(list(SilenceReason)) | _TEXT) if silent else None,
    )


@given(facts())
def test_model_dump_json_reads_back_equal(fact: Fact) -> None:
    assert Fact.model_validate_json(fact.model_dump_json()) == fact


@given(st.lists(facts(), max_size=5))
def test_dump_facts_reads_back_equal(tmp_path_factory: Any, many: list[Fact]) -> None:
    path = Path(tmp_path_factory.mktemp("facts")) / "facts.json"
    dump_facts(many, path)
    assert load_facts(path) == many


def test_a_decimal_value_is_a_json_number_not_a_string() -> None:
    fact = Fact(subject="Berlin", attribute="temperature", value=Decimal("21.40"), unit="degC")
    assert json.loads(fact.model_dump_json())["value"] == 21.4
    assert '"value":21.40' in fact.model_dump_json().replace(" ", "")


def test_dump_facts_returns_the_text_it_writes(tmp_path: Path) -> None:
    fact = Fact(subject="EUR/USD", attribute="rate", value=Decimal("1.0842"))
    path = tmp_path / "facts.json"
    assert dump_facts([fact], path) == path.read_text(encoding="utf-8")
    assert dump_facts([]) == "[]\n"
