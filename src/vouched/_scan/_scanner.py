"""The output scanner: find every value the model added, with character spans.

``scan(text, facts, ...)`` is pure (no clock, no I/O) and never raises on any
text. How it works:

1. The number reader (:mod:`vouched._scan._reader._numbers`) finds every quantity; the
   lexicon finds attribute phrases and subject mentions. Subject names, string
   values with digits ("Python 3 for Beginners"), placeholders and long quotes
   are masked: numbers inside them are not claims.
2. Each quantity is bound to the attribute phrase that governs it in its
   clause (or, failing that, the one attribute of its subject stated in its
   unit, or the last attribute phrase of its sentence) and to its subject (a
   mention right after it with "in/at/for", else the last one named in its
   sentence, else one later in its clause, else the one carried over from an
   earlier sentence); see :mod:`vouched._scan._binding`. A value matches its fact
   as written or rounded to the precision it shows; attributes in
   ``policy.exact`` must match as written.
3. A bound quantity is compared with that subject's fact: wrong value ->
   ``value_mismatch``; same value, other unit -> ``unit_mismatch``; a silent
   attribute -> ``silent_spoken``; two different values for one pair ->
   ``inconsistency``. Unbound quantities fall back to membership: some
   grounded fact must vouch for them (``ungrounded_number`` otherwise).
4. Numbers that occur in the question may be repeated. Small number words
   and digit ordinals ("two trains", "the 3rd") count only when bound to an
   attribute or carrying a unit.
5. Text checks: placeholders, internal vocabulary, canned fallbacks and
   unsupported quotes (:mod:`vouched._scan._textchecks`, :mod:`vouched._scan._quotes`).
"""

from __future__ import annotations

import enum
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from vouched._fact import Fact
from vouched._gate import GateResult
from vouched._policy import DEFAULT_POLICY, Policy
from vouched._scan._binding import Binder, Binding, Derived
from vouched._scan._factindex import FactIndex, Reading, describe, quantity_matches, rounds_to
from vouched._scan._lexicon import Lexicon
from vouched._scan._quotes import QuoteSpan, find_quotes, unsupported_in
from vouched._scan._reader._numbers import Quantity, QuantityKind, read_numbers
from vouched._scan._reader._units import CURRENCY_UNITS, same_dimension, units_compatible
from vouched._scan._reader._words import word_tokens
from vouched._scan._textchecks import (
    find_fallbacks,
    find_internal,
    find_placeholders,
    internal_terms,
)

__all__ = ["Finding", "FindingKind", "ScanReport", "scan"]


class FindingKind(enum.StrEnum):
    """Stable codes for what the scanner found."""

    UNGROUNDED_NUMBER = "ungrounded_number"
    VALUE_MISMATCH = "value_mismatch"
    UNIT_MISMATCH = "unit_mismatch"
    SILENT_SPOKEN = "silent_spoken"
    INCONSISTENCY = "inconsistency"
    PLACEHOLDER = "placeholder"
    INTERNAL_VOCABULARY = "internal_vocabulary"
    TEMPLATE_FALLBACK = "template_fallback"
    UNSUPPORTED_QUOTE = "unsupported_quote"
    SUBJECT_MISMATCH = "subject_mismatch"


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in the text: ``text == scanned[start:end]``."""

    kind: FindingKind
    start: int
    end: int
    text: str
    detail: str
    subject: str | None = None
    attribute: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": str(self.kind),
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "detail": self.detail,
            "subject": self.subject,
            "attribute": self.attribute,
        }


@dataclass(frozen=True, slots=True)
class ScanReport:
    """The scanner's verdict on one text.

    ``passed`` is True when there are no findings. ``score`` in [0, 1] is the
    share of checked claims (quantities checked, plus one per text finding)
    without a finding: 1.0 for a clean text.
    """

    passed: bool
    score: float
    findings: tuple[Finding, ...]

    @property
    def kinds(self) -> dict[str, int]:
        """Findings counted by kind."""
        counts: dict[str, int] = {}
        for finding in self.findings:
            counts[str(finding.kind)] = counts.get(str(finding.kind), 0) + 1
        return counts

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "score": self.score,
            "findings": [finding.to_json() for finding in self.findings],
        }


_K = FindingKind
_EMPTY = Lexicon()
_CURRENCIES = CURRENCY_UNITS
_NUMBER = QuantityKind.NUMBER
_DURATIONS = frozenset({"h", "min", "s", "ms", "d"})


def _split_facts(
    facts: GateResult | Iterable[Fact],
) -> tuple[list[Fact], list[Fact], list[Fact]]:
    if isinstance(facts, GateResult):
        rejected = [v.fact for v in facts.violations]
        return list(facts.grounded), list(facts.silent), rejected
    grounded: list[Fact] = []
    silent: list[Fact] = []
    for fact in facts:
        (silent if fact.is_silent else grounded).append(fact)
    return grounded, silent, []


class _Masks:
    """Sorted, merged spans inside which quantities are not claims."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for start, end in sorted(spans):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self.starts = [s for s, _ in merged]
        self.ends = [e for _, e in merged]

    def covers(self, start: int, end: int) -> bool:
        i = bisect_right(self.starts, start) - 1
        if i >= 0 and self.ends[i] > start:
            return True
        j = bisect_left(self.starts, start)
        return j < len(self.starts) and self.starts[j] < end


