"""Another row's value stated for a named row: the right value on the wrong row.

Helpers of the quantity family (:mod:`~vouched._scan._rules._quantity`): a number
stated for a named subject that none of its facts vouches for, but that is another
subject's value of the same attribute; a value in one row's own unit (an exchange
rate quoted in each pair's currency) that is another row's.
"""

from __future__ import annotations

from vouched._scan._facts._attributenames import possessive
from vouched._scan._facts._factindex import Reading, describe
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._numbers import Quantity
from vouched._scan._read._values import Binding
from vouched._scan._read._values import Reading as Stated
from vouched._scan._rules._context import SentenceContext, finding_on, fits

__all__ = ["another_rows", "row_of_unit", "silent_rows"]

_K = FindingKind


def another_rows(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Finding | None:
    """The value of another subject's fact of an attribute the named subject also has
    ("EUR/GBP was 0.9312" where 0.9312 is EUR/CHF's rate): that attribute's value on the
    wrong row, ``value_mismatch`` against the named subject's own fact. Only when one
    other fact holds the value: a value many rows share ("10" in a box score) says
    nothing of where it came from, and stays ``ungrounded_number``."""
    index = ctx.index
    named = {r.subject for r in binding.readings}
    found: list[tuple[Reading, Stated]] = []
    reading: Stated
    for reading in binding.readings:
        if not index.pair_readings(reading.subject, reading.attribute):
            continue
        found.extend(
            (r, reading)
            for r in index.attribute_readings(reading.attribute)
            if r.fact is not None and r.fact.subject not in named and fits(quantity, r)
        )
        if len(found) > 1:
            return None
    if len(found) != 1:
        return None
    other, reading = found[0]
    subject, attribute = reading.subject, reading.attribute
    own = index.pair_readings(subject, attribute)[0]
    return finding_on(
        quantity,
        _K.VALUE_MISMATCH,
        f"{quantity.text!r} read as {index.names.named(subject, attribute)} is "
        f"{other.fact.subject}'s; it does not match {describe(own, index.names)}",
        reading,
        own,
    )


def row_of_unit(quantity: Quantity, other: Reading, ctx: SentenceContext) -> Finding | None:
    """An attribute whose rows each carry their own unit (an exchange rate quoted in
    each pair's currency): a value stated in one row's unit speaks of that row, so
    another row's value in it ("0.9312 pounds", EUR/CHF's rate) is ``value_mismatch``
    against the one row in that unit, not the right value in a wrong unit."""
    attribute = other.fact.attribute
    readings = ctx.index.attribute_readings(attribute)
    units = {r.fact.subject: r.unit for r in readings}
    if len(units) < 2 or len(set(units.values())) != len(units):
        return None  # rows sharing a unit: a unit is no row's name ("21.4 °F" for degC)
    rows = [r for r in readings if r.unit == quantity.unit]
    if len({r.fact.subject for r in rows}) != 1:
        return None
    row = rows[0]
    return finding_on(
        quantity,
        _K.VALUE_MISMATCH,
        f"{quantity.text!r} is {possessive(other.fact.subject)} "
        f"{ctx.index.names.of(other.fact.subject, attribute)}, "
        f"stated in {possessive(row.fact.subject)} unit; it does not match "
        f"{describe(row, ctx.index.names)}",
        row.fact,
        row,
    )


def silent_rows(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Finding | None:
    """A number stated for a named subject whose every fact it may speak of is silent
    ("EUR/SEK is roughly 11.5" when the krona's rate could not be fetched) states a
    value the data does not have: ``silent_spoken``, on the silence with a unit first."""
    silences = [ctx.index.silent_pairs.get((r.subject, r.attribute)) for r in binding.readings]
    if not silences or any(s is None for s in silences):
        return None
    ranked = sorted(
        ((s, r) for s, r in zip(silences, binding.readings, strict=True) if s is not None),
        key=lambda pair: pair[0].unit is None,
    )
    silence, reading = ranked[0]
    return finding_on(
        quantity,
        _K.SILENT_SPOKEN,
        f"{quantity.text!r} is stated for {reading.subject}, whose "
        f"{ctx.index.names.of(reading.subject, reading.attribute)} "
        f"is silent ({silence.silent_reason or 'no value'})",
        reading,
    )
