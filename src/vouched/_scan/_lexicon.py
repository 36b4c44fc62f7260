"""The lexicon: which words name an attribute, which name a subject, which are internal.

The scanner binds a number to the attribute phrase and the subject mention that
govern it ("humidity 63%" in a sentence about Berlin -> Berlin's humidity), so
it can catch the right value from the wrong row. The file form (``--lexicon``)
is::

    {"attributes": {"humidity": ["humidity", "% humidity"]},
     "subjects": {"Berlin": ["the capital"]},
     "internal": ["extra", "terms"]}

Every fact's own attribute (``wind_speed`` also as "wind speed") and subject
name count as phrases without being listed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from vouched._exceptions import InputError
from vouched._scan._reader._words import word_tokens, word_tokens_list

__all__ = ["Lexicon", "PhraseMatcher", "phrase_matcher"]

_KEYS = ("attributes", "subjects", "internal")


def _phrase_list(name: str, values: Any, where: str) -> tuple[str, ...]:
    if isinstance(values, str) or not isinstance(values, Iterable):
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


@dataclass(frozen=True, slots=True, init=False)
class Lexicon:
    """Attribute phrases, subject aliases and internal terms (a frozen value)."""

    attributes: Mapping[str, tuple[str, ...]]
    subjects: Mapping[str, tuple[str, ...]]
    internal: tuple[str, ...] = field(default=())
    _hash: int = field(default=0, repr=False, compare=False)

    def __init__(
        self,
        attributes: Mapping[str, Iterable[str]] | None = None,
        subjects: Mapping[str, Iterable[str]] | None = None,
        internal: Iterable[str] = (),
    ) -> None:
        object.__setattr__(self, "attributes", _freeze(attributes or {}, "attributes"))
        object.__setattr__(self, "subjects", _freeze(subjects or {}, "subjects"))
        object.__setattr__(self, "internal", _phrase_list("internal", internal, "internal"))
        object.__setattr__(
            self,
            "_hash",
            hash(
                (
                    tuple(sorted(self.attributes.items())),
                    tuple(sorted(self.subjects.items())),
                    self.internal,
                )
            ),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Lexicon):
            return NotImplemented
        return (
            dict(self.attributes) == dict(other.attributes)
            and dict(self.subjects) == dict(other.subjects)
            and self.internal == other.internal
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return (
            f"Lexicon(attributes={dict(self.attributes)!r}, "
            f"subjects={dict(self.subjects)!r}, internal={list(self.internal)!r})"
        )

    @classmethod
    def from_json(cls, data: Any) -> Lexicon:
        """A lexicon from parsed JSON; an :class:`InputError` names the bad field."""
        if not isinstance(data, Mapping):
            raise InputError("a lexicon must be a JSON object")
        unknown = sorted(set(data) - set(_KEYS))
        if unknown:
            raise InputError(
                "unknown key (expected attributes, subjects, internal)", field=unknown[0]
            )
        return cls(
            attributes=data.get("attributes") or {},
            subjects=data.get("subjects") or {},
            internal=data.get("internal") or (),
        )

    @classmethod
    def load(cls, path: str | Path) -> Lexicon:
        """Read a lexicon JSON file; errors name the file and the field."""
        from vouched._files import parse_json, read_text  # noqa: PLC0415 - keeps this module light

        name = str(path)
        data = parse_json(read_text(path), file=name)
        try:
            return cls.from_json(data)
        except InputError as error:
            raise error.at(file=name) from None

    def to_json(self) -> dict[str, Any]:
        return {
            "attributes": {k: list(v) for k, v in self.attributes.items()},
            "subjects": {k: list(v) for k, v in self.subjects.items()},
            "internal": list(self.internal),
        }


class _Entry(NamedTuple):
    phrase: str  # lower-case, single-spaced
    names: tuple[str, ...]
    left: bool  # needs a word boundary before
    right: bool  # needs a word boundary after


@dataclass(frozen=True, slots=True)
class PhraseMatcher:
    """Finds whole-word, case-insensitive phrase mentions; each maps to names.

    Phrases are keyed by their first word: only phrases whose first word occurs
    in the text are searched for (``str.find``, no big alternation), so the
    cost follows the text and the few phrases it contains.
    """

    by_key: Mapping[str, tuple[_Entry, ...]]
    pattern: re.Pattern[str] | None
    names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def find(
        self, text: str, lowered: str | None = None, tokens: set[str] | None = None
    ) -> list[tuple[int, int, tuple[str, ...]]]:
        """``(start, end, names)`` of every mention, longest phrase first, no overlaps."""
        if self.pattern is None:
            return []
        if lowered is None:
            lowered = text.lower()
        if len(lowered) != len(text):  # rare: lower() changed the length, use the regex
            return self._find_regex(text)
        if tokens is None:
            tokens = word_tokens(lowered)
        # (start, -end, names): sorting puts the longest phrase first at each start
        # (two phrases never share a span: their keys differ).
        found: list[tuple[int, int, tuple[str, ...]]] = []
        find = lowered.find
        length = len(lowered)
        by_key = self.by_key
        for key in tokens.intersection(by_key):
            for phrase, names, left, right in by_key[key]:
                size = len(phrase)
                start = find(phrase)
                while start != -1:
                    end = start + size
                    if left and start > 0:
                        before = lowered[start - 1]
                        if before.isalnum() or before == "_":
                            start = find(phrase, start + 1)
                            continue
                    if right and end < length:
                        after = lowered[end]
                        if after.isalnum() or after == "_":
                            start = find(phrase, start + 1)
                            continue
                    found.append((start, -end, names))
                    start = find(phrase, start + 1)
        if len(found) > 1:
            found.sort()
        hits: list[tuple[int, int, tuple[str, ...]]] = []
        last_end = -1
        for start, negative_end, names in found:
            if start >= last_end:
                last_end = -negative_end
                hits.append((start, last_end, names))
        return hits

    def _find_regex(self, text: str) -> list[tuple[int, int, tuple[str, ...]]]:
        if self.pattern is None:
            return []
        names = self.names
        found = []
        for m in self.pattern.finditer(text):
            owners = names.get(" ".join(m.group().lower().split()))
            if owners:
                found.append((m.start(), m.end(), owners))
        return found


@lru_cache(maxsize=256)
def phrase_matcher(pairs: tuple[tuple[str, str], ...]) -> PhraseMatcher:
    """A matcher for ``(phrase, name)`` pairs (cached: lexicons repeat)."""
    names: dict[str, list[str]] = {}
    for phrase, name in pairs:
        key = " ".join(phrase.lower().split())
        if not key:
            continue
        bucket = names.setdefault(key, [])
        if name not in bucket:
            bucket.append(name)
    if not names:
        return PhraseMatcher({}, None, {})
    parts = []
    by_key: dict[str, list[_Entry]] = {}
    for key in sorted(names, key=len, reverse=True):
        body = r"\s+".join(re.escape(word) for word in key.split(" "))
        left = key[0].isalnum() or key[0] == "_"
        right = key[-1].isalnum() or key[-1] == "_"
        parts.append((r"(?<![\w])" if left else "") + body + (r"(?![\w])" if right else ""))
        words = word_tokens_list(key)
        if words:
            by_key.setdefault(words[0], []).append(_Entry(key, tuple(names[key]), left, right))
    pattern = re.compile("|".join(parts), re.IGNORECASE)
    return PhraseMatcher(
        MappingProxyType({k: tuple(v) for k, v in by_key.items()}),
        pattern,
        {k: tuple(v) for k, v in names.items()},
    )
