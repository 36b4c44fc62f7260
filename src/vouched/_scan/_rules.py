"""The scanner's rules: one named function each, in one ordered table.

A stated quantity goes down :data:`QUANTITY_RULES` in order; the first rule
with an opinion decides it: :data:`PASSED` (a plausible reading vouches for
it) or a :class:`Finding`. ``None`` means "not mine", and the next rule reads
it. After the quantity rules, :data:`REVISIONS` may turn one quantity's
outcome into a sharper one (a pair read jointly, a restatement), and the
:data:`CLAUSE_RULES` look at a clause's quantities together: when every
number of a clause fits another subject, or another attribute of the same
subject, the finding moves onto the words that are wrong.

The order is the priority; each rule's docstring is the rule a careful reader
would state. Everything here is pure: a rule reads the sentence's binder, the
fact index and the quantity, and returns a value.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple

from vouched._scan._binding import Binder, Binding, Derived
from vouched._scan._factindex import FactIndex, Reading, describe, quantity_matches, rounds_to
from vouched._scan._findings import Finding, FindingKind
from vouched._scan._reader._numbers import Quantity, QuantityKind
from vouched._scan._reader._units import same_dimension, units_compatible

__all__ = [
    "CLAUSE_RULES",
    "PASSED",
    "QUANTITY_RULES",
    "REVISIONS",
    "Carry",
    "Outcome",
    "Passed",
    "Rule",
    "SentenceContext",
    "Stated",
    "judge",
]

_K = FindingKind
_NUMBER = QuantityKind.NUMBER


class Passed(enum.Enum):
    """A rule's word that a reading vouches for the quantity."""

    PASSED = "passed"


PASSED = Passed.PASSED
Outcome = Finding | Passed


@dataclass(slots=True)
class Carry:
    """What one sentence leaves to the next: the first unvouched statement of each
    (subject, attribute), for restatements (compared with the first only: linear)."""

    firm: dict[tuple[str | None, str], Quantity] = field(default_factory=dict)


@dataclass(slots=True)
class SentenceContext:
    """What the rules of one sentence read: its binder, the facts, the carry."""

    binder: Binder
    index: FactIndex
    carry: Carry
    fitted: dict[int, set[str]] = field(default_factory=dict)  # pair halves' vouching subjects
    passed: list[Quantity] = field(default_factory=list)  # quantities vouched for so far
    occasions: str = "flag"  # Policy.other_occasions


class Stated(NamedTuple):
    """One checked quantity of a sentence, its binding and its outcome."""

    quantity: Quantity
    binding: Binding
    outcome: Outcome


class Rule(NamedTuple):
    """A named rule and the finding kinds it owns."""

    name: str
    check: Callable[..., Any]
    kinds: tuple[FindingKind, ...]


def _finding(quantity: Quantity, kind: FindingKind, detail: str, reading: object = None) -> Finding:
    subject = getattr(reading, "subject", None)
    attribute = getattr(reading, "attribute", None)
    return Finding(kind, quantity.start, quantity.end, quantity.text, detail, subject, attribute)


def _any_fits(quantity: Quantity, readings: list[Reading]) -> bool:
    unit = quantity.unit
    for reading in readings:
        if quantity_matches(quantity, reading) and units_compatible(unit, reading.unit):
            return True
    return False


def _fits(quantity: Quantity, reading: Reading) -> bool:
    return quantity_matches(quantity, reading) and units_compatible(quantity.unit, reading.unit)


# -- quantity rules, in order ---------------------------------------------------


