"""The case worlds' lexicon sections for facts stated in words are consistent with their facts."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from vouched._jsonio import loads

from ._cases import WORLDS

NAMES = ("weather", "currency", "stock", "trains", "workshops", "services")
RELATIONS = ("comparisons", "superlatives", "thresholds")


def _data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = loads((WORLDS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _sections(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The lexicon's word sections (``values`` and the three relation sections)."""
    lexicon = data["lexicon"]
    assert "lexicon_words" not in data  # folded into the lexicon the scanner reads
    return {section: lexicon.get(section, {}) for section in ("values", *RELATIONS)}


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float | Decimal):
        return "number"
    return "str"


def _fact_kinds(data: dict[str, Any]) -> dict[str, set[str]]:
    """Each attribute's value kinds; an attribute whose facts are all silent has none."""
    kinds: dict[str, set[str]] = {}
    for fact in data["facts"]:
        found = kinds.setdefault(fact["attribute"], set())
        if fact.get("value") is not None:
            found.add(_kind(fact["value"]))
    return kinds


@pytest.mark.parametrize("name", NAMES)
def test_word_sections_name_attributes_the_world_has(name: str) -> None:
    data = _data(name)
    kinds = _fact_kinds(data)
    sections = _sections(data)
    for attribute, phrases in sections["values"].items():
        assert attribute in kinds, (name, attribute)
        for phrase, value in phrases.items():
            assert kinds[attribute] <= {_kind(value)}, (name, attribute, phrase, value)
    for phrase, rule in sections["comparisons"].items():
        assert rule["attribute"] in kinds, (name, phrase)
        assert rule["holds"] in ("<", "<=", ">", ">=", "="), (name, phrase)
    for phrase, rule in sections["superlatives"].items():
        assert rule["attribute"] in kinds, (name, phrase)
        assert rule["rank"] in ("min", "max"), (name, phrase)
    for phrase, rule in sections["thresholds"].items():
        numeric = all(a in kinds and kinds[a] <= {"number"} for a in rule["attributes"])
        assert numeric, (name, phrase)
        assert "at_least" in rule or "at_most" in rule, (name, phrase)
        assert rule.get("at_least", 0) <= rule.get("at_most", rule.get("at_least", 0))
        assert 1 <= rule["count"] <= len(rule["attributes"]), (name, phrase)


@pytest.mark.parametrize("name", NAMES)
def test_every_world_states_each_kind_of_word_and_each_relation_once(name: str) -> None:
    # A relation phrase belongs to one attribute and is no value phrase; a value phrase
    # may state one value for two attributes ("flat": change and change_percent).
    sections = _sections(_data(name))
    values = {p.lower() for m in sections["values"].values() for p in m}
    relations = [p.lower() for section in RELATIONS for p in sections[section]]
    assert len(relations) == len(set(relations)), name
    assert not values & set(relations), sorted(values & set(relations))
    assert all(sections[section] for section in ("values", *RELATIONS)), name
