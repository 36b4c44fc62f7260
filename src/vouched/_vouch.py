"""What the facts vouch for: every fact read as quantities, indexed for the scanner.

A numeric fact vouches for its value (and every rounding of it to the
precision a text shows, unless the policy lists its attribute as exact); a
string fact vouches for the quantities written in it ("14:05", "2026-12-03",
"107-99"); a fact's ``observed_at`` vouches for its date and UTC time (an
answer may say when a value was seen). Silent facts vouch for nothing: they
mark (subject, attribute) pairs that must not be stated.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation
from typing import NamedTuple

from vouched._fact import Fact
from vouched._numbers import Quantity, QuantityKind, canonical_unit, read_numbers, units_compatible

__all__ = ["FactIndex", "Reading", "describe", "quantity_matches", "rounds_to"]

_NUMBER = QuantityKind.NUMBER
_DATE = QuantityKind.DATE


class Reading(NamedTuple):
    """One quantity a fact vouches for."""

    kind: QuantityKind
    value: Decimal
    unit: str | None
    exact: bool
    fact: Fact


def rounds_to(value: Decimal, stated: Decimal, quantum: Decimal) -> bool:
    """True when ``value`` rounded to ``quantum`` (half up or half even) is ``stated``."""
    if value == stated:
        return True
    if quantum <= 0:
        return False
    try:
        steps = value / quantum
        for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN):
            if steps.quantize(Decimal(1), rounding=mode) * quantum == stated:
                return True
    except InvalidOperation:
        return False
    return False


def _same_date(stated: Decimal, fact: Decimal) -> bool:
    s, f = int(stated), int(fact)
    if s % 10000 != f % 10000:
        return False
    return s // 10000 == 0 or f // 10000 == 0 or s // 10000 == f // 10000


def quantity_matches(quantity: Quantity, reading: Reading) -> bool:
    """Does the stated quantity say the reading's value (units aside)?"""
    if quantity.kind is not reading.kind:
        return False
    if quantity.kind is _DATE:
        return any(_same_date(v, reading.value) for v in quantity.values)
    if quantity.kind is not _NUMBER or reading.exact:
        return any(v == reading.value for v in quantity.values)
    return any(rounds_to(reading.value, v, quantity.quantum) for v in quantity.values)


def describe(reading: Reading) -> str:
    """``Berlin temperature = 21.4 degC (open-meteo)`` for a finding's detail."""
    fact = reading.fact
    value = fact.value
    unit = f" {fact.unit}" if fact.unit else ""
    source = f" ({fact.source})" if fact.source else ""
    return f"{fact.subject} {fact.attribute} = {value}{unit}{source}"


def _readings_of(fact: Fact, exact: bool) -> list[Reading]:
    value = fact.value
    unit = canonical_unit(fact.unit)
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int | Decimal):
        return [Reading(_NUMBER, Decimal(value), unit, exact, fact)]
    readings = []
    for quantity in read_numbers(value):
        q_unit = quantity.unit if quantity.unit is not None else unit
        for number in quantity.values:
            readings.append(Reading(quantity.kind, number, q_unit, exact, fact))
    return readings


def _observed_readings(fact: Fact) -> list[Reading]:
    seen = fact.observed_at
    if seen is None:
        return []
    date = Decimal(seen.year * 10000 + seen.month * 100 + seen.day)
    time = Decimal(seen.hour * 60 + seen.minute)
    return [
        Reading(_DATE, date, None, True, fact),
        Reading(QuantityKind.TIME, time, None, True, fact),
        Reading(_NUMBER, Decimal(seen.year), None, True, fact),
    ]


