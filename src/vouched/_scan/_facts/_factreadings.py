"""A fact read as the quantities it vouches for, and how a stated quantity matches one.

A numeric fact vouches for its value (rounded to the precision a text shows,
unless exact); a string fact for the quantities written in it; ``observed_at`` for
its date and UTC time. :class:`~vouched._scan._facts._factindex.FactIndex` indexes them.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation
from typing import NamedTuple

from vouched._fact import Fact
from vouched._scan._facts._attributenames import PLAIN_NAMES, AttributeNames
from vouched._scan._lex._numbers import Quantity, QuantityKind, read_numbers
from vouched._scan._lex._units import (
    canonical_unit,
    convertible,
    from_base_unit,
    in_base_unit,
)
from vouched._time import period_words

__all__ = [
    "Reading",
    "converted",
    "converts",
    "describe",
    "is_name_with_digits",
    "observed_readings",
    "quantity_matches",
    "readings_of",
    "rounds_to",
]

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
    kind = quantity.kind
    if kind is not reading.kind:
        return False
    value = reading.value
    if kind is _NUMBER and not reading.exact:
        quantum = quantity.quantum
        if rounds_to(value, quantity.value, quantum):
            return True
        return any(rounds_to(value, v, quantum) for v in quantity.alternatives)
    if kind is _DATE:
        return any(_same_date(v, value) for v in quantity.values)
    return value == quantity.value or value in quantity.alternatives


def converts(quantity: Quantity, reading: Reading) -> bool:
    """Does a number stated in another unit of the reading's dimension say its value
    converted ("2.8 °C (about 37 °F)", "5.2 m/s, around 19 km/h", "0.25 kg: 250 g")?
    The values each side's precision allows must overlap: the fact's within half its last
    digit, the stated number's within half the step of its last digit shown."""
    unit, fact_unit = quantity.unit, reading.unit
    if quantity.kind is not _NUMBER or reading.kind is not _NUMBER or reading.exact:
        return False
    if unit is None or fact_unit is None or not convertible(unit, fact_unit):
        return False
    value = reading.value
    half_step = _step(value) / 2
    low = _written_in(value - half_step, fact_unit, unit)
    high = _written_in(value + half_step, fact_unit, unit)
    half = quantity.quantum / 2
    return any(low <= v + half and v - half <= high for v in quantity.values)


def converted(reading: Reading, unit: str) -> Decimal:
    """The reading's value written in ``unit`` (one :func:`convertible` with its own)."""
    assert reading.unit is not None  # noqa: S101 - callers checked convertible()
    return _written_in(reading.value, reading.unit, unit)


def _written_in(value: Decimal, unit: str, other: str) -> Decimal:
    base, _ = in_base_unit(value, unit)
    return from_base_unit(base, other)


def _step(value: Decimal) -> Decimal:
    """The step of a value's last digit as given (0.1 for 21.4, 1 for 12)."""
    exponent = value.as_tuple().exponent
    return Decimal(1).scaleb(exponent) if isinstance(exponent, int) else Decimal(0)


def describe(reading: Reading, names: AttributeNames = PLAIN_NAMES) -> str:
    """``Berlin's temperature = 21.4 degC (open-meteo)`` for a finding's detail: the
    fact's subject, its attribute as ``names`` says it, value, period and source."""
    fact = reading.fact
    value = fact.value
    unit = f" {fact.unit}" if fact.unit else ""
    source = f" ({fact.source})" if fact.source else ""
    period = fact.period
    when = "" if period is None else f" for {period_words(*period)}"
    return f"{names.named(fact.subject, fact.attribute)} = {value}{unit}{when}{source}"


def is_name_with_digits(value: str) -> bool:
    """'Studio 4', 'Python 3 for Beginners': a name whose digits are not claims
    ('14:05' or '2026-12-03' are quantities, not names)."""
    return any(c.isdigit() for c in value) and sum(c.isalpha() for c in value) >= 3


def readings_of(fact: Fact, exact: bool) -> list[Reading]:
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


def observed_readings(fact: Fact) -> list[Reading]:
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