def _capital_names(index: FactIndex, lexicon: Lexicon) -> frozenset[str]:
    """Subject names and aliases that are one all-capital word ("ACME"), for the reader."""
    names = set(index.subjects)
    for aliases in lexicon.subjects.values():
        names.update(aliases)
    return frozenset(name for name in names if name.isupper() and name.isalpha())


def _question_values(question: str | None) -> set[tuple[QuantityKind, Any]]:
    if not question:
        return set()
    values: set[tuple[QuantityKind, Any]] = set()
    for quantity in read_numbers(question):
        for value in quantity.values:
            values.add((quantity.kind, value))
            values.add((quantity.kind, abs(value)))
    return values


def scan(  # noqa: PLR0917 - positional order is the documented public contract
    text: str,
    facts: GateResult | Iterable[Fact],
    lexicon: Lexicon | None = None,
    sources: Iterable[str] = (),
    question: str | None = None,
    policy: Policy = DEFAULT_POLICY,
) -> ScanReport:
    """Scan a model's ``text`` against the facts that may vouch for it.

    ``facts``: a :class:`GateResult` (its grounded facts vouch, its silences
    mark pairs that must not be stated, its violations vouch for nothing) or
    facts already gated by the caller (facts with a value vouch; silence facts
    mark pairs). ``sources``: texts quotes may come from. ``question``: its
    numbers may be repeated. ``policy.exact``: attributes that must match as
    written (no rounding).
    """
    text = str(text)
    grounded, silent, rejected = _split_facts(facts)
    index = FactIndex.build(grounded, silent, policy.exact, rejected)
    lexicon = lexicon or _EMPTY
    lowered = text.lower()
    tokens = word_tokens(lowered)
    quotes = find_quotes(text)
    findings, holes = _text_findings(
        text, lowered, tokens, index=index, lexicon=lexicon, quotes=quotes, sources=sources
    )
    quantities = read_numbers(text, _capital_names(index, lexicon), tokens)
    binder = Binder(text, index, lexicon, lowered, tokens, quantities)
    masks = _Masks([*binder.masked_spans(), *holes, *((q.start, q.end) for q in quotes)])
    extra = binder.extra_quantities()
    if extra:
        quantities = sorted([*quantities, *extra], key=lambda q: (q.start, q.end))
    binder.prepare(quantities)
    number_findings, checked = _number_findings(quantities, binder, masks, index, question, text)
    claims = checked + len(findings)
    findings.extend(number_findings)
    findings.sort(key=lambda f: (f.start, f.end, str(f.kind)))
    bad = len({(f.start, f.end) for f in findings})
    score = 1.0 if not findings else max(0.0, (claims - bad) / claims) if claims else 0.0
    return ScanReport(passed=not findings, score=score, findings=tuple(findings))


def _text_findings(
    text: str,
    lowered: str,
    tokens: set[str],
    *,
    index: FactIndex,
    lexicon: Lexicon,
    quotes: list[QuoteSpan],
    sources: Iterable[str],
) -> tuple[list[Finding], list[tuple[int, int]]]:
    """Placeholders, internal words, canned fallbacks and unsupported quotes;
    also the placeholder spans (numbers inside them are not claims)."""
    findings: list[Finding] = []
    placeholders = find_placeholders(text, tokens)
    findings.extend(
        Finding(_K.PLACEHOLDER, s.start, s.end, text[s.start : s.end], s.detail)
        for s in placeholders
    )
    holes = [(s.start, s.end) for s in placeholders]
    hole_masks = _Masks(holes)
    terms = internal_terms(lexicon.internal, index.identifiers)
    findings.extend(
        Finding(_K.INTERNAL_VOCABULARY, s.start, s.end, text[s.start : s.end], s.detail)
        for s in find_internal(text, terms, lowered)
        if not hole_masks.covers(s.start, s.end)
    )
    findings.extend(
        Finding(_K.TEMPLATE_FALLBACK, s.start, s.end, text[s.start : s.end], s.detail)
        for s in find_fallbacks(text, tokens)
    )
    if quotes:
        corpus = [*sources, *index.string_values, *index.subjects]
        findings.extend(
            Finding(_K.UNSUPPORTED_QUOTE, q.start, q.end, q.text, "quoted text found in no source")
            for q in unsupported_in(quotes, corpus)
        )
    return findings, holes


