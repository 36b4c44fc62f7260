"""Counts over subjects: how many of a group meet a threshold, declared in the lexicon.

"X was the only other starter in double figures", "all five starters scored in
double figures", "the only city below freezing": a phrase that counts the members of
X's group (the subjects that share X's ``within`` values and the fixed ``among``
values) meeting the threshold named in its clause (a phrase of the ``thresholds``
section: "double figures", "below freezing")::

    {"counts": {"the only other starter": {"within": ["TEAM"], "among": {"STARTER": true},
                                           "others": 0},
                "all five starters": {"within": ["TEAM"], "among": {"STARTER": true},
                                      "every": true},
                "the only city": {"others": 0}}}

- ``others: 0`` ("the only", "the only other"): every member that meets it, X aside,
  has been named before in the text (the "other" ones the sentence sets X beside);
  with ``others: N``, at most N such members are left unnamed.
- ``every: true`` ("all five starters"): every member of the group meets it.

Without ``within`` and ``among`` the group is every subject with the threshold's
attributes ("the only city below freezing").

A count that does not hold is ``relation_mismatch`` on the phrase
(:func:`vouched._scan._wordrules.stated_count`). Pure; the group's members are read
from the facts, at most :data:`MAX_MEMBERS` of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from vouched._exceptions import InputError

__all__ = ["MAX_MEMBERS", "Count", "count_json", "counts_of", "unmet"]

MAX_MEMBERS = 256
"""The most subjects a count reads as its group (the rest are not weighed)."""


@dataclass(frozen=True, slots=True)
class Count:
    """How many members of X's group meet the threshold named in the phrase's clause."""

    within: tuple[str, ...] = ()
    among: tuple[tuple[str, str | bool], ...] = ()
    others: int | None = None
    every: bool = False
    counted: bool = False  # "six players in double figures": the number before says how many

    @property
    def attributes(self) -> tuple[str, ...]:
        """The word attributes the group is read from (the matcher keeps the phrase only
        when the facts have them)."""
        return (*self.within, *(name for name, _ in self.among))


def counts_of(section: Any, where: str = "counts") -> Mapping[str, Count]:
    """The ``counts`` section, validated; an :class:`InputError` names the bad field."""
    if not isinstance(section, Mapping):
        raise InputError(
            "must be an object of phrase -> {within, among, others|every|counted}", field=where
        )
    found: dict[str, Count] = {}
    for phrase, spec in section.items():
        if not isinstance(phrase, str) or not phrase.strip():
            raise InputError("phrases must be non-empty strings", field=where)
        found[" ".join(phrase.split())] = _count_of(spec, f"{where}.{phrase}")
    return MappingProxyType(found)


def _count_of(spec: Any, at: str) -> Count:
    """One phrase's count, validated (``at``: where it stands in the file)."""
    if not isinstance(spec, Mapping):
        raise InputError("must be an object", field=at)
    unknown = sorted(set(spec) - {"within", "among", "others", "every", "counted"})
    if unknown:
        raise InputError(
            "unknown key (expected within, among, others, every, counted)",
            field=f"{at}.{unknown[0]}",
        )
    within = spec.get("within", ())
    if isinstance(within, str):
        within = (within,)
    if not isinstance(within, list | tuple) or not all(
        isinstance(w, str) and w.strip() for w in within
    ):
        raise InputError("must be an attribute name or a list of them", field=f"{at}.within")
    among = spec.get("among", {})
    if not isinstance(among, Mapping) or not all(isinstance(v, str | bool) for v in among.values()):
        raise InputError("must be an object of attribute -> string or boolean", field=f"{at}.among")
    others, every = spec.get("others"), spec.get("every", False)
    if others is not None and (
        isinstance(others, bool) or not isinstance(others, int) or others < 0
    ):
        raise InputError("must be a whole number, 0 or more", field=f"{at}.others")
    counted = spec.get("counted", False)
    for name, flag in (("every", every), ("counted", counted)):
        if not isinstance(flag, bool):
            raise InputError("must be true or false", field=f"{at}.{name}")
    if [others is not None, every, counted].count(True) != 1:
        raise InputError("needs exactly one of others, every and counted", field=at)
    return Count(tuple(within), tuple(sorted(among.items())), others, every, counted)


def count_json(count: Count) -> dict[str, Any]:
    """The file form of one count (for ``Lexicon.to_json``)."""
    data: dict[str, Any] = {}
    if count.within:
        data["within"] = list(count.within)
    if count.among:
        data["among"] = dict(count.among)
    if count.every:
        data["every"] = True
    elif count.counted:
        data["counted"] = True
    else:
        data["others"] = count.others
    return data


def unmet(
    count: Count, subject: str, meeting: list[str], members: int, earlier: set[str]
) -> str | None:
    """Why the count does not hold (a detail), or None when it holds. ``meeting``: the
    group's members that meet the threshold; ``members``: how many the group has;
    ``earlier``: the subjects the text named before the phrase."""
    if count.every:
        if len(meeting) == members:
            return None
        return f"{len(meeting)} of the {members} in {subject}'s group meet it, not all"
    unnamed = sorted(s for s in meeting if s != subject and s not in earlier)
    if count.others is None or len(unnamed) <= count.others:
        return None
    shown = ", ".join(unnamed[:3]) + (" ..." if len(unnamed) > 3 else "")
    return f"{len(unnamed)} more of {subject}'s group meet it, not named before: {shown}"
