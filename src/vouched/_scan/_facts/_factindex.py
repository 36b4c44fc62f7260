"""What the facts vouch for: every fact read as quantities, indexed for the scanner.

A numeric fact vouches for its value (and every rounding of it to the
precision a text shows, unless the policy lists its attribute as exact); a
string fact vouches for the quantities written in it ("14:05", "2026-12-03",
"107-99"); a fact's ``observed_at`` vouches for its date and UTC time (an
answer may say when a value was seen). Silent facts vouch for nothing: they
mark (subject, attribute) pairs that must not be stated.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Iterable, Sequence
from decimal import Decimal
from operator import attrgetter, itemgetter
from typing import TypeVar, cast

from vouched._fact import Fact
from vouched._scan._facts._attributenames import PLAIN_NAMES, AttributeNames
from vouched._scan._facts._factreadings import (
    Reading,
    converts,
    describe,
    is_name_with_digits,
    observed_readings,
    quantity_matches,
    readings_of,
    rounds_to,
)
from vouched._scan._lex._numbers import Quantity, QuantityKind
from vouched._scan._lex._units import (
    canonical_unit,
    convertible,
    has_conversion,
    in_base_unit,
    money_code,
    units_compatible,
)

__all__ = [  # re-exported
    "FactIndex",
    "Reading",
    "converts",
    "describe",
    "quantity_matches",
    "rounds_to",
]

_NUMBER = QuantityKind.NUMBER
_NUMERIC = (int, Decimal)  # bool is an int: a boolean fact's unit shapes its attribute, too
_PAIR_KEY = attrgetter("subject", "attribute")
_VALUE = attrgetter("value")
_SOURCE = attrgetter("source")
_ATTRIBUTE_UNIT = attrgetter("attribute", "unit")
_OBSERVED_AT = attrgetter("observed_at")
_UNIT_ATTRIBUTE = attrgetter("unit", "attribute")
_PLAIN_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")

_NO_SHAPES: frozenset[tuple[QuantityKind, str | None]] = frozenset()
_DATE = QuantityKind.DATE


_PAIR_NAME = re.compile(r"[A-Z]{3}/[A-Z]{3}")  # a currency pair: "EUR/USD", base first

_K = TypeVar("_K", bound=Hashable)
_T = TypeVar("_T")


class FactIndex:
    """The facts of one scan, indexed by pair and attribute; read lazily.

    Building is one pass over the facts; readings, the value index for
    membership and the units table are made on first use, so a text that
    needs few of them pays for few of them.
    """

    def __init__(
        self,
        grounded: Iterable[Fact],
        silent: Iterable[Fact],
        exact: frozenset[str],
        rejected: Iterable[Fact] = (),
        names: AttributeNames = PLAIN_NAMES,
    ) -> None:
        """``rejected`` facts (the gate's violations) vouch for nothing, but their
        subjects and attributes are still recognised when the text names them,
        so a number for them is bound and reported as ungrounded. ``names``: how a
        finding's detail names each attribute (the lexicon's words)."""
        self.names = names
        self.grounded = tuple(grounded)
        self.silent = tuple(silent)
        self.exact = exact
        self.rejected = tuple(rejected)
        # Built with C-level passes (map, zip, dict): the common fact set has one fact
        # per pair; everything grouped by attribute is made on first use.
        grounded_facts = self.grounded
        keys = list(map(_PAIR_KEY, grounded_facts))
        pairs: dict[tuple[str, str], tuple[Fact, ...]] = dict(
            zip(keys, zip(grounded_facts), strict=True)
        )
        if len(pairs) < len(keys):  # several facts for one pair: keep them all, in order
            grouped: dict[tuple[str, str], list[Fact]] = {}
            for key, fact in zip(keys, grounded_facts, strict=True):
                grouped.setdefault(key, []).append(fact)
            pairs = {key: tuple(facts) for key, facts in grouped.items()}
        self._pair_facts = pairs
        values = list(map(_VALUE, grounded_facts))
        types = set(map(type, values))
        self._has_strings = any(issubclass(kind, str) for kind in types)
        self._all_numeric = all(issubclass(kind, _NUMERIC) for kind in types)
        self._by_attribute: dict[str, list[Fact]] | None = None
        self._attribute_units: dict[str, frozenset[tuple[QuantityKind, str | None]]] | None = None
        self._attribute_names: set[str] | None = None
        self._subject_units: dict[str | None, dict[str, set[str]]] = {}
        self.silent_pairs: dict[tuple[str, str], Fact] = {}
        self.silent_attributes: dict[str, list[Fact]] = {}
        for fact in self.silent:
            self.silent_pairs.setdefault((fact.subject, fact.attribute), fact)
            self.silent_attributes.setdefault(fact.attribute, []).append(fact)
        self._pair_readings: dict[tuple[str, str], list[Reading]] = {}
        self._attribute_readings: dict[str, list[Reading]] = {}
        self._shapes: dict[str, frozenset[tuple[QuantityKind, str | None]]] = {}
        self._others_built = False
        self._accepts: dict[tuple[str, QuantityKind, str | None], bool] = {}
        self._names_with_digits: list[str] | None = None
        self._numbers: list[Reading] | None = None
        self._number_keys: list[Decimal] = []
        self._others: dict[tuple[QuantityKind, int], list[Reading]] = {}
        self._subjects: set[str] | None = None
        self._attributes: set[str] | None = None
        self._owners: dict[str, set[str]] | None = None
        self._by_subject: dict[str, list[str]] | None = None
        self._negative: bool | None = None
        # per-fact tables read per number: each built once per index, on first use
        self._numeric_by_subject: dict[str, list[tuple[str, Decimal, str | None]]] | None = None
        self._strings_by_subject: dict[str, frozenset[str]] | None = None
        self._sorted_owners: dict[str, tuple[str, ...]] = {}
        self._subject_names: set[str] | None = None
        self._in_base: dict[str | None, tuple[list[Decimal], list[Reading]]] | None = None
        self._words_of: dict[str, set[str]] | None = None
        self._value_names: frozenset[str] | None = None
        self._rates: tuple[tuple[str, str, Decimal], ...] | None = None
        self._derived: dict[tuple[object, object], object] = {}

    @classmethod
    def build(
        cls,
        grounded: Iterable[Fact],
        silent: Iterable[Fact],
        exact: frozenset[str],
        rejected: Iterable[Fact] = (),
        names: AttributeNames = PLAIN_NAMES,
    ) -> FactIndex:
        return cls(grounded, silent, exact, rejected, names)

    def _readings(self, facts: Iterable[Fact]) -> list[Reading]:
        exact = self.exact
        readings: list[Reading] = []
        for fact in facts:
            readings.extend(readings_of(fact, fact.attribute in exact))
        return readings

    def derived(self, build: Callable[[tuple[Fact, ...], _K], _T], key: _K) -> _T:
        """``build(self.grounded, key)``, made once per ``build`` and ``key``: what a rule
        reads off every grounded fact of a view (an index built once per scanner) is read
        once, not in each sentence that asks (``build`` must be pure)."""
        kept = (build, key)
        if kept not in self._derived:
            self._derived[kept] = build(self.grounded, key)
        return cast("_T", self._derived[kept])

    def pair_readings(self, subject: str, attribute: str) -> list[Reading]:
        """What the grounded facts of one (subject, attribute) pair vouch for."""
        key = (subject, attribute)
        found = self._pair_readings.get(key)
        if found is None:
            facts = self._pair_facts.get(key, ())
            value = facts[0].value if len(facts) == 1 else None
            if type(value) is Decimal:  # the common case: one fact, a decimal value
                fact = facts[0]
                unit = canonical_unit(fact.unit)
                found = [Reading(_NUMBER, value, unit, attribute in self.exact, fact)]
            else:
                found = self._readings(facts)
            self._pair_readings[key] = found
        return found

    def attribute_readings(self, attribute: str) -> list[Reading]:
        """What the grounded facts of one attribute (any subject) vouch for."""
        found = self._attribute_readings.get(attribute)
        if found is None:
            found = self._readings(self._attribute_facts(attribute))
            self._attribute_readings[attribute] = found
        return found

    def _shapes_of(self, attribute: str) -> frozenset[tuple[QuantityKind, str | None]]:
        """The (kind, unit) pairs the attribute's grounded values take."""
        if self._all_numeric:  # every grounded value is a number (or a bool)
            return self._numeric_shapes().get(attribute, _NO_SHAPES)
        shapes = self._shapes.get(attribute)
        if shapes is None:
            facts = self._attribute_facts(attribute)
            units = {f.unit for f in facts if isinstance(f.value, _NUMERIC)}
            found = {(_NUMBER, canonical_unit(unit)) for unit in units}
            for fact in facts:
                if isinstance(fact.value, str):
                    found.update((r.kind, r.unit) for r in readings_of(fact, False))
            shapes = self._shapes[attribute] = frozenset(found)
        return shapes

    def _numeric_shapes(self) -> dict[str, frozenset[tuple[QuantityKind, str | None]]]:
        """Every attribute's shapes when every grounded value is numeric: one set of
        (attribute, unit) pairs read at C speed."""
        if self._attribute_units is None:
            units: dict[str, set[tuple[QuantityKind, str | None]]] = {}
            for name, unit in set(map(_ATTRIBUTE_UNIT, self.grounded)):
                units.setdefault(name, set()).add((_NUMBER, canonical_unit(unit)))
            self._attribute_units = {name: frozenset(found) for name, found in units.items()}
        return self._attribute_units

    @property
    def _attributes_facts(self) -> dict[str, list[Fact]]:
        """Grounded facts by attribute, pair by pair (built on first use)."""
        if self._by_attribute is None:
            by_attribute: dict[str, list[Fact]] = {}
            for (_, attribute), facts in self._pair_facts.items():
                found = by_attribute.get(attribute)
                if found is None:
                    by_attribute[attribute] = list(facts)
                else:
                    found.extend(facts)
            self._by_attribute = by_attribute
        return self._by_attribute

    def _attribute_facts(self, attribute: str) -> list[Fact]:
        return self._attributes_facts.get(attribute, [])

    def has_grounded(self, attribute: str) -> bool:
        if self._by_attribute is None:
            return attribute in self._grounded_attributes
        return attribute in self._by_attribute

    @property
    def _grounded_attributes(self) -> set[str]:
        if self._attribute_names is None:
            self._attribute_names = set(map(itemgetter(1), self._pair_facts))
        return self._attribute_names

    @property
    def string_values(self) -> list[str]:
        """The grounded string values, in fact order."""
        if not self._has_strings:
            return []
        return [f.value for f in self.grounded if isinstance(f.value, str)]

    @property
    def identifiers(self) -> tuple[str, ...]:
        """Source ids and attribute names that look like code (``open-meteo``, ``wind_speed``)."""
        names = (
            {source for source in set(map(_SOURCE, self.grounded)) if source}
            | set(map(itemgetter(1), self._pair_facts))
            | {f.source for f in self.silent if f.source}
            | {f.attribute for f in self.silent}
        )
        return tuple(sorted(n for n in names if len(n) > 2 and not n.replace(" ", "").isalpha()))

    @property
    def strings_with_digits(self) -> list[str]:
        """String values that are names with digits ("Studio 4")."""
        if self._names_with_digits is None:
            self._names_with_digits = [
                value for value in self.string_values if is_name_with_digits(value)
            ]
        return self._names_with_digits

    def _membership(self) -> list[Reading]:
        """Every grounded number, sorted by value (built on first use)."""
        if self._numbers is None:
            exact = self.exact
            numbers: list[Reading] = []
            years: set[int] = set()
            for fact in self.grounded:
                value = fact.value
                if isinstance(value, int | Decimal) and not isinstance(value, bool):
                    unit = canonical_unit(fact.unit)
                    numbers.append(
                        Reading(_NUMBER, Decimal(value), unit, fact.attribute in exact, fact)
                    )
                elif isinstance(value, str):
                    numbers.extend(
                        r for r in readings_of(fact, fact.attribute in exact) if r.kind is _NUMBER
                    )
                seen = fact.observed_at
                if seen is not None and seen.year not in years:
                    years.add(seen.year)  # a date's year may be stated alone
                    numbers.append(Reading(_NUMBER, Decimal(seen.year), None, True, fact))
            numbers.sort(key=lambda r: r.value)
            self._numbers = numbers
            self._number_keys = [r.value for r in numbers]
        return self._numbers

    def _times_and_dates(self) -> dict[tuple[QuantityKind, int], list[Reading]]:
        """Grounded times and dates, by value (built on first use)."""
        if not self._others_built:
            if self._has_strings:
                self._add_times_and_dates()
            else:
                self._add_observed_only()
            self._others_built = True
        return self._others

    def _add_observed_only(self) -> None:
        """Only observation instants: one reading set per distinct instant (C-level
        dedup, first-seen order), described by the first fact observed at it."""
        grounded = self.grounded
        for instant in dict.fromkeys(map(_OBSERVED_AT, grounded)):
            if instant is None:
                continue
            fact = next(f for f in grounded if f.observed_at == instant)
            self._add_others(r for r in observed_readings(fact) if r.kind is not _NUMBER)

    def _add_times_and_dates(self) -> None:
        """The times and dates string facts hold, and one reading set per instant."""
        seen: set[object] = set()
        for fact in self.grounded:
            readings: list[Reading] = []
            if isinstance(fact.value, str):
                readings = [r for r in readings_of(fact, True) if r.kind is not _NUMBER]
            if fact.observed_at is not None and fact.observed_at not in seen:
                seen.add(fact.observed_at)  # one reading per instant is enough
                readings.extend(r for r in observed_readings(fact) if r.kind is not _NUMBER)
            self._add_others(readings)

    def _add_others(self, readings: Iterable[Reading]) -> None:
        others = self._others
        for reading in readings:
            value = int(reading.value)
            key = (reading.kind, value % 10000 if reading.kind is _DATE else value)
            others.setdefault(key, []).append(reading)

    @property
    def attributes(self) -> set[str]:
        if self._attributes is None:
            self._attributes = (
                set(self._grounded_attributes)
                | set(self.silent_attributes)
                | {f.attribute for f in self.rejected}
            )
        return self._attributes

    @property
    def subjects(self) -> set[str]:
        if self._subjects is None:
            self._subjects = (
                {pair[0] for pair in self._pair_facts}
                | {f.subject for f in self.silent}
                | {f.subject for f in self.rejected}
            )
        return self._subjects

    def candidates(self, quantity: Quantity) -> list[Reading]:
        """Grounded readings whose value could match ``quantity`` (any subject)."""
        if quantity.kind is _NUMBER:
            numbers = self._membership()
            found: list[Reading] = []
            # a value that rounds to the stated one at its quantum lies within half of it
            span = max(quantity.quantum, Decimal(0))
            for value in quantity.values:
                low = bisect_left(self._number_keys, value - span)
                high = bisect_right(self._number_keys, value + span)
                found.extend(numbers[low:high])
            return found
        found = []
        others = self._times_and_dates()
        for value in quantity.values:
            key = int(value) % 10000 if quantity.kind is _DATE else int(value)
            found.extend(others.get((quantity.kind, key), ()))
        return found

    @property
    def value_names(self) -> frozenset[str]:
        """String values that name something ("München Hbf", "Stralsund") and their
        leading words ("München"), casefolded: a text naming them names a value, not a
        subject no fact is about ("IC 2213 to Stralsund is 18 minutes late")."""
        if self._value_names is None:
            names: set[str] = set()
            for value in self.string_values:
                words = value.split()
                if not words or not words[0][:1].isupper() or len(words) > 4:
                    continue
                for n in range(1, len(words) + 1):
                    names.add(" ".join(words[:n]).casefold())
            self._value_names = frozenset(names)
        return self._value_names

    def belongs_to(self, subject: str, group: str) -> bool:
        """Is ``group`` what ``subject`` shares with others (a player's team: the value of
        a string fact that several subjects hold for one attribute)? Held by one subject,
        it is a group only when it names a subject of another kind (no attribute in
        common: a one-player box score's team); an opponent, a destination, names none."""
        if self._words_of is None:
            holders: dict[tuple[str, str], set[str]] = {}
            kinds: dict[str, set[str]] = {}
            for fact in self.grounded:
                kinds.setdefault(fact.subject.casefold(), set()).add(fact.attribute)
                if isinstance(fact.value, str):
                    key = (fact.attribute, fact.value.casefold())
                    holders.setdefault(key, set()).add(fact.subject)
            words: dict[str, set[str]] = {}
            for (_, value), subjects in holders.items():
                if len(subjects) > 1 or _other_kind(kinds, value, subjects):
                    for holder in subjects:
                        words.setdefault(holder, set()).add(value)
            self._words_of = words
        return group.casefold() in self._words_of.get(subject, ())

    def converted_candidates(self, quantity: Quantity) -> list[Reading]:
        """Grounded numbers in another unit of the quantity's dimension whose value, converted,
        the quantity states ("37 °F" for 2.8 °C): one bisection of the values in base units."""
        unit = quantity.unit
        if quantity.kind is not _NUMBER or unit is None:
            return []
        base_of = self._base_values()
        found: list[Reading] = []
        for base_unit, (keys, readings) in base_of.items():
            # the stated number in base units, widened by 5% for the facts' own rounding
            low, got = in_base_unit(quantity.value - quantity.quantum, unit)
            high, _ = in_base_unit(quantity.value + quantity.quantum, unit)
            if got != base_unit:
                continue
            slack = (abs(low) + abs(high)) / 40
            start = bisect_left(keys, min(low, high) - slack)
            stop = bisect_right(keys, max(low, high) + slack)
            found.extend(r for r in readings[start:stop] if converts(quantity, r))
        return found

    def _base_values(self) -> dict[str | None, tuple[list[Decimal], list[Reading]]]:
        """Grounded numbers whose unit converts, by base unit, sorted by value in it."""
        if self._in_base is None:
            table: dict[str | None, list[tuple[Decimal, Reading]]] = {}
            for reading in self._membership():
                unit = reading.unit
                if unit is None or reading.exact or not has_conversion(unit):
                    continue
                value, base = in_base_unit(reading.value, unit)
                table.setdefault(base, []).append((value, reading))
            self._in_base = {}
            for base, pairs in table.items():
                pairs.sort(key=itemgetter(0))
                self._in_base[base] = ([v for v, _ in pairs], [r for _, r in pairs])
        return self._in_base

    def _units_for(self, subject: str | None) -> dict[str, set[str]]:
        """Canonical unit -> attributes stated in it, for one subject (every subject if
        None), over grounded and silent facts; built for the subject asked about."""
        found = self._subject_units.get(subject)
        if found is None:
            pairs: set[tuple[str | None, str]]
            if subject is None:
                pairs = set(map(_UNIT_ATTRIBUTE, (*self.grounded, *self.silent)))
            elif subject not in self._grounded_subjects:  # a subject whose facts were refused
                pairs = {(f.unit, f.attribute) for f in self.rejected if f.subject == subject}
            else:  # the subject's grounded pairs by attribute, then its silences
                pairs = {
                    (fact.unit, attribute)
                    for attribute in self._grounded_attributes
                    for fact in self._pair_facts.get((subject, attribute), ())
                }
                pairs.update((f.unit, f.attribute) for f in self.silent if f.subject == subject)
            found = {}
            for unit, attribute in pairs:
                canonical = canonical_unit(unit)
                if canonical is not None:
                    found.setdefault(canonical, set()).add(attribute)
            self._subject_units[subject] = found
        return found

    @property
    def _grounded_subjects(self) -> set[str]:
        """Subjects with a grounded or silent fact (built once)."""
        if self._subject_names is None:
            self._subject_names = {s for s, _ in self._pair_facts} | {
                f.subject for f in self.silent
            }
        return self._subject_names

    def attribute_for_unit(self, subject: str | None, unit: str | None) -> str | None:
        """The one attribute of ``subject`` (any subject if None) stated in ``unit``."""
        if unit is None:
            return None
        pool = self._units_for(subject)
        attributes = pool.get(unit)
        if attributes is None:
            # a generic unit ("degrees", "$") matches the specific ones it covers
            matching = {a for u, attrs in pool.items() if units_compatible(unit, u) for a in attrs}
            if unit not in ("deg", "$", "¥") or len(matching) != 1:
                return None
            return next(iter(matching))
        if len(attributes) != 1:
            return None
        return next(iter(attributes))

    def attributes_for_unit(self, subject: str, unit: str | None) -> tuple[str, ...]:
        """Every attribute of ``subject`` stated in exactly ``unit``, sorted ("temperature"
        and "apparent_temperature" in degC)."""
        if unit is None:
            return ()
        return tuple(sorted(self._units_for(subject).get(unit, ())))

    @property
    def _known_pairs(self) -> dict[str, set[str]]:
        """Attribute -> subjects with a grounded, silent or rejected fact for it."""
        if self._owners is None:
            owners: dict[str, set[str]] = {}
            for subject, attribute in self._pair_facts:
                owners.setdefault(attribute, set()).add(subject)
            for fact in (*self.silent, *self.rejected):
                owners.setdefault(fact.attribute, set()).add(fact.subject)
            self._owners = owners
        return self._owners

    @property
    def has_negative(self) -> bool:
        """Is any grounded number negative?"""
        if self._negative is None:
            self._negative = any(
                isinstance(f.value, int | Decimal) and not isinstance(f.value, bool) and f.value < 0
                for f in self.grounded
            )
        return self._negative

    def has_unit(self, unit: str) -> bool:
        """Is any grounded or silent fact stated in ``unit``?"""
        return unit in self._units_for(None)

    def fitting_attributes(self, subject: str, kind: QuantityKind, unit: str | None) -> list[str]:
        """The attributes of ``subject`` with a grounded reading of ``kind`` in a unit that
        ``unit`` fits, and those silent for it (what a number stated for the subject
        without an attribute word may speak about), sorted."""
        by_subject = self._by_subject
        if by_subject is None:
            by_subject = {}
            for name, attribute in self._pair_facts:
                by_subject.setdefault(name, []).append(attribute)
            for fact in self.silent:
                by_subject.setdefault(fact.subject, []).append(fact.attribute)
            self._by_subject = by_subject
        found = set()
        for attribute in by_subject.get(subject, ()):
            readings = self.pair_readings(subject, attribute)
            if not readings and (subject, attribute) in self.silent_pairs:
                silence = self.silent_pairs[(subject, attribute)]
                if units_compatible(unit, canonical_unit(silence.unit)):
                    found.add(attribute)
            elif any(r.kind is kind and units_compatible(unit, r.unit) for r in readings):
                found.add(attribute)
        return sorted(found)

    def knows(self, subject: str, attribute: str) -> bool:
        """Does any fact (grounded, silent or rejected) speak of this pair?"""
        return subject in self._known_pairs.get(attribute, ())

    def subjects_of(self, attribute: str) -> tuple[str, ...]:
        """The subjects any fact of ``attribute`` is about, sorted (once per attribute)."""
        found = self._sorted_owners.get(attribute)
        if found is None:
            found = tuple(sorted(self._known_pairs.get(attribute, ())))
            self._sorted_owners[attribute] = found
        return found

    def currency_rates(self) -> tuple[tuple[str, str, Decimal], ...]:
        """(to, from, rate) of each rate between two currencies ("JPY per EUR" 158.42: a
        euro buys 158.42 yen; or a pair's value in its quote currency, "EUR/JPY" in
        "JPY"), "$" read as "USD"; built once, on first use."""
        rates = self._rates
        if rates is None:
            found = []
            for (name, attribute), facts in self._pair_facts.items():
                unit = facts[0].unit
                if not unit:
                    continue
                if " per " in unit:
                    to, _, base = unit.partition(" per ")
                elif _PAIR_NAME.fullmatch(name) and name[4:] == unit:  # EUR/USD in USD
                    to, base = unit, name[:3]
                else:
                    continue
                to_code, base_code = money_code(to), money_code(base)
                value = self.numeric_value(name, attribute)
                if to_code and base_code and value:
                    found.append((to_code, base_code, value))
            rates = self._rates = tuple(found)
        return rates

    def numeric_facts(self, subject: str) -> Sequence[tuple[str, Decimal, str | None]]:
        """(attribute, value, canonical unit) of each single numeric fact of ``subject``,
        in fact order (the table of every subject is built in one pass, on first use)."""
        table = self._numeric_by_subject
        if table is None:
            table = {}
            for (name, attribute), facts in self._pair_facts.items():
                value = self.numeric_value(name, attribute)  # None unless one number
                if value is not None:
                    row = (attribute, value, canonical_unit(facts[0].unit))
                    table.setdefault(name, []).append(row)
            self._numeric_by_subject = table
        return table.get(subject, ())

    def strings_of(self, subject: str) -> frozenset[str]:
        """The string values of ``subject``'s grounded facts ("Suns" for the Nuggets'
        opponent), the table of every subject built in one pass, on first use."""
        table = self._strings_by_subject
        if table is None:
            found: dict[str, set[str]] = {}
            for (name, _), facts in self._pair_facts.items():
                for fact in facts:
                    if isinstance(fact.value, str):
                        found.setdefault(name, set()).add(fact.value)
            table = {name: frozenset(values) for name, values in found.items()}
            self._strings_by_subject = table
        return table.get(subject, frozenset())

    def facts_of(self, subject: str, attribute: str) -> tuple[Fact, ...]:
        """The grounded facts of one (subject, attribute) pair, in order."""
        return self._pair_facts.get((subject, attribute), ())

    def numeric_value(self, subject: str, attribute: str) -> Decimal | None:
        """The one grounded number of a pair (None when there is none or several)."""
        facts = self._pair_facts.get((subject, attribute), ())
        if len(facts) != 1:
            return None
        value = facts[0].value
        if isinstance(value, str) and _PLAIN_NUMBER.fullmatch(value.strip()):
            return Decimal(value.strip())  # a catalog's text cell: "14", "89.90"
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            return None
        return Decimal(value)

    def accepts(self, attribute: str, quantity: Quantity) -> bool:
        """Could ``quantity`` be a statement of ``attribute`` (kind and unit fit)?"""
        key = (attribute, quantity.kind, quantity.unit)
        known = self._accepts.get(key)
        if known is None:
            known = self._accepts[key] = self._accepts_uncached(attribute, quantity)
        return known

    def _accepts_uncached(self, attribute: str, quantity: Quantity) -> bool:
        if attribute not in self.attributes:
            # named, and no fact states it: any count or time may be a statement of it
            return quantity.kind is not _DATE
        shapes = self._shapes_of(attribute)
        if shapes:
            # Grounded facts of the attribute (any subject) say what its values look like.
            return any(
                kind is quantity.kind
                # "35.50 EUR" is not a statement of a unitless attribute ("Studio 4").
                and not (quantity.unit is not None and unit is None)
                and (units_compatible(quantity.unit, unit) or convertible(quantity.unit, unit))
                for kind, unit in shapes
            )
        if attribute not in self.silent_attributes:
            return any(f.attribute == attribute for f in self.rejected)
        for fact in self.silent_attributes.get(attribute, ()):
            if quantity.kind is _NUMBER and units_compatible(
                quantity.unit, canonical_unit(fact.unit)
            ):
                return True
            if quantity.kind is not _NUMBER and fact.unit is None:
                return True
        return False


def _other_kind(kinds: dict[str, set[str]], value: str, holders: set[str]) -> bool:
    """Does ``value`` name a subject of the facts that shares no attribute with its one
    holder (a team beside a player, never an opponent beside a team)?"""
    own = kinds.get(value)
    return own is not None and all(own.isdisjoint(kinds[h.casefold()]) for h in holders)
