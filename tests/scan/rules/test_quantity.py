"""The duration and quantity families, each rule driven alone on one stated quantity."""

from __future__ import annotations

from vouched import Finding, FindingKind
from vouched._scan._rules._quantity import (
    clear_reading,
    duration_in_another_unit,
    membership,
    plausible_reading,
)
from vouched._scan._rules._rule import PASSED

from ._build import build

_K = FindingKind


def test_a_value_a_plausible_reading_vouches_for_passes() -> None:
    built = build("weather", "Berlin has a humidity of 63% today.")
    (item,) = built.stated()
    assert plausible_reading(item.quantity, item.binding, built.context()) is PASSED


def test_no_plausible_reading_has_no_opinion_on_a_wrong_value() -> None:
    built = build("weather", "Berlin has a humidity of 70% today.")
    (item,) = built.stated()
    assert plausible_reading(item.quantity, item.binding, built.context()) is None


def test_a_clear_reading_that_contradicts_the_fact_is_a_value_mismatch() -> None:
    built = build("weather", "Berlin has a humidity of 70% today.")
    (item,) = built.stated()
    outcome = clear_reading(item.quantity, item.binding, built.context())
    assert isinstance(outcome, Finding)
    assert (outcome.kind, outcome.text, outcome.subject) == (_K.VALUE_MISMATCH, "70%", "Berlin")


def test_a_number_no_fact_of_its_kind_vouches_for_is_ungrounded() -> None:
    built = build("weather", "Somewhere it reached 999 km/h.")
    (item,) = built.stated()
    outcome = membership(item.quantity, item.binding, built.context())
    assert isinstance(outcome, Finding)
    assert outcome.kind is _K.UNGROUNDED_NUMBER


def test_a_duration_no_cue_binds_is_set_apart_and_no_claim() -> None:
    built = build("weather", "The update may be delayed by 15 minutes.")
    assert built.evidence.claims == ()
    ((quantity, binding),) = built.evidence.durations
    assert duration_in_another_unit(quantity, binding, built.context()) is None