@dataclass(slots=True)
class FactIndex:
    """The facts of one scan, read once and indexed by pair, attribute and value."""

    grounded: tuple[Fact, ...]
    silent: tuple[Fact, ...]
    exact: frozenset[str]
    rejected: tuple[Fact, ...] = ()
    by_pair: dict[tuple[str, str], list[Reading]] = field(default_factory=dict)
    by_attribute: dict[str, list[Reading]] = field(default_factory=dict)
    silent_pairs: dict[tuple[str, str], Fact] = field(default_factory=dict)
    silent_attributes: dict[str, list[Fact]] = field(default_factory=dict)
    units_by_subject: dict[str | None, dict[str, set[str]]] = field(default_factory=dict)
    _numbers: list[Reading] = field(default_factory=list)
    _number_keys: list[Decimal] = field(default_factory=list)
    _others: dict[tuple[QuantityKind, int], list[Reading]] = field(default_factory=dict)
    strings_with_digits: list[str] = field(default_factory=list)

    @classmethod
    def build(
        cls,
        grounded: Iterable[Fact],
        silent: Iterable[Fact],
        exact: frozenset[str],
        rejected: Iterable[Fact] = (),
    ) -> FactIndex:
        """Index the facts. ``rejected`` facts (the gate's violations) vouch for
        nothing, but their subjects and attributes are still recognised when the
        text names them, so a number for them is bound and reported as ungrounded."""
        index = cls(tuple(grounded), tuple(silent), exact, tuple(rejected))
        numbers: list[Reading] = []
        for fact in index.grounded:
            readings = _readings_of(fact, fact.attribute in exact)
            index.by_pair.setdefault((fact.subject, fact.attribute), []).extend(readings)
            index.by_attribute.setdefault(fact.attribute, []).extend(readings)
            if isinstance(fact.value, str) and any(c.isdigit() for c in fact.value):
                index.strings_with_digits.append(fact.value)
            for reading in (*readings, *_observed_readings(fact)):
                if reading.kind is _NUMBER:
                    numbers.append(reading)
                else:
                    key = (
                        reading.kind,
                        int(reading.value) % 10000 if reading.kind is _DATE else int(reading.value),
                    )
                    index._others.setdefault(key, []).append(reading)
            index._note_unit(fact)
        for fact in index.silent:
            index.silent_pairs.setdefault((fact.subject, fact.attribute), fact)
            index.silent_attributes.setdefault(fact.attribute, []).append(fact)
            index._note_unit(fact)
        numbers.sort(key=lambda r: r.value)
        index._numbers = numbers
        index._number_keys = [r.value for r in numbers]
        return index

    def _note_unit(self, fact: Fact) -> None:
        unit = canonical_unit(fact.unit)
        if unit is None:
            return
        for subject in (fact.subject, None):
            self.units_by_subject.setdefault(subject, {}).setdefault(unit, set()).add(
                fact.attribute
            )

    @property
    def attributes(self) -> set[str]:
        rejected = {f.attribute for f in self.rejected}
        return set(self.by_attribute) | set(self.silent_attributes) | rejected

    @property
    def subjects(self) -> set[str]:
        named = {f.subject for f in self.grounded} | {f.subject for f in self.silent}
        return named | {f.subject for f in self.rejected}

    def candidates(self, quantity: Quantity) -> list[Reading]:
        """Grounded readings whose value could match ``quantity`` (any subject)."""
        if quantity.kind is _NUMBER:
            found: list[Reading] = []
            span = max(quantity.quantum, Decimal(1))
            for value in quantity.values:
                low = bisect_left(self._number_keys, value - span)
                high = bisect_right(self._number_keys, value + span)
                found.extend(self._numbers[low:high])
            return found
        found = []
        for value in quantity.values:
            key = int(value) % 10000 if quantity.kind is _DATE else int(value)
            found.extend(self._others.get((quantity.kind, key), ()))
        return found

    def attribute_for_unit(self, subject: str | None, unit: str | None) -> str | None:
        """The one attribute of ``subject`` (any subject if None) stated in ``unit``."""
        if unit is None:
            return None
        attributes = self.units_by_subject.get(subject, {}).get(unit)
        if attributes is None:
            # a generic unit ("degrees", "$") matches the specific ones it covers
            pool = self.units_by_subject.get(subject, {})
            matching = {a for u, attrs in pool.items() if units_compatible(unit, u) for a in attrs}
            if unit not in ("deg", "$", "¥") or len(matching) != 1:
                return None
            return next(iter(matching))
        if len(attributes) != 1:
            return None
        return next(iter(attributes))

    def accepts(self, attribute: str, quantity: Quantity) -> bool:
        """Could ``quantity`` be a statement of ``attribute`` (kind and unit fit)?"""
        for reading in self.by_attribute.get(attribute, ()):
            if reading.kind is not quantity.kind:
                continue
            # "35.50 EUR" is not a statement of a unitless attribute ("Studio 4").
            if quantity.unit is not None and reading.unit is None:
                continue
            if units_compatible(quantity.unit, reading.unit):
                return True
        if attribute not in self.by_attribute and attribute not in self.silent_attributes:
            return any(f.attribute == attribute for f in self.rejected)
        for fact in self.silent_attributes.get(attribute, ()):
            if quantity.kind is _NUMBER and units_compatible(
                quantity.unit, canonical_unit(fact.unit)
            ):
                return True
            if quantity.kind is not _NUMBER and fact.unit is None:
                return True
        return False