def derived_value(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome | None:
    """A number the text says it computes ("a 12-point win", "3 degrees warmer than
    Munich", "together 30") holds when the facts compute to it."""
    derived = ctx.binder.derived(quantity, ctx.passed)
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
    op = ctx.binder.comparison(quantity)
    if op is None:
        return None
    checked: list[str] = []
    for reading in binding.readings:
        value = ctx.index.numeric_value(reading.subject, reading.attribute)
        if value is None:
            continue
        if any(_holds(value, op, v) for v in quantity.values):
            return PASSED
        checked.append(f"{reading.subject} {reading.attribute} = {value}")
    if not checked:
        return None
    if not binding.clear:
        return PASSED
    return _finding(
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
        if _any_fits(quantity, ctx.index.pair_readings(reading.subject, reading.attribute)):
            return PASSED
    return None


def named_subject(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome | None:
    """A number stated for a named subject without an attribute word is that subject's:
    when none of its facts of the number's kind and unit vouches, no other subject's
    fact does either (``ungrounded_number``; one such fact is a clear reading, judged
    by the next rules)."""
    if not binding.governed or binding.clear or not binding.readings:
        return None
    subjects = sorted({r.subject for r in binding.readings})
    return _finding(
        quantity,
        _K.UNGROUNDED_NUMBER,
        f"{quantity.text!r} is stated for {', '.join(subjects)}, and none of "
        f"{'its' if len(subjects) == 1 else 'their'} facts vouches for it",
        binding.readings[0],
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
        return _finding(
            quantity,
            _K.SILENT_SPOKEN,
            f"{quantity.text!r} states {best.subject} {best.attribute}, which is silent "
            f"({silence.silent_reason or 'no value'})",
            best,
        )
    return _other_readings(quantity, binding, index)


def _against_pair(
    quantity: Quantity, binding: Binding, pair: list[Reading], index: FactIndex
) -> Finding:
    said = quantity.text
    best = binding.readings[0]
    same_value = [r for r in pair if quantity_matches(quantity, r)]
    if same_value:
        return _finding(
            quantity,
            _K.UNIT_MISMATCH,
            f"{said!r} is in another unit than {describe(same_value[0])}",
            best,
        )
    if not any(units_compatible(quantity.unit, r.unit) for r in pair):
        return _finding(
            quantity,
            _K.UNGROUNDED_NUMBER,
            f"{said!r} is in another unit than {describe(pair[0])}: a conversion no fact states",
            best,
        )
    weighed = [
        f"{r.subject} {r.attribute}"
        for r in binding.readings[1:4]
        if index.pair_readings(r.subject, r.attribute)
    ]
    return _finding(
        quantity,
        _K.VALUE_MISMATCH,
        f"{said!r} read as {best.subject} {best.attribute} does not match "
        + "; ".join(describe(r) for r in pair[:3])
        + (f" (also weighed: {', '.join(weighed)})" if weighed else ""),
        best,
    )


def _other_readings(quantity: Quantity, binding: Binding, index: FactIndex) -> Finding:
    said = quantity.text
    kind = quantity.kind
    for reading in binding.readings[1:]:
        pair = [
            r for r in index.pair_readings(reading.subject, reading.attribute) if r.kind is kind
        ]
        if pair:
            return _finding(
                quantity,
                _K.VALUE_MISMATCH,
                f"{said!r} read as {reading.subject} {reading.attribute} does not match "
                + "; ".join(describe(r) for r in pair[:3]),
                reading,
            )
    best = binding.readings[0]
    others = [r for r in index.attribute_readings(best.attribute) if r.kind is kind]
    hint = next((describe(r) for r in others if _fits(quantity, r)), None)
    return _finding(
        quantity,
        _K.UNGROUNDED_NUMBER,
        f"no grounded fact for {best.subject} {best.attribute}"
        + (f"; {said!r} is {hint}" if hint else ""),
        best,
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
    if readings_of and _any_fits(quantity, readings_of):
        return PASSED
    if binding.subjectless and any(units_compatible(quantity.unit, r.unit) for r in readings_of):
        return Finding(
            _K.VALUE_MISMATCH,
            quantity.start,
            quantity.end,
            quantity.text,
            f"{quantity.text!r} read as {read} matches no subject's "
            + "; ".join(describe(r) for r in readings_of[:3]),
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
            f"{quantity.text!r} states {read}, which is silent "
            f"({silences[0].silent_reason or 'no value'})",
            silences[0].subject if len(silences) == 1 else None,
            read,
        )
    return None


def membership(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome:
    """A number no subject governs needs some grounded fact of a fitting kind and unit
    to vouch for it; the right value in another unit of the same dimension is
    ``unit_mismatch``."""
    del binding  # membership reads no binding: it is the last resort
    matching: list[Reading] = []
    for reading in ctx.index.candidates(quantity):
        if quantity_matches(quantity, reading):
            if units_compatible(quantity.unit, reading.unit):
                return PASSED
            if same_dimension(quantity.unit, reading.unit):
                matching.append(reading)
    if matching:
        fact = matching[0].fact
        return Finding(
            _K.UNIT_MISMATCH,
            quantity.start,
            quantity.end,
            quantity.text,
            f"{quantity.text!r} has the value of {describe(matching[0])} but another unit",
            fact.subject,
            fact.attribute,
        )
    return _finding(
        quantity, _K.UNGROUNDED_NUMBER, f"no grounded fact vouches for {quantity.text!r}"
    )


QUANTITY_RULES: tuple[Rule, ...] = (
    Rule("derived_value", derived_value, (_K.VALUE_MISMATCH,)),
    Rule("stated_bound", stated_bound, (_K.VALUE_MISMATCH,)),
    Rule("plausible_reading", plausible_reading, ()),
    Rule("named_subject", named_subject, (_K.UNGROUNDED_NUMBER,)),
    Rule("guessed_attribute", guessed_attribute, (_K.UNGROUNDED_NUMBER, _K.UNIT_MISMATCH)),
    Rule(
        "clear_reading",
        clear_reading,
        (_K.VALUE_MISMATCH, _K.UNIT_MISMATCH, _K.SILENT_SPOKEN, _K.UNGROUNDED_NUMBER),
    ),
    Rule("attribute_only", attribute_only, (_K.VALUE_MISMATCH, _K.SILENT_SPOKEN)),
    Rule("membership", membership, (_K.UNGROUNDED_NUMBER, _K.UNIT_MISMATCH)),
)
"""Per stated quantity, in priority order: the first rule with an opinion decides."""


# -- revisions of one quantity's outcome --------------------------------------------


def pair_jointly(stated: Stated, ctx: SentenceContext) -> Outcome:
    """Two subjects' values written as one pair ("110-110") must fit them jointly: the
    second may not be vouched for only by the subject that vouched for the first."""
    quantity, binding, outcome = stated
    if outcome is not PASSED or not ctx.binder.partners or not binding.readings:
        return outcome
    index = ctx.index
    subjects = {
        r.subject
        for r in binding.readings
        if _any_fits(quantity, index.pair_readings(r.subject, r.attribute))
    }
    ctx.fitted[quantity.start] = subjects
    partner = ctx.binder.partners.get(quantity.start)
    if partner is None:
        return outcome
    first = ctx.fitted.get(partner, set())
    if len(first) != 1 or subjects != first:
        return outcome
    other = next((r for r in binding.readings if r.subject not in first), None)
    if other is None:
        return outcome
    facts = index.pair_readings(other.subject, other.attribute)
    return _finding(
        quantity,
        _K.VALUE_MISMATCH,
        f"{quantity.text!r} is the second value of a pair whose first is already "
        f"{next(iter(first))}'s; it does not match " + "; ".join(describe(r) for r in facts[:1]),
        other,
    )


def restated(stated: Stated, ctx: SentenceContext) -> Outcome:
    """A value no fact vouches for that contradicts the first statement of the same
    subject and attribute is an ``inconsistency`` (compared with the first only)."""
    quantity, binding, outcome = stated
    if (
        not isinstance(outcome, Finding)
        or outcome.kind is not _K.UNGROUNDED_NUMBER
        or not binding.clear
        or binding.attribute is None
    ):
        return outcome
    key = (binding.readings[0].subject if binding.readings else None, binding.attribute)
    earlier = ctx.carry.firm.setdefault(key, quantity)
    if earlier is quantity or _consistent(quantity, earlier):
        return outcome
    return Finding(
        _K.INCONSISTENCY,
        quantity.start,
        quantity.end,
        quantity.text,
        f"{quantity.text!r} contradicts {earlier.text!r} stated earlier for "
        f"{binding.attribute}, and no fact vouches for either",
        outcome.subject,
        binding.attribute,
    )


def _consistent(a: Quantity, b: Quantity) -> bool:
    if a.kind is not b.kind:
        return True
    if a.kind is _NUMBER:
        if not units_compatible(a.unit, b.unit) or (a.unit and b.unit and a.unit != b.unit):
            return True  # a conversion, judged on its own
        return any(
            rounds_to(x, y, b.quantum) or rounds_to(y, x, a.quantum)
            for x in a.values
            for y in b.values
        )
    return bool(set(a.values) & set(b.values))


REVISIONS: tuple[Rule, ...] = (
    Rule("pair_jointly", pair_jointly, (_K.VALUE_MISMATCH,)),
    Rule("restated", restated, (_K.INCONSISTENCY,)),
)
"""Applied in order to each quantity's outcome."""


# -- clause rules -----------------------------------------------------------------


def _fractional(quantity: Quantity) -> bool:
    return quantity.kind is _NUMBER and quantity.value != quantity.value.to_integral_value()


def _replace(stated: list[Stated], replaced: dict[int, Finding | None]) -> list[Stated]:
    if not replaced:
        return stated
    out: list[Stated] = []
    for item in stated:
        if id(item) not in replaced:
            out.append(item)
            continue
        swap = replaced[id(item)]
        out.append(item._replace(outcome=swap if swap is not None else PASSED))
    return out


def named_column(stated: list[Stated], ctx: SentenceContext) -> list[Stated]:
    """When the two numbers of a pair phrase ("6-for-9 from three-point range") do not
    both hold for the columns the phrase names, but both hold exactly for another pair of
    columns of the same subject (its free throws), the numbers are right and the words
    naming the columns are wrong: one ``attribute_mismatch`` on the phrase. Small counts
    ("1-3", "4-of-4") fit some other column by coincidence too often: the pair must hold
    a value of at least :data:`DISTINCT_COUNT` (or a fraction)."""
    binder = ctx.binder
    halves: dict[tuple[int, int], list[Stated]] = {}
    for item in stated:
        forced = binder.forced.get(item.quantity.start)
        if forced is not None and forced.phrase is not None and item.binding.readings:
            halves.setdefault(forced.phrase, []).append(item)
    replaced: dict[int, Finding | None] = {}
    for phrase, pair in halves.items():
        if (
            len(pair) != 2
            or all(item.outcome is PASSED for item in pair)
            or not any(_distinct(item.quantity) for item in pair)
        ):
            continue
        found = _other_columns(pair, ctx)
        if found is None:
            continue
        subject, named, other = found
        start, end = phrase
        finding = Finding(
            _K.ATTRIBUTE_MISMATCH,
            start,
            end,
            binder.text[start:end],
            f"the numbers are {subject}'s {other[0]}-{other[1]}, not {named[0]}-{named[1]}",
            subject,
            named[0],
        )
        replaced[id(pair[0])] = finding
        replaced[id(pair[1])] = None
    return _replace(stated, replaced)


def stated_column(stated: list[Stated], ctx: SentenceContext) -> list[Stated]:
    """A number its cue names as one attribute of its subject that is exactly the value of
    one other attribute of that subject ("Acme closed at $190.05", its day's high; "ICE
    1537 arrives at 14:05", its departure): the number is right, the attribute words are
    wrong, ``attribute_mismatch`` on them. Alone, a number is enough only where a
    coincidence is unlikely: a time, a date, or a fraction with three significant digits."""
    binder = ctx.binder
    replaced: dict[int, Finding | None] = {}
    for item in stated:
        outcome, quantity = item.outcome, item.quantity
        span = binder.cue_spans.get(quantity.start)
        if (
            span is None
            or not isinstance(outcome, Finding)
            or outcome.kind is not _K.VALUE_MISMATCH
            or binder.in_pair(quantity)
            or not _unlikely_coincidence(quantity)
        ):
            continue
        best = item.binding.readings[0] if item.binding.readings else None
        if best is None:
            continue
        others = [
            a
            for a in ctx.index.fitting_attributes(best.subject, quantity.kind, quantity.unit)
            if a != best.attribute and _exactly(quantity, ctx.index.pair_readings(best.subject, a))
        ]
        if len(others) != 1:
            continue
        start, end = span
        replaced[id(item)] = Finding(
            _K.ATTRIBUTE_MISMATCH,
            start,
            end,
            binder.text[start:end],
            f"{quantity.text!r} is {best.subject}'s {others[0]}, not its {best.attribute}",
            best.subject,
            best.attribute,
        )
    return _replace(stated, replaced)


def _exactly(quantity: Quantity, readings: list[Reading]) -> bool:
    return any(
        r.kind is quantity.kind
        and r.value == quantity.value
        and units_compatible(quantity.unit, r.unit)
        for r in readings
    )


def _unlikely_coincidence(quantity: Quantity) -> bool:
    if quantity.kind is not _NUMBER:
        return True  # a time or a date
    digits = quantity.value.normalize().as_tuple().digits
    return _fractional(quantity) and len(digits) >= 3


DISTINCT_COUNT = 5
"""The smallest whole number that makes a pair of counts unlikely to fit another column
by chance."""


def _distinct(quantity: Quantity) -> bool:
    return _fractional(quantity) or abs(quantity.value) >= DISTINCT_COUNT


def _other_columns(
    pair: list[Stated], ctx: SentenceContext
) -> tuple[str, tuple[str, str], tuple[str, str]] | None:
    """(subject, the columns named, the other columns both numbers fit), if exactly one."""
    first, second = pair
    subject = first.binding.readings[0].subject
    if second.binding.readings[0].subject != subject:
        return None
    named = (first.binding.readings[0].attribute, second.binding.readings[0].attribute)
    index = ctx.index
    fits = [
        (p.first, p.second)
        for p in ctx.binder.pairs
        if not p.two_subjects
        and (p.first, p.second) != named
        and _any_fits(first.quantity, index.pair_readings(subject, p.first))
        and _any_fits(second.quantity, index.pair_readings(subject, p.second))
    ]
    if len(set(fits)) != 1:
        return None
    return subject, named, fits[0]


CLAUSE_RULES: tuple[Rule, ...] = (
    Rule("named_column", named_column, (_K.ATTRIBUTE_MISMATCH,)),
    Rule("stated_column", stated_column, (_K.ATTRIBUTE_MISMATCH,)),
)
"""Applied in order to a sentence's checked quantities, after their own rules; the
explanation family (:data:`vouched._scan._explain.EXPLANATION_RULES`) follows them."""


def judge(quantity: Quantity, binding: Binding, ctx: SentenceContext) -> Outcome:
    """The first quantity rule with an opinion decides; the revisions follow."""
    outcome: Outcome = PASSED
    for rule in QUANTITY_RULES:
        decided = rule.check(quantity, binding, ctx)
        if decided is not None:
            outcome = decided
            break
    stated = Stated(quantity, binding, outcome)
    for revision in REVISIONS:
        stated = stated._replace(outcome=revision.check(stated, ctx))
    return stated.outcome
