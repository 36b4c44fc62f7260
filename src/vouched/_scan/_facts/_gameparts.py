"""Periods: the part of an occasion a relation speaks of, declared in the lexicon.

A box score gives each team's points per quarter; "pulled away in the second half"
compares the sums of the third and fourth, "led at halftime" the running total after
the second. The lexicon's ``periods`` section names, per phrase, the attributes whose
sum stands for an attribute within that period::

    {"periods": {"in the second half": {"TEAM-PTS": ["TEAM-PTS_QTR3", "TEAM-PTS_QTR4"]},
                 "at halftime": {"TEAM-PTS": ["TEAM-PTS_QTR1", "TEAM-PTS_QTR2"]},
                 "in the third quarter": {"TEAM-PTS": ["TEAM-PTS_QTR3"]}}}

A half is the sum of its quarters, a running total ("after three quarters") the sum
of the quarters so far; a single part is the period itself. In another world: a
day's rainfall as the sum of its hours, a week's sales as the sum of its days. A
comparison ("pulled away", "outscored") whose clause names a period compares the
subjects' sums of those parts instead of the whole (:func:`period_parts`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from vouched._exceptions import InputError

__all__ = ["period_json", "period_parts", "periods_of"]

Periods = Mapping[str, Mapping[str, tuple[str, ...]]]
"""phrase -> {attribute: the attributes whose sum is its value in that period}."""


def periods_of(section: Any, where: str = "periods") -> Periods:
    """The ``periods`` section, validated: each phrase an object of attribute -> a
    non-empty list of attribute names."""
    if not isinstance(section, Mapping):
        raise InputError("must be an object of phrase -> {attribute: [parts]}", field=where)
    found: dict[str, Mapping[str, tuple[str, ...]]] = {}
    for phrase, spec in section.items():
        if not isinstance(phrase, str) or not phrase.strip():
            raise InputError("phrases must be non-empty strings", field=where)
        at = f"{where}.{phrase}"
        if not isinstance(spec, Mapping) or not spec:
            raise InputError("must be an object of attribute -> list of its parts", field=at)
        parts: dict[str, tuple[str, ...]] = {}
        for attribute, names in spec.items():
            where_parts = f"{at}.{attribute}"
            if (
                isinstance(names, str)
                or not isinstance(names, list)
                or not names
                or not all(isinstance(n, str) and n.strip() for n in names)
            ):
                raise InputError("must be a non-empty list of attribute names", field=where_parts)
            if attribute in names:
                raise InputError("a period's parts cannot include the whole", field=where_parts)
            parts[attribute] = tuple(names)
        found[" ".join(phrase.split())] = MappingProxyType(parts)
    return MappingProxyType(found)


def period_json(periods: Periods) -> dict[str, dict[str, list[str]]]:
    """The file form of the section (for ``Lexicon.to_json``)."""
    return {phrase: {a: list(p) for a, p in spec.items()} for phrase, spec in periods.items()}


@lru_cache(maxsize=32)
def _matcher(phrases: tuple[str, ...]) -> re.Pattern[str]:
    words = sorted(phrases, key=len, reverse=True)
    joined = "|".join(r"\s+".join(re.escape(w) for w in p.split()) for p in words)
    return re.compile(rf"(?<!\w)(?:{joined})(?!\w)", re.IGNORECASE)


def period_parts(
    periods: Periods, attribute: str, text: str, start: int, end: int
) -> tuple[str, ...] | None:
    """The parts of ``attribute`` for the first period phrase of ``text[start:end]`` (a
    relation's clause) that declares it; None when no period is named there."""
    if not periods:
        return None
    found = _matcher(tuple(periods)).search(text, start, end)
    if found is None:
        return None
    spec = periods.get(" ".join(found.group().lower().split()))
    if spec is None:  # the phrase as declared, case aside
        spec = next(
            (v for k, v in periods.items() if k.lower() == " ".join(found.group().split()).lower()),
            None,
        )
    return None if spec is None else spec.get(attribute)
