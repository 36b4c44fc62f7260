"""What a one-shot ``scan`` takes: ``now`` as ISO text, a lexicon as a mapping, and a
compiled scanner reused for equal inputs (keyed by value, bounded)."""

from __future__ import annotations

import gc
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from vouched import Fact, InputError, Lexicon, Policy, Scanner, partition, scan
from vouched._fact import fact_key
from vouched._scan._scanner import _FACT_KEYS, COMPILED_KEPT, _compiled, _key_of

NOW = datetime(2026, 11, 29, 12, 10, tzinfo=UTC)
LEXICON_JSON = {"attributes": {"humidity": ["humidity", "% humidity"]}}


def fact(value: object, unit: str | None = "%", subject: str = "Berlin") -> Fact:
    return Fact(
        subject=subject,
        attribute="humidity",
        value=value,  # type: ignore[arg-type]
        unit=unit,
        source="open-meteo",
        observed_at="2026-11-29T12:00:00Z",
        ttl=900,
    )


def compiled_for(facts: list[Fact]) -> object:
    return _compiled(partition(facts, Policy(), NOW), None, (), None, Policy(), None)


def test_now_as_iso_text_reads_as_the_instant() -> None:
    text = "Berlin's humidity is 63% today."
    facts = [fact(63)]
    assert scan(text, facts, now="2026-11-29T12:10:00Z") == scan(text, facts, now=NOW)


def test_now_without_an_offset_is_an_error_naming_now() -> None:
    with pytest.raises(InputError, match=r"^now: datetime has no timezone"):
        scan("Berlin is 63%.", [fact(63)], now="2026-11-29T12:10:00")


def test_now_of_another_type_is_an_error_naming_now() -> None:
    with pytest.raises(TypeError, match=r"^now: expected a datetime or ISO 8601 text, not int$"):
        scan("Berlin is 63%.", [fact(63)], now=5)  # type: ignore[arg-type]


def test_a_lexicon_mapping_reads_as_its_lexicon() -> None:
    text = "Berlin's humidity is 70%."
    facts = [fact(63)]
    by_mapping = scan(text, facts, LEXICON_JSON)
    assert by_mapping == scan(text, facts, Lexicon.from_json(LEXICON_JSON))
    assert Scanner(facts, LEXICON_JSON).scan(text) == by_mapping
    assert [str(f.kind) for f in by_mapping.findings] == ["value_mismatch"]


def test_a_bad_lexicon_mapping_names_the_field_under_lexicon() -> None:
    with pytest.raises(InputError, match=r"^lexicon\.attributes: "):
        scan("Berlin is 63%.", [fact(63)], {"attributes": []})


def test_a_lexicon_of_another_type_is_an_error_naming_lexicon() -> None:
    with pytest.raises(TypeError, match=r"^lexicon: expected a Lexicon or a mapping, not list$"):
        scan("Berlin is 63%.", [fact(63)], ["humidity"])  # type: ignore[arg-type]


def test_equal_inputs_reuse_one_compiled_scanner() -> None:
    assert compiled_for([fact(63), fact(7, subject="Munich")]) is compiled_for(
        [fact(63), fact(7, subject="Munich")]
    )


def test_facts_equal_as_values_but_written_apart_compile_apart() -> None:
    # 27.5 and 27.50 are equal facts, yet the precision shown differs; 1, 1.0 and True too
    assert fact(Decimal("27.5")) == fact(Decimal("27.50"))
    assert compiled_for([fact(Decimal("27.5"))]) is not compiled_for([fact(Decimal("27.50"))])
    assert compiled_for([fact(1, None)]) is not compiled_for([fact(True, None)])


def test_the_same_facts_judged_at_another_now_compile_apart() -> None:
    facts = [fact(63)]
    later = datetime(2026, 11, 29, 12, 11, tzinfo=UTC)
    first = _compiled(partition(facts, Policy(), NOW), None, (), None, Policy(), None)
    second = _compiled(partition(facts, Policy(), later), None, (), None, Policy(), None)
    assert first is not second


def test_the_cache_keeps_a_bounded_number_of_scanners() -> None:
    first = compiled_for([fact(50)])
    for value in range(51, 51 + COMPILED_KEPT):
        compiled_for([fact(value)])
    assert compiled_for([fact(50)]) is not first


def test_a_cached_scanner_reports_what_a_fresh_one_does() -> None:
    facts = partition([fact(63), fact(Decimal("21.40"), "degC")], Policy(), NOW)
    text = "Berlin's humidity is 63% and it is 21.4 °C, later 22 °C."
    scan(text, facts)  # fills the cache
    assert scan(text, facts) == Scanner(facts).scan(text)


def test_a_list_of_facts_passed_again_reuses_one_compiled_scanner() -> None:
    facts = [fact(63), fact(70, subject="Munich")]
    first = _compiled(facts, None, (), None, Policy(), NOW)
    assert _compiled(facts, None, (), None, Policy(), NOW) is first
    assert _compiled(list(facts), None, (), None, Policy(), NOW) is first


def test_a_facts_key_is_kept_while_it_lives_and_dropped_with_it() -> None:
    one = fact(63)
    assert _key_of(one).parts == fact_key(one)  # hashed once, with the fact
    ident = id(one)
    assert _FACT_KEYS[ident][1].parts == fact_key(one)
    del one
    gc.collect()
    assert ident not in _FACT_KEYS