def _number_findings(  # noqa: PLR0917 - private; the scanner's pieces, in flow order
    quantities: list[Quantity],
    binder: Binder,
    masks: _Masks,
    index: FactIndex,
    question: str | None,
    text: str,
) -> tuple[list[Finding], int]:
    """Check every quantity that is a claim; returns the findings and how many
    quantities were checked. Numbers inside names, placeholders and long quotes
    (a supported quote's numbers are its source's; an unsupported one is already
    a finding) are not claims. One finding per span."""
    findings: list[Finding] = []
    asked = _question_values(question)
    firm: dict[tuple[str | None, str], Quantity] = {}  # the first unvouched statement of a pair
    passed: list[Quantity] = []
    fitted: dict[int, set[str]] = {}  # start -> the subjects whose fact vouched for it
    by_mention: dict[int, list[tuple[Quantity, Binding, Finding | None]]] = {}
    checked = 0
    covers = masks.covers
    for read in quantities:
        if covers(read.start, read.end):
            continue
        if asked and any((read.kind, v) in asked for v in read.values):
            continue
        if read.unit in _CURRENCIES and read.value == 1 and not read.alternatives:
            continue  # "1 EUR = 1.0842 USD": the base of a rate, not a claim
        quantity = binder.signed(read)
        binding = binder.bind(quantity)
        if quantity.soft and not binding.clear and quantity.unit is None:
            continue
        if quantity.unit in _DURATIONS and not binding.clear:
            # "may be delayed by 15 minutes": a duration no cue binds is no claim, unless
            # it is a fact's value in another unit of time ("182 s" for 182 ms)
            membership = _membership(quantity, index)
            if membership is not None and membership.kind is _K.UNIT_MISMATCH:
                findings.append(membership)
            continue
        checked += 1
        derived = binder.derived(quantity, passed)
        if derived is not None:
            if derived.matches:
                passed.append(quantity)
            else:
                findings.append(_derived_finding(quantity, binding, derived))
            continue
        finding = _judge(quantity, binding, binder, index)
        if finding is None and binder.partners:
            finding = _pair_check(quantity, binding, binder, index, fitted)
        if finding is None:
            passed.append(quantity)
        elif finding.kind is _K.UNGROUNDED_NUMBER and binding.clear and binding.attribute:
            finding = _restated(quantity, binding, finding, firm)
        if binding.mention >= 0 and binding.readings:
            by_mention.setdefault(binding.mention, []).append((quantity, binding, finding))
        if finding is not None:
            findings.append(finding)
    swaps = _subject_mismatches(by_mention, index, text, binder)
    if swaps:
        replaced = {id(f) for swap, group in swaps for f in group}
        findings = [f for f in findings if id(f) not in replaced]
        findings.extend(swap for swap, _ in swaps)
    return findings, checked


def _judge(
    quantity: Quantity, binding: Binding, binder: Binder, index: FactIndex
) -> Finding | None:
    comparison = binder.comparison(quantity) if binding.readings else None
    if comparison is not None:
        return _compare_bound(quantity, binding, comparison, index)
    return _check(quantity, binding, index)


def _pair_check(
    quantity: Quantity,
    binding: Binding,
    binder: Binder,
    index: FactIndex,
    fitted: dict[int, set[str]],
) -> Finding | None:
    """Two subjects' values written as one pair ("110-110") must fit them jointly: the
    second may not be vouched only by the subject that already vouched for the first."""
    if not binding.readings:
        return None
    subjects = {
        r.subject
        for r in binding.readings
        if _any_fits(quantity, index.pair_readings(r.subject, r.attribute))
    }
    fitted[quantity.start] = subjects
    partner = binder.partners.get(quantity.start)
    if partner is None:
        return None
    first = fitted.get(partner, set())
    if len(first) == 1 and subjects == first:
        other = next((r for r in binding.readings if r.subject not in first), None)
        if other is not None:
            facts = index.pair_readings(other.subject, other.attribute)
            return Finding(
                _K.VALUE_MISMATCH,
                quantity.start,
                quantity.end,
                quantity.text,
                f"{quantity.text!r} is the second value of a pair whose first is already "
                f"{next(iter(first))}'s; it does not match "
                + "; ".join(describe(r) for r in facts[:1]),
                other.subject,
                other.attribute,
            )
    return None


