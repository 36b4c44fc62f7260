"""What a rule derives from a view's facts is made once per key (FactIndex.derived):
a view is built once per scanner, so a sentence that asks again reads what was made."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from vouched import Fact
from vouched._scan._facts._factindex import FactIndex

NOW = datetime(2026, 12, 7, 12, tzinfo=UTC)


def _index() -> FactIndex:
    facts = [
        Fact(subject="Graz", attribute="temperature", value=Decimal("3.4"), unit="°C",
             source="ow", observed_at=NOW),
        Fact(subject="Graz", attribute="wind_speed", value=Decimal("5.1"), unit="m/s",
             source="ow", observed_at=NOW),
    ]  # fmt: skip
    return FactIndex.build(facts, [], frozenset())


def test_a_derived_value_is_built_once_per_key_from_the_grounded_facts() -> None:
    index = _index()
    calls: list[str | None] = []

    def units(facts: tuple[Fact, ...], unit: str | None) -> list[str | None]:
        calls.append(unit)
        return [f.unit for f in facts if f.unit == unit]

    assert index.derived(units, "°C") == ["°C"]
    assert index.derived(units, "°C") is index.derived(units, "°C")
    assert index.derived(units, "m/s") == ["m/s"]
    assert calls == ["°C", "m/s"]
