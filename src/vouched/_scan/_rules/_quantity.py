"""Quantity rules: one stated quantity, the first rule with an opinion decides.

A stated quantity goes down :data:`QUANTITY_RULES` in order; the first rule
with an opinion decides it: :data:`~vouched._scan._rules._rule.PASSED` (a
plausible reading vouches for it) or a :class:`Finding`. ``None`` means "not
mine", and the next rule reads it. The order is the priority; each rule's
docstring is the rule a careful reader would state. Pure: a rule reads the
quantity, its binding (readings and evidence), the sentence's frozen reading, the
fact index, and returns a value.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

from vouched._scan._facts._factindex import FactIndex, Reading, describe, quantity_matches
from vouched._scan._facts._factreadings import converted, converts
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._lex._numbers import Quantity
from vouched._scan._lex._units import (
    convertible,
    from_base_unit,
    in_base_unit,
    same_dimension,
    units_compatible,
    vouches_in_unit,
)
from vouched._scan._read._values import Binding, Derived, Evidence
from vouched._scan._read._values import Reading as Plausible
from vouched._scan._rules._context import (
    Judged,
    SentenceContext,
    Stated,
    any_fits,
    finding_on,
    fits,
)
from vouched._scan._rules._revision import revise
from vouched._scan._rules._rows import another_rows, row_of_unit, silent_rows
from vouched._scan._rules._rule import PASSED, Outcome, Rule, decided

__all__ = [
    "DURATION_RULES",
    "QUANTITY_RULES",
    "QuantityCheck",
    "QuantityRule",
    "first_opinion",
    "membership",
    "run",
    "run_durations",
]

_K = FindingKind

QuantityCheck = Callable[[Quantity, Binding, SentenceContext], Outcome | None]
"""A quantity rule: ``PASSED``, a finding, or None ("not mine")."""
QuantityRule = Rule[QuantityCheck]


def derived_value(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome | None:
    """A number the text says it computes ("a 12-point win", "3 degrees warmer than
    Munich", "together 30") holds when the facts compute to it."""
    derived = binding.derived
    if derived is None:
        return None
    if derived.matches:
        return PASSED
    return _derived_finding(quantity, binding, derived)


def _derived_finding(quantity: Quantity, binding: Binding, derived: Derived) -> Finding:
    return Finding(
        _K.VALUE_MISMATCH,
        quantity.start,
        quantity.end,
        quantity.text,
        f"{quantity.text!r} states a {derived.operation}, but {derived.detail}",
        None,
        binding.attribute,
    )


def _holds(value: Decimal, op: str, bound: Decimal) -> bool:
    if op == ">":
        return value > bound
    if op == "<":
        return value < bound
    if op == "<=":
        return value <= bound
    return value >= bound


def stated_bound(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome | None:
    """A bound stated with a comparison ("over 50 percent", "fewer than 10") must hold
    for a plausible reading's fact."""
    if not binding.readings:
        return None
    op = binding.comparison
    if op is None:
        return None
    checked: list[str] = []
    for reading in binding.readings:
        value = ctx.index.numeric_value(reading.subject, reading.attribute)
        if value is None:
            continue
        if any(_holds(value, op, v) for v in quantity.values):
            return PASSED
        checked.append(f"{ctx.index.names.named(reading.subject, reading.attribute)} = {value}")
    if not checked:
        return None
    if not binding.clear:
        return PASSED
    return finding_on(
        quantity,
        _K.VALUE_MISMATCH,
        f"{quantity.text!r} is stated as a bound ({op}) that {checked[0]} does not meet",
        binding.readings[0],
    )


def plausible_reading(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome | None:
    """A number passes when a plausible reading (a subject of its sentence, the
    attribute its cue names) vouches for it, as written or rounded to the precision
    shown: lenient about the subject within the sentence."""
    for reading in binding.readings:
        if any_fits(quantity, ctx.index.pair_readings(reading.subject, reading.attribute)):
            return PASSED
    return None


def named_subject(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome | None:
    """A number stated for a named subject without an attribute word is that subject's:
    when none of its facts of the number's kind and unit vouches, no other subject's
    fact does either (``ungrounded_number``; one such fact is a clear reading, judged
    by the next rules); another row's value is that row's (:func:`another_rows`); when
    every fact it may speak of is silent, it speaks of a silence (``silent_spoken``)."""
    if not binding.governed or binding.clear or not binding.readings:
        return None
    subjects = sorted({r.subject for r in binding.readings})
    swapped = another_rows(quantity, binding, ctx) or silent_rows(quantity, binding, ctx)
    if swapped is not None:
        return swapped
    return finding_on(
        quantity,
        _K.UNGROUNDED_NUMBER,
        f"{quantity.text!r} is stated for {', '.join(subjects)}, and none of "
        f"{'its' if len(subjects) == 1 else 'their'} facts vouches for it",
        binding.readings[0],
    )


def unknown_subject(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome | None:
    """A number stated for a subject no fact is about ("In Munich it is 21.4 °C" with
    only Berlin's facts) is ``ungrounded_number``: another subject's equal value never
    vouches for it."""
    del ctx  # the binding says it all
    if not binding.unknown:
        return None
    return finding_on(
        quantity,
        _K.UNGROUNDED_NUMBER,
        f"{quantity.text!r} is stated for a subject no fact is about",
    )


def guessed_attribute(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome | None:
    """An attribute only guessed (no cue, no unit) is never enough for a mismatch: some
    grounded fact must vouch for the number."""
    if binding.readings and not binding.clear:
        return membership(quantity, binding, ctx)
    return None


def clear_reading(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome | None:
    """A clear attribute of a named subject decides: the same value in another unit is
    ``unit_mismatch``; another value is ``value_mismatch``; a silent pair stated is
    ``silent_spoken``; a pair no fact holds is ``ungrounded_number``."""
    if not binding.readings:
        return None
    best = binding.readings[0]
    index = ctx.index
    pair = [r for r in index.pair_readings(best.subject, best.attribute) if r.kind is quantity.kind]
    if pair:
        return _against_pair(quantity, binding, pair, index)
    silence = index.silent_pairs.get((best.subject, best.attribute))
    if silence is not None:
        return finding_on(
            quantity,
            _K.SILENT_SPOKEN,
            f"{quantity.text!r} states {index.names.named(best.subject, best.attribute)}, "
            "which is silent "
            f"({silence.silent_reason or 'no value'})",
            best,
        )
    return _other_readings(quantity, binding, index)


def _against_pair(
    quantity: Quantity, binding: Binding, pair: list[Reading], index: FactIndex
) -> Finding:
    said = quantity.text
    best = binding.readings[0]
    names = index.names
    read_as = names.named(best.subject, best.attribute)
    same_value = [r for r in pair if quantity_matches(quantity, r)]
    if same_value:
        return finding_on(
            quantity,
            _K.UNIT_MISMATCH,
            f"{said!r} is in another unit than {describe(same_value[0], names)}",
            best,
        )
    unit = quantity.unit
    turned = [r for r in pair if unit is not None and convertible(unit, r.unit)]
    if turned:
        value = converted(turned[0], unit) if unit is not None else turned[0].value
        return finding_on(
            quantity,
            _K.VALUE_MISMATCH,
            f"{said!r} read as {read_as} does not match "
            f"{describe(turned[0], names)}, which is {value:.3g} {unit}",
            best,
        )
    if not any(units_compatible(quantity.unit, r.unit) for r in pair):
        return finding_on(
            quantity,
            _K.UNGROUNDED_NUMBER,
            f"{said!r} is in another unit than {describe(pair[0], names)}: "
            "a conversion no fact states",
            best,
        )
    best, pair = _plain(quantity, binding, index, pair)
    read_as = names.named(best.subject, best.attribute)
    weighed = [
        names.named(r.subject, r.attribute)
        for r in binding.readings[:4]
        if r is not best and index.pair_readings(r.subject, r.attribute)
    ][:3]
    return finding_on(
        quantity,
        _K.VALUE_MISMATCH,
        f"{said!r} read as {read_as} does not match "
        + "; ".join(describe(r, names) for r in pair[:3])
        + (f" (also weighed: {', '.join(weighed)})" if weighed else ""),
        best,
        pair[0],
    )


def _plain(
    quantity: Quantity, binding: Binding, index: FactIndex, pair: list[Reading]
) -> tuple[Plausible, list[Reading]]:
    """The reading a wrong value is reported against: the best one, unless no words name
    its attribute and the same subject has the plain attribute the best one qualifies
    ("5.9 °C" for Munich is reported against its temperature, not its
    apparent_temperature); never the reading that comes nearest the value."""
    best = binding.readings[0]
    if binding.cue is not None:
        return best, pair
    for reading in binding.readings[1:]:
        if reading.subject != best.subject or reading.attribute not in best.attribute:
            continue
        plain = [
            r
            for r in index.pair_readings(reading.subject, reading.attribute)
            if r.kind is quantity.kind and units_compatible(quantity.unit, r.unit)
        ]
        if plain:
            return reading, plain
    return best, pair


def _other_readings(quantity: Quantity, binding: Binding, index: FactIndex) -> Finding:
    said = quantity.text
    kind = quantity.kind
    names = index.names
    for reading in binding.readings[1:]:
        pair = [
            r for r in index.pair_readings(reading.subject, reading.attribute) if r.kind is kind
        ]
        if pair:
            return finding_on(
                quantity,
                _K.VALUE_MISMATCH,
                f"{said!r} read as {names.named(reading.subject, reading.attribute)} "
                "does not match " + "; ".join(describe(r, names) for r in pair[:3]),
                reading,
                pair[0],
            )
    best = binding.readings[0]
    others = [r for r in index.attribute_readings(best.attribute) if r.kind is kind]
    hint = next((describe(r, names) for r in others if fits(quantity, r)), None)
    return finding_on(
        quantity,
        _K.UNGROUNDED_NUMBER,
        f"no grounded fact for {names.named(best.subject, best.attribute)}"
        + (f"; {said!r} is {hint}" if hint else ""),
        best,
    )


def absent_attribute(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome | None:
    """A number whose own phrase names an attribute no fact states ("the UV index is 4",
    "4 fouls" with no foul facts) is ``ungrounded_number``: another attribute's equal
    value never vouches for it."""
    read = binding.attribute
    if read is None or not binding.clear or binding.readings or read in ctx.index.attributes:
        return None
    named = ctx.sentence.text[binding.cue[0] : binding.cue[1]] if binding.cue else read
    return Finding(
        _K.UNGROUNDED_NUMBER,
        quantity.start,
        quantity.end,
        quantity.text,
        f"{quantity.text!r} is stated as the {named}, which no fact states",
        None,
        read,
    )


def attribute_only(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome | None:
    """A clear attribute with no subject to read it for: some subject's fact of that
    attribute must vouch (strict about the attribute); when the text names no subject at
    all, a value no subject has is ``value_mismatch``; a silent attribute stated is
    ``silent_spoken``."""
    read = binding.attribute
    if read is None or not binding.clear:
        return None
    index = ctx.index
    readings_of = [r for r in index.attribute_readings(read) if r.kind is quantity.kind]
    if readings_of and any_fits(quantity, readings_of):
        return PASSED
    if binding.subjectless and any(units_compatible(quantity.unit, r.unit) for r in readings_of):
        return Finding(
            _K.VALUE_MISMATCH,
            quantity.start,
            quantity.end,
            quantity.text,
            f"{quantity.text!r} read as {index.names.of(None, read)} matches no subject's "
            + "; ".join(describe(r, index.names) for r in readings_of[:3]),
            None,
            read,
        )
    silences = index.silent_attributes.get(read)
    if silences and not index.has_grounded(read):
        return Finding(
            _K.SILENT_SPOKEN,
            quantity.start,
            quantity.end,
            quantity.text,
            f"{quantity.text!r} states {index.names.of(None, read)}, which is silent "
            f"({silences[0].silent_reason or 'no value'})",
            silences[0].subject if len(silences) == 1 else None,
            read,
        )
    return None


_RESTATED = re.compile(
    r"\s*(?:\(|,|/|\bor\b|\bi\.e\.)\s*(?:(?:about|around|roughly|approximately|approx\.|"
    r"nearly|almost|some|or|ca\.|~|\u2248)\s*)?\Z",
    re.IGNORECASE,
)


def stated_conversion(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome | None:
    """A number no cue binds that restates the vouched number right before it in another
    unit ("21.4 °C (about 71 °F)", "4.5 m/s, or around 16 km/h") is that fact converted:
    within the precision each side shows it passes, else ``value_mismatch``."""
    del binding  # read from the number before it
    unit = quantity.unit
    before = ctx.passed[-1] if ctx.passed else None
    wrong = ctx.wrong[-1] if ctx.wrong else None
    if wrong is not None and (before is None or before.end <= wrong.start):
        return _wrong_restated(quantity, wrong, ctx)
    if unit is None or before is None or before.unit is None or before.end > quantity.start:
        return None
    if not convertible(unit, before.unit):
        return None
    text = ctx.sentence.text
    if _RESTATED.match(text[before.end : quantity.start]) is None:
        return None
    facts = [r for r in ctx.index.candidates(before) if fits(before, r)]
    if not facts:
        return None
    if any(converts(quantity, r) for r in facts) or _restates(quantity, before, unit):
        return PASSED
    return finding_on(
        quantity,
        _K.VALUE_MISMATCH,
        f"{quantity.text!r} restates {before.text!r} ({describe(facts[0], ctx.index.names)}), "
        "which is "
        f"{converted(facts[0], unit):.3g} {unit}",
        facts[0].fact,
    )


def _wrong_restated(quantity: Quantity, wrong: Quantity, ctx: SentenceContext) -> Outcome | None:
    """A wrong number restated in another unit right after it ("12 °C (53.6 °F)" where
    the day's high is 1.4 °C) is one claim, which its first statement's finding marks:
    a reader marks the value once, so the restatement passes when it converts the wrong
    number within both precisions."""
    unit = quantity.unit
    if unit is None or wrong.unit is None or wrong.end > quantity.start:
        return None
    if not convertible(unit, wrong.unit):
        return None
    if _RESTATED.match(ctx.sentence.text[wrong.end : quantity.start]) is None:
        return None
    return PASSED if _restates(quantity, wrong, unit) else None


def _restates(quantity: Quantity, before: Quantity, unit: str) -> bool:
    """Does ``quantity`` state the number before it converted, within both precisions
    ("21.4 °C (70.5 °F)": the rounded value converted)?"""
    assert before.unit is not None  # noqa: S101 - the caller checked convertible()
    half = before.quantum / 2
    ends = [in_base_unit(before.value + d, before.unit)[0] for d in (-half, half)]
    low, high = sorted(from_base_unit(v, unit) for v in ends)
    margin = quantity.quantum / 2
    return any(low <= v + margin and v - margin <= high for v in quantity.values)


def membership(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome:
    """A number no subject governs needs some grounded fact of a fitting kind and unit
    to vouch for it (a number with a unit, a fact whose unit measures the same thing);
    the right value in another unit of the same dimension is ``unit_mismatch``."""
    cue = binding.cue  # the last resort: of its binding, only the span of its cue
    matching: list[Reading] = []
    for reading in ctx.index.candidates(quantity):
        if quantity_matches(quantity, reading):
            if _unit_vouches(quantity, reading, cue):
                return PASSED
            if same_dimension(quantity.unit, reading.unit):
                matching.append(reading)
    if any(True for _ in ctx.index.converted_candidates(quantity)):
        return PASSED  # the value of a fact in another unit, converted ("(about 37 °F)")
    if matching:
        own_row = row_of_unit(quantity, matching[0], ctx)
        if own_row is not None:
            return own_row
        fact = matching[0].fact
        return Finding(
            _K.UNIT_MISMATCH,
            quantity.start,
            quantity.end,
            quantity.text,
            f"{quantity.text!r} has the value of {describe(matching[0], ctx.index.names)} "
            "but another unit",
            fact.subject,
            fact.attribute,
        )
    return finding_on(
        quantity, _K.UNGROUNDED_NUMBER, f"no grounded fact vouches for {quantity.text!r}"
    )


def _unit_vouches(quantity: Quantity, reading: Reading, cue: tuple[int, int] | None) -> bool:
    """A fact vouches for a number with a unit only when its unit measures the same thing
    ("3 °F" is no unitless UV index of 3), unless the unit is the phrase that names a
    unitless attribute ("12 minutes" for minutes played): then the number is as bare."""
    if vouches_in_unit(quantity.unit, reading.unit):
        return True
    return reading.unit is None and cue is not None and cue[0] < quantity.end


QUANTITY_RULES: tuple[QuantityRule, ...] = (
    Rule("derived_value", derived_value, (_K.VALUE_MISMATCH,)),
    Rule("stated_bound", stated_bound, (_K.VALUE_MISMATCH,)),
    Rule("plausible_reading", plausible_reading, ()),
    Rule("stated_conversion", stated_conversion, (_K.VALUE_MISMATCH,)),
    Rule(
        "named_subject",
        named_subject,
        (_K.UNGROUNDED_NUMBER, _K.VALUE_MISMATCH, _K.SILENT_SPOKEN),
    ),
    Rule("unknown_subject", unknown_subject, (_K.UNGROUNDED_NUMBER,)),
    Rule("guessed_attribute", guessed_attribute, (_K.UNGROUNDED_NUMBER, _K.UNIT_MISMATCH)),
    Rule(
        "clear_reading",
        clear_reading,
        (_K.VALUE_MISMATCH, _K.UNIT_MISMATCH, _K.SILENT_SPOKEN, _K.UNGROUNDED_NUMBER),
    ),
    Rule("absent_attribute", absent_attribute, (_K.UNGROUNDED_NUMBER,)),
    Rule("attribute_only", attribute_only, (_K.VALUE_MISMATCH, _K.SILENT_SPOKEN)),
    Rule(
        "membership",
        membership,
        (_K.UNGROUNDED_NUMBER, _K.UNIT_MISMATCH, _K.VALUE_MISMATCH),
    ),
)
"""Per stated quantity, in priority order: the first rule with an opinion decides."""


def duration_in_another_unit(
    quantity: Quantity, binding: Binding, ctx: SentenceContext
) -> Outcome | None:
    """A duration no cue binds ("may be delayed by 15 minutes") is no claim, unless it
    is a fact's value in another unit of time ("182 s" for 182 ms): ``unit_mismatch``."""
    outcome = membership(quantity, binding, ctx)
    if isinstance(outcome, Finding) and outcome.kind is _K.UNIT_MISMATCH:
        return outcome
    return None


DURATION_RULES: tuple[QuantityRule, ...] = (
    Rule("duration_in_another_unit", duration_in_another_unit, (_K.UNIT_MISMATCH,)),
)
"""For a duration no cue binds, in place of :data:`QUANTITY_RULES`."""


def run_durations(evidence: Evidence, so_far: Judged) -> list[Finding]:
    """The duration family: each duration no cue binds, the first rule's finding."""
    found: list[Finding] = []
    for quantity, binding in evidence.durations:
        for rule in DURATION_RULES:
            outcome = rule.check(quantity, binding, so_far.ctx)
            if isinstance(outcome, Finding):
                decided(rule, outcome)
                found.append(outcome)
                break
    return found


def first_opinion(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome:
    """The outcome of the first quantity rule with an opinion (``PASSED`` if none)."""
    for rule in QUANTITY_RULES:
        found = rule.check(quantity, binding, ctx)
        if found is not None:
            if isinstance(found, Finding):
                decided(rule, found)
            return found
    return PASSED


def run(evidence: Evidence, so_far: Judged) -> list[Finding]:
    """The quantity family, item by item: each claim's evidence (over the claims vouched
    for before it), the first quantity rule with an opinion, then the revision family
    (:func:`~vouched._scan._rules._revision.revise`). The outcomes go to
    ``so_far.stated`` (a later family may sharpen them), so no finding is returned."""
    ctx = so_far.ctx
    for quantity, bound in evidence.claims:
        binding = evidence.weigh(quantity, bound, ctx.passed)
        outcome = revise(Stated(quantity, binding, first_opinion(quantity, binding, ctx)), ctx)
        if outcome is PASSED:
            ctx.passed.append(quantity)
        elif isinstance(outcome, Finding):
            ctx.wrong.append(quantity)
        so_far.stated.append(Stated(quantity, binding, outcome))
    so_far.checked += len(evidence.claims)
    return []