def _restated(
    quantity: Quantity,
    binding: Binding,
    finding: Finding,
    firm: dict[tuple[str | None, str], Quantity],
) -> Finding:
    """An unvouched value that contradicts the first statement of its pair is an
    inconsistency (compared with the first only: linear however often it is restated)."""
    assert binding.attribute is not None  # noqa: S101 - the caller checked it
    key = (binding.readings[0].subject if binding.readings else None, binding.attribute)
    earlier = firm.setdefault(key, quantity)
    if earlier is quantity or _consistent(quantity, earlier):
        return finding
    return Finding(
        _K.INCONSISTENCY,
        quantity.start,
        quantity.end,
        quantity.text,
        f"{quantity.text!r} contradicts {earlier.text!r} stated earlier for "
        f"{binding.attribute}, and no fact vouches for either",
        finding.subject,
        binding.attribute,
    )


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


def _subject_mismatches(
    by_mention: dict[int, list[tuple[Quantity, Binding, Finding | None]]],
    index: FactIndex,
    text: str,
    binder: Binder,
) -> list[tuple[Finding, list[Finding]]]:
    """A clause whose every number fits another subject exactly: one finding on the
    subject mention ("the stats stated for Isaiah Thomas are Gerald Green's")."""
    swaps: list[tuple[Finding, list[Finding]]] = []
    for start, group in by_mention.items():
        if len([q for q, _, _ in group if not binder.in_pair(q)]) < 2 or any(
            f is None or f.kind is not _K.VALUE_MISMATCH for _, _, f in group
        ):
            continue  # one pair ("(21-25)") is one statement, not a line of stats
        named = group[0][1].readings[0].subject
        others: set[str] | None = None
        for quantity, binding, _ in group:
            attribute = binding.readings[0].attribute
            fits = {
                s
                for s in index.subjects_of(attribute)
                if s != named and _any_fits(quantity, index.pair_readings(s, attribute))
            }
            others = fits if others is None else others & fits
            if not others:
                break
        if not others:
            continue
        other = sorted(others)[0]
        mention = next((m for m in binder.mentions if m.start == start), None)
        if mention is None:
            continue
        swaps.append(
            (
                Finding(
                    _K.SUBJECT_MISMATCH,
                    mention.start,
                    mention.end,
                    text[mention.start : mention.end],
                    f"the values stated for {named} are {other}'s",
                    named,
                    None,
                ),
                [f for _, _, f in group if f is not None],
            )
        )
    return swaps


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


def _fits(quantity: Quantity, reading: Reading) -> bool:
    return quantity_matches(quantity, reading) and units_compatible(quantity.unit, reading.unit)


def _any_fits(quantity: Quantity, readings: list[Reading]) -> bool:
    unit = quantity.unit
    for reading in readings:
        if quantity_matches(quantity, reading) and units_compatible(unit, reading.unit):
            return True
    return False


