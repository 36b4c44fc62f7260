"""Conditions stated for a period ("light rain on Saturday", "sunny skies
tomorrow", "a dry weekend") against the condition facts valid in it.

The lexicon's ``conditions`` section names families of weather words::

    "conditions": {"rain": {"phrases": ["rain", "showers", "drizzle"],
                            "opposites": ["dry", "rain-free"]},
                   "overcast": ["overcast", "overcast skies"]}

A string fact belongs to a family when one of the family's phrases occurs in its
value ("light rain" is rain; "overcast clouds" is overcast). A family of plain words
may name, under ``also``, the families whose facts vouch for it too: the plain
English a forecast reader uses for a sky code is an approximation of several codes
("mostly cloudy" is said of broken clouds and of overcast)::

    "mostly cloudy": {"phrases": ["mostly cloudy"], "also": ["broken clouds", "overcast"]}

A family stated for a period in which no fact belongs to it (nor to a family it
names under ``also``) is ``value_mismatch``; stated with a negation
("no rain", "without showers") or by an opposite ("dry"), when some fact in the
period belongs to it. "A chance of showers" (the possibility, risk or probability
of) claims the family is possible in the period: checked as a statement of it. Other
hedges ("rain is possible", "little chance of snow") say nothing certain: not
checked. Families no fact of the whole
forecast belongs to are not checked either when the forecast names no condition
at all (the facts cannot speak of them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vouched._exceptions import InputError
from vouched._fact import Fact
from vouched._scan._findings import Finding, FindingKind

__all__ = [
    "ConditionWords",
    "Conditions",
    "Said",
    "conditions_of",
    "current_conditions",
    "judge_conditions",
]

_NEGATION = re.compile(
    r"\b(?:no|not|without|free of|nor|absence of|lack of|zero|never)\b(?:\s+\S+){0,3}\s*$"
    r"|n't(?:\s+\S+){0,3}\s*$"
)
_NEGATION_AFTER = re.compile(
    r"^\s+(?:\S+\s+){0,2}?(?:is|are|will|was|should|does|do)\s+(?:not|n't|never)\b"
    r"|^\s+(?:\S+\s+){0,2}?(?:isn't|aren't|won't|doesn't|don't)\b"
)
_HEDGE = re.compile(
    r"\b(?:chance|chances|possible|possibly|possibility|may|might|could|potential|potentially"
    r"|risk|probability|likely|unlikely|slight)\b"
)
_HEDGE_WINDOW = 40
_CHANCE_OF = re.compile(
    r"(?<!no )(?<!little )"
    r"\b(?:chance|chances|possibility|risk|probability)\s+of\s+(?:\S+\s+){0,2}$"
)
_CHANCE_REACH = 40


@dataclass(frozen=True)
class ConditionWords:
    """A family's phrases (say it holds), opposites (say it does not) and the other
    families whose facts also vouch for a statement of it (``also``)."""

    name: str
    phrases: tuple[str, ...]
    opposites: tuple[str, ...] = ()
    also: tuple[str, ...] = ()

    def holds_for(self, value: str) -> bool:
        words = f" {' '.join(value.casefold().split())} "
        return any(f" {p} " in words for p in self.phrases)


def conditions_of(section: Mapping[str, Any]) -> tuple[ConditionWords, ...]:
    """The lexicon's ``conditions`` section, validated (errors name the field)."""
    families: list[ConditionWords] = []
    for name, declared in section.items():
        at = f"conditions.{name}"
        also: Any = ()
        if isinstance(declared, Mapping):
            unknown = sorted(set(declared) - {"phrases", "opposites", "also"})
            if unknown:
                raise InputError(
                    "unknown key (expected phrases, opposites, also)", field=f"{at}.{unknown[0]}"
                )
            phrases, opposites = declared.get("phrases", ()), declared.get("opposites", ())
            also = declared.get("also", ())
        else:
            phrases, opposites = declared, ()
        families.append(
            ConditionWords(
                name, _phrases(phrases, at), _phrases(opposites, at), _also(also, section, at)
            )
        )
    return tuple(families)


def _also(values: Any, section: Mapping[str, Any], at: str) -> tuple[str, ...]:
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise InputError("must be a list of family names", field=f"{at}.also")
    out = []
    for value in values:
        if not isinstance(value, str) or value not in section:
            raise InputError(f"{value!r} is no family of this section", field=f"{at}.also")
        out.append(value)
    return tuple(out)


def _phrases(values: Any, at: str) -> tuple[str, ...]:
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise InputError("must be a list of phrases", field=at)
    out = []
    for value in values:
        if not isinstance(value, str) or not value.strip():
            raise InputError("phrases must be non-empty strings", field=at)
        out.append(" ".join(value.casefold().split()))
    return tuple(out)


