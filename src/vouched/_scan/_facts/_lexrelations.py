"""Relations a lexicon declares per phrase: comparisons, superlatives, thresholds.

Each phrase is attached to the attribute (or attributes) it speaks about, so
the scanner can check a statement in words against the facts::

    {"comparisons": {"colder than": {"attribute": "temperature", "holds": "<"}},
     "superlatives": {"team-high": {"attribute": "REB", "rank": "max", "within": "TEAM"}},
     "thresholds": {"triple-double": {"attributes": ["PTS", "REB", "AST", "STL", "BLK"],
                                      "at_least": 10, "count": 3}}}

- a comparison: "X <phrase> Y" states ``attribute(X) holds attribute(Y)``;
- a superlative: "X ... <phrase>" states that X has the largest (``max``) or the
  smallest (``min``) value of the attribute among the subjects that have one, or
  among those whose ``within`` facts equal X's (a player's team) and whose ``among``
  facts have the values it names ("led the bench": ``{"STARTER": false}``, which X
  must have too);
- a threshold: "X ... <phrase>" states that at least ``count`` of X's listed
  attributes reach ``at_least`` and/or stay at or below ``at_most`` (both: a span,
  "scored twice" is goals from 2 to 2), in ``unit`` when
  one is given (the facts' values are converted to it: 30 °F is below 0 degC).

This module only reads and validates the sections; the rules that check them
live in :mod:`vouched._scan._rules._words`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from vouched._exceptions import InputError
from vouched._scan._facts._counts import Count, count_json

__all__ = [
    "HOLDS",
    "Comparison",
    "Relation",
    "Superlative",
    "Threshold",
    "comparisons_of",
    "relation_json",
    "superlatives_of",
    "thresholds_of",
]

HOLDS = ("<", "<=", ">", ">=", "=")
"""The operators a comparison may state."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """ "X <phrase> Y": ``attribute(X) holds attribute(Y)``, by a margin of at least
    ``by_at_least`` and at most ``by_at_most`` when given ("edged": by at most a few
    points; "routed": by many). ``versus = "other"``: with no Y named ("cruised to a
    win"), Y is the one other subject that has the attribute (a game's other team).
    ``at_some_part``: it holds at the end of some part before the last, on the running
    totals of the parts the lexicon's periods split the attribute into ("battled back":
    X was behind at the end of some quarter; a team that led after every one did not).
    ``and_overall``: judged within a period its clause names, it must hold over the
    whole as well ("pulled away in the fourth quarter": and won the game)."""

    attribute: str
    holds: str
    by_at_least: Decimal | None = None
    by_at_most: Decimal | None = None
    versus: str | None = None
    at_some_part: bool = False
    and_overall: bool = False


@dataclass(frozen=True, slots=True)
class Superlative:
    """ "X ... <phrase>": X ranks first (``max`` or ``min``; ``place`` 2 for "second on
    the team": exactly one subject ranks before X, ties sharing a place) on an attribute,
    among the subjects that share X's ``within`` values when they are named. The attribute is the
    one of the number the phrase qualifies ("a game-high 30 points", "led the way with
    20 points"), else ``attribute`` (None: only such a number says it)."""

    attribute: str | None
    rank: str
    within: tuple[str, ...] = ()
    among: tuple[tuple[str, str | bool], ...] = ()  # fixed group values ("the bench")
    place: int = 1  # "second on the team": one subject of the group ranks before X


@dataclass(frozen=True, slots=True)
class Threshold:
    """ "X ... <phrase>": at least ``count`` of X's ``attributes`` reach ``at_least``
    (or stay at or below ``at_most``); with ``exactly``, no more than ``count`` do (a
    line with three stats in double digits is a triple-double, not a double-double)."""

    attributes: tuple[str, ...]
    count: int
    at_least: Decimal | None = None
    at_most: Decimal | None = None
    unit: str | None = None  # the bound's unit ("degC": "below freezing" holds at 30 °F)
    exactly: bool = False
    in_period: bool = False  # read on the part of the occasion its sentence names


Relation = Comparison | Superlative | Threshold | Count


def _phrase(phrase: Any, where: str) -> str:
    if not isinstance(phrase, str) or not phrase.strip():
        raise InputError("phrases must be non-empty strings", field=where)
    return " ".join(phrase.split())


def _entries(section: Any, where: str) -> Iterable[tuple[str, Mapping[str, Any], str]]:
    if not isinstance(section, Mapping):
        raise InputError("must be an object of phrase -> {attribute, ...}", field=where)
    for phrase, spec in section.items():
        at = f"{where}.{phrase}"
        if not isinstance(spec, Mapping):
            raise InputError("must be an object", field=at)
        yield _phrase(phrase, where), spec, at


def _known_keys(spec: Mapping[str, Any], keys: tuple[str, ...], at: str) -> None:
    unknown = sorted(set(spec) - set(keys))
    if unknown:
        raise InputError(f"unknown key (expected {', '.join(keys)})", field=f"{at}.{unknown[0]}")


def _name(value: Any, at: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError("must be an attribute name", field=at)
    return value


def _number(value: Any, at: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise InputError("must be a number", field=at)
    number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    if not number.is_finite():
        raise InputError("must be finite", field=at)
    return number


def _size(value: Any, at: str) -> Decimal:
    size = _number(value, at)
    if size < 0:
        raise InputError("a margin must be zero or more", field=at)
    return size


def comparisons_of(section: Any, where: str = "comparisons") -> Mapping[str, Comparison]:
    found: dict[str, Comparison] = {}
    for phrase, spec, at in _entries(section, where):
        keys = ("attribute", "holds", "by_at_least", "by_at_most", "versus", "at_some_part")
        _known_keys(spec, (*keys, "and_overall"), at)
        holds = spec.get("holds")
        if holds not in HOLDS:
            raise InputError(f"must be one of {', '.join(HOLDS)}", field=f"{at}.holds")
        low, high = spec.get("by_at_least"), spec.get("by_at_most")
        low = None if low is None else _size(low, f"{at}.by_at_least")
        high = None if high is None else _size(high, f"{at}.by_at_most")
        if low is not None and high is not None and low > high:
            raise InputError("by_at_least is larger than by_at_most", field=at)
        versus = spec.get("versus")
        if versus not in (None, "other"):
            raise InputError('must be "other" (the one other subject)', field=f"{at}.versus")
        attribute = _name(spec.get("attribute"), f"{at}.attribute")
        some_part, overall = (_flag(spec, key, at) for key in ("at_some_part", "and_overall"))
        found[phrase] = Comparison(attribute, holds, low, high, versus, some_part, overall)
    return MappingProxyType(found)


def _flag(spec: Mapping[str, Any], key: str, at: str) -> bool:
    value = spec.get(key, False)
    if not isinstance(value, bool):
        raise InputError("must be true or false", field=f"{at}.{key}")
    return value


def superlatives_of(section: Any, where: str = "superlatives") -> Mapping[str, Superlative]:
    found: dict[str, Superlative] = {}
    for phrase, spec, at in _entries(section, where):
        _known_keys(spec, ("attribute", "rank", "within", "among", "place"), at)
        among = spec.get("among", {})
        if not isinstance(among, Mapping) or not all(
            isinstance(v, str | bool) for v in among.values()
        ):
            raise InputError(
                "must be an object of attribute -> string or boolean", field=f"{at}.among"
            )
        rank = spec.get("rank")
        if rank not in ("max", "min"):
            raise InputError("must be max or min", field=f"{at}.rank")
        within = spec.get("within", ())
        if isinstance(within, str):
            within = (within,)
        if not isinstance(within, Iterable):
            raise InputError("must be an attribute name or a list of them", field=f"{at}.within")
        attribute = spec.get("attribute")
        place = spec.get("place", 1)
        if not isinstance(place, int) or isinstance(place, bool) or place < 1:
            raise InputError("must be a whole number from 1 (first)", field=f"{at}.place")
        found[phrase] = Superlative(
            None if attribute is None else _name(attribute, f"{at}.attribute"),
            rank,
            tuple(_name(w, f"{at}.within") for w in within),
            tuple((_name(k, f"{at}.among"), v) for k, v in sorted(among.items())),
            place,
        )
    return MappingProxyType(found)


def thresholds_of(section: Any, where: str = "thresholds") -> Mapping[str, Threshold]:
    found: dict[str, Threshold] = {}
    for phrase, spec, at in _entries(section, where):
        _known_keys(spec, ("attributes", "at_least", "at_most", "count", "unit", "exactly"), at)
        unit = spec.get("unit")
        if unit is not None and (not isinstance(unit, str) or not unit.strip()):
            raise InputError("must be a unit such as degC", field=f"{at}.unit")
        raw = spec.get("attributes")
        if isinstance(raw, str) or not isinstance(raw, Iterable) or not raw:
            raise InputError("must be a list of attribute names", field=f"{at}.attributes")
        names = tuple(_name(a, f"{at}.attributes") for a in raw)
        low, high = spec.get("at_least"), spec.get("at_most")
        if low is None and high is None:
            raise InputError("needs at_least, at_most or both", field=at)
        count = spec.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= len(names):
            raise InputError(f"must be a whole number from 1 to {len(names)}", field=f"{at}.count")
        exactly = spec.get("exactly", False)
        if not isinstance(exactly, bool):
            raise InputError("must be true or false", field=f"{at}.exactly")
        least = None if low is None else _number(low, f"{at}.at_least")
        most = None if high is None else _number(high, f"{at}.at_most")
        if least is not None and most is not None and least > most:
            raise InputError("at_least is larger than at_most", field=at)
        found[phrase] = Threshold(names, count, least, most, unit, exactly)
    return MappingProxyType(found)


def relation_json(relation: Relation) -> dict[str, Any]:
    """The file form of one relation (for ``Lexicon.to_json``)."""
    if isinstance(relation, Comparison):
        sized = {
            key: value
            for key, value in (
                ("by_at_least", relation.by_at_least),
                ("by_at_most", relation.by_at_most),
                ("versus", relation.versus),
                ("at_some_part", relation.at_some_part or None),
                ("and_overall", relation.and_overall or None),
            )
            if value is not None
        }
        return {"attribute": relation.attribute, "holds": relation.holds, **sized}
    if isinstance(relation, Count):
        return count_json(relation)
    if isinstance(relation, Superlative):
        data: dict[str, Any] = {"rank": relation.rank}
        if relation.attribute is not None:
            data["attribute"] = relation.attribute
        if relation.within:
            data["within"] = list(relation.within)
        if relation.among:
            data["among"] = dict(relation.among)
        if relation.place != 1:
            data["place"] = relation.place
        return data
    bound = {
        key: value
        for key, value in (("at_least", relation.at_least), ("at_most", relation.at_most))
        if value is not None
    }
    unit = {"unit": relation.unit} if relation.unit else {}
    exactly = {"exactly": True} if relation.exactly else {}
    return {
        "attributes": list(relation.attributes),
        **bound,
        "count": relation.count,
        **unit,
        **exactly,
    }
