"""The lexicon: which words name an attribute, which name a subject, which are internal.

The scanner binds a number to the attribute phrase and the subject mention that
govern it ("humidity 63%" in a sentence about Berlin -> Berlin's humidity), so
it can catch the right value from the wrong row. The file form (``--lexicon``)
is::

    {"attributes": {"humidity": ["humidity", "% humidity"]},
     "subjects": {"Berlin": ["the capital"]},
     "internal": ["extra", "terms"],
     "pairs": [{"attributes": ["FGM", "FGA"], "phrases": ["from the field", "FG"]},
               {"attributes": ["WINS", "LOSSES"], "phrases": ["record"], "bracketed": true}],
     "values": {"seats_available": {"sold out": 0}, "fee_eur": {"free of charge": 0}},
     "countable": ["steals", "assists"]}

Every fact's own attribute (``wind_speed`` also as "wind speed") and subject
name count as phrases without being listed. The last three sections are optional:

- ``pairs``: a phrase that names two attributes in order, for two numbers written
  as one ("9-for-12 from the field": made, attempted; "a range of 980-1,120": low,
  high). ``bracketed`` pairs also read "(33-34)" right after a subject. The same
  attribute twice names two subjects' values ("defeated the Lakers, 113-107").
- ``values``: phrases that state a value without a digit, per attribute.
- ``countable``: attributes for which "a"/"an" before their phrase means one
  ("a steal"), and "a pair of" two; other attributes' articles are not counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType
from typing import Any

from vouched._exceptions import InputError
from vouched._scan._facts._conditions import conditions_of
from vouched._scan._facts._counts import Count, count_json, counts_of
from vouched._scan._facts._extremes import extremes_of
from vouched._scan._facts._gameparts import Periods, period_json, periods_of
from vouched._scan._facts._lexrelations import (
    Comparison,
    Relation,
    Superlative,
    Threshold,
    comparisons_of,
    relation_json,
    superlatives_of,
    thresholds_of,
)
from vouched._scan._lex._phrases import PhraseMatcher, build_phrase_matcher, phrase_matcher

__all__ = [
    "Lexicon",
    "Pair",
    "PhraseMatcher",
    "Word",
    "build_phrase_matcher",
    "phrase_matcher",
    "shipped_lexicons",
]

_KEYS = (
    "attributes",
    "subjects",
    "internal",
    "pairs",
    "values",
    "countable",
    "comparisons",
    "superlatives",
    "thresholds",
    "periods",
    "counts",
    "conditions",
    "extremes",
)
_OBJECT = "an object of phrase -> its declaration"
_SECTION_TYPES: dict[str, tuple[type, str]] = {
    "attributes": (dict, "an object of attribute -> list of phrases"),
    "subjects": (dict, "an object of subject -> list of aliases"),
    "internal": (list, "a list of strings"),
    "pairs": (list, "a list of objects"),
    "values": (dict, "an object of attribute -> {phrase: value}"),
    "countable": (list, "a list of attribute names"),
    "comparisons": (dict, _OBJECT),
    "superlatives": (dict, _OBJECT),
    "thresholds": (dict, _OBJECT),
    "periods": (dict, "an object of phrase -> {attribute: [parts]}"),
    "counts": (dict, _OBJECT),
    "conditions": (dict, "an object of family -> list of phrases (or phrases and opposites)"),
    "extremes": (dict, 'an object of phrase -> {"attribute": name, "rank": "min" or "max"}'),
}
Word = str | bool
"""A value a phrase states in words: a string fact's value or a boolean."""


def _json_kind(value: Any) -> str:
    from vouched._files import json_kind  # noqa: PLC0415 - keeps this module light

    return json_kind(value)


@dataclass(frozen=True, slots=True)
class Pair:
    """A phrase that names two attributes in order ("from the field": made, attempted)."""

    first: str
    second: str
    phrases: tuple[str, ...]
    bracketed: bool = False

    @property
    def two_subjects(self) -> bool:
        """The same attribute twice: two subjects' values ("113-107")."""
        return self.first == self.second


