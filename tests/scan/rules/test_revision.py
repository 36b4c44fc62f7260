"""The revision family driven alone: one quantity's outcome made sharper."""

from __future__ import annotations

from vouched import Finding, FindingKind
from vouched._scan._rules import SentenceContext, Stated
from vouched._scan._rules._quantity import QUANTITY_RULES
from vouched._scan._rules._revision import restated
from vouched._scan._rules._rule import PASSED, Outcome

from ._build import build

_K = FindingKind


def _first_opinion(item: Stated, ctx: SentenceContext) -> Outcome:
    """The quantity family's decision, as the runner takes it (no revision)."""
    for rule in QUANTITY_RULES:
        outcome = rule.check(item.quantity, item.binding, ctx)
        if outcome is not None:
            return outcome
    return PASSED


def test_an_unvouched_value_that_contradicts_the_first_statement_is_an_inconsistency() -> None:
    built = build("weather", "Hamburg's humidity is 50%, and Hamburg's humidity is 80%.")
    ctx = built.context()
    first, second = (s._replace(outcome=_first_opinion(s, ctx)) for s in built.stated(ctx))
    assert restated(first, ctx) is first.outcome  # the first statement stands as it was
    revised = restated(second, ctx)
    assert isinstance(revised, Finding)
    assert (revised.kind, revised.text) == (_K.INCONSISTENCY, "80%")


def test_the_same_unvouched_value_stated_again_is_no_inconsistency() -> None:
    built = build("weather", "Hamburg's humidity is 50%, and Hamburg's humidity is 50%.")
    ctx = built.context()
    first, second = (s._replace(outcome=_first_opinion(s, ctx)) for s in built.stated(ctx))
    restated(first, ctx)
    assert restated(second, ctx) is second.outcome
    assert isinstance(second.outcome, Finding)
    assert second.outcome.kind is _K.UNGROUNDED_NUMBER
