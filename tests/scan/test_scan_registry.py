"""The rule registry: every decision that makes a finding is a rule that declares its
kinds, in one ordered registry; one overlap policy says which finding wins a span."""

from __future__ import annotations

import itertools

from vouched import Finding, FindingKind, Scanner, StreamScanner, scan
from vouched._replay import _attempts
from vouched._scan import _findings
from vouched._scan._findings import finding_key, once_per_span
from vouched._scan._lex._splitter import sentence_spans
from vouched._scan._rules import REGISTRY
from vouched._scan._rules._rule import Family, Rule, audited, decided, decisions, traced

from ._cases import load_cases, world

_K = FindingKind


def test_the_registry_lists_each_family_once_in_the_order_of_the_family_codes() -> None:
    assert [entry.family for entry in REGISTRY] == list(Family)


def test_rule_names_are_unique_and_kinds_are_finding_kinds() -> None:
    rules = [rule for entry in REGISTRY for rule in entry.rules]
    assert len({rule.name for rule in rules}) == len(rules)
    assert all(set(rule.kinds) <= set(FindingKind) for rule in rules)


def test_every_finding_kind_is_declared_by_some_rule() -> None:
    declared = {kind for entry in REGISTRY for rule in entry.rules for kind in rule.kinds}
    assert declared == set(FindingKind)


def test_a_finding_of_an_undeclared_kind_is_reported_to_the_audit() -> None:
    rule = Rule("only_values", lambda: None, (_K.VALUE_MISMATCH,))
    wrong = Finding(_K.UNIT_MISMATCH, 0, 2, "21", "another unit")
    with audited() as undeclared:
        decided(rule, Finding(_K.VALUE_MISMATCH, 0, 2, "21", "another value"))
        decided(rule, wrong)
    assert [(u.rule, u.kind) for u in undeclared] == [("only_values", _K.UNIT_MISMATCH)]


def test_no_rule_returns_a_kind_it_did_not_declare_on_the_case_suite() -> None:
    with audited() as undeclared:
        for case in load_cases():
            w = world(case.world)
            args = (w.gated, w.lexicon if case.lexicon else None, w.sources, case.question)
            scan(case.text, *args, policy=w.policy)
            stream = StreamScanner(*args, policy=w.policy)
            stream.feed(case.text)
            stream.close()
    assert undeclared == []


def test_the_first_finding_of_a_kind_and_span_wins_it() -> None:
    first = Finding(_K.VALUE_MISMATCH, 3, 5, "21", "first")
    again = Finding(_K.VALUE_MISMATCH, 3, 5, "21", "again")
    other = Finding(_K.UNIT_MISMATCH, 3, 5, "21", "another kind")
    assert once_per_span([first, again, other], finding_key) == [first, other]


def test_a_yielding_finding_is_dropped_where_it_overlaps_a_winner() -> None:
    number = Finding(_K.VALUE_MISMATCH, 10, 14, "21.4", "number")
    word = Finding(_K.RELATION_MISMATCH, 0, 12, "colder than 21", "word")
    apart = Finding(_K.RELATION_MISMATCH, 20, 26, "hotter", "word")
    assert once_per_span([number], finding_key, yielding=[word, apart]) == [number, apart]


def test_replay_and_answers_use_the_scanners_overlap_policy() -> None:
    assert _attempts.once_per_span is _findings.once_per_span


_ORDER = {entry.family: i for i, entry in enumerate(REGISTRY)}
# quantity and revision are the two families of one stated item, run item by item
_STAGE = {**_ORDER, Family.REVISION: _ORDER[Family.QUANTITY]}
_VIEW_BLOCK = (_ORDER[Family.DURATION], _ORDER[Family.OCCASION])  # read once per period view


def _out_of_order(trace: list[Family]) -> list[tuple[Family, Family]]:
    """Each step of ``trace`` that goes back in the registry's order; a step back into
    the block of families run per period view (duration .. occasion) is the start of the
    next view's reading, allowed while no time rule has run."""
    wrong = []
    for before, after in itertools.pairwise(trace):
        if _STAGE[after] >= _STAGE[before]:
            continue
        low, high = _VIEW_BLOCK
        if low <= _STAGE[after] and _STAGE[before] <= high:
            continue
        wrong.append((before, after))
    return wrong


def test_the_runners_run_the_families_in_the_registrys_order() -> None:
    traces = {}
    for case in load_cases():
        w = world(case.world)
        lexicon = w.lexicon if case.lexicon else None
        scanner = Scanner(w.gated, lexicon, w.sources, case.question, w.policy)
        for start, end in sentence_spans(case.text):
            with traced() as trace:
                scanner.scan(case.text[start:end])
            traces[case.name, start] = trace
    assert sum(len(t) for t in traces.values()) > 0, "the trace must record the runners"
    assert {Family.TIME, Family.WORDS, Family.QUOTE} <= {f for t in traces.values() for f in t}
    assert {key: _out_of_order(t) for key, t in traces.items() if _out_of_order(t)} == {}


_FAMILY_OF = {rule.name: entry.family for entry in REGISTRY for rule in entry.rules}


def test_every_decision_is_made_in_the_registrys_order() -> None:
    """The rule behind each finding, in the order the findings were made, belongs to
    the families in the registry's order (a family's decisions never come after a later
    family's, but for the next period view's reading)."""
    made = {}
    for case in load_cases():
        w = world(case.world)
        lexicon = w.lexicon if case.lexicon else None
        scanner = Scanner(w.gated, lexicon, w.sources, case.question, w.policy)
        for start, end in sentence_spans(case.text):
            with decisions() as names:
                scanner.scan(case.text[start:end])
            made[case.name, start] = [_FAMILY_OF[name] for name in names]
    families = {f for found in made.values() for f in found}
    assert {Family.QUANTITY, Family.WORDS, Family.TIME, Family.EXPLANATION} <= families
    assert {key: _out_of_order(f) for key, f in made.items() if _out_of_order(f)} == {}


def test_the_trace_reports_a_family_run_out_of_the_registrys_order() -> None:
    assert _out_of_order([Family.TEXT, Family.WORDS, Family.QUANTITY, Family.TIME]) == []
    assert _out_of_order([Family.TEXT, Family.TIME, Family.QUANTITY]) == [
        (Family.TIME, Family.QUANTITY)
    ]
    assert _out_of_order([Family.EXPLANATION, Family.CLAUSE]) == []  # the next view
    assert _out_of_order([Family.QUOTE, Family.TEXT]) == [(Family.QUOTE, Family.TEXT)]