def _matcher(families: tuple[ConditionWords, ...]) -> re.Pattern[str] | None:
    phrases = sorted(
        {p for f in families for p in (*f.phrases, *f.opposites)}, key=len, reverse=True
    )
    if not phrases:
        return None
    return re.compile(r"\b(?:" + "|".join(re.escape(p) for p in phrases) + r")\b")


@dataclass(frozen=True)
class Said:
    start: int
    end: int
    families: tuple[ConditionWords, ...]
    denied: bool
    possible: bool = False  # "a chance of snow": possible in a period, not the case now


def _statements(
    lowered: str, families: tuple[ConditionWords, ...], pattern: re.Pattern[str]
) -> list[Said]:
    said = []
    for match in pattern.finditer(lowered):
        phrase = match.group(0)
        start, end = match.span()
        possible = False
        if _HEDGE.search(
            lowered[max(0, start - _HEDGE_WINDOW) : min(len(lowered), end + _HEDGE_WINDOW)]
        ):
            possible = bool(_CHANCE_OF.search(lowered[max(0, start - _CHANCE_REACH) : start]))
            if not possible:
                continue
        negated = bool(
            _NEGATION.search(lowered[max(0, start - 30) : start])
            or _NEGATION_AFTER.match(lowered[end : end + 40])
        )
        named = tuple(f for f in families if phrase in f.phrases)
        opposed = tuple(f for f in families if phrase in f.opposites)
        if named:
            said.append(Said(start, end, named, negated, possible))
        if opposed:
            said.append(Said(start, end, opposed, not negated, possible))
    return said


class Conditions:
    """The lexicon's condition families compiled once per scanner: one pattern over
    every phrase, and whether any fact of the forecast belongs to a family (when none
    does, the facts cannot speak of conditions and nothing is checked)."""

    __slots__ = ("_of_value", "active", "families", "pattern")

    def __init__(self, families: tuple[ConditionWords, ...], every_fact: Iterable[Fact]) -> None:
        self.families = families
        self.pattern = _matcher(families)
        values = {f.value for f in every_fact if isinstance(f.value, str)}
        self._of_value = {  # each string value's families, once per scanner
            v: frozenset(c.name for c in families if c.holds_for(v)) for v in values
        }
        self.active = any(self._of_value.values())

    def present(self, facts: Iterable[Fact]) -> frozenset[str]:
        """The families some of ``facts`` belong to."""
        of_value = self._of_value
        found: set[str] = set()
        for fact in facts:
            names = of_value.get(fact.value) if isinstance(fact.value, str) else None
            if names:
                found |= names
        return frozenset(found)

    def of_values(self, values: Iterable[str]) -> frozenset[str]:
        """The families some of ``values`` (a subject's string facts) belong to."""
        of_value = self._of_value
        return frozenset(name for value in values for name in of_value.get(value, ()))

    def statements(self, lowered: str) -> list[Said]:
        """What a sentence (lowered) states about conditions, hedges left out."""
        if not self.active or self.pattern is None:
            return []
        return _statements(lowered, self.families, self.pattern)


def current_conditions(section: Mapping[str, Any], facts: Sequence[Fact]) -> Conditions | None:
    """The condition families for facts without periods (current conditions: "It's sunny
    in Vienna" against Vienna's condition now), read by the word rules per place; None
    when the lexicon names none, when some fact has a period (then the time rules judge
    conditions per period), or when no fact belongs to a family."""
    if not section or any(f.valid_from is not None for f in facts):
        return None
    conditions = Conditions(conditions_of(section), facts)
    return conditions if conditions.active else None


def judge_conditions(
    part: str,
    said: Sequence[Said],
    present: frozenset[str],
    within: list[tuple[int, int]],
) -> list[Finding]:
    """Findings for the conditions stated (``said``) in the stretches ``within``,
    judged on the families ``present`` in the stretches' period."""
    findings = []
    for one in said:
        if not any(a <= one.start < b for a, b in within):
            continue
        if one.denied:  # "no rain": only the family itself contradicts it
            wrong = any(c.name in present for c in one.families)
        else:
            wrong = not any(
                c.name in present or not present.isdisjoint(c.also) for c in one.families
            )
        if wrong:
            name = one.families[0].name
            detail = (
                f"the forecast for this period has {name}"
                if one.denied
                else f"no {name} in the forecast for this period"
            )
            findings.append(
                Finding(
                    FindingKind.VALUE_MISMATCH,
                    one.start,
                    one.end,
                    part[one.start : one.end],
                    detail,
                    attribute="condition",
                )
            )
    return findings