def _pairs(values: Any, where: str) -> tuple[Pair, ...]:
    if isinstance(values, str | Mapping) or not isinstance(values, Iterable):
        raise InputError("must be a list of objects", field=where)
    pairs: list[Pair] = []
    for number, item in enumerate(values):
        at = f"{where}[{number}]"
        if isinstance(item, Pair):
            pairs.append(item)
            continue
        if not isinstance(item, Mapping):
            raise InputError("must be an object with attributes and phrases", field=at)
        unknown = sorted(set(item) - {"attributes", "phrases", "bracketed"})
        if unknown:
            raise InputError(
                "unknown key (expected attributes, phrases, bracketed)", field=f"{at}.{unknown[0]}"
            )
        raw = item.get("attributes")
        names: list[Any] = (
            [] if isinstance(raw, str) or not isinstance(raw, Iterable) else list(raw)
        )
        if len(names) != 2 or not all(isinstance(n, str) and n.strip() for n in names):
            raise InputError("must be two attribute names", field=f"{at}.attributes")
        bracketed = item.get("bracketed", False)
        if not isinstance(bracketed, bool):
            raise InputError("must be true or false", field=f"{at}.bracketed")
        phrases = _phrase_list("pair", item.get("phrases", ()), f"{at}.phrases")
        if not phrases and not bracketed:
            raise InputError("a pair needs phrases or bracketed: true", field=at)
        pairs.append(Pair(names[0], names[1], phrases, bracketed))
    return tuple(pairs)


def _values(
    mapping: Any, where: str
) -> tuple[Mapping[str, Mapping[str, Decimal]], Mapping[str, Mapping[str, Word]]]:
    """The ``values`` section split by what a phrase states: a number (read as a
    quantity: "sold out" = 0) or a word value, a string or a boolean ("online",
    "off the bench" = false), checked by the word rules."""
    if not isinstance(mapping, Mapping):
        raise InputError("must be an object of attribute -> {phrase: value}", field=where)
    numbers: dict[str, Mapping[str, Decimal]] = {}
    words: dict[str, Mapping[str, Word]] = {}
    for attribute, phrases in mapping.items():
        at = f"{where}.{attribute}"
        if not isinstance(attribute, str) or not attribute.strip():
            raise InputError("attribute names must be non-empty strings", field=where)
        if not isinstance(phrases, Mapping):
            raise InputError("must be an object of phrase -> value", field=at)
        numeric: dict[str, Decimal] = {}
        worded: dict[str, Word] = {}
        for phrase, value in phrases.items():
            if not isinstance(phrase, str) or not phrase.strip():
                raise InputError("phrases must be non-empty strings", field=at)
            key = " ".join(phrase.split())
            if isinstance(value, bool) or (isinstance(value, str) and value.strip()):
                worded[key] = value
                continue
            if not isinstance(value, int | float | Decimal):
                raise InputError(
                    f"the value of {phrase!r} must be a number, a string or true/false", field=at
                )
            number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
            if not number.is_finite():
                raise InputError(f"the value of {phrase!r} must be finite", field=at)
            numeric[key] = number
        if numeric:
            numbers[attribute] = MappingProxyType(numeric)
        if worded:
            words[attribute] = MappingProxyType(worded)
    return MappingProxyType(numbers), MappingProxyType(words)


def _phrase_list(name: str, values: Any, where: str) -> tuple[str, ...]:
    if isinstance(values, str | Mapping) or not isinstance(values, Iterable):
        raise InputError("must be a list of strings", field=where)
    phrases: list[str] = []
    for value in values:
        if not isinstance(value, str) or not value.strip():
            raise InputError(f"phrases for {name!r} must be non-empty strings", field=where)
        phrases.append(" ".join(value.split()))
    return tuple(phrases)


def _freeze(mapping: Mapping[str, Iterable[str]], where: str) -> Mapping[str, tuple[str, ...]]:
    if not isinstance(mapping, Mapping):
        raise InputError("must be an object of name -> list of phrases", field=where)
    frozen: dict[str, tuple[str, ...]] = {}
    for name, values in mapping.items():
        if not isinstance(name, str) or not name.strip():
            raise InputError("names must be non-empty strings", field=where)
        frozen[name] = _phrase_list(name, values, f"{where}.{name}")
    return MappingProxyType(frozen)


_SHIPPED = Path(__file__).resolve().parents[2] / "_data" / "lexicons"


def shipped_lexicons() -> tuple[str, ...]:
    """The names of the lexicons vouched ships (``weather``, ``basketball``, ...)."""
    return tuple(sorted(p.stem for p in _SHIPPED.glob("*.json")))


