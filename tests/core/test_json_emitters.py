"""The canonical JSON written by orjson (the ``fastjson`` extra) is the pure emitter's,
byte for byte, or it is not used: snapshot ids are hashes of these bytes."""

from __future__ import annotations

import enum
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from types import MappingProxyType
from typing import Any

import orjson  # in the test extras: these tests must run, never skip
from hypothesis import given, settings
from hypothesis import strategies as st

from vouched._jsonio import canonical_by_orjson, dumps, dumps_pure


class Kind(enum.StrEnum):
    GROUNDED = "grounded"


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),  # past 64 bits orjson refuses: the pure emitter writes it
    st.floats(allow_nan=False, allow_infinity=False),
    st.decimals(allow_nan=False, allow_infinity=False),
    st.text(),  # non-ASCII, control characters, quotes, backslashes
    st.datetimes(timezones=st.just(UTC)),
    st.timedeltas(min_value=timedelta(0)),
    st.just(Kind.GROUNDED),
)
trees = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=6), inner, max_size=4),
        st.dictionaries(st.text(max_size=6), inner, max_size=4).map(MappingProxyType),
    ),
    max_leaves=20,
)


@settings(max_examples=600, deadline=None)
@given(tree=trees)
def test_canonical_json_is_the_pure_emitters_byte_for_byte(tree: Any) -> None:
    fast = canonical_by_orjson(tree)
    pure = dumps_pure(tree, canonical=True)
    assert fast is None or fast == pure
    assert dumps(tree, canonical=True) == pure


def test_orjson_writes_non_ascii_decimals_and_floats_as_the_pure_emitter() -> None:
    document = {
        "text": 'Zürich, 東京 "quoted" \\ \n\t\x00\x1f\u2028 \U0001f321',
        "values": [Decimal("27.50"), Decimal("-0.001"), Decimal("1E+3"), Decimal("12345678.9")],
        "floats": [0.1, 21.4, -3.0, 1e-4, 123456.789, 9999999999999998.0],
        "at": datetime(2026, 11, 29, 12, 0, 0, 5, tzinfo=UTC),
        "ttl": timedelta(seconds=900.5),
        "kind": Kind.GROUNDED,
        "nested": MappingProxyType({"b": 1, "a": (True, None)}),
    }
    fast = canonical_by_orjson(document)
    assert fast is not None  # used here: every value is one orjson writes alike
    assert fast == dumps_pure(document, canonical=True)


def test_floats_python_writes_with_an_exponent_go_to_the_pure_emitter() -> None:
    assert orjson.dumps(1e-05).decode() != repr(1e-05)  # "0.00001" against "1e-05"
    for value in (1e-05, 9.9e-05, 2.5e-08, -1.5e-300, 1e16, 2.5e300):
        assert canonical_by_orjson({"a": [value]}) is None
        assert dumps({"a": [value]}, canonical=True) == '{"a":[' + repr(value) + "]}"


def test_what_orjson_refuses_is_written_by_the_pure_emitter() -> None:
    for tree in ({"big": 10**30}, {"lone": "\ud800"}, {1: "an int key"}):
        assert canonical_by_orjson(tree) is None
        assert dumps(tree, canonical=True) == dumps_pure(tree, canonical=True)