def _check(quantity: Quantity, binding: Binding, index: FactIndex) -> Finding | None:
    """Compare one quantity with the facts of its plausible readings, or by membership."""
    said = quantity.text
    readings = binding.readings
    if readings:
        for reading in readings:
            if _any_fits(quantity, index.pair_readings(reading.subject, reading.attribute)):
                return None  # a plausible reading vouches for the value
        if not binding.clear:
            return _membership(quantity, index)
        best = readings[0]
        subject, attribute = best.subject, best.attribute

        def finding(kind: FindingKind, detail: str) -> Finding:
            return Finding(kind, quantity.start, quantity.end, said, detail, subject, attribute)

        kind = quantity.kind
        pair = [r for r in index.pair_readings(subject, attribute) if r.kind is kind]
        if pair:
            same_value = [r for r in pair if quantity_matches(quantity, r)]
            if same_value:
                return finding(
                    _K.UNIT_MISMATCH, f"{said!r} is in another unit than {describe(same_value[0])}"
                )
            if not any(units_compatible(quantity.unit, r.unit) for r in pair):
                return finding(
                    _K.UNGROUNDED_NUMBER,
                    f"{said!r} is in another unit than {describe(pair[0])}: "
                    "a conversion no fact states",
                )
            weighed = [
                f"{r.subject} {r.attribute}"
                for r in readings[1:4]
                if index.pair_readings(r.subject, r.attribute)
            ]
            return finding(
                _K.VALUE_MISMATCH,
                f"{said!r} read as {subject} {attribute} does not match "
                + "; ".join(describe(r) for r in pair[:3])
                + (f" (also weighed: {', '.join(weighed)})" if weighed else ""),
            )
        silence = index.silent_pairs.get((subject, attribute))
        if silence is not None:
            return finding(
                _K.SILENT_SPOKEN,
                f"{said!r} states {subject} {attribute}, which is silent "
                f"({silence.silent_reason or 'no value'})",
            )
        for reading in readings[1:]:
            pair = [
                r for r in index.pair_readings(reading.subject, reading.attribute) if r.kind is kind
            ]
            if pair:
                return Finding(
                    _K.VALUE_MISMATCH,
                    quantity.start,
                    quantity.end,
                    said,
                    f"{said!r} read as {reading.subject} {reading.attribute} does not match "
                    + "; ".join(describe(r) for r in pair[:3]),
                    reading.subject,
                    reading.attribute,
                )
        others = [r for r in index.attribute_readings(attribute) if r.kind is kind]
        hint = next((describe(r) for r in others if _fits(quantity, r)), None)
        return finding(
            _K.UNGROUNDED_NUMBER,
            f"no grounded fact for {subject} {attribute}"
            + (f"; {said!r} is {hint}" if hint else ""),
        )
    read = binding.attribute
    if read is not None and binding.clear:
        kind = quantity.kind
        readings_of = [r for r in index.attribute_readings(read) if r.kind is kind]
        if readings_of and _any_fits(quantity, readings_of):
            return None
        if (
            binding.subjectless
            and readings_of
            and any(units_compatible(quantity.unit, r.unit) for r in readings_of)
        ):
            # the attribute is clear and no subject's value fits: strict about the attribute
            return Finding(
                _K.VALUE_MISMATCH,
                quantity.start,
                quantity.end,
                said,
                f"{said!r} read as {read} matches no subject's "
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
                said,
                f"{said!r} states {read}, which is silent "
                f"({silences[0].silent_reason or 'no value'})",
                silences[0].subject if len(silences) == 1 else None,
                read,
            )
    return _membership(quantity, index)


def _compare_bound(
    quantity: Quantity, binding: Binding, op: str, index: FactIndex
) -> Finding | None:
    """A bound stated with a comparison ("over 50 percent") must hold for the facts."""
    checked: list[str] = []
    for reading in binding.readings:
        value = index.numeric_value(reading.subject, reading.attribute)
        if value is None:
            continue
        holds = any(
            (
                value > v
                if op == ">"
                else value < v
                if op == "<"
                else value <= v
                if op == "<="
                else value >= v
            )
            for v in quantity.values
        )
        if holds:
            return None
        checked.append(f"{reading.subject} {reading.attribute} = {value}")
    if not checked or not binding.clear:
        return None if checked else _check(quantity, binding, index)
    best = binding.readings[0]
    return Finding(
        _K.VALUE_MISMATCH,
        quantity.start,
        quantity.end,
        quantity.text,
        f"{quantity.text!r} is stated as a bound ({op}) that {checked[0]} does not meet",
        best.subject,
        best.attribute,
    )


def _membership(quantity: Quantity, index: FactIndex) -> Finding | None:
    """Unbound: some grounded fact of a fitting kind and unit must vouch for the value."""
    said = quantity.text
    matching: list[Reading] = []
    for reading in index.candidates(quantity):
        if quantity_matches(quantity, reading):
            if units_compatible(quantity.unit, reading.unit):
                return None
            if same_dimension(quantity.unit, reading.unit):
                matching.append(reading)
    if matching:
        return Finding(
            _K.UNIT_MISMATCH,
            quantity.start,
            quantity.end,
            said,
            f"{said!r} has the value of {describe(matching[0])} but another unit",
            matching[0].fact.subject,
            matching[0].fact.attribute,
        )
    return Finding(
        _K.UNGROUNDED_NUMBER,
        quantity.start,
        quantity.end,
        said,
        f"no grounded fact vouches for {said!r}",
    )