@dataclass(frozen=True, slots=True, init=False)
class Lexicon:
    """Attribute phrases, subject aliases and internal terms (a frozen value)."""

    attributes: Mapping[str, tuple[str, ...]]
    subjects: Mapping[str, tuple[str, ...]]
    internal: tuple[str, ...] = field(default=())
    pairs: tuple[Pair, ...] = field(default=())
    values: Mapping[str, Mapping[str, Decimal]] = field(default_factory=dict)
    countable: frozenset[str] = field(default=frozenset())
    words: Mapping[str, Mapping[str, Word]] = field(default_factory=dict)
    comparisons: Mapping[str, Comparison] = field(default_factory=dict)
    superlatives: Mapping[str, Superlative] = field(default_factory=dict)
    thresholds: Mapping[str, Threshold] = field(default_factory=dict)
    conditions: Mapping[str, Any] = field(default_factory=dict)
    extremes: Mapping[str, Any] = field(default_factory=dict)
    """Phrases that say which period holds an extreme ("the coldest day")."""
    """Weather words by family, checked against the conditions of a period (README "Periods")."""
    relations: Mapping[str, Relation] = field(default_factory=dict, repr=False, compare=False)
    """Every declared relation phrase (comparisons, superlatives, thresholds)."""
    periods: Periods = field(default_factory=dict)
    """Period phrases: the attributes whose sum an attribute is within them."""
    counts: Mapping[str, Count] = field(default_factory=dict)
    """Count phrases: how many of a group meet the threshold named beside them."""
    _hash: int = field(default=0, repr=False, compare=False)

    def __init__(
        self,
        attributes: Mapping[str, Iterable[str]] | None = None,
        subjects: Mapping[str, Iterable[str]] | None = None,
        internal: Iterable[str] = (),
        *,
        pairs: Iterable[Pair | Mapping[str, Any]] = (),
        values: Mapping[str, Mapping[str, int | float | Decimal | str | bool]] | None = None,
        countable: Iterable[str] = (),
        comparisons: Mapping[str, Any] | None = None,
        superlatives: Mapping[str, Any] | None = None,
        thresholds: Mapping[str, Any] | None = None,
        periods: Mapping[str, Any] | None = None,
        counts: Mapping[str, Any] | None = None,
        conditions: Mapping[str, Any] | None = None,
        extremes: Mapping[str, Any] | None = None,
    ) -> None:
        object.__setattr__(self, "attributes", _freeze(attributes or {}, "attributes"))
        object.__setattr__(self, "subjects", _freeze(subjects or {}, "subjects"))
        object.__setattr__(self, "internal", _phrase_list("internal", internal, "internal"))
        object.__setattr__(self, "pairs", _pairs(pairs, "pairs"))
        numbers, words = _values(values or {}, "values")
        object.__setattr__(self, "values", numbers)
        object.__setattr__(self, "words", words)
        object.__setattr__(self, "comparisons", comparisons_of(comparisons or {}))
        object.__setattr__(self, "superlatives", superlatives_of(superlatives or {}))
        object.__setattr__(self, "thresholds", thresholds_of(thresholds or {}))
        object.__setattr__(self, "periods", periods_of(periods or {}))
        object.__setattr__(self, "counts", counts_of(counts or {}))
        object.__setattr__(
            self, "countable", frozenset(_phrase_list("countable", countable, "countable"))
        )
        conditions_of(conditions or {})  # validates: errors name the field
        object.__setattr__(self, "conditions", MappingProxyType(dict(conditions or {})))
        extremes_of(extremes or {})  # validates: errors name the field
        object.__setattr__(self, "extremes", MappingProxyType(dict(extremes or {})))
        relations = {**self.counts, **self.thresholds, **self.superlatives, **self.comparisons}
        object.__setattr__(self, "relations", MappingProxyType(relations))
        object.__setattr__(self, "_hash", hash(self._key()))

    def _key(self) -> tuple[object, ...]:
        return (
            tuple(sorted(self.attributes.items())),
            tuple(sorted(self.subjects.items())),
            self.internal,
            self.pairs,
            tuple(sorted((k, tuple(sorted(v.items()))) for k, v in self.values.items())),
            tuple(sorted(self.countable)),
            tuple(sorted((k, tuple(sorted(v.items(), key=repr))) for k, v in self.words.items())),
            tuple(sorted(self.comparisons.items())),
            tuple(sorted(self.superlatives.items())),
            tuple(sorted(self.thresholds.items())),
            tuple(sorted((k, tuple(sorted(v.items()))) for k, v in self.periods.items())),
            tuple(sorted(self.counts.items(), key=repr)),
            repr(sorted(self.conditions.items())),
            repr(sorted(self.extremes.items())),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Lexicon):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        extra = ""
        if self.pairs:
            extra += f", pairs={list(self.pairs)!r}"
        if self.values:
            extra += f", values={ {k: dict(v) for k, v in self.values.items()}!r}"
        if self.countable:
            extra += f", countable={sorted(self.countable)!r}"
        if self.words:
            extra += f", words={ {k: dict(v) for k, v in self.words.items()}!r}"
        for name in ("comparisons", "superlatives", "thresholds"):
            section = getattr(self, name)
            if section:
                extra += f", {name}={dict(section)!r}"
        return (
            f"Lexicon(attributes={dict(self.attributes)!r}, "
            f"subjects={dict(self.subjects)!r}, internal={list(self.internal)!r}{extra})"
        )

    @classmethod
    def from_json(cls, data: Any) -> Lexicon:
        """A lexicon from parsed JSON; an :class:`InputError` names the bad field.

        A section of the wrong type (``"attributes": []``) is an error naming it,
        never read as empty; ``null`` is the same as leaving the section out."""
        if not isinstance(data, Mapping):
            raise InputError("a lexicon must be a JSON object")
        unknown = sorted(set(data) - set(_KEYS))
        if unknown:
            raise InputError(
                f"unknown key (expected {', '.join(_KEYS)})",
                field=unknown[0],
            )
        sections = {key: data[key] for key in _KEYS if data.get(key) is not None}
        for key, value in sections.items():
            shape, accepted = _SECTION_TYPES[key]
            if not isinstance(value, shape):
                raise InputError(f"must be {accepted}, got {_json_kind(value)}", field=key)
        return cls(**sections)

    @classmethod
    def load(cls, path: str | Path) -> Lexicon:
        """Read a lexicon JSON file, or a shipped lexicon by its bare name.

        ``Lexicon.load("weather")`` is the shipped weather lexicon unless a file
        named ``weather`` exists: a path always wins over a name. Errors name the
        file and the field."""
        from vouched._files import parse_json, read_text  # noqa: PLC0415 - keeps this module light

        if isinstance(path, str) and not Path(path).exists():
            if path in shipped_lexicons():
                return cls.shipped(path)
            if "/" not in path and "." not in path:  # a bare name: a shipped one mistyped
                raise InputError(
                    f"no file {path[:40]!r} and no shipped lexicon of that name "
                    f"(there are: {', '.join(shipped_lexicons())})",
                    field="lexicon",
                )
        name = str(path)
        data = parse_json(read_text(path, kind="lexicon"), file=name)
        try:
            return cls.from_json(data)
        except InputError as error:
            raise error.at(file=name) from None

    @staticmethod
    def shipped_names() -> tuple[str, ...]:
        """The names :meth:`shipped` takes (``basketball``, ``weather``, ...)."""
        return shipped_lexicons()

    @classmethod
    def shipped(cls, name: str) -> Lexicon:
        """A lexicon vouched ships, by name (:func:`shipped_lexicons` lists them).

        An unknown name is an :class:`InputError` listing the names there are."""
        from vouched._files import parse_json, read_text  # noqa: PLC0415 - keeps this module light

        names = shipped_lexicons()
        if name not in names:
            raise InputError(
                f"no shipped lexicon named {name[:40]!r} (there are: {', '.join(names)})",
                field="lexicon",
            )
        path = _SHIPPED / f"{name}.json"
        data = parse_json(read_text(path, kind="lexicon"), file=f"<shipped {name}>")
        return cls.from_json(data)

    def with_subjects(self, subjects: Mapping[str, Iterable[str]]) -> Lexicon:
        """This lexicon with more subjects' aliases (a game's teams and players beside a
        shipped sport's words): ``Lexicon.shipped("football").with_subjects(...)``."""
        merged = {k: list(v) for k, v in self.subjects.items()}
        for subject, aliases in subjects.items():
            merged[subject] = [*merged.get(subject, ()), *aliases]
        return Lexicon.from_json({**self.to_json(), "subjects": merged})

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "attributes": {k: list(v) for k, v in self.attributes.items()},
            "subjects": {k: list(v) for k, v in self.subjects.items()},
            "internal": list(self.internal),
        }
        if self.pairs:
            data["pairs"] = [
                {"attributes": [p.first, p.second], "phrases": list(p.phrases)}
                | ({"bracketed": True} if p.bracketed else {})
                for p in self.pairs
            ]
        if self.values or self.words:
            values: dict[str, dict[str, Any]] = {}
            for section in (self.values, self.words):
                for attribute, phrases in section.items():
                    values.setdefault(attribute, {}).update(phrases)
            data["values"] = values
        if self.countable:
            data["countable"] = sorted(self.countable)
        for name in ("comparisons", "superlatives", "thresholds"):
            section = getattr(self, name)
            if section:
                data[name] = {phrase: relation_json(r) for phrase, r in section.items()}
        if self.periods:
            data["periods"] = period_json(self.periods)
        if self.counts:
            data["counts"] = {phrase: count_json(c) for phrase, c in self.counts.items()}
        if self.conditions:
            data["conditions"] = dict(self.conditions)
        if self.extremes:
            data["extremes"] = dict(self.extremes)
        return data
